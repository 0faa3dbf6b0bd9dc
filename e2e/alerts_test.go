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

// TestAcknowledgeFirstOpenAlertOnTheDemo acknowledges the first open alert
// for 1h with a comment and reads it back from the simulator.
func TestAcknowledgeFirstOpenAlertOnTheDemo(t *testing.T) {
	s := StartDemo(t, 160, 40, nil)
	s.WaitFor("STATUS", wait)
	s.WaitFor("▸  OPEN", wait) // open alerts are on top, the cursor on the first

	comment := fmt.Sprintf("e2e ack %d", time.Now().UnixNano()%1_000_000)
	s.SendKeys("a")
	s.WaitFor("Acknowledge until", wait)
	s.WaitFor("(•) 1h", wait)
	s.SendKeys(comment) // the cursor starts in the comment
	s.WaitFor(comment, wait)
	s.SendKeys("Enter")
	// The first alert is acknowledged until later already: 1h would
	// shorten it, so the dashboard asks first and sends nothing meanwhile.
	s.WaitFor("Shorten an acknowledgement?", wait)
	if n := alertPatches(s); n != 0 {
		t.Fatalf("%d PATCHes before the answer", n)
	}
	s.SendKeys("y")
	s.WaitFor("acknowledged until", wait)
	s.WaitFor("by org-owner", wait)

	alerts, err := s.DemoAPI().Alerts().ListAll(context.Background(), apisim.DemoPaymentsID, "")
	if err != nil {
		t.Fatal(err)
	}
	var clock struct{ Now time.Time }
	s.SimGet("/clock", &clock)
	var got *apiclient.Alert
	for i, a := range alerts {
		if a.AcknowledgementComment == comment {
			got = &alerts[i]
		}
	}
	if got == nil {
		t.Fatalf("no alert carries the comment %q", comment)
	}
	if got.AcknowledgedUntil == nil {
		t.Fatalf("acknowledged alert has no acknowledgedUntil: %+v", *got)
	}
	if got.Status != apiclient.AlertOpen || got.AcknowledgingUsername != "org-owner@demo.example" {
		t.Errorf("acknowledged alert: %+v", *got)
	}
	// 1h of the simulator's time from when it was sent (the dashboard reads
	// the simulator's clock); the demo clock runs 10x, so allow for the
	// seconds since, and for the control API reporting whole seconds.
	if left := got.AcknowledgedUntil.Sub(clock.Now); left <= 50*time.Minute || left > time.Hour+2*time.Second {
		t.Errorf("acknowledged until %v, %v from the server's now: want about 1h", got.AcknowledgedUntil, left)
	}
	s.SendKeys("q")
	s.WaitExit(wait)
}

// TestReadOnlyCannotAcknowledgeOnTheDemo repeats it as read-only: refused
// on screen with the role needed, and the simulator saw no write.
func TestReadOnlyCannotAcknowledgeOnTheDemo(t *testing.T) {
	s := StartDemo(t, 160, 40, nil, "--demo-role", "read-only")
	s.WaitFor("STATUS", wait)
	s.WaitFor("▸  OPEN", wait)
	s.SendKeys("a")
	screen := s.WaitFor("acknowledge needs", wait)
	if strings.Contains(screen, "Acknowledge until") {
		t.Fatalf("a dialog opened for read-only:\n%s", screen)
	}
	s.SendKeys("u")
	s.WaitFor("unacknowledge needs", wait)

	wantOnlyReads(t, s.SimRequests(), func(r apisim.RequestRecord) bool { return r.Identity == "read-only" }, "read-only")
	s.SendKeys("q")
	s.WaitExit(wait)
}

// wantOnlyReads fails t for each request of log that mine picks and is not
// a GET, and when mine picks none (the check would prove nothing); who
// names the sender.
func wantOnlyReads(t *testing.T, log []apisim.RequestRecord, mine func(apisim.RequestRecord) bool, who string) {
	t.Helper()
	reads := 0
	for _, r := range log {
		if !mine(r) {
			continue
		}
		if r.Method != "GET" {
			t.Errorf("%s sent %s %s", who, r.Method, r.Path)
		}
		reads++
	}
	if reads == 0 {
		t.Fatalf("the request log shows no request from %s at all: the check proves nothing", who)
	}
}
