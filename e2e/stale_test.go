package e2e

import (
	"strings"
	"testing"
	"time"
)

// TestOutageIsShownStaleThenLiveAgain: the demo's server fails every request
// (fault rate 1); within the alerts pane's interval the header and the pane
// say the data is stale, since when and the last error, and "● live" is
// gone. The faults end: the next poll brings the pane back by itself.
func TestOutageIsShownStaleThenLiveAgain(t *testing.T) {
	s := StartDemo(t, 80, 24, nil)
	s.WaitFor("● live", 20*time.Second)
	s.SimPut("/faults", `{"faultRate":1}`)
	screen := s.WaitFor("data stale since", 45*time.Second)
	lines := strings.Split(screen, "\n")
	if !strings.Contains(lines[0], "✗ stale since") || strings.Contains(lines[0], "● live") {
		t.Fatalf("the header does not say stale:\n%s", screen)
	}
	if !strings.Contains(lines[0], "· 500") && !strings.Contains(lines[0], "· 503") {
		t.Fatalf("the header does not name the last error:\n%s", screen)
	}
	s.SimPut("/faults", `{"faultRate":0}`)
	screen = s.WaitGone("stale since", 120*time.Second)
	if !strings.Contains(strings.Split(screen, "\n")[0], "● live") {
		t.Fatalf("not live again:\n%s", screen)
	}
}
