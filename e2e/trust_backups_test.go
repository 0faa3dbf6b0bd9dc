package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// Issue 24 case 6: a restore this session watches survives an outage of
// the server (66 s, longer than any poll backs off to at first): "watching
// 1" stays on the title, marked as waiting while the server is away, and
// once the server is back the restore's end is noticed: the "finished"
// notice comes, read from the server (its log holds the job's GET after
// the restart).
func TestTrustBackupsWatchSurvivesAnOutage(t *testing.T) {
	RequireTmux(t)
	h := StartSimHost(t, apisim.Options{Speed: 2})
	s := StartAgainst(t, h, 100, 30, "--project", apisim.DemoPaymentsID, "--pane", "backups", "--cluster", "payments-rs")
	s.WaitFor("Backups · payments-rs", wait)
	s.WaitFor("completed", wait)
	s.SendFast("G", "R")
	s.WaitFor("(1/3)", wait)
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

	h.Stop()
	down := time.Now()
	s.WaitFor("watching 1", 30*time.Second)
	for time.Since(down) < 66*time.Second {
		if !strings.Contains(s.Capture(), "watching 1") {
			t.Fatalf("the watch was dropped %v into the outage:\n%s", time.Since(down).Round(time.Second), s.Capture())
		}
		time.Sleep(time.Second)
	}
	before := len(h.Log())
	h.Restart()
	screen := s.WaitFor("to staging-rs finished", 90*time.Second)
	t.Logf("finished noticed %v after the server came back:\n%s", time.Since(down).Round(time.Second), screen)
	s.WaitGone("watching", wait)
	var after []string
	for _, hit := range h.Log()[before:] {
		after = append(after, hit.Method+" "+hit.Path)
	}
	if !strings.Contains(strings.Join(after, "\n"), "/backup/restoreJobs") {
		t.Fatalf("no restore job was read after the restart: %v", after)
	}
	s.SendKeys("q")
	s.WaitExit(wait)
	_ = fmt.Sprint()
}
