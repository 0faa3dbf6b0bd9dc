package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// The server goes away under a running dashboard for longer than a poll
// interval: within one interval the alerts say they are stale, since when
// and the error; the server comes back: the dashboard recovers by itself,
// no key pressed. The header says stale too (the pane kit's health).
func TestOutageShowsStaleAndRecovers(t *testing.T) {
	RequireTmux(t)
	const interval = 5 * time.Second
	const outage = 60 * time.Second
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte("[poll]\nalerts = \"5s\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// The server's clock is 5 hours ahead of ours: "stale since" is our
	// time, when we saw it fail.
	h := StartSimHost(t, apisim.Options{Clock: aheadClock(5 * time.Hour)})
	s := StartAgainst(t, h, 200, 30, "--config", cfg, "--project", apisim.DemoPaymentsID)
	s.WaitFor("▸  OPEN", wait)
	s.WaitFor("updated 0s ago", wait)

	h.Stop()
	down := time.Now()
	screen := s.WaitFor("stale, data from", interval+5*time.Second)
	t.Logf("stale shown %v after the server went away:\n%s", time.Since(down).Round(100*time.Millisecond), firstLines(screen, 4))
	if d := time.Since(down); d > interval+3*time.Second {
		t.Errorf("stale shown %v after the outage began, want within one interval (%v) and a request's retries", d, interval)
	}
	if !strings.Contains(screen, "refresh failed:") || !strings.Contains(screen, "connection refused") {
		t.Errorf("the stale line does not name the error:\n%s", firstLines(screen, 4))
	}
	header := strings.SplitN(screen, "\n", 2)[0]
	// A minute's outage, far longer than one interval: still stale, the
	// age growing, and the failed polls have had time to back off.
	time.Sleep(time.Until(down.Add(outage)))
	s.WaitFor("stale, data from", time.Second)

	before := len(h.Log())
	h.Restart()
	up := time.Now()
	// A failing pane polls no slower than its interval, however long the
	// outage: it is live again within one interval (and a request's
	// time) of the server's return.
	s.WaitGone("stale, data from", 3*interval)
	back := time.Since(up)
	t.Logf("recovered %v after the server came back, with no key", back.Round(100*time.Millisecond))
	if back > interval+3*time.Second {
		t.Errorf("recovered %v after the server came back, want within one poll interval (%v)", back, interval)
	}
	if len(h.Log()) == before {
		t.Error("recovered without a request")
	}
	s.WaitFor("▸  OPEN", wait)
	s.SendKeys("q")
	s.WaitExit(wait)
	if !strings.Contains(header, "✗ stale since") || strings.Contains(header, "● live") {
		t.Errorf("the top header does not say stale (%q)", strings.TrimSpace(header))
	}
	if !strings.Contains(header, "✗ stale since "+down.Format("15:04")) && !strings.Contains(header, "✗ stale since "+down.Add(time.Minute).Format("15:04")) {
		t.Errorf("the header's stale time is not our clock's %s (%q)", down.Format("15:04:05"), strings.TrimSpace(header))
	}
	if !strings.Contains(header, "connection refused") {
		t.Errorf("the header does not name the failure (%q)", strings.TrimSpace(header))
	}
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}
