package e2e

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// jumpTarget is an open, unacknowledged, not new alert of the payments
// project whose board text ("EVENT on host:port") is its own, and a text
// filter for the Alerts pane that hides it (another event type).
func jumpTarget(t *testing.T, s *Session) (target apiclient.Alert, boardText, hiding string) {
	t.Helper()
	now := worldNow(s)
	all, err := s.DemoAPI().Alerts().ListAll(context.Background(), apisim.DemoPaymentsID, "")
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]int{}
	events := map[string]bool{}
	for _, a := range all {
		if a.Status == apiclient.AlertOpen && !a.Acknowledged(now) {
			texts[a.EventTypeName+" on "+a.HostnameAndPort]++ // the board's rows
		}
		events[a.EventTypeName] = true
	}
	var plain []apiclient.Alert
	for _, a := range all {
		if a.Status == apiclient.AlertOpen && a.AcknowledgedUntil == nil && a.HostnameAndPort != "" &&
			now.Sub(a.Created) > 30*time.Minute && texts[a.EventTypeName+" on "+a.HostnameAndPort] == 1 {
			plain = append(plain, a)
		}
	}
	if len(plain) == 0 {
		t.Fatal("apisim has no open alert in payments the board can single out")
	}
	slices.SortFunc(plain, func(x, y apiclient.Alert) int { return strings.Compare(x.ID, y.ID) })
	target = plain[0]
	for e := range events {
		if !strings.Contains(target.EventTypeName, e) && !strings.Contains(e, target.EventTypeName) &&
			(hiding == "" || e < hiding) {
			hiding = e
		}
	}
	if hiding == "" {
		t.Fatal("payments has a single event type: no filter hides the target")
	}
	return target, target.EventTypeName + " on " + target.HostnameAndPort, hiding
}

// Issue 24 case 1: Alerts filtered by text and by status (TRACKING), then
// a board row's enter: the filters that hid the alert are lifted and the
// screen says so, the cursor is on that alert, and the next `a`
// acknowledges that alert and no other (apisim's state and request log).
func TestJumpLiftsTheFilterThatHidesTheAlert(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			s := StartDemo(t, size[0], size[1], []string{"TZ=UTC"}, "--project", "payments", "--pane", "alerts", "--demo-speed", "1")
			s.WaitFor("open (", wait)
			target, text, hiding := jumpTarget(t, s)
			event := target.EventTypeName[:min(12, len(target.EventTypeName))]

			// Alerts: filtered to another event type, then TRACKING only.
			s.SendFast("/", hiding, "Enter", "s", "s")
			s.WaitFor("status: TRACKING", wait)
			s.WaitFor("filter: "+hiding[:min(12, len(hiding))], wait)

			// The board: the target's row singled out, the filter cleared
			// (the cursor stays on it), enter.
			s.SendFast("1")
			s.WaitFor("12 of 12 projects", wait)
			s.SendFast("/", text, "Enter")
			s.waitUntil(func(sc string) bool {
				return strings.Contains(sc, "Triage ·") && strings.Contains(cursorLine(sc), event) && strings.Contains(sc, "(esc clears)")
			}, wait, "the target's row under the cursor on the board")
			s.SendFast("Escape")
			s.waitUntil(func(sc string) bool {
				return strings.Contains(sc, "Triage ·") && strings.Contains(cursorLine(sc), event) && !strings.Contains(sc, "(esc clears)")
			}, wait, "the target's row under the cursor on the whole board")
			s.SendFast("Enter")

			// Alerts again: both filters gone, said so, the alert selected.
			screen := s.waitUntil(func(sc string) bool {
				return strings.Contains(sc, "status: all") && strings.Contains(cursorLine(sc), event)
			}, wait, "the alert under the cursor, every status shown")
			if !strings.Contains(screen, "cleared to show") && !strings.Contains(screen, "lifted to show") {
				t.Fatalf("the screen does not say the filters were lifted:\n%s", screen)
			}
			if strings.Contains(screen, "filter: "+hiding[:min(12, len(hiding))]) {
				t.Fatalf("the filter that hid the alert is still on:\n%s", screen)
			}
			// The row under the cursor is that very alert: its detail says so.
			s.SendFast("Enter")
			s.WaitFor(target.ID, wait)
			s.SendFast("Escape")
			s.WaitFor("status: all", wait)

			comment := fmt.Sprintf("jump-%d", size[0])
			s.SendFast("a")
			s.WaitFor("Acknowledge until", wait)
			s.SendFast(comment, "Enter")
			got := awaitComment(t, s, comment, 1)
			if len(got) != 1 || got[0].ID != target.ID {
				t.Fatalf("acknowledged %+v, want the alert opened from the board %s (%s)", got, target.ID, text)
			}
			if n := alertPatches(s); n != 1 {
				t.Fatalf("%d PATCHes reached the server, want 1", n)
			}
			if w := s.SimWrites("/alerts/" + target.ID); w["PATCH /api/atlas/v2/groups/"+apisim.DemoPaymentsID+"/alerts/"+target.ID] != 1 {
				t.Fatalf("no PATCH of %s in the request log: %v", target.ID, s.SimWrites(""))
			}
			s.SendFast("q")
			s.WaitExit(wait)
		})
	}
}

// Issue 24 case 2: on the ack dialog the choice on screen is the choice
// sent. A date typed into Until, then space on the radio: the choice moves
// to forever, the screen says the date is not sent and that forever is,
// and forever is what apisim stores. A date typed on the radio goes to
// Until and selects until…; the dialog states that date before enter, and
// apisim stores exactly it.
func TestAckRadioAndUntilSendWhatTheScreenSays(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			s := StartDemo(t, size[0], size[1], []string{"TZ=UTC"}, "--project", "payments", "--pane", "alerts", "--demo-speed", "1")
			s.WaitFor("open (", wait)
			s.waitUntil(func(sc string) bool {
				return strings.Contains(cursorLine(sc), "●") || strings.Contains(cursorLine(sc), "OPEN")
			},
				wait, "the cursor on an open alert")
			now := worldNow(s)
			typed := now.UTC().Add(3 * 24 * time.Hour).Truncate(time.Minute)

			// 1. A date in Until, then space on the radio: forever, said so.
			c1 := fmt.Sprintf("radio-space-%d", size[0])
			s.SendFast("a")
			s.WaitFor("Acknowledge until", wait)
			s.SendFast(c1, "BTab", typed.Format("2006-01-02 15:04"), "BTab", "Space")
			screen := s.WaitFor("(•) forever", wait)
			if !strings.Contains(screen, "not sent: forever is selected") || !strings.Contains(screen, "(forever: 100 years)") {
				t.Fatalf("forever is chosen while the date shows, and the screen does not say which is sent:\n%s", screen)
			}
			if n := alertPatches(s); n != 0 {
				t.Fatalf("%d PATCHes before enter", n)
			}
			s.SendFast("Enter")
			got := awaitComment(t, s, c1, 1)
			if len(got) != 1 || got[0].AcknowledgedUntil == nil || got[0].AcknowledgedUntil.Sub(now) < 99*365*24*time.Hour {
				t.Fatalf("the screen said forever; apisim holds %+v", got)
			}
			s.WaitGone("Acknowledge until", wait)

			// 2. The next alert; a date typed on the radio goes to Until.
			c2 := fmt.Sprintf("radio-typed-%d", size[0])
			s.SendFast("j", "a")
			s.WaitFor("Acknowledge until", wait)
			s.SendFast(c2, "BTab", "BTab", typed.Format("2006-01-02 15:04"))
			// The dialog states the date before enter.
			s.WaitFor("sends until "+typed.Format("2006-01-02 15:04")+" UTC", wait)
			s.WaitFor("(•) until…", wait)
			s.SendFast("Enter")
			got = awaitComment(t, s, c2, 1)
			if len(got) != 1 || got[0].AcknowledgedUntil == nil || !got[0].AcknowledgedUntil.Equal(typed) {
				t.Fatalf("typed %v on the radio; apisim holds %+v", typed, got)
			}
			if n := alertPatches(s); n != 2 {
				t.Fatalf("%d PATCHes, want 2", n)
			}
			s.SendFast("q")
			s.WaitExit(wait)
		})
	}
}

// Issue 24 case 9: saving an alert configuration's form unchanged sends
// nothing and says so; a changed one (Enabled flipped) sends one PUT with
// the change, which apisim then holds.
func TestUnchangedAlertConfigIsNotSent(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			s := StartDemo(t, size[0], size[1], nil, "--project", "payments", "--pane", "alerts")
			s.WaitFor("open (", wait)
			s.SendFast("c")
			s.waitUntil(func(sc string) bool {
				return strings.Contains(cursorLine(sc), "▸") && strings.Contains(sc, "configurations")
			},
				wait, "the configurations listed")
			puts := func() int { return simCount(s, "PUT", "/alertConfigs/") }
			s.SendFast("e")
			s.WaitFor("Event type", wait)
			s.SendFast("Enter")
			s.WaitFor("unchanged: nothing sent", wait)
			s.WaitGone("Event type", wait)
			if n := puts(); n != 0 {
				t.Fatalf("%d PUTs for an unchanged configuration", n)
			}

			// Changed: one PUT, and apisim holds the change.
			cfgs, err := s.DemoAPI().AlertConfigs().ListAll(context.Background(), apisim.DemoPaymentsID)
			if err != nil {
				t.Fatal(err)
			}
			enabled := map[string]bool{}
			for _, c := range cfgs {
				enabled[c.ID] = c.Enabled
			}
			s.SendFast("e")
			s.WaitFor("Event type", wait)
			s.SendFast("Tab", "Space", "Enter")
			s.WaitGone("Event type", wait)
			deadline := time.Now().Add(wait)
			for puts() != 1 && time.Now().Before(deadline) {
				time.Sleep(100 * time.Millisecond)
			}
			if n := puts(); n != 1 {
				t.Fatalf("%d PUTs for a changed configuration, want 1", n)
			}
			after, err := s.DemoAPI().AlertConfigs().ListAll(context.Background(), apisim.DemoPaymentsID)
			if err != nil {
				t.Fatal(err)
			}
			flipped := 0
			for _, c := range after {
				if c.Enabled != enabled[c.ID] {
					flipped++
				}
			}
			if flipped != 1 {
				t.Fatalf("%d configurations changed in apisim, want the one edited", flipped)
			}
			s.SendFast("q")
			s.WaitExit(wait)
		})
	}
}
