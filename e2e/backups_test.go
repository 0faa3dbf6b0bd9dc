package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// TestBackupsSnapshotThenRestore drives the backups pane on the demo (its
// clock 30 times faster): an on-demand snapshot taken through the form and
// watched to completion, then restored (automated) onto staging-rs through
// the wizard and its typed confirmation, watched until it finishes on
// screen; the demo's own server then confirms the job and its target.
func TestBackupsSnapshotThenRestore(t *testing.T) {
	RequireTmux(t)
	s := StartDemo(t, 140, 40, nil, "--demo-speed", "30", "--project", "payments", "--pane", "backups")
	s.pickPaymentsRSBackups()

	s.SendKeys("n")
	s.WaitFor("On-demand snapshot of payments-rs", wait)
	s.SendKeys("e2e-before-restore", "Tab", "BSpace", "3", "Enter") // the compliance minimum: 3 days
	s.WaitGone("On-demand snapshot of payments-rs", wait)
	// Watched until it completes: the row turns completed and the watch ends.
	s.waitUntil(func(screen string) bool {
		return rowWith(screen, "onDemand", "e2e-before-restore", "completed") && !strings.Contains(screen, "watching")
	}, wait, "the on-demand snapshot completed")

	// The new snapshot is the newest: the top row.
	s.SendKeys("g", "R")
	s.WaitFor("(1/3)", wait)
	s.SendKeys("Tab", "Right", "Right", "Enter") // automated, project staging
	s.WaitFor("Target cluster in staging", wait)
	s.SendKeys("Down", "Enter") // nothing is preselected: down picks staging-rs
	s.WaitFor("REPLACED", wait)
	s.SendKeys("staging-rs")
	s.SendKeys("Enter")
	s.WaitFor("[Restores]", wait)
	s.WaitFor("running ★", wait)
	s.waitUntil(func(screen string) bool {
		return !strings.Contains(screen, "running ★") && strings.Contains(screen, "finished")
	}, wait, "the restore finished on screen")

	c := s.DemoAPI()
	ctx := context.Background()
	snaps, err := c.Backups().AllSnapshots(ctx, apisim.DemoPaymentsID, "payments-rs")
	if err != nil {
		t.Fatal(err)
	}
	var snap apiclient.Snapshot
	for _, sn := range snaps {
		if sn.Description == "e2e-before-restore" {
			snap = sn
		}
	}
	if snap.ID == "" || snap.Status != apiclient.SnapshotCompleted || snap.SnapshotType != apiclient.SnapshotOnDemand {
		t.Fatalf("apisim has no completed on-demand snapshot from the pane: %+v", snap)
	}
	jobs, err := c.Backups().AllRestoreJobs(ctx, apisim.DemoPaymentsID, "payments-rs")
	if err != nil {
		t.Fatal(err)
	}
	var job *apiclient.RestoreJob
	for i := range jobs {
		if jobs[i].SnapshotID == snap.ID {
			job = &jobs[i]
		}
	}
	if job == nil {
		t.Fatalf("apisim has no restore of snapshot %s", snap.ID)
	}
	if job.DeliveryType != apiclient.DeliveryAutomated || job.TargetClusterName != "staging-rs" ||
		job.TargetGroupID != apisim.DemoStagingID || job.State() != apiclient.RestoreFinished {
		t.Errorf("restore in apisim = %+v (state %s)", *job, job.State())
	}
	if n := simCount(s, "POST", "/backup/snapshots"); n != 1 {
		t.Errorf("%d POSTs of a snapshot reached the server, want 1: %v", n, s.SimWrites("/backup/"))
	}
	if n := simCount(s, "POST", "/restoreJobs"); n != 1 {
		t.Errorf("%d POSTs of a restore reached the server, want 1: %v", n, s.SimWrites("/backup/"))
	}

	s.SendKeys("q")
	s.WaitExit(wait)
}

// pickPaymentsRSBackups picks payments-rs from the backups pane's own list
// of clusters (its 4th row) and waits for its completed snapshots.
func (s *Session) pickPaymentsRSBackups() {
	s.t.Helper()
	s.WaitFor("pick a cluster", wait)
	s.WaitFor("payments-rs", wait)
	s.SendKeys("j", "j", "j", "Enter")
	s.WaitFor("Backups · payments-rs", wait)
	s.WaitFor("completed", wait)
}

// rowWith reports whether one screen line holds all the parts.
func rowWith(screen string, parts ...string) bool {
	for _, line := range strings.Split(screen, "\n") {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(line, p)
		}
		if ok {
			return true
		}
	}
	return false
}

// Issue 14 case 4: the restore wizard offers only compatible targets. In
// project analytics, analytics-main can receive a payments-rs snapshot;
// analytics-old (older MongoDB) and the shared tiers are greyed with the
// reason and the keys skip them. Keys go with no pauses; one POST reaches
// the server, with the target typed at the confirmation.
func TestRestoreOnlyOntoAnEligibleTarget(t *testing.T) {
	RequireTmux(t)
	for _, size := range [][2]int{{80, 24}, {160, 45}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			s := StartDemo(t, size[0], size[1], nil, "--project", "payments", "--pane", "backups", "--cluster", "payments-rs")
			s.WaitFor("Backups · payments-rs", wait)
			s.WaitFor("completed", wait)
			before := s.SimWrites("/restoreJobs")
			// The oldest snapshot (the last row) is completed.
			s.SendFast("G", "R")
			s.WaitFor("(1/3)", wait)
			s.SendFast("Tab", "Right", "Enter") // automated, project analytics
			s.WaitFor("Target cluster in analytics", wait)
			screen := s.WaitFor("tier M0 cannot receive a restore", wait)
			if !strings.Contains(screen, "older than the snapshot") {
				t.Fatalf("the older cluster is not greyed with its reason:\n%s", screen)
			}
			// Enter with nothing chosen is refused in place; the keys skip
			// every greyed row, so down many times stays on analytics-main.
			s.SendFast("Enter")
			s.WaitFor("choose one", wait)
			s.SendFast("Down", "Down", "Down", "Down", "Down", "Up", "Enter")
			s.WaitFor("ALL DATA on analytics-main is REPLACED", wait)
			s.SendFast("analytics-main", "Enter")
			s.WaitFor("[Restores]", wait)
			var posts []string
			for k, n := range s.SimWrites("/restoreJobs") {
				for i := 0; i < n-before[k]; i++ {
					posts = append(posts, k)
				}
			}
			if len(posts) != 1 || !strings.HasPrefix(posts[0], "POST ") {
				t.Fatalf("restore writes = %v, want exactly one POST", posts)
			}
			jobs, err := s.DemoAPI().Backups().AllRestoreJobs(context.Background(), apisim.DemoPaymentsID, "payments-rs")
			if err != nil {
				t.Fatal(err)
			}
			onto := map[string]int{}
			for _, j := range jobs {
				if j.TargetGroupID == apisim.DemoAnalyticsID {
					onto[j.TargetClusterName]++
				}
			}
			if onto["analytics-main"] != 1 || len(onto) != 1 {
				t.Fatalf("restores into analytics = %v, want one onto analytics-main", onto)
			}
			s.SendKeys("q") // the restore is running: q asks first
			s.WaitFor("running", wait)
			s.SendKeys("y")
			s.WaitExit(wait)
		})
	}
}
