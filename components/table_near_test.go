package components

import "testing"

// A cursor whose row the filter or the predicate hides goes to the nearest
// shown row in the unfiltered order (the one after on a tie), never to
// wherever its old index falls in the shorter list.
func TestTableHiddenCursorGoesToTheNearestRow(t *testing.T) {
	ids := []string{"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9"}
	tb := newAlertTable(ids...)
	tb.SetCursorID("r2")
	// Shown: r0, r7, r9. r2 is nearer r0 (2) than r7 (5).
	tb.SetPredicate(func(r Row) bool { return r.ID == "r0" || r.ID == "r7" || r.ID == "r9" })
	eq(t, "r0", tb.SelectedID())
	tb.SetPredicate(nil)
	tb.SetCursorID("r5")
	// r5 is 2 from r3 and 2 from r7: the one after.
	tb.SetPredicate(func(r Row) bool { return r.ID == "r3" || r.ID == "r7" })
	eq(t, "r7", tb.SelectedID())
	tb.SetPredicate(nil)

	// The text filter the same: "event r1" shows r1 alone, whatever the
	// old cursor index was.
	tb.SetCursorID("r8")
	tb.SetFilter("event r1")
	eq(t, "r1", tb.SelectedID())
	tb.SetFilter("")
	tb.SetCursorID("r8")
	tb.SetFilter("!r9") // r8's own row stays: the cursor with it
	eq(t, "r8", tb.SelectedID())

	// Sorted: nearest in the order shown, not the order given.
	tb.SetFilter("")
	tb.SortBy(3, false) // Count ascending: r9 first
	tb.SetCursorID("r6")
	tb.SetPredicate(func(r Row) bool { return r.ID == "r9" || r.ID == "r5" || r.ID == "r0" })
	eq(t, "r5", tb.SelectedID())

	// Nothing shown: no row, and back again.
	tb.SetPredicate(func(Row) bool { return false })
	eq(t, "", tb.SelectedID())
	tb.SetPredicate(nil)
	eq(t, 10, tb.Len())
}

// A refresh without the cursor row (a pane's own filter rebuilt the rows,
// or the row went away) puts the cursor on its nearest neighbour of the
// old order that is still shown, not on the row at its old index.
func TestTableVanishedCursorRowGoesToItsNearestNeighbour(t *testing.T) {
	tb := newAlertTable("r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9")
	tb.SetCursorID("r7")
	// The pane keeps r1, r6 and r9 only: r6 is nearest r7 (after r8, gone).
	tb.SetRows(alertRows("r1", "r6", "r9"))
	eq(t, "r6", tb.SelectedID())
	// New rows and a text filter: the nearest neighbour shown.
	tb.SetRows(alertRows("r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9"))
	tb.SetCursorID("r2")
	tb.SetFilter("!r3")
	tb.SetRows(alertRows("r0", "r1", "r3", "r4", "r5", "r6"))
	eq(t, "r1", tb.SelectedID()) // r3 is hidden; r1 and r3 tie, r3 hidden
}
