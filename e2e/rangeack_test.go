package e2e

import (
	"strings"
	"testing"
	"time"
)

// Issue 14 cases 1 and 2, the keys and refusals the other tests do not
// press: ctrl+space marks a range, the dialog lists exactly those rows,
// a past or unreadable Until is refused in place with the draft kept and
// nothing sent, and the typed date then goes to exactly the listed rows.
func TestRangeMarkAckSendsTheListedRowsTheTypedUntil(t *testing.T) {
	s := StartDemo(t, 80, 24, []string{"TZ=UTC"}, "--project", "payments", "--pane", "alerts")
	s.WaitFor("▸  ● ", wait)
	// The first four rows, as the list shows them (event type, target).
	screen := s.Capture()
	var rows []string
	for _, l := range strings.Split(screen, "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(l), "▸"))
		if len(f) > 2 && f[0] == "●" && len(rows) < 4 {
			rows = append(rows, f[2]) // ● SEV EVENT...
		}
	}
	if len(rows) != 4 {
		t.Fatalf("want four alert rows on screen:\n%s", screen)
	}
	// Mark the first row, go down three, mark the range: rows 1 to 4.
	s.SendFast("Space", "Down", "Down", "C-Space")
	s.WaitFor("4 marked", wait)
	s.SendFast("a")
	screen = s.WaitFor("Acknowledge until", wait)
	if !strings.Contains(screen, "Acts on these 4:") {
		t.Fatalf("the dialog does not list the 4 marked rows:\n%s", screen)
	}

	var clock struct{ Now time.Time }
	s.SimGet("/clock", &clock)
	for _, bad := range []struct{ typed, says string }{
		{clock.Now.UTC().Add(-48 * time.Hour).Format("2006-01-02 15:04"), "must be in the future"},
		{"next tuesday", "is not a date-time"},
	} {
		s.SendFast("range-e2e", "BTab", bad.typed, "Enter")
		screen = s.WaitFor(bad.says, wait)
		if !strings.Contains(screen, "Acknowledge until") || !strings.Contains(screen, "range-e2e") {
			t.Fatalf("%q: the dialog closed or lost the draft:\n%s", bad.typed, screen)
		}
		if n := alertPatches(s); n != 0 {
			t.Fatalf("%q: %d PATCHes for a refused date", bad.typed, n)
		}
		// Empty both fields for the next try (the cursor is in Until).
		s.SendFast(strings.Split(strings.Repeat("BSpace ", len(bad.typed)), " ")[:len(bad.typed)]...)
		s.SendFast("Tab")
		s.SendFast(strings.Split(strings.Repeat("BSpace ", 9), " ")[:9]...)
		s.waitUntil(func(sc string) bool { return !strings.Contains(sc, "range-e2e") && !strings.Contains(sc, bad.typed) },
			wait, "the fields emptied")
	}

	// Ten days ahead: longer than any acknowledgement the demo holds, so
	// nothing is shortened.
	until := clock.Now.UTC().Add(10 * 24 * time.Hour).Truncate(time.Minute)
	s.submitAckUntil("range-e2e", until)
	s.WaitGone("Acknowledge until", wait)
	got := awaitComment(t, s, "range-e2e", 4)
	if len(got) != 4 {
		t.Fatalf("%d alerts carry the comment, want the 4 listed\n%s", len(got), s.Capture())
	}
	want := map[string]int{}
	for _, r := range rows {
		want[strings.TrimSuffix(r, "…")]++
	}
	for _, a := range got {
		if a.AcknowledgedUntil == nil || !a.AcknowledgedUntil.Equal(until) {
			t.Errorf("alert %s acknowledged until %v, want the typed %v", a.ID, a.AcknowledgedUntil, until)
		}
		matched := false
		for prefix, n := range want {
			if n > 0 && strings.HasPrefix(a.EventTypeName, prefix) {
				want[prefix]--
				matched = true
				break
			}
		}
		if !matched {
			t.Errorf("alert %s (%s) was acknowledged but is not one of the rows marked: %v", a.ID, a.EventTypeName, rows)
		}
	}
	if n := alertPatches(s); n != 4 {
		t.Fatalf("%d PATCHes, want 4", n)
	}
	s.SendFast("q")
	s.WaitExit(wait)
}
