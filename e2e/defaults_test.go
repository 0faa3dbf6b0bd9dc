package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// Issue 14 case 8, the smaller ones: defaults that obey the rules on
// screen, and relative times judged by the server's clock.

// Issue 14 case 8: a live migration's destination on an older MongoDB than
// the source is greyed with the reason before any check; enter on it is
// refused in place and nothing is sent; an eligible one is then checked
// with exactly one validate.
func TestOlderMigrationDestinationGreyedBeforeTheCheck(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 40}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			s := StartDemo(t, size[0], size[1], nil, "--project", "payments", "--pane", "migration")
			s.WaitFor("5 deployments available", wait)
			s.SendFast("Enter")
			s.WaitFor("billing-rs", wait)
			s.SendFast("Enter") // billing-rs, 6.0.13, the first source
			screen := s.WaitFor("Pick the destination cluster in payments", wait)
			if !strings.Contains(screen, "CANNOT RECEIVE IT") || !rowWith(screen, "payments-legacy", "4.0.28", "✗ MongoDB 4.0.28 i") {
				t.Fatalf("payments-legacy (4.0.28) is not greyed with its reason before the check:\n%s", screen)
			}
			for _, ok := range []string{"payments-prod", "payments-rs"} {
				if rowWith(screen, ok, "✗") {
					t.Fatalf("%s is greyed, but it can receive a 6.0.13 source:\n%s", ok, screen)
				}
			}
			// Down twice lands on it: the reason in full, and enter refused.
			s.SendFast("Down", "Down")
			s.WaitFor("✗ payments-legacy cannot be picked", wait)
			s.SendFast("Enter")
			s.WaitFor("payments-legacy cannot receive this migration", wait)
			if size[0] >= 160 {
				s.WaitFor("MongoDB 4.0.28 is older than the source's 6.0.13", wait)
			}
			s.SendFast("v")
			screen = s.WaitFor("pick a destination cluster first", wait)
			if strings.Contains(screen, "Check migration") {
				t.Fatalf("the check opened with an ineligible destination:\n%s", screen)
			}
			if w := s.SimWrites(""); len(w) != 0 {
				t.Fatalf("writes reached the server for an ineligible destination: %v", w)
			}

			// payments-rs (6.0.18) can: picked and checked, one validate.
			s.SendFast("Up", "Enter")
			s.WaitFor("payments-rs (payments)", wait)
			s.SendFast("v")
			s.WaitFor("Check migration billing-rs → payments-rs", wait)
			s.SendFast("Enter")
			s.waitUntil(func(sc string) bool {
				return len(s.SimWrites("/liveMigrations/validate")) > 0 && !strings.Contains(sc, "Check migration billing-rs")
			}, wait, "the check sent and its form closed")
			w := s.SimWrites("")
			want := "POST /api/atlas/v2/groups/" + apisim.DemoPaymentsID + "/liveMigrations/validate"
			if len(w) != 1 || w[want] != 1 {
				t.Fatalf("writes = %v, want exactly one %s", w, want)
			}
			s.SendFast("q")
			s.WaitExit(wait)
		})
	}
}

// aheadClock is a server clock running ahead of ours.
type aheadClock time.Duration

func (c aheadClock) Now() time.Time { return time.Now().Add(time.Duration(c)).UTC() }

// Issue 14 case 8: against a server whose clock runs 5 hours ahead of
// ours, "acknowledge for 1h" is one hour of the server's time (its Date
// header), not ours: one PATCH, accepted, until the server's now + 1h.
func TestAckForAnHourByTheServersClock(t *testing.T) {
	const ahead = 5 * time.Hour
	h := StartSimHost(t, apisim.Options{Clock: aheadClock(ahead)})
	s := StartAgainst(t, h, 80, 24, "--project", apisim.DemoPaymentsID, "--pane", "alerts")
	s.WaitFor("▸  ● ", wait)
	s.SendFast("a")
	s.WaitFor("Acknowledge until", wait)
	s.WaitFor("(•) 1h", wait)
	s.SendFast("skew-e2e", "Enter")
	sent := time.Now().Add(ahead)
	// The first alert may be acknowledged for longer already: shortening
	// it asks first. Wait for the question or the outcome, not for the
	// dialog to close: a frame can fall between the dialog closing and the
	// question opening, and reading it here sent no y (the test then
	// waited for an outcome that was waiting for the y).
	outcome := func(sc string) bool {
		return strings.Contains(sc, "must be in the future") || strings.Contains(sc, "by org-owner@demo.example")
	}
	screen := s.waitUntil(func(sc string) bool {
		return strings.Contains(sc, "Shorten an acknowledgement?") || outcome(sc)
	}, wait, "the ack's outcome, or the question before shortening")
	if strings.Contains(screen, "Shorten an acknowledgement?") {
		s.SendFast("y")
	}
	screen = s.waitUntil(outcome, wait, "the ack's outcome")
	if strings.Contains(screen, "must be in the future") {
		t.Fatalf("the server refused the ack:\n%s", screen)
	}

	var patches []Hit
	for _, x := range h.Hits(http.MethodPatch, "/alerts/") {
		if x.Status != http.StatusUnauthorized { // the digest challenge
			patches = append(patches, x)
		}
	}
	if len(patches) != 1 || patches[0].Status != http.StatusOK {
		t.Fatalf("alert PATCHes = %+v, want one answered 200", patches)
	}
	got := alertsWithComment(t, ownerClient(t, h.URL(), -1), "skew-e2e")
	if len(got) != 1 || got[0].AcknowledgedUntil == nil {
		t.Fatalf("%d alerts carry the comment (%+v), want one acknowledged", len(got), got)
	}
	// One hour from when it was sent, by the server's clock; the dashboard
	// knows that clock to the second (the Date header), and the keys took a
	// moment.
	if d := got[0].AcknowledgedUntil.Sub(sent.Add(time.Hour)); d < -5*time.Second || d > 30*time.Second {
		t.Fatalf("acknowledged until %v: %v off the server's now + 1h (%v)", got[0].AcknowledgedUntil, d, sent.Add(time.Hour))
	}
	s.SendFast("q")
	s.WaitExit(wait)
}
