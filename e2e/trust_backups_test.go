package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// The Backups cases of issue 24, each at 80x24 and wide, keys sent with no
// pauses, checked on the demo server's request log and state.

var trustSizes = [][2]int{{80, 24}, {160, 45}}

func eachSize(t *testing.T, run func(t *testing.T, w, h int)) {
	for _, size := range trustSizes {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) { run(t, size[0], size[1]) })
	}
}

// restorePosts is how many restore POSTs reached the server.
func restorePosts(s *Session) int { return simCount(s, "POST", "/restoreJobs") }

// waitWords waits for text among the screen's words, one space apart (a
// line may wrap at a narrow width); what names it if it never comes.
func (s *Session) waitWords(text string, timeout time.Duration, what string) string {
	return s.waitUntil(func(screen string) bool {
		return strings.Contains(strings.Join(strings.Fields(screen), " "), text)
	}, timeout, what)
}

// wantOneRestorePost fails t unless exactly one restore POST reached the
// server.
func wantOneRestorePost(t *testing.T, s *Session) {
	t.Helper()
	if n := restorePosts(s); n != 1 {
		t.Fatalf("restore POSTs = %d, want 1: %v", n, s.SimWrites("/restoreJobs"))
	}
}

// startPaymentsBackups starts the demo on the Backups of payments-rs (args
// come first) and waits for its snapshots.
func startPaymentsBackups(t *testing.T, w, h int, args ...string) *Session {
	t.Helper()
	s := StartDemo(t, w, h, nil, append(args, "--project", "payments", "--pane", "backups", "--cluster", "payments-rs")...)
	waitPaymentsBackups(s)
	return s
}

// waitPaymentsBackups waits for the Backups of payments-rs and a completed
// snapshot on it.
func waitPaymentsBackups(s *Session) {
	s.WaitFor("Backups · payments-rs", wait)
	s.WaitFor("completed", wait)
}

// openRestoreWizard opens the restore wizard on the oldest snapshot (the
// last row, completed).
func openRestoreWizard(s *Session) {
	s.SendFast("G", "R")
	s.WaitFor("(1/3)", wait)
}

// paymentsRestoreJobs is every restore job of payments-rs the demo server
// holds.
func paymentsRestoreJobs(t *testing.T, s *Session) []apiclient.RestoreJob {
	t.Helper()
	jobs, err := s.DemoAPI().Backups().AllRestoreJobs(context.Background(), apisim.DemoPaymentsID, "payments-rs")
	if err != nil {
		t.Fatal(err)
	}
	return jobs
}

// quitPastRunningRestore quits, saying yes to the question about a restore
// still running, and waits for the dashboard to exit.
func quitPastRunningRestore(s *Session) {
	s.SendKeys("q")
	s.WaitFor("running", wait)
	s.SendKeys("y")
	s.WaitExit(wait)
}

// Case 3: the snapshot's own cluster is offered first in the wizard, marked
// "this cluster (roll back in place)"; choosing it asks for its name typed,
// and one POST reaches the server, naming payments-rs in payments.
func TestTrustBackupsRestoreInPlace(t *testing.T) {
	RequireTmux(t)
	eachSize(t, func(t *testing.T, w, h int) {
		s := startPaymentsBackups(t, w, h)
		openRestoreWizard(s)
		s.SendFast("Enter") // automated, this project
		s.WaitFor("Target cluster in payments", wait)
		screen := s.WaitFor("this cluster (roll back in place)", wait)
		if !rowWith(screen, "payments-rs", "this cluster (roll back in place)") {
			t.Fatalf("the source is not offered in place:\n%s", screen)
		}
		s.SendFast("Down", "Enter")
		s.WaitFor("Roll payments-rs back in place? (3/3)", wait)
		// A wrong name confirms nothing.
		s.SendFast("payments-r", "Enter")
		time.Sleep(300 * time.Millisecond)
		if n := restorePosts(s); n != 0 {
			t.Fatalf("%d restore POSTs before the name was typed whole", n)
		}
		s.SendFast("s", "Enter")
		s.WaitFor("[Restores]", wait)
		s.WaitFor("to payments-rs started", wait)
		wantOneRestorePost(t, s)
		jobs := paymentsRestoreJobs(t, s)
		inPlace := 0
		for _, j := range jobs {
			if j.TargetClusterName == "payments-rs" && j.TargetGroupID == apisim.DemoPaymentsID && j.DeliveryType == apiclient.DeliveryAutomated {
				inPlace++
			}
		}
		if inPlace != 1 {
			t.Fatalf("in-place restores in apisim = %d, want 1", inPlace)
		}
		quitPastRunningRestore(s)
	})
}

// Case 4: enter on a download restore shows every field and its whole URL
// (wrapped, the same URL the server holds); y copies the URL, not the id,
// and says so; the detail scrolls and esc goes back. Nothing is written.
func TestTrustBackupsRestoreDetailAndCopy(t *testing.T) {
	RequireTmux(t)
	eachSize(t, func(t *testing.T, w, h int) {
		s := startPaymentsBackups(t, w, h)
		if _, err := s.tmux("set-option", "-g", "set-clipboard", "on"); err != nil {
			t.Fatal(err)
		}
		jobs := paymentsRestoreJobs(t, s)
		var dl apiclient.RestoreJob
		for _, j := range jobs {
			if len(j.DeliveryURL) > 0 {
				dl = j
			}
		}
		if dl.ID == "" {
			t.Fatal("the demo has no finished download restore")
		}
		url := dl.DeliveryURL[0]
		s.SendFast("J", "/", "download", "Enter")
		s.WaitFor("[Restores]", wait)
		s.waitUntil(func(screen string) bool { return rowWith(screen, "download", "finished") }, wait, "the download row")
		s.SendFast("y")
		s.WaitFor("copied the download URL of restore …"+dl.ID[len(dl.ID)-8:], wait)
		if buf, err := s.tmux("show-buffer"); err != nil || strings.TrimSpace(buf) != url {
			t.Fatalf("the clipboard holds %q (%v), want the URL %q", buf, err, url)
		}
		s.SendFast("Enter")
		screen := s.WaitFor("Restore job of payments-rs", wait)
		flat := strings.ReplaceAll(screen, "\n", "")
		if !strings.Contains(flat, url) {
			t.Fatalf("the detail does not show the whole URL %s:\n%s", url, screen)
		}
		for _, want := range []string{"Id               " + dl.ID, "Delivery         download", "Snapshot         " + dl.SnapshotID, "Link expires"} {
			if !strings.Contains(screen, want) {
				t.Fatalf("the detail lacks %q:\n%s", want, screen)
			}
		}
		s.SendFast("Escape")
		s.WaitGone("Restore job of payments-rs", wait)
		if wr := s.SimWrites("/"); len(wr) != 0 {
			t.Fatalf("a write reached the server: %v", wr)
		}
		s.SendKeys("q")
		s.WaitExit(wait)
	})
}

// Case 5: with the read-only role the Restores view says in place that the
// role may not see restore jobs; the pane and the header never say stale,
// and the dashboard never asks for what the role may not read.
func TestTrustBackupsReadOnlyRoleInPlace(t *testing.T) {
	RequireTmux(t)
	eachSize(t, func(t *testing.T, w, h int) {
		s := startPaymentsBackups(t, w, h, "--demo-role", "read-only")
		s.SendFast("J")
		s.waitWords("Restore jobs: not visible with your role (needs Project Backup Manager", wait, "the Restores view saying the role may not see them")
		// Through a few polls (10 s each): never stale.
		deadline := time.Now().Add(25 * time.Second)
		for time.Now().Before(deadline) {
			if c := s.Capture(); strings.Contains(c, "stale") || strings.Contains(c, "retrying") {
				t.Fatalf("the pane reads as an outage:\n%s", c)
			}
			time.Sleep(time.Second)
		}
		for _, r := range s.SimRequests() {
			if strings.Contains(r.Path, "/restoreJobs") {
				t.Fatalf("the dashboard asked for restore jobs the role may not read: %s %s %d", r.Method, r.Path, r.Status)
			}
		}
		if n := len(s.SimWrites("/")); n != 0 {
			t.Fatalf("%d writes reached the server", n)
		}
		s.SendKeys("q")
		s.WaitExit(wait)
	})
}

// Case 6: a restore this session watches survives an outage of the server
// (66 s): "watching 1" stays on the title, marked as waiting while the
// server is away; the restore ends after the server is back and the
// "finished" notice comes, read from the server.
func TestTrustBackupsWatchSurvivesAnOutage(t *testing.T) {
	RequireTmux(t)
	for _, size := range trustSizes {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			t.Parallel()
			// At the server's own pace a restore runs 2 minutes: it ends
			// about a minute after the server is back.
			h := StartSimHost(t, apisim.Options{})
			s := StartAgainst(t, h, size[0], size[1], "--project", apisim.DemoPaymentsID, "--pane", "backups", "--cluster", "payments-rs")
			waitPaymentsBackups(s)
			openRestoreWizard(s)
			s.SendFast("Tab", "Right", "Right", "Enter") // automated, project staging
			s.WaitFor("Target cluster in staging", wait)
			s.SendFast("Down", "Enter")
			s.WaitFor("ALL DATA on staging-rs is REPLACED", wait)
			s.SendFast("staging-rs", "Enter")
			s.WaitFor("watching 1", wait)
			posts := h.Hits("POST", "/clusters/payments-rs/backup/restoreJobs")
			if len(posts) != 1 {
				t.Fatalf("restore POSTs = %d, want 1", len(posts))
			}
			id := jobID(t, h)

			h.Stop()
			down := time.Now()
			s.WaitFor("watching 1 (server away)", 40*time.Second)
			for time.Since(down) < 66*time.Second {
				if c := s.Capture(); !strings.Contains(c, "watching 1") {
					t.Fatalf("the watch was dropped %v into the outage:\n%s", time.Since(down).Round(time.Second), c)
				}
				time.Sleep(time.Second)
			}
			before := len(h.Log())
			h.Restart()
			// The notice may wrap at a narrow width: read it as words.
			s.waitWords("to staging-rs finished", 2*time.Minute, `the "finished" notice`)
			s.WaitGone("watching", wait)
			read := false
			for _, hit := range h.Log()[before:] {
				read = read || (hit.Method == "GET" && strings.Contains(hit.Path, "/backup/restoreJobs") && hit.Status == 200)
			}
			if !read {
				t.Fatal("the end was not read from the server after the restart")
			}
			j, err := ownerClient(t, h.URL(), 0).Backups().RestoreJob(context.Background(), apisim.DemoPaymentsID, "payments-rs", id)
			if err != nil || j.State() != apiclient.RestoreFinished {
				t.Fatalf("apisim holds the job as %v (%v)", j, err)
			}
			s.SendKeys("q")
			s.WaitExit(wait)
		})
	}
}

// jobID is the restore job the one POST made, as the server lists it.
func jobID(t *testing.T, h *SimHost) string {
	t.Helper()
	jobs, err := ownerClient(t, h.URL(), 0).Backups().AllRestoreJobs(context.Background(), apisim.DemoPaymentsID, "payments-rs")
	if err != nil || len(jobs) == 0 {
		t.Fatalf("restore jobs: %v %v", jobs, err)
	}
	return jobs[0].ID
}

// Case 9: the wizard goes back a step (shift+tab on step 2, and on step 3)
// with what was chosen kept, and a point-in-time restore's cancel names what it
// restores, never a blank snapshot id; the cancel reaches the server.
func TestTrustBackupsWizardBackAndPointInTimeCancel(t *testing.T) {
	RequireTmux(t)
	eachSize(t, func(t *testing.T, w, h int) {
		s := startPaymentsBackups(t, w, h)
		openRestoreWizard(s)
		s.SendFast("Tab", "Right", "Right", "Enter") // automated, staging
		s.WaitFor("Target cluster in staging", wait)
		s.SendFast("BTab")
		s.WaitFor("(1/3)", wait)
		s.WaitGone("(2/3)", wait)
		// Back on step 1, staging still chosen: point in time, same project.
		s.SendFast("Right", "Right", "Enter")
		s.WaitFor("Target cluster in staging", wait)
		when := time.Now().UTC().Add(-10 * time.Minute).Format("2006-01-02 15:04:05")
		s.SendFast("Down", "Tab", "Tab")
		s.SendFast(when, "Enter")
		s.WaitFor("ALL DATA on staging-rs is REPLACED", wait)
		// Step 3 goes back to step 2 too, with the target and the time
		// kept: enter there asks again.
		s.SendFast("BTab")
		s.WaitFor("(2/3)", wait)
		s.SendFast("Enter")
		s.WaitFor("ALL DATA on staging-rs is REPLACED", wait)
		s.SendFast("staging-rs", "Enter")
		s.WaitFor("[Restores]", wait)
		s.WaitFor("PIT", wait)
		wantOneRestorePost(t, s)
		s.SendFast("x")
		screen := s.WaitFor("Cancel restore", wait)
		flat := strings.Join(strings.Fields(screen), " ")
		if strings.Contains(flat, "snapshot to") || !strings.Contains(flat, "restore of payments-rs as of "+when+" UTC to staging-rs") {
			t.Fatalf("the cancel question does not name what it restores:\n%s", screen)
		}
		s.SendFast("y")
		deadline := time.Now().Add(wait)
		for simCount(s, "DELETE", "/restoreJobs/") == 0 && time.Now().Before(deadline) {
			time.Sleep(100 * time.Millisecond)
		}
		if n := simCount(s, "DELETE", "/restoreJobs/"); n != 1 {
			t.Fatalf("cancel DELETEs = %d, want 1:\n%s", n, s.Capture())
		}
		// The watch ends with the job: cancelled.
		s.waitWords("to staging-rs cancelled", wait, "the watch's end: cancelled")
		s.WaitGone("watching", wait)
		jobs := paymentsRestoreJobs(t, s)
		cancelled := 0
		for _, j := range jobs {
			if j.DeliveryType == apiclient.DeliveryPointInTime && j.Cancelled && j.TargetClusterName == "staging-rs" {
				cancelled++
			}
		}
		if cancelled != 1 {
			t.Fatalf("cancelled point-in-time restores in apisim = %d, want 1", cancelled)
		}
		s.SendKeys("q")
		s.WaitExit(wait)
	})
}

// Case 10: the link token is deleted while the demo's migration runs, as
// the service documents (204; no refusal): the dialog says the migration
// goes on, one DELETE reaches the server and is answered 204, the source
// projects are no longer linked, and the running migration is untouched.
func TestTrustLinkTokenDeleteWhileAMigrationRuns(t *testing.T) {
	RequireTmux(t)
	eachSize(t, func(t *testing.T, w, h int) {
		s := StartDemo(t, w, h, nil, "--pane", "migration")
		s.WaitFor("deployments available", wait)
		s.SendFast("l")
		s.WaitFor("Link token for", wait)
		s.SendFast("Right", "Enter")
		screen := s.WaitFor("Delete the link token?", wait)
		if !strings.Contains(strings.Join(strings.Fields(screen), " "), "running goes on.") {
			t.Fatalf("the question does not say what happens to a running migration:\n%s", screen)
		}
		s.SendFast("y")
		s.WaitFor("link token deleted", wait)
		var deletes []int
		for _, r := range s.SimRequests() {
			if r.Method == "DELETE" && strings.HasSuffix(r.Path, "/liveMigrations/linkTokens") {
				deletes = append(deletes, r.Status)
			}
		}
		if len(deletes) != 1 || deletes[0] != 204 {
			t.Fatalf("link-token DELETEs answered %v, want one 204", deletes)
		}
		projects, err := s.DemoAPI().Migration().SourceProjects(context.Background(), apisim.DemoOrgID)
		if err != nil || len(projects) != 0 {
			t.Fatalf("source projects after the delete: %v %v", projects, err)
		}
		s.SendKeys("q")
		s.WaitExit(wait)
	})
}
