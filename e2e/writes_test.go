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

// withComment are the demo's alerts carrying comment.
func withComment(t *testing.T, s *Session, comment string) []apiclient.Alert {
	t.Helper()
	// Retries on: the server may be truncating answers on purpose.
	return alertsWithComment(t, ownerClient(t, s.DemoURL(), 8), comment)
}

// alertsWithComment are the payments project's alerts carrying comment,
// as c reads them.
func alertsWithComment(t *testing.T, c *apiclient.Client, comment string) []apiclient.Alert {
	t.Helper()
	all, err := c.Alerts().ListAll(context.Background(), apisim.DemoPaymentsID, "")
	if err != nil {
		t.Fatal(err)
	}
	var out []apiclient.Alert
	for _, a := range all {
		if a.AcknowledgementComment == comment {
			out = append(out, a)
		}
	}
	return out
}

// awaitComment reads the demo's alerts carrying comment until at least n
// do or wait passes, and returns the last read.
func awaitComment(t *testing.T, s *Session, comment string, n int) []apiclient.Alert {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		if got := withComment(t, s, comment); len(got) >= n || time.Now().After(deadline) {
			return got
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitAcked waits until the server holds comment on one alert and the
// dialog that sent it closed.
func waitAcked(t *testing.T, s *Session, comment string) []apiclient.Alert {
	t.Helper()
	s.WaitGone(comment, wait)
	return awaitComment(t, s, comment, 1)
}

// simCount is how many requests of method reached the demo's versioned API
// on paths containing pathPart, as SimWrites counts them (an unsigned Digest
// challenge is not one).
func simCount(s *Session, method, pathPart string) int {
	n := 0
	for k, c := range s.SimWrites(pathPart) {
		if strings.HasPrefix(k, method+" ") {
			n += c
		}
	}
	return n
}

func alertPatches(s *Session) int { return simCount(s, "PATCH", "/alerts/") }

// Issue case 1: two marked alerts hidden by /NO_PRIMARY are named apart and
// left out; the one write goes to the row on screen.
func TestHiddenMarksAreNotActedOn(t *testing.T) {
	s := StartDemo(t, 80, 24, nil)
	s.WaitFor("▸  ● ", wait)
	s.SendFast("Space", "Space", "/", "NO_PRIMARY", "Enter", "g", "a")
	s.WaitFor("2 marked rows are hidden by the filter", wait)
	s.WaitFor("[ ] off", wait)
	s.SendFast("hid-e2e", "Enter")
	s.WaitFor("acknowledged until", wait)
	got := withComment(t, s, "hid-e2e")
	if len(got) != 1 || got[0].EventTypeName != "NO_PRIMARY" {
		t.Fatalf("acknowledged %d alerts (%+v): want the one NO_PRIMARY on screen", len(got), got)
	}
	if n := alertPatches(s); n != 1 {
		t.Fatalf("%d PATCHes reached the server, want 1", n)
	}
	s.SendKeys("q")
	s.WaitExit(wait)
}

// Issue case 2: a date typed in Until is what is sent, without touching
// the choice. The terminal shrinks to 80x24 with the comment half typed:
// the whole comment is sent, once.
func TestTypedUntilIsSent(t *testing.T) {
	s := StartDemo(t, 160, 40, []string{"TZ=UTC"})
	s.WaitFor("▸  OPEN", wait)
	var clock struct{ Now time.Time }
	s.SimGet("/clock", &clock)
	until := clock.Now.UTC().Add(72 * time.Hour).Truncate(time.Minute)
	// The dialog opens from a Cmd: keys typed before it lands go to the
	// list, so wait for it.
	s.SendFast("a")
	s.WaitFor("Acknowledge until", wait)
	s.SendFast("typed-")
	s.WaitFor("typed-", wait)
	s.Resize(80, 24)
	// Redrawn at 80 columns: the comment's line has the dialog's right
	// border again after it (tmux cut it at the resize).
	s.waitUntil(func(sc string) bool {
		for _, l := range strings.Split(sc, "\n") {
			// The list shows through right of the dialog: the border
			// follows the comment, wherever the line ends.
			if i := strings.Index(l, "typed-"); i >= 0 && strings.Contains(l[i:], "│") {
				return true
			}
		}
		return false
	}, wait, "the dialog redrawn at 80x24")
	s.submitAckUntil("e2e", until)
	got := waitAcked(t, s, "typed-e2e")
	if len(got) != 1 || got[0].AcknowledgedUntil == nil || !got[0].AcknowledgedUntil.Equal(until) {
		t.Fatalf("want one alert acknowledged until %v, got %+v\n%s", until, got, s.Capture())
	}
	if n := alertPatches(s); n != 1 {
		t.Fatalf("%d PATCHes, want 1", n)
	}
	s.SendKeys("q")
	s.WaitExit(wait)
}

// Issue case 6: with 30% of answers truncated, N acks make N PATCHes and N
// outcomes on screen, each the server's.
func TestLostAnswersAreVerifiedNotResent(t *testing.T) {
	s := StartDemo(t, 160, 40, nil)
	s.WaitFor("▸  OPEN", wait)
	s.SimPut("/faults", `{"malformedRate": 0.3}`)
	const n = 6
	verified := 0
	for i := range n {
		comment := fmt.Sprintf("lost-e2e-%d", i)
		// forever (left of 1h) never shortens an acknowledgement.
		s.SendFast("a")
		s.WaitFor("Acknowledge until", wait)
		s.SendFast(comment, "BTab", "BTab", "Left", "Enter")
		// The outcome on screen: the row under the cursor shows the
		// acknowledgement, from the server's answer or the read-back.
		screen := s.waitUntil(func(sc string) bool {
			for _, l := range strings.Split(sc, "\n") {
				if strings.Contains(l, "▸") && strings.Contains(l, "forever by org-owner") {
					return true
				}
			}
			return false
		}, wait, "the acknowledged row of "+comment)
		if strings.Contains(screen, "sent - verified") {
			verified++
		}
		if got := waitAcked(t, s, comment); len(got) != 1 {
			t.Fatalf("%s: %d alerts carry it, want 1\n%s", comment, len(got), s.Capture())
		}
		s.SendFast("j")
	}
	if p := alertPatches(s); p != n {
		t.Fatalf("%d PATCHes for %d acknowledgements", p, n)
	}
	t.Logf("%d of %d answers were lost and verified", verified, n)
	s.SendKeys("q")
	s.WaitExit(wait)
}

// Issue case 3: a bulk ack whose first PATCH is refused (the faults
// control fails the next write) leaves that row marked; `a` retries it
// with every choice of the first submit, so the group ends with one
// window. The keys after `a` go in the same write as `a` itself: they land
// in the dialog, not on the list.
func TestBulkAckRetryKeepsTheChoice(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 40}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			s := StartDemo(t, size[0], size[1], nil)
			s.WaitFor(" open (", wait)
			s.SimPut("/faults", `{"failWrites": 1}`)
			// forever (left of 1h) never shortens an acknowledgement.
			s.SendFast("Space", "Space", "a", "retry-e2e", "BTab", "BTab", "Left", "Enter")
			s.WaitFor("✗", wait)
			s.WaitGone("submitting…", wait) // the first dialog closes
			if n := alertPatches(s); n != 2 {
				t.Fatalf("%d PATCHes for the two marked rows, want 2", n)
			}
			first := withComment(t, s, "retry-e2e")
			if len(first) != 1 || first[0].AcknowledgedUntil == nil {
				t.Fatalf("%d alerts acknowledged after one refused row, want 1", len(first))
			}
			// The retry offers the very window the first submit sent.
			s.SendFast("a")
			screen := s.WaitFor("Acknowledge until", wait)
			if !strings.Contains(screen, "(•) until…") || !strings.Contains(screen, first[0].AcknowledgedUntil.UTC().Format(time.RFC3339)) ||
				!strings.Contains(screen, "retry-e2e") {
				t.Fatalf("the retry dialog lost the first submit's choices (until %v):\n%s", first[0].AcknowledgedUntil, screen)
			}
			s.SendFast("Enter")
			s.WaitGone("Acknowledge until", wait)
			got := awaitComment(t, s, "retry-e2e", 2)
			if len(got) != 2 {
				t.Fatalf("%d alerts carry the comment after the retry, want 2\n%s", len(got), s.Capture())
			}
			for _, a := range got {
				if a.AcknowledgedUntil == nil || !a.AcknowledgedUntil.Equal(*first[0].AcknowledgedUntil) {
					t.Fatalf("alert %s acknowledged until %v, want %v like the first row: one window", a.ID, a.AcknowledgedUntil, first[0].AcknowledgedUntil)
				}
			}
			if n := alertPatches(s); n != 3 {
				t.Fatalf("%d PATCHes, want 3 (two, then the one retried)", n)
			}
			s.SendKeys("Escape", "q")
			s.WaitExit(wait)
		})
	}
}

// Issue case 7: acknowledging from the detail view redraws the detail from
// the answer, without r.
func TestDetailShowsTheAckAtOnce(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 40}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			s := StartDemo(t, size[0], size[1], nil)
			s.WaitFor(" open (", wait)
			s.SendFast("Enter")
			s.WaitFor("# ", wait)
			s.SendFast("a", "detail-e2e", "BTab", "BTab", "Left", "Enter")
			if got := awaitComment(t, s, "detail-e2e", 1); len(got) != 1 {
				t.Fatalf("%d alerts carry the acknowledgement, want 1\n%s", len(got), s.Capture())
			}
			s.WaitGone("Acknowledge until", wait)
			// The detail (not the dialog) shows it; on a short screen it is
			// further down.
			s.SendFast("Down", "Down", "Down", "Down", "Down", "Down", "Down", "Down")
			s.WaitFor("Acknowledged until forever by", wait)
			if n := alertPatches(s); n != 1 {
				t.Fatalf("%d PATCHes reached the server, want 1", n)
			}
			s.SendKeys("Escape", "q")
			s.WaitExit(wait)
		})
	}
}

// submitAckUntil fills the open ack dialog as a user types it, keys sent
// with no pauses: the comment, back to the Until field, the date (which
// selects "until…"), then submits.
func (s *Session) submitAckUntil(comment string, until time.Time) {
	s.t.Helper()
	s.SendFast(comment, "BTab", until.Format("2006-01-02 15:04"))
	s.WaitFor("(•) until…", wait)
	s.SendFast("Enter")
}
