package e2e

import (
	"regexp"
	"strings"
	"testing"
)

// TestEscFromFilteredDetailAndClusterOnTheDemo, at 80x24 and wide, keys
// sent with no pauses: esc in a detail opened from a filtered list returns
// to that list with its filter; `:cluster payments-rs` narrows the alerts
// (the count says "N of M") and the header names the cluster; no write
// reaches the simulator.
func TestEscFromFilteredDetailAndClusterOnTheDemo(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 40}} {
		s := StartDemo(t, size[0], size[1], nil)
		s.WaitFor("EVENT TYPE", wait)
		s.WaitFor("CPS_SNAPSHOT_FAILED", wait) // rows are in
		s.SendFast("/", "CPS_SNAPSHOT", "Enter", "Enter", "Escape")
		// The detail's footer shows the filter too: wait for the list itself
		// (the detail gone, the filter kept); a detail that stays fails here.
		screen := s.waitUntil(func(sc string) bool {
			return strings.Contains(sc, "filter: CPS_SNAPSHOT") && !strings.Contains(sc, "Raised by") && !strings.Contains(sc, "esc back")
		}, wait, "esc to close the detail onto the filtered list")
		if strings.Contains(screen, "OUTSIDE_METRIC") {
			t.Fatalf("%dx%d: the filter was lost:\n%s", size[0], size[1], screen)
		}
		if !strings.Contains(strings.SplitN(screen, "\n", 2)[0], "Demo-Org › payments › all clusters") {
			t.Errorf("%dx%d: the header lost the context:\n%s", size[0], size[1], screen)
		}
		s.SendFast("Escape")
		s.WaitGone("filter: CPS", wait)
		s.SendFast(":", "cluster payments-rs", "Enter")
		screen = s.WaitFor("payments › payments-rs", wait)
		screen = s.waitUntil(func(sc string) bool { return regexp.MustCompile(`\d+ of \d+ alerts`).MatchString(sc) }, wait, "N of M alerts")
		for _, other := range []string{"payments-prod", "payments-legacy", "filter: CPS"} {
			if strings.Contains(screen, other) {
				t.Errorf("%dx%d: %q still shown after :cluster payments-rs:\n%s", size[0], size[1], other, screen)
			}
		}
		if w := s.SimWrites(""); len(w) > 0 {
			t.Errorf("%dx%d: writes reached the simulator: %v", size[0], size[1], w)
		}
		s.SendKeys("q")
		s.WaitExit(wait)
	}
}
