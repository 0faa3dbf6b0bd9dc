package components

import "testing"

func TestToastDismissHintAndCountInLine(t *testing.T) {
	ts := NewToasts(dark())
	ts.Info("refreshed")
	eq(t, "ℹ refreshed", plain(ts.Line(80)))
	ts.Info("refreshed")
	eq(t, "ℹ refreshed (×2)", plain(ts.Line(80)), "the line counts repeats like the stack does")

	ts.Error("ack failed")
	eq(t, "✗ ack failed", plain(ts.Line(80)), "no hint unless asked")
	ts.SetDismissHint("esc")
	eq(t, "✗ ack failed (esc)", plain(ts.Line(80)))
	mustContain(t, plain(ts.View()), "ack failed (esc)")
	mustNotContain(t, plain(ts.View()), "refreshed (×2) (esc)")
	eq(t, "✗ ack fa…", plain(ts.Line(9)), "fits the width given")

	eq(t, true, ts.Dismiss())
	eq(t, "ℹ refreshed (×2)", plain(ts.Line(80)), "info toasts never show the hint")
}

// A notice that arrives while errors fill the stack is shown, not dropped
// at once in favour of older errors.
func TestToastNoticeIsKeptWhenErrorsFillTheStack(t *testing.T) {
	ts := NewToasts(dark())
	for i := range 5 {
		ts.Error("refused " + string(rune('a'+i)))
	}
	ts.Info("read-only mode off")
	eq(t, "ℹ read-only mode off", plain(ts.Line(80)))
	eq(t, 5, ts.Len())
	mustNotContain(t, plain(ts.View()), "refused a")
}
