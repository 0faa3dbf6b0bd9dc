package e2e

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// TestMigrationFlowToComplete runs a live migration on the demo with a fast
// clock (600x: readiness in about two seconds): link token, source,
// destination, check, start with drop-destination (typed confirmation),
// readiness, cut-over (typed) and COMPLETE; then asks the demo's own server.
func TestMigrationFlowToComplete(t *testing.T) {
	s := StartDemo(t, 120, 40, nil, "--demo-speed", "600", "--pane", "migration")
	s.WaitFor("1 Link token", wait)
	s.WaitFor("5 deployments available", wait)

	// Link token: create with an access list; shown once, y copies it.
	s.SendKeys("l")
	s.WaitFor("Link token for Demo-Org", wait)
	s.SendKeys("Tab", "10.0.0.1", "Enter")
	screen := s.WaitFor("Shown once", wait)
	token := regexp.MustCompile(`Link token\s+(\S{40,})`).FindStringSubmatch(screen)
	if token == nil {
		t.Fatalf("no token on screen:\n%s", screen)
	}
	s.SendKeys("y")
	s.WaitFor("copied", wait)

	// Source billing-rs (first row), destination payments-prod (first row).
	s.SendKeys("Enter")
	s.WaitFor("DEPLOYMENT", wait)
	s.SendKeys("Enter")
	s.WaitFor("Pick the destination cluster", wait)
	s.SendKeys("Enter")
	s.WaitFor("Migration host", wait)

	// The check with the options as filled in.
	s.SendKeys("v")
	s.WaitFor("Check migration billing-rs → payments-prod", wait)
	s.SendKeys("Enter")
	s.WaitFor("SUCCESS", wait)

	// Drop destination data: warned, default No, then yes.
	s.SendKeys("D")
	s.WaitFor("Drop destination data?", wait)
	s.SendKeys("y")
	s.WaitFor("ON: collections on payments-prod", wait)

	// Start: with drop on, the destination's name is typed.
	s.SendKeys("m")
	s.WaitFor("Start the live migration?", wait)
	s.SendKeys("payments-prod", "Enter")
	idRE := regexp.MustCompile(`Live migration ([0-9a-f]{24})`)
	screen = s.waitUntil(idRE.MatchString, wait, "the started migration's id")
	id := idRE.FindStringSubmatch(screen)

	// Readiness unlocks the cut-over; type the destination's name.
	s.WaitFor("YES: C cuts over", 30*time.Second)

	// The board lists it (the migrations this session started) as ready
	// for cut-over; enter opens it in this pane, esc goes back to its row.
	s.SendKeys("1")
	s.WaitFor("clusters/backups/search 12/12", wait)
	s.SendFast("/", "live migration", "Enter")
	s.waitUntil(func(sc string) bool {
		return strings.Contains(sc, "Triage ·") && strings.Contains(cursorLine(sc), "live migration")
	}, wait, "the migration's row on the board")
	s.SendFast("Enter")
	s.waitUntil(func(sc string) bool {
		first, _, _ := strings.Cut(sc, "\n")
		return !strings.Contains(sc, "Triage ·") && strings.Contains(first, "› payments › payments-prod") &&
			strings.Contains(sc, "Live migration "+id[1]) && strings.Contains(sc, "YES: C cuts over")
	}, wait, "the migration pane on "+id[1]+" in payments › payments-prod")
	s.SendFast("Escape")
	s.waitUntil(func(sc string) bool {
		return strings.Contains(sc, "Triage ·") && strings.Contains(cursorLine(sc), "live migration")
	}, wait, "back on the migration's row")
	s.SendKeys("Escape", "6")
	s.WaitFor("YES: C cuts over", wait)

	s.SendKeys("C")
	s.WaitFor("Cut over to payments-prod?", wait)
	s.SendKeys("payments-prod", "Enter")
	s.WaitFor("cut over: complete in", 30*time.Second)
	s.WaitFor("COMPLETE", wait)

	// Presentation mode shows the status in large type.
	s.SendKeys("P")
	s.WaitFor("STATUS", wait)
	s.WaitFor(" ████", wait)
	s.SendKeys("P")
	s.WaitFor("Lag over time", wait)

	// The demo's server agrees: COMPLETE, dropped first, one cut-over.
	m, err := s.DemoAPI().Migration().Get(context.Background(), apisim.DemoPaymentsID, id[1])
	if err != nil {
		t.Fatalf("get migration: %v", err)
	}
	if m.Status != apiclient.MigrationComplete {
		t.Errorf("apisim migration %s is %s, want COMPLETE", id[1], m.Status)
	}
	writes := s.SimWrites("")
	for _, want := range []string{
		"POST /api/atlas/v2/orgs/" + apisim.DemoOrgID + "/liveMigrations/linkTokens",
		"POST /api/atlas/v2/groups/" + apisim.DemoPaymentsID + "/liveMigrations/validate",
		"POST /api/atlas/v2/groups/" + apisim.DemoPaymentsID + "/liveMigrations",
		"PUT /api/atlas/v2/groups/" + apisim.DemoPaymentsID + "/liveMigrations/" + id[1] + "/cutover",
	} {
		if writes[want] != 1 {
			t.Errorf("%s sent %d times, want once; writes: %v", want, writes[want], writes)
		}
	}

	// Nothing runs any more: quitting asks nothing.
	s.SendKeys("q")
	s.WaitExit(wait)
}
