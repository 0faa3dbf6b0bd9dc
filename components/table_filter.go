package components

import (
	"bytes"
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"
)

// MatchesFilter reports whether the row with that ID passes the text
// filter (whatever the predicate says).
func (t *Table) MatchesFilter(id string) bool {
	ri, ok := t.byID[id]
	if !ok {
		return false
	}
	q, invert := t.filter, false
	if strings.HasPrefix(q, "!") {
		q, invert = q[1:], true
	}
	if q == "" {
		return true
	}
	if !t.hayOK {
		t.buildHay()
	}
	return bytes.Contains(t.hay[t.hayAt[ri]:t.hayAt[ri+1]], []byte(strings.ToLower(q))) != invert
}

// SetFilter filters the shown rows: a case-insensitive substring across all
// cells; a leading "!" keeps the rows that do NOT contain the rest.
func (t *Table) SetFilter(q string) {
	if q == t.filter {
		return
	}
	keep := t.SelectedID()
	t.filter = q
	if q == "" && t.lazy != nil {
		// Made on demand: not held while no filter needs it.
		t.hay, t.hayAt, t.hayOK = nil, nil, false
	}
	t.rebuild(false, keep)
}

// SetPredicate filters the shown rows with the pane's own test (a status
// filter) as well as the text filter; nil shows every row. The cursor
// follows its row, or goes to the nearest shown one.
func (t *Table) SetPredicate(f func(Row) bool) {
	keep := t.SelectedID()
	t.pred = f
	t.rebuild(false, keep)
}

// PrepareFilter makes the filter's lowercase text of the rows now (a
// refresh) rather than on the next filter keystroke; a table with a
// CellsFunc makes it only while a filter is set.
func (t *Table) PrepareFilter() {
	if !t.hayOK && (t.lazy == nil || t.filter != "") {
		t.buildHay()
	}
}

// Filter returns the current filter.
func (t Table) Filter() string { return t.filter }

// SortBy sorts by a column (stable); col < 0 restores the given order.
func (t *Table) SortBy(col int, desc bool) {
	if col >= len(t.cols) {
		col = -1
	}
	keep := t.SelectedID()
	t.sortCol, t.sortDesc = col, desc && col >= 0
	t.invalidate(false)
	t.rebuild(true, keep)
}

// Sort returns the sort column (-1 for none) and direction.
func (t Table) Sort() (col int, desc bool) { return t.sortCol, t.sortDesc }

// CycleSort moves the sort to the next sortable column, ascending, then
// back to no sort.
func (t *Table) CycleSort() {
	next := -1
	for c := t.sortCol + 1; c < len(t.cols); c++ {
		if !t.cols[c].NoSort {
			next = c
			break
		}
	}
	t.SortBy(next, false)
}

// ReverseSort flips the sort direction (sorting by the first sortable
// column if there was no sort).
func (t *Table) ReverseSort() {
	if t.sortCol < 0 {
		t.CycleSort()
		return
	}
	t.SortBy(t.sortCol, !t.sortDesc)
}

// invalidate drops cached render state; rowsChanged also drops the filter
// haystack.
func (t *Table) invalidate(rowsChanged bool) {
	t.c = &tableCache{}
	if rowsChanged {
		t.hayOK = false
	}
}

// rebuild recomputes order (when resort) and view, keeping the cursor on
// the row keepID if it is still shown, else at the same position.
func (t *Table) rebuild(resort bool, keepID string) {
	pos := t.cursor
	if resort || len(t.order) != len(t.rows) {
		t.order = t.sorted()
	}
	t.view = t.filtered()
	t.cursor = clampInt(pos, 0, len(t.view)-1)
	if keepID == "" || t.SetCursorID(keepID) {
		t.ensureVisible()
		return
	}
	if ri, ok := t.byID[keepID]; ok {
		// The row is there but filtered out: the cursor goes to the
		// nearest shown row in the unfiltered order, not to wherever its
		// old index falls in the shorter list.
		t.cursor = t.nearest(ri)
	}
	t.ensureVisible()
}

// nearest is the index in view of the shown row nearest to row ri in
// the unfiltered order; on a tie, the one after. ri is not shown.
func (t *Table) nearest(ri int) int {
	if len(t.view) == 0 {
		return 0
	}
	before, beforeAt, at, vi := -1, 0, -1, 0
	for j, r := range t.order {
		if vi < len(t.view) && t.view[vi] == r {
			if at >= 0 {
				if before >= 0 && at-beforeAt < j-at {
					return before
				}
				return vi
			}
			before, beforeAt = vi, j
			vi++
			continue
		}
		if r == ri {
			at = j
		}
	}
	return max(before, 0)
}

func (t *Table) sorted() []int {
	order := t.order[:0]
	if cap(order) < len(t.rows) {
		order = make([]int, 0, len(t.rows))
	}
	order = order[:len(t.rows)]
	for i := range order {
		order[i] = i
	}
	if t.sortCol < 0 || t.sortCol >= len(t.cols) {
		return order
	}
	col, c := t.cols[t.sortCol], t.sortCol
	dir := 1
	if t.sortDesc {
		dir = -1
	}
	if col.SortNumber != nil {
		keys := make([]float64, len(t.rows))
		for i, r := range t.rows {
			r.Cells = t.cells(i)
			keys[i] = col.SortNumber(r)
		}
		slices.SortStableFunc(order, func(a, b int) int { return dir * cmp.Compare(keys[a], keys[b]) })
		return order
	}
	keys := make([]string, len(t.rows))
	for i, r := range t.rows {
		r.Cells = t.cells(i)
		if col.SortKey != nil {
			keys[i] = col.SortKey(r)
		} else if c < len(r.Cells) {
			keys[i] = strings.ToLower(r.Cells[c])
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return dir * strings.Compare(keys[a], keys[b]) })
	return order
}

func (t *Table) filtered() []int {
	q, invert := t.filter, false
	if strings.HasPrefix(q, "!") {
		q, invert = q[1:], true
	}
	q = strings.ToLower(q)
	if q == "" && t.pred == nil {
		return t.order
	}
	if q != "" && !t.hayOK {
		t.buildHay()
	}
	qb := []byte(q)
	out := t.filt[:0]
	for _, ri := range t.order {
		if t.pred != nil && !t.pred(t.rows[ri]) {
			continue
		}
		if q == "" || bytes.Contains(t.hay[t.hayAt[ri]:t.hayAt[ri+1]], qb) != invert {
			out = append(out, ri)
		}
	}
	t.filt = out
	return out
}

// buildHay writes every row's lowercased text into the hay buffer (what
// strings.ToLower(strings.Join(cells, "\x00")) gives, without a string a
// row).
func (t *Table) buildHay() {
	hay, at := t.hay[:0], t.hayAt[:0]
	if cap(at) < len(t.rows)+1 {
		at = make([]uint32, 0, len(t.rows)+1)
	}
	need := 0
	if t.lazy == nil {
		for _, r := range t.rows {
			for _, c := range r.Cells {
				need += len(c) + 1
			}
		}
	} else if n := min(len(t.rows), 64); n > 0 {
		// Cells made on demand are not made twice: the size is guessed
		// from the first rows', with room over.
		for i := range n {
			for _, c := range t.cells(i) {
				need += len(c) + 1
			}
		}
		need = need * len(t.rows) / n * 5 / 4
	}
	if cap(hay) < need {
		hay = make([]byte, 0, need+need/16)
	}
	for i := range t.rows {
		at = append(at, uint32(len(hay)))
		for j, c := range t.cells(i) {
			if j > 0 {
				hay = append(hay, 0)
			}
			hay = appendLower(hay, c)
		}
	}
	t.hay, t.hayAt, t.hayOK = hay, append(at, uint32(len(hay))), true
}

// appendLower appends strings.ToLower(s) to b, copying plain ASCII byte by
// byte.
func appendLower(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return append(b, strings.ToLower(s)...)
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return b
}
