package e2e

import (
	"strings"
	"testing"
)

// TestClustersPaneJumpsToBackups: the Clusters pane (its number key, as
// users type, at 80x24) lists the project's clusters with their versions'
// end of life; B on one opens the Backups pane narrowed to that cluster,
// which reads that cluster's snapshots from the server; esc comes back to
// the list. Nothing is written.
func TestClustersPaneJumpsToBackups(t *testing.T) {
	s := StartDemo(t, 80, 24, nil)
	s.WaitFor("CPS_SNAPSHOT_FAILED", wait)
	s.SendFast("8")
	s.WaitFor("EOL        PAUSED", wait)
	s.WaitFor("payments-legacy", wait)
	s.SendFast("/", "payments-rs", "Enter", "B")
	screen := s.WaitFor("Backups · payments-rs", wait)
	if header := strings.SplitN(screen, "\n", 2)[0]; !strings.Contains(header, "payments › payments-rs") {
		t.Fatalf("the header does not name the cluster jumped to:\n%s", screen)
	}
	read := false
	for _, r := range s.SimRequests() {
		if r.Method == "GET" && strings.Contains(r.Path, "/clusters/payments-rs/backup/snapshots") {
			read = true
		}
	}
	if !read {
		t.Fatalf("the jump did not read payments-rs's snapshots from the server")
	}
	s.SendFast("Escape")
	s.WaitFor("EOL        PAUSED", wait)
	if w := s.SimWrites(""); len(w) != 0 {
		t.Fatalf("the Clusters pane wrote: %v", w)
	}
	s.SendFast("q")
	s.WaitExit(wait)
}
