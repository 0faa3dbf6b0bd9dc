package components

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/keymap"
)

// SetRows replaces the rows (a refresh) and takes the slice: the table
// keeps rows itself, not a copy, and the caller must not use it afterwards
// except through Recycle. A row whose cells need sanitizing gets a
// sanitized copy of its cells in its slot; the Cells slices are otherwise
// only read. The cursor stays on the row with the same ID; if that row is
// gone it stays at the same position. Marks of vanished rows are dropped.
//
// A refresh holds one set of rows: the id index, the order and the filter
// text are rebuilt in the table's own buffers, and a caller that refills
// the slice Recycle gives back builds no second set of rows either.
func (t *Table) SetRows(rows []Row) {
	keep, recycled := t.SelectedID(), t.recycled
	if recycled {
		keep, t.recycled = t.keep, false
	}
	if t.bufRows > 2*len(rows)+1024 {
		// Buffers sized for far more rows (another project) go.
		t.byID, t.order, t.filt, t.hay, t.hayAt, t.bufRows = nil, nil, nil, nil, nil, 0
	}
	// The rows around the cursor row, nearest first, while the old rows
	// are still there (not after Recycle, which gave them to be refilled):
	// if it is gone, the cursor goes to the nearest one that is not.
	var around []string
	if !recycled && keep != "" && len(t.order) == len(t.rows) {
		around = t.around(keep)
	}
	t.bufRows = max(t.bufRows, len(rows))
	if t.byID == nil {
		t.byID = make(map[string]int, len(rows))
	}
	clear(t.byID)
	for i := range rows {
		r := &rows[i]
		cloned := false
		for j, c := range r.Cells {
			if s := Sanitize(c); s != c {
				if !cloned {
					r.Cells, cloned = slices.Clone(r.Cells), true
				}
				r.Cells[j] = s
			}
		}
		t.byID[r.ID] = i
	}
	for id := range t.marks {
		if _, ok := t.byID[id]; !ok {
			delete(t.marks, id)
		}
	}
	t.rows = rows
	t.invalidate(true)
	if _, ok := t.byID[keep]; !ok && len(around) > 0 {
		t.rebuild(true, "")
		t.cursorToFirstShown(around)
		return
	}
	t.rebuild(true, keep)
}

// around lists the rows in the (unfiltered) order around row id, nearest
// first, the one after before the one before; nil when id is not a row.
func (t *Table) around(id string) []string {
	k := -1
	for j, ri := range t.order {
		if t.rows[ri].ID == id {
			k = j
			break
		}
	}
	if k < 0 {
		return nil
	}
	out := make([]string, 0, len(t.order)-1)
	for d := 1; k+d < len(t.order) || k-d >= 0; d++ {
		if k+d < len(t.order) {
			out = append(out, t.rows[t.order[k+d]].ID)
		}
		if k-d >= 0 {
			out = append(out, t.rows[t.order[k-d]].ID)
		}
	}
	return out
}

// cursorToFirstShown puts the cursor on the first of ids that is shown
// (else where rebuild left it).
func (t *Table) cursorToFirstShown(ids []string) {
	at := make([]int, len(t.rows)) // row -> 1 + its index in view; 0: hidden
	for i, ri := range t.view {
		at[ri] = i + 1
	}
	for _, id := range ids {
		if ri, ok := t.byID[id]; ok && at[ri] > 0 {
			t.cursor = at[ri] - 1
			break
		}
	}
	t.ensureVisible()
}

// Recycle gives the rows back to be refilled in place: the slice given to
// the last SetRows, emptied, with its capacity. The caller refills it and
// hands it to SetRows, so a refresh writes over the old rows instead of
// building a second set beside them. Until that SetRows the table shows
// no rows; the cursor row, remembered here, is the one SetRows keeps.
func (t *Table) Recycle() []Row {
	if !t.recycled {
		t.keep, t.recycled = t.SelectedID(), true
	}
	rows := t.rows[:0]
	t.rows, t.order, t.view = nil, t.order[:0], nil
	clear(t.byID)
	t.invalidate(true)
	return rows
}

// Rows returns every row (sanitized), in the order given to SetRows.
func (t Table) Rows() []Row { return t.rows }

// Len is the number of rows shown (after the filter); Total is all rows.
func (t Table) Len() int   { return len(t.view) }
func (t Table) Total() int { return len(t.rows) }

// VisibleRows returns the shown rows in display order (sorted, filtered).
func (t Table) VisibleRows() []Row {
	out := make([]Row, len(t.view))
	for i, ri := range t.view {
		out[i] = t.withCells(ri)
	}
	return out
}

// Cursor is the cursor's index among the shown rows (-1 when empty).
func (t Table) Cursor() int {
	if len(t.view) == 0 {
		return -1
	}
	return t.cursor
}

// SelectedRow returns the row under the cursor.
func (t Table) SelectedRow() (Row, bool) {
	if len(t.view) == 0 {
		return Row{}, false
	}
	return t.withCells(t.view[t.cursor]), true
}

// SelectedID is the ID of the row under the cursor, or "".
func (t Table) SelectedID() string {
	if len(t.view) == 0 {
		return ""
	}
	return t.rows[t.view[t.cursor]].ID
}

// SetCursor moves the cursor to a shown index (clamped).
func (t *Table) SetCursor(i int) {
	t.cursor = clampInt(i, 0, len(t.view)-1)
	t.ensureVisible()
}

// SetCursorID moves the cursor to the row with the given ID; false if that
// row is not shown.
func (t *Table) SetCursorID(id string) bool {
	ri, ok := t.byID[id]
	if !ok {
		return false
	}
	for i, v := range t.view {
		if v == ri {
			t.cursor = i
			t.ensureVisible()
			return true
		}
	}
	return false
}

// navStep is how far a navigation key moves over a page of page rows: a
// row, a page or half of one, up (negative) or down. ok is false for keys
// that are not such a step (home and end among them).
func navStep(nav keymap.Navigation, k tea.KeyPressMsg, page int) (d int, ok bool) {
	half := max(page/2, 1)
	for _, s := range []struct {
		a keymap.Action
		d int
	}{{nav.Up, -1}, {nav.Down, 1}, {nav.PageUp, -page}, {nav.PageDown, page}, {nav.HalfUp, -half}, {nav.HalfDown, half}} {
		if s.a.Matches(k) {
			return s.d, true
		}
	}
	return 0, false
}

// Update handles navigation, mark and sort keys.
func (t Table) Update(msg tea.Msg) (Table, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return t, nil
	}
	page := max(t.bodyHeight(), 1)
	if d, ok := navStep(t.nav, k, page); ok {
		t.move(d)
		return t, nil
	}
	switch {
	case t.nav.Home.Matches(k):
		t.SetCursor(0)
	case t.nav.End.Matches(k):
		t.SetCursor(len(t.view) - 1)
	case t.keys.Mark.Matches(k):
		if id := t.SelectedID(); id != "" {
			t.ToggleMark(id)
			t.move(1)
		}
	case t.keys.RangeMark.Matches(k):
		t.RangeMark()
	case t.keys.MarkVisible.Matches(k):
		t.MarkVisible()
	case t.keys.SortNext.Matches(k):
		t.CycleSort()
	case t.keys.SortReverse.Matches(k):
		t.ReverseSort()
	case t.keys.ClearMarks.Matches(k):
		t.ClearMarks()
	}
	return t, nil
}

// MoveCursor moves the cursor by n shown rows (negative: up).
func (t *Table) MoveCursor(n int) { t.move(n) }

func (t *Table) move(n int) {
	if len(t.view) == 0 {
		return
	}
	t.cursor = clampInt(t.cursor+n, 0, len(t.view)-1)
	t.ensureVisible()
}

func (t Table) bodyHeight() int { return max(t.height-1, 0) }

func (t *Table) ensureVisible() {
	h := t.bodyHeight()
	if t.cursor < t.offset {
		t.offset = t.cursor
	} else if h > 0 && t.cursor >= t.offset+h {
		t.offset = t.cursor - h + 1
	}
	t.clampOffset()
}

func (t *Table) clampOffset() {
	t.offset = clampInt(t.offset, 0, max(len(t.view)-t.bodyHeight(), 0))
	if t.cursor < t.offset || t.cursor >= t.offset+t.bodyHeight() {
		if t.bodyHeight() > 0 && len(t.view) > 0 {
			t.offset = clampInt(t.cursor-t.bodyHeight()+1, 0, t.cursor)
			t.offset = clampInt(t.offset, 0, max(len(t.view)-t.bodyHeight(), 0))
		}
	}
}
