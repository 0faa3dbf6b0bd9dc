package e2e

import (
	"testing"
	"time"
)

const wait = 15 * time.Second

// TestShellTour runs the demo, visits every pane, opens help and the
// palette, shrinks the window below the minimum and back, and quits.
func TestShellTour(t *testing.T) {
	s := StartDemo(t, 120, 40, nil)
	s.WaitFor("2 Alerts", wait)
	s.WaitFor("loading alerts", wait) // the first real request finished (✓ …)
	s.WaitFor("Organization Owner", wait)

	// Text only each pane shows, with no cluster selected.
	panes := []string{"Backups · pick a cluster", "Search indexes", "access logs are per cluster", "Link token", "CUSTOM DNS FOR AWS"}
	for i, want := range panes {
		s.SendKeys(string(rune('3' + i)))
		s.WaitFor(want, wait)
	}
	// Access logs with no cluster selected list the project's clusters,
	// the ones without an access log greyed with why; enter tails the
	// cluster under the cursor.
	s.SendKeys("5")
	s.WaitFor("deployments keep an access log", wait)
	s.WaitFor("flex cluster: no access history", wait)
	s.SendKeys("Enter")
	s.WaitFor("Access log · cluster payments-legacy", wait)
	s.SendKeys("2")
	s.WaitFor("ACK UNTIL", wait)
	s.SendKeys("Tab")
	s.WaitFor("Backups · pick a cluster", wait)
	s.SendKeys("BTab")
	s.WaitFor("ACK UNTIL", wait)

	s.SendKeys("?")
	s.WaitFor("Navigation", wait)
	s.WaitFor("esc/? close", wait)
	// Help names the demo server at the address the test chose.
	s.WaitFor("demo server "+s.DemoURL(), wait)
	s.SendKeys("Escape")
	s.WaitGone("esc/? close", wait)

	s.SendKeys(":")
	s.WaitFor("pick an organization", wait)
	s.SendKeys("set", "Enter")
	s.WaitFor("CUSTOM DNS FOR AWS", wait)

	s.Resize(50, 12)
	s.WaitFor("Terminal too small", wait)
	s.WaitFor("Need at least 60x16", wait)
	s.Resize(120, 40)
	s.WaitFor("7 Settings", wait)

	s.SendKeys("q")
	s.WaitExit(wait)
}

// TestReadOnlyDemoRefusesActions starts as the read-only identity and checks
// an action key is refused with the role it needs.
func TestReadOnlyDemoRefusesActions(t *testing.T) {
	s := StartDemo(t, 160, 40, nil, "--demo-role", "read-only")
	s.WaitFor("ACK UNTIL", wait)
	s.SendKeys("a")
	s.WaitFor("acknowledge needs", wait)
	s.SendKeys("q")
	s.WaitExit(wait)
}
