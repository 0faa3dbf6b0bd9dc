package e2e

import (
	"fmt"
	"testing"
)

// Keys typed on while an acknowledgement is sent are not lost: two acks
// typed in one go, with no pause, land on two alerts, each with its own
// comment, in two PATCHes. Before, the keys after the first enter were
// dropped while the form was sent, and the last enter opened a detail.
func TestTwoAcksTypedInOneGoBothLand(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 40}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			s := StartDemo(t, size[0], size[1], nil)
			s.WaitFor(" open (", wait)
			first, second := fmt.Sprintf("typeon-1-%d", size[0]), fmt.Sprintf("typeon-2-%d", size[0])
			// forever (left of 1h) never shortens an acknowledgement, so no
			// question comes between.
			s.SendFast("a", first, "BTab", "BTab", "Left", "Enter",
				"j", "a", second, "BTab", "BTab", "Left", "Enter")
			one, two := awaitComment(t, s, first, 1), awaitComment(t, s, second, 1)
			if len(one) != 1 || len(two) != 1 || one[0].ID == two[0].ID {
				t.Fatalf("want %s and %s on two alerts, got %+v and %+v\n%s", first, second, one, two, s.Capture())
			}
			if n := alertPatches(s); n != 2 {
				t.Fatalf("%d PATCHes reached the server, want 2", n)
			}
			s.WaitGone("Acknowledge until", wait)
			s.SendKeys("q")
			s.WaitExit(wait)
		})
	}
}

// The restore wizard typed in one go, step 1 to the target: the keys typed
// while step 1 is sent (the target project's clusters are read) go to step
// 2, not lost, so the confirmation names the cluster they chose.
func TestRestoreWizardTypedInOneGo(t *testing.T) {
	s := StartDemo(t, 80, 24, nil, "--project", "payments", "--pane", "backups", "--cluster", "payments-rs")
	s.WaitFor("Backups · payments-rs", wait)
	s.WaitFor("completed", wait)
	// The oldest snapshot (the last row) is completed; automated, project
	// analytics; then down past the greyed rows and back up: analytics-main.
	s.SendFast("G", "R", "Tab", "Right", "Enter", "Down", "Down", "Down", "Down", "Down", "Up", "Enter")
	s.WaitFor("ALL DATA on analytics-main is REPLACED", wait)
	s.SendFast("Escape")
	s.WaitGone("ALL DATA on", wait)
	if n := simCount(s, "POST", "/restoreJobs"); n != 0 {
		t.Fatalf("%d restore POSTs, want none: the confirmation was cancelled", n)
	}
	s.SendKeys("q")
	s.WaitExit(wait)
}
