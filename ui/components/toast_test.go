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
