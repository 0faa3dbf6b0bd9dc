package components

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// configForm is shaped like the new alert configuration form: eight
// fields, one with a hint, two with many choices, taller than 24 rows.
func configForm() Form {
	positive := func(v string, _ FormValues) error {
		if v == "" || strings.Trim(v, "0123456789") != "" {
			return errors.New("a whole number of minutes")
		}
		return nil
	}
	return NewForm("config", "New alert configuration", []Field{
		{Key: "event", Label: "Event type", Value: "HOST_DOWN"},
		{Key: "enabled", Label: "Enabled", Kind: FieldToggle, On: true},
		{Key: "severity", Label: "Severity override", Kind: FieldChoice, Choices: []string{"none", "INFO", "WARNING", "ERROR", "CRITICAL"}},
		{Key: "matchers", Label: "Matchers", Hint: "FIELD OPERATOR value; … (empty: every resource)"},
		{Key: "kind", Label: "Notify", Kind: FieldChoice, Choices: []string{"EMAIL", "GROUP", "USER", "SMS", "WEBHOOK", "PAGER_DUTY", "DATADOG"}},
		{Key: "target", Label: "Target", Hint: "EMAIL: an email address · GROUP: project roles"},
		{Key: "secret", Label: "Secret (webhook, optional)", Secret: true},
		{Key: "delay", Label: "Delay (min)", Value: "0", Validate: positive},
		{Key: "interval", Label: "Interval (min)", Value: "60", Validate: positive},
	}, nil, dark(), nil)
}

const formHint = "enter submit · tab next field · esc cancel"

// fitsIn fails unless the box is at most w x h, closed at the bottom,
// with the title and the key hint.
func fitsIn(t *testing.T, view string, w, h int, title string) []string {
	t.Helper()
	lines := strings.Split(plain(view), "\n")
	if len(lines) > h {
		t.Fatalf("the box is %d rows in %d:\n%s", len(lines), h, plain(view))
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > w {
			t.Fatalf("line %d is %d wide in %d:\n%s", i, ansi.StringWidth(l), w, plain(view))
		}
	}
	if !strings.HasPrefix(lines[len(lines)-1], "╰") {
		t.Fatalf("the bottom border is missing:\n%s", plain(view))
	}
	mustContain(t, lines[1], title)
	mustContain(t, lines[len(lines)-2], formHint)
	return lines
}

// focusedLabel is the line of the focused field's label.
var focusedLabel = regexp.MustCompile(`▸ ([^│]*?)\s*(\d+/\d+)?\s*│`)

func focusedOn(t *testing.T, lines []string) string {
	t.Helper()
	for _, l := range lines {
		if m := focusedLabel.FindStringSubmatch(l); m != nil {
			return m[1]
		}
	}
	t.Fatalf("no focused field on screen:\n%s", strings.Join(lines, "\n"))
	return ""
}

// At 80x24 (the height the root gives a dialog) the form that did not fit
// keeps inside the screen; tabbing through every field keeps the focused
// one, its value, the title and the keys on screen, and says how many
// fields are out of view above and below.
func TestFormScrollsToKeepTheFocusedFieldInView(t *testing.T) {
	f := configForm()
	f.SetSize(80, 24)
	lines := fitsIn(t, f.View(), 80, 24, "New alert configuration")
	eq(t, 24, len(lines), "a scrolling form takes the height it is given")
	eq(t, "Event type", focusedOn(t, lines))
	mustContain(t, plain(f.View()), "↓ 4 more")
	mustNotContain(t, plain(f.View()), "↑")

	labels := []string{"Event type", "Enabled", "Severity override", "Matchers", "Notify", "Target",
		"Secret (webhook, optional)", "Delay (min)", "Interval (min)"}
	values := map[string]string{"Event type": "HOST_DOWN", "Delay (min)": "0", "Interval (min)": "60"}
	for i := 1; i < len(labels); i++ {
		f, _ = f.Update(key("tab"))
		view := plain(f.View())
		lines = fitsIn(t, f.View(), 80, 24, "New alert configuration")
		eq(t, labels[i], focusedOn(t, lines), "after ", i, " tabs")
		if v := values[labels[i]]; v != "" {
			mustContain(t, view, "│   "+v+" ")
		}
	}
	view := plain(f.View())
	mustContain(t, view, "↑ 4 more")
	mustNotContain(t, view, "↓")
	// Everything before the fields shown is counted, nothing shown is.
	for _, l := range labels[:4] {
		mustNotContain(t, view, l)
	}

	// A taller screen shows again the fields above that now fit.
	f.SetSize(80, 30)
	fitsIn(t, f.View(), 80, 30, "New alert configuration")
	mustContain(t, plain(f.View()), "↑ 2 more")
	mustContain(t, plain(f.View()), "Matchers")
}

// Going back up to a field already on screen does not move the fields.
func TestFormScrollStaysWhileTheFocusIsInView(t *testing.T) {
	f := configForm()
	f.SetSize(80, 24)
	for range 8 {
		f, _ = f.Update(key("tab"))
	}
	before := strings.Split(plain(f.View()), "\n")[2]
	mustContain(t, before, "↑ 4 more")
	for range 3 {
		f, _ = f.Update(key("shift+tab"))
		eq(t, before, strings.Split(plain(f.View()), "\n")[2], "the fields moved though the focus was in view")
	}
	eq(t, "Target", focusedOn(t, strings.Split(plain(f.View()), "\n")))
}

// On the smallest screen the focused field's error shows with it, and a
// resize in the middle keeps what was typed and the focus in view.
func TestFormErrorAndResizeKeepTheFocusInView(t *testing.T) {
	f := configForm()
	f.SetSize(80, 24)
	for range 7 {
		f, _ = f.Update(key("tab"))
	}
	f, _ = f.Update(key("backspace"))
	for _, m := range typeText("x5") {
		f, _ = f.Update(m)
	}
	f.SetSize(60, 16)
	lines := fitsIn(t, f.View(), 60, 16, "New alert configuration")
	eq(t, "Delay (min)", focusedOn(t, lines))
	view := plain(f.View())
	mustContain(t, view, "x5")
	mustContain(t, view, "a whole number of minutes")

	// Submitting moves to the first bad field; its error is on screen.
	f, cmd := f.Update(key("enter"))
	eq(t, true, cmd == nil, "an invalid form must not submit")
	f.SetSubmitError("INVALID_ATTRIBUTE", strings.Repeat("the server says no to this configuration ", 8))
	lines = fitsIn(t, f.View(), 60, 16, "New alert configuration")
	eq(t, "Delay (min)", focusedOn(t, lines))
	mustContain(t, plain(f.View()), "a whole number of minutes")
	mustContain(t, plain(f.View()), "✗ INVALID_ATTRIBUTE")

	f.SetSize(80, 60)
	view = plain(f.View())
	mustContain(t, view, "x5")
	mustNotContain(t, view, "more")
	for _, l := range []string{"Event type", "Interval (min)"} {
		mustContain(t, view, l)
	}
}

// A list of choices taller than the room shows the selected choice and the
// field's error, and says more is above or below.
func TestFormTallChoiceListShowsTheSelectedChoice(t *testing.T) {
	var names, reasons []string
	for _, n := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"} {
		names = append(names, "cluster-"+n)
		reasons = append(reasons, "")
	}
	reasons[0] = "the snapshot's own cluster"
	f := NewForm("t", "Restore (2/3)", []Field{
		{Key: "note", Kind: FieldNote, Label: "Snapshot of cluster-a"},
		{Key: "cluster", Label: "Target cluster in payments (snapshot: MongoDB 6.0.18)", Kind: FieldChoice, List: true, None: true, Choices: names, Reasons: reasons},
	}, nil, dark(), nil)
	f.SetSize(60, 16)
	f, _ = f.Update(key("enter"))
	fitsIn(t, f.View(), 60, 16, "Restore (2/3)")
	view := plain(f.View())
	// The label too long for the line wraps, indented, and is all there.
	mustContain(t, view, "│ ▸ Target cluster in payments (snapshot: MongoDB      │\n│   6.0.18)  ")
	mustContain(t, view, "choose one")
	mustContain(t, view, "cluster-a")
	mustContain(t, view, "↓ more")
	for range 10 {
		f, _ = f.Update(key("down"))
	}
	fitsIn(t, f.View(), 60, 16, "Restore (2/3)")
	view = plain(f.View())
	mustContain(t, view, "(•) cluster-k")
	mustContain(t, view, "↑ 1 more")
}

// Choices side by side wrap between choices only, each line indented as
// the first.
func TestFormChoicesWrapBetweenChoices(t *testing.T) {
	choices := []string{"payments", "analytics", "staging", "checkout", "inventory", "ledger", "identity",
		"mobile-backend", "notifications", "warehouse", "billing", "catalog"}
	for _, w := range []int{80, 60} {
		f := NewForm("r", "Restore (1/3)", []Field{
			{Key: "project", Label: "Target project", Kind: FieldChoice, Choices: choices},
		}, nil, dark(), nil)
		f.SetSize(w, 24)
		var optLines []string
		for _, l := range strings.Split(plain(f.View()), "\n") {
			if strings.Contains(l, "( )") || strings.Contains(l, "(•)") {
				optLines = append(optLines, l)
			}
		}
		if len(optLines) < 2 {
			t.Fatalf("width %d: the choices did not wrap:\n%s", w, plain(f.View()))
		}
		seen := 0
		for _, l := range optLines {
			if !strings.HasPrefix(l, "│   (") {
				t.Fatalf("width %d: a line of choices is not indented like the first: %q", w, l)
			}
			body := strings.TrimSpace(strings.Trim(l, "│"))
			for _, opt := range strings.Split(body, "  ") {
				if !regexp.MustCompile(`^\((•| )\) [a-z-]+$`).MatchString(opt) {
					t.Fatalf("width %d: a choice is cut: %q in %q", w, opt, l)
				}
				seen++
			}
		}
		eq(t, len(choices), seen, "width ", w, ": choices shown")
	}
}

// A note above the fields (the board's "1 marked row is not an alert, left
// out") is never focused: when the form scrolls, going back to the first
// field brings it into view, or no key could ever show it.
func TestNoteAboveTheFieldsComesIntoViewWithTheFirstField(t *testing.T) {
	f := NewForm("ack", "Acknowledge", []Field{
		{Key: "left", Label: "1 marked row is not an alert, left out:", Kind: FieldNote, Value: "snapshot failed on checkout-main"},
		{Key: "targets", Label: "Acts on", Kind: FieldNote, Value: "a\nb\nc"},
		{Key: "until", Label: "Until", Kind: FieldChoice, Choices: []string{"1h", "4h", "forever"}},
		{Key: "date", Label: "Date", Hint: "YYYY-MM-DD HH:MM"},
		{Key: "comment", Label: "Comment", Focus: true},
	}, nil, dark(), nil)
	f.SetSize(80, 16)
	view := plain(f.View())
	if strings.Contains(view, "left out") {
		t.Fatalf("the form fits at this height; the test needs it to scroll:\n%s", view)
	}
	mustContain(t, view, "↑")
	for range 2 {
		f, _ = f.Update(key("shift+tab"))
	}
	view = plain(f.View())
	mustContain(t, view, "▸ Until")
	mustContain(t, view, "left out")
}

// A note longer than its Rows shows that many items and a cue of how many
// more are below and above; tab gives it the cursor and up/down scroll it
// an item (ItemLines lines) at a time, so every line can be read; at its
// end, down moves on to the next field.
func TestFormScrollingNoteReachesEveryItem(t *testing.T) {
	var items []string
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		items = append(items, "• alert-"+n+"\n  id-"+n)
	}
	f := NewForm("t", "Acknowledge 5 alerts", []Field{
		{Key: "targets", Kind: FieldNote, Label: "Acts on these 5:", Value: strings.Join(items, "\n"), Rows: 2, ItemLines: 2},
		{Key: "comment", Label: "Comment", Kind: FieldText, Focus: true},
	}, nil, dark(), nil)
	f.SetSize(80, 24)
	view := plain(f.View())
	mustContain(t, view, "id-b")
	mustContain(t, view, "(↓ 3 more · tab here to scroll)")
	if strings.Contains(view, "alert-c") {
		t.Fatalf("more than two items shown:\n%s", view)
	}
	f, _ = f.Update(key("shift+tab"))
	mustContain(t, plain(f.View()), "▸ Acts on these 5:")
	seen := map[string]bool{}
	for range 3 {
		f, _ = f.Update(key("down"))
		for _, n := range []string{"a", "b", "c", "d", "e"} {
			if strings.Contains(plain(f.View()), "alert-"+n) && strings.Contains(plain(f.View()), "id-"+n) {
				seen[n] = true
			}
		}
	}
	if len(seen) != 4 { // b..e after three steps (a was read before)
		t.Fatalf("items read by scrolling: %v\n%s", seen, plain(f.View()))
	}
	mustContain(t, plain(f.View()), "(↑ 3 above · ↑/↓ scroll)")
	f, _ = f.Update(key("down"))
	mustContain(t, plain(f.View()), "▸ Comment")
	f, _ = f.Update(key("shift+tab"))
	f, _ = f.Update(key("up"))
	mustContain(t, plain(f.View()), "(↓ 1 more · ↑ 2 above · ↑/↓ scroll)")
}
