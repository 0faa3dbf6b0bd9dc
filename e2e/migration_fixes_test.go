package e2e

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// A start of a live migration whose answer the server truncates (the
// faults control): the pane says it was sent and its outcome is unknown,
// m is refused with why, and the request log holds exactly one POST of the
// start; only M with the destination's name typed sends a second one.
func TestLostMigrationStartIsNotSentAgain(t *testing.T) {
	s := StartDemo(t, 120, 40, nil, "--demo-speed", "600", "--pane", "migration")
	s.WaitFor("5 deployments available", wait)
	s.SendKeys("Enter")
	s.WaitFor("DEPLOYMENT", wait)
	s.SendKeys("Enter") // billing-rs
	s.WaitFor("Pick the destination cluster", wait)
	s.SendKeys("Enter") // payments-prod
	s.WaitFor("Migration host", wait)
	s.SendKeys("v")
	s.WaitFor("Check migration billing-rs → payments-prod", wait)
	s.SendKeys("Enter")
	s.WaitFor("SUCCESS", wait)

	start := "POST /api/atlas/v2/groups/" + apisim.DemoPaymentsID + "/liveMigrations"
	starts := func() int { return s.SimWrites("/liveMigrations")[start] }
	s.SimPut("/faults", `{"malformedWrites": 1}`)
	s.SendKeys("m")
	s.WaitFor("Start the live migration?", wait)
	s.SendKeys("y")
	// The step's words wrap where the width says: read them unwrapped.
	flat := func(sc string) string { return strings.Join(strings.Fields(sc), " ") }
	sc := s.waitUntil(func(sc string) bool {
		f := flat(sc)
		return strings.Contains(f, "Start sent - outcome unknown at") &&
			strings.Contains(f, "may be running into payments-prod; it cannot be checked: the API has no list of live migrations") &&
			strings.Contains(f, "a second migration may result.")
	}, wait, "the lost start said on step 4")
	if regexp.MustCompile(`(?i)fail`).MatchString(sc) {
		t.Fatalf("a lost answer is said as a failure:\n%s", sc)
	}
	if n := starts(); n != 1 {
		t.Fatalf("%d POSTs of the start, want 1", n)
	}

	// m y again, as the tester typed it: m is refused with the reason, so
	// y finds no dialog (it copies), and nothing is sent.
	s.SendFast("m", "y")
	s.WaitFor("start migration: a start into payments-prod was sent - outcome unknown", wait)
	time.Sleep(500 * time.Millisecond) // y read too; anything sent would be logged by now
	if n := starts(); n != 1 {
		t.Fatalf("%d POSTs of the start after a second m y, want 1", n)
	}

	// M asks, and says a second migration may result; esc sends nothing.
	s.SendKeys("M")
	s.WaitFor("Start another live migration into payments-prod?", wait)
	s.WaitFor("SECOND migration", wait)
	s.SendKeys("Escape")
	s.WaitGone("Start another live migration", wait)
	time.Sleep(300 * time.Millisecond)
	if n := starts(); n != 1 {
		t.Fatalf("%d POSTs of the start after M and esc, want 1", n)
	}

	// The name typed: a second start, followed in step 5.
	s.SendKeys("M")
	s.WaitFor("Start another live migration into payments-prod?", wait)
	s.SendKeys("payments-prod", "Enter")
	s.waitUntil(regexp.MustCompile(`Live migration [0-9a-f]{24}`).MatchString, wait, "the second migration followed")
	s.WaitFor("Lost start", wait)
	if n := starts(); n != 2 {
		t.Fatalf("%d POSTs of the start after M with the name typed, want 2", n)
	}
}
