package components

import "testing"

func TestToastDismissHintAndCountInLine(t *testing.T) {
	ts := NewToasts(dark())
	ts.Info("refreshed")
	eq(t, "ℹ refreshed", oneLine(t, ts, 80))
	ts.Info("refreshed")
	eq(t, "ℹ refreshed (×2)", oneLine(t, ts, 80), "the line counts repeats like the stack does")

	ts.Error("ack failed")
	eq(t, "✗ ack failed", oneLine(t, ts, 80), "no hint unless asked")
	ts.SetDismissHint("esc")
	eq(t, "✗ ack failed (esc)", oneLine(t, ts, 80))
	mustContain(t, plain(ts.View()), "ack failed (esc)")
	mustNotContain(t, plain(ts.View()), "refreshed (×2) (esc)")
	eq(t, "✗ ack fa…", oneLine(t, ts, 9), "fits the width given")

	eq(t, true, ts.Dismiss())
	eq(t, "ℹ refreshed (×2)", oneLine(t, ts, 80), "info toasts never show the hint")
}

// A notice that arrives while errors fill the stack is shown, not dropped
// at once in favour of older errors.
func TestToastNoticeIsKeptWhenErrorsFillTheStack(t *testing.T) {
	ts := NewToasts(dark())
	for i := range 5 {
		ts.Error("refused " + string(rune('a'+i)))
	}
	ts.Info("read-only mode off")
	eq(t, "ℹ read-only mode off", oneLine(t, ts, 80))
	eq(t, 5, ts.Len())
	mustNotContain(t, plain(ts.View()), "refused a")
}

// oneLine is the newest toast as the footer shows it in one line of width
// w, plain.
func oneLine(t *testing.T, ts Toasts, w int) string {
	t.Helper()
	lines := ts.Lines(w, 1)
	if len(lines) != 1 {
		t.Fatalf("want one line, got %q", lines)
	}
	return plain(lines[0])
}

// A toast too long for its lines is cut at the end, as written: a host name
// the wrap broke across lines is not given a space inside it.
func TestToastLinesCutKeepsAWordWhole(t *testing.T) {
	ts := NewToasts(dark())
	ts.Info("acknowledged until 05:00: OUTSIDE_METRIC_THRESHOLD on payments-prod/payments-prod-shard-00-00.00001.mongodb.example.net:27017 and two more alerts of that project")
	lines := ts.Lines(40, 2)
	if len(lines) != 2 {
		t.Fatalf("want two lines, got %q", lines)
	}
	got := plain(lines[0]) + "\n" + plain(lines[1])
	mustNotContain(t, got, "- ")
	mustNotContain(t, got, "0 0")
	mustContain(t, plain(lines[1]), "…")
}
