package components

import (
	"bytes"
	"cmp"
	"iter"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
)

// Row is one table row. ID must be unique and stable across refreshes: the
// cursor and the marks follow it.
type Row struct {
	ID    string
	Cells []string
	// Class picks the row's style: a severity (CRITICAL, WARNING, …) or a
	// state (ok, running, failed, muted, or an API status). Empty: plain.
	Class string
}

// Align is a column's horizontal alignment.
type Align int

// Alignments.
const (
	AlignLeft Align = iota
	AlignRight
	AlignCenter
)

// Column describes one column.
type Column struct {
	Title string
	// Width > 0 is a fixed width in cells. Width == 0 makes the column
	// flexible: it shares the remaining width by Flex (default 1) and gets
	// at least MinWidth.
	Width    int
	MinWidth int
	Flex     int
	Align    Align
	// SortKey gives the sort key of a row for this column; nil sorts by the
	// cell's text, case-insensitively. SortNumber, when set, sorts
	// numerically instead (sizes, counts, durations).
	SortKey    func(Row) string
	SortNumber func(Row) float64
	// NoSort leaves the column out of the sort cycle.
	NoSort bool

	// Priority says how long the column lasts as the table narrows
	// (k9s-style): 0 is a key column, never shortened or dropped; among the
	// others the highest number goes first (on a tie, the rightmost). A
	// column with a short form (ShortWidth > 0) is shortened to it when its
	// turn comes, and dropped only after every full-form column has gone:
	// columns are never all cut to unreadable stubs.
	Priority int
	// ShortWidth, ShortTitle and ShortCell are the column's short form:
	// e.g. STATUS as a one-cell marker. ShortCell maps a cell's text (nil:
	// the text is cut to ShortWidth).
	ShortWidth int
	ShortTitle string
	ShortCell  func(string) string
}

// MarkGlyph is drawn in the gutter of marked rows.
const MarkGlyph = "●"

// CursorGlyph is drawn in the gutter of the cursor row, so the cursor shows
// even where reverse video or colour does not.
const CursorGlyph = "▸"

// gutterWidth holds the cursor glyph, the mark glyph and a space.
const gutterWidth = 3

// Table is an ID-stable, sortable, filterable, multi-select table that
// renders only the rows it shows. Sorting and filtering are computed when
// rows, sort or filter change, never per frame, and rendered row text is
// cached, so a frame over 100,000 rows costs what a frame over 60 does.
type Table struct {
	cols   []Column
	rows   []Row          // sanitized; the slice given to SetRows
	byID   map[string]int // row ID -> index in rows, refilled in place
	order  []int          // rows indices, sorted (its buffer is reused)
	view   []int          // order filtered: what is shown (order itself, or filt)
	filt   []int          // the buffer of a filtered view, reused
	cursor int            // index into view
	offset int            // first shown index into view
	width  int
	height int

	sortCol  int // -1: rows keep their given order
	sortDesc bool
	filter   string
	pred     func(Row) bool // the pane's own filter (a status), nil: none
	marks    map[string]struct{}
	anchor   string // the row last marked with the mark key: a range mark starts there

	// hay is every row's text, lowercased, cells joined by NUL, for the
	// filter: row i is hay[hayAt[i]:hayAt[i+1]]. One buffer without
	// pointers, rewritten in place when the rows change (hayOK false).
	hay   []byte
	hayAt []uint32
	hayOK bool

	bufRows int // the most rows the buffers above and byID were filled with

	// lazy gives the cells of rows given without them (SetCellsFunc);
	// cellBuf is what it writes them into.
	lazy    CellsFunc
	cellBuf []string

	// widths are the widths of the cells measured so far (those that are
	// not plain ASCII), kept across layouts: a cell value is measured once.
	widths *widthMemo

	// recycled: Recycle gave the rows back; keep is the cursor row then.
	recycled bool
	keep     string

	theme      themes.Theme
	nav        keymap.Navigation
	keys       keymap.Table
	classStyle func(class string) lipgloss.Style

	c *tableCache
}

// tableCache holds derived render state. It is replaced, never cleared,
// so copies of a Table made before a change keep rendering correctly.
type tableCache struct {
	widths   []int
	form     []colForm // per column: full, short or dropped at this width
	overflow bool
	bodyW    int // the width of a row's cells when they do not overflow
	header   string
	headerW  int          // the header's width, measured once
	bodies   map[int]body // rows index -> padded cell text
	styles   map[string][2]string
	// frames are the last window drawn by View and by Box, with what
	// it showed: a frame over the same window is the same string, built
	// once.
	frames [2]frame
}

// body is a row's cells as drawn, with their width.
type body struct {
	text string
	w    int
}

// frame is a drawn window and what it was drawn from.
type frame struct {
	key  frameKey
	text string
}

// frameKey is what a drawn window depends on besides the rows and the
// layout (which replace the cache when they change).
type frameKey struct {
	ok             bool
	offset, cursor int
	view           *int
	n              int
	filter         string
	marked         uint64 // which rows of the window are marked (the first 64)
	marks          int
}

// NewTable builds a table. km may be nil (keymap.Default is used).
func NewTable(cols []Column, th themes.Theme, km *keymap.KeyMap) Table {
	if km == nil {
		km = keymap.Default()
	}
	t := Table{
		cols:    slices.Clone(cols),
		byID:    map[string]int{},
		sortCol: -1,
		marks:   map[string]struct{}{},
		theme:   th,
		nav:     km.Navigation,
		keys:    km.Table,
	}
	t.classStyle = th.Class
	t.c = &tableCache{}
	t.widths = &widthMemo{}
	return t
}

// widthMemo remembers the widths of styled or non-ASCII cell texts, up to
// widthMemoSize of them (then it starts over).
type widthMemo struct{ m map[string]int }

const widthMemoSize = 8192

// of is Width(s), measured once per value.
func (w *widthMemo) of(s string) int {
	plain := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || s[i] < ' ' {
			plain = false
			break
		}
	}
	if plain || w == nil {
		return Width(s)
	}
	if n, ok := w.m[s]; ok {
		return n
	}
	if w.m == nil || len(w.m) >= widthMemoSize {
		w.m = make(map[string]int, 64)
	}
	n := Width(s)
	w.m[s] = n
	return n
}

// SetTheme switches styles.
func (t *Table) SetTheme(th themes.Theme) {
	t.theme = th
	t.classStyle = th.Class
	t.invalidate(false)
}

// SetKeyMap takes new navigation and table bindings (after overrides).
func (t *Table) SetKeyMap(km *keymap.KeyMap) {
	t.nav = km.Navigation
	t.keys = km.Table
}

// SetStyleFunc replaces the Row.Class -> style lookup (default: the theme's
// Class).
func (t *Table) SetStyleFunc(f func(class string) lipgloss.Style) {
	t.classStyle = f
	t.invalidate(false)
}

// SetColumns replaces the columns and keeps rows, cursor and marks. A sort
// on a column that no longer exists is dropped.
func (t *Table) SetColumns(cols []Column) {
	t.cols = slices.Clone(cols)
	if t.sortCol >= len(cols) {
		t.sortCol = -1
	}
	t.invalidate(false)
	t.rebuild(true, t.SelectedID())
}

// SetSize sets the width and the height in lines, header included.
func (t *Table) SetSize(w, h int) {
	if w == t.width && h == t.height {
		return
	}
	t.width, t.height = max(w, 0), max(h, 0)
	t.invalidate(false)
	t.clampOffset()
}

// Width and Height return the size set with SetSize.
func (t Table) Width() int  { return t.width }
func (t Table) Height() int { return t.height }

// CellsFunc writes the cells of row i (an index into the rows given to
// SetRows) into buf, which has a slot per column, and returns it. The
// table reads them at once and keeps none: the same buf comes back for the
// next row.
type CellsFunc func(i int, buf []string) []string

// SetCellsFunc makes the table ask f for the cells of every row given to
// SetRows without Cells (nil), when it needs them: for the rows it draws,
// and for every row while it sorts by a column or filters. A list of
// 100,000 rows then holds no cells, only what the caller holds; the
// filter's lowercase text is made when a filter is set and dropped when it
// is cleared. f's cells are sanitized as SetRows would. The caller calls
// SetRows again when what f returns changes.
func (t *Table) SetCellsFunc(f CellsFunc) {
	t.lazy, t.cellBuf = f, make([]string, len(t.cols))
	t.invalidate(true)
}

// cells is row ri's cells: its own, or else f's (in a buffer the next call
// reuses).
func (t *Table) cells(ri int) []string {
	r := &t.rows[ri]
	if r.Cells != nil || t.lazy == nil {
		return r.Cells
	}
	if len(t.cellBuf) != len(t.cols) {
		t.cellBuf = make([]string, len(t.cols))
	}
	clear(t.cellBuf)
	cells := t.lazy(ri, t.cellBuf)
	for j, c := range cells {
		cells[j] = Sanitize(c)
	}
	return cells
}

// withCells is row ri with its cells, a copy the caller may keep.
func (t *Table) withCells(ri int) Row {
	r := t.rows[ri]
	if r.Cells == nil && t.lazy != nil {
		r.Cells = slices.Clone(t.cells(ri))
	}
	return r
}

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

// ToggleMark marks or unmarks a row by ID.
func (t *Table) ToggleMark(id string) {
	if _, ok := t.byID[id]; !ok {
		return
	}
	if _, ok := t.marks[id]; ok {
		delete(t.marks, id)
	} else {
		t.marks[id] = struct{}{}
		t.anchor = id
	}
}

// RangeMark marks every shown row from the last row marked (if it is
// shown) to the cursor, both included; with no such row it marks the row
// under the cursor. Hidden rows are never marked by it.
func (t *Table) RangeMark() {
	if len(t.view) == 0 {
		return
	}
	from := t.cursor
	for i, ri := range t.view {
		if t.rows[ri].ID == t.anchor && t.anchor != "" {
			from = i
			break
		}
	}
	lo, hi := min(from, t.cursor), max(from, t.cursor)
	for i := lo; i <= hi; i++ {
		t.marks[t.rows[t.view[i]].ID] = struct{}{}
	}
	t.anchor = t.rows[t.view[t.cursor]].ID
}

// MarkVisible marks every row the filter shows.
func (t *Table) MarkVisible() {
	for _, ri := range t.view {
		t.marks[t.rows[ri].ID] = struct{}{}
	}
}

// MarkedVisible returns the marked rows the filter shows, in the order
// they are shown: what a bulk action lists and acts on by default.
func (t Table) MarkedVisible() []string {
	if len(t.marks) == 0 {
		return nil
	}
	var out []string
	for _, ri := range t.view {
		if _, ok := t.marks[t.rows[ri].ID]; ok {
			out = append(out, t.rows[ri].ID)
		}
	}
	return out
}

// MarkedHidden returns the marked rows the filter hides, in row order.
func (t Table) MarkedHidden() []string {
	if len(t.marks) == 0 {
		return nil
	}
	shown := make(map[string]bool, len(t.view))
	for _, ri := range t.view {
		shown[t.rows[ri].ID] = true
	}
	var out []string
	for _, r := range t.rows {
		if _, ok := t.marks[r.ID]; ok && !shown[r.ID] {
			out = append(out, r.ID)
		}
	}
	return out
}

// IsMarked reports whether the row is marked.
func (t Table) IsMarked(id string) bool { _, ok := t.marks[id]; return ok }

// Marked returns the marked IDs in the order of the rows given to SetRows.
func (t Table) Marked() []string {
	if len(t.marks) == 0 {
		return nil
	}
	out := make([]string, 0, len(t.marks))
	for _, r := range t.rows {
		if _, ok := t.marks[r.ID]; ok {
			out = append(out, r.ID)
		}
	}
	return out
}

// ClearMarks unmarks every row.
func (t *Table) ClearMarks() { clear(t.marks); t.anchor = "" }

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

// View renders the header and the shown window of rows, exactly Height
// lines (fewer only when Height is 0). Lines are as wide as their text:
// Box pads them.
func (t Table) View() string { return t.frame(false) }

// Box is View with every line exactly Width cells (padded with spaces,
// never wider) and exactly Height lines: what a pane lays out as a block
// without measuring it again. The same window drawn again is the same
// string, made once.
func (t Table) Box() string { return t.frame(true) }

// spaces backs blanks: padding is a slice of it, not a new string.
var spaces = strings.Repeat(" ", 512)

// blanks is n spaces.
func blanks(n int) string {
	switch {
	case n <= 0:
		return ""
	case n <= len(spaces):
		return spaces[:n]
	}
	return strings.Repeat(" ", n)
}

func (t Table) frame(exact bool) string {
	if t.width <= 0 || t.height <= 0 {
		return ""
	}
	c := t.c
	if c.widths == nil {
		c.widths, c.form, c.overflow = t.layout()
		c.bodyW = 0
		n := 0
		for i, w := range c.widths {
			if c.form[i] != formDropped {
				c.bodyW += w
				n++
			}
		}
		c.bodyW += max(n-1, 0)
		c.bodies = make(map[int]body, 2*t.bodyHeight())
	}
	if c.header == "" {
		c.header = t.renderHeader(c.widths, c.form)
		c.headerW = Width(c.header)
	}
	h := t.bodyHeight()
	end := min(t.offset+h, len(t.view))
	key := frameKey{ok: true, offset: t.offset, cursor: t.cursor, n: len(t.view), filter: t.filter, marks: len(t.marks)}
	if len(t.view) > 0 {
		key.view = &t.view[0]
	}
	if len(t.marks) > 0 {
		for i := t.offset; i < end && i-t.offset < 64; i++ {
			if _, ok := t.marks[t.rows[t.view[i]].ID]; ok {
				key.marked |= 1 << (i - t.offset)
			}
		}
		if end-t.offset > 64 {
			key.ok = false // more rows than the key covers: drawn each time
		}
	}
	slot := &c.frames[0]
	if exact {
		slot = &c.frames[1]
	}
	if key.ok && slot.key == key {
		return slot.text
	}
	narrow := t.width <= gutterWidth
	if narrow {
		exact, key.ok = false, false // padded after the cut below
	}
	var b strings.Builder
	b.Grow((t.width + 32) * (h + 1))
	b.WriteString(c.header)
	if exact {
		b.WriteString(blanks(t.width - c.headerW))
	}
	for i := t.offset; i < end; i++ {
		ri := t.view[i]
		row := t.rows[ri]
		bd, ok := c.bodies[ri]
		if !ok {
			if len(c.bodies) > 4096 {
				clear(c.bodies)
			}
			bd = t.renderBody(t.cells(ri), c.widths, c.form, c.overflow, c.bodyW)
			c.bodies[ri] = bd
		}
		_, marked := t.marks[row.ID]
		var pre, suf string
		switch {
		case i == t.cursor:
			pre, suf = t.stylePair("\x00cursor", t.theme.TableSelected)
		case marked:
			pre, suf = t.stylePair("\x00marked", t.theme.TableMarked)
		default:
			pre, suf = t.stylePair(row.Class, lipgloss.Style{})
		}
		b.WriteByte('\n')
		b.WriteString(pre)
		switch {
		case i == t.cursor && marked:
			b.WriteString(CursorGlyph + MarkGlyph + " ")
		case i == t.cursor:
			b.WriteString(CursorGlyph + "  ")
		case marked:
			b.WriteString(" " + MarkGlyph + " ")
		default:
			b.WriteString("   ")
		}
		b.WriteString(bd.text)
		b.WriteString(suf)
		if exact {
			b.WriteString(blanks(t.width - gutterWidth - bd.w))
		}
	}
	shown := end - t.offset
	if len(t.view) == 0 && h > 0 {
		msg := "no rows"
		if t.filter != "" && len(t.rows) > 0 {
			msg = "no rows match " + strconv.Quote(t.filter)
		}
		b.WriteString("\n   ")
		text := ansi.Truncate(Sanitize(msg), max(t.width-gutterWidth, 0), "…")
		b.WriteString(t.theme.Muted.Render(text))
		if exact {
			b.WriteString(blanks(t.width - gutterWidth - Width(text)))
		}
		shown = 1
	}
	empty := ""
	if exact {
		empty = blanks(t.width)
	}
	for ; shown < h; shown++ {
		b.WriteByte('\n')
		b.WriteString(empty)
	}
	out := b.String()
	if narrow {
		// Too narrow for the gutter: cut every line (rare, so not cached).
		lines := strings.Split(out, "\n")
		for i, l := range lines {
			lines[i] = ansi.Truncate(l, t.width, "")
			if slot == &c.frames[1] {
				lines[i] += blanks(t.width - Width(lines[i]))
			}
		}
		return strings.Join(lines, "\n")
	}
	if key.ok {
		*slot = frame{key: key, text: out}
	}
	return out
}

// stylePair returns the SGR prefix and suffix of a style, cached by key.
// Rows are styled as whole lines so a frame costs two string writes per
// row, not one lipgloss render per cell.
func (t Table) stylePair(key string, st lipgloss.Style) (string, string) {
	if p, ok := t.c.styles[key]; ok {
		return p[0], p[1]
	}
	if key != "" && key[0] != 0 {
		st = t.classStyle(key)
	} else if key == "" {
		st = t.theme.TableCell
	}
	r := st.Inline(true).Render("X")
	i := strings.LastIndexByte(r, 'X')
	pair := [2]string{r[:i], r[i+1:]}
	if t.c.styles == nil {
		t.c.styles = map[string][2]string{}
	}
	t.c.styles[key] = pair
	return pair[0], pair[1]
}

// colForm is how a column is drawn at the table's width.
type colForm uint8

const (
	formFull colForm = iota
	formShort
	formDropped
)

// Layout reports which columns are shown at the table's width and which of
// them in their short form (by index), for tests and pane headers.
func (t Table) Layout() (shown []int, short []int) {
	_, form, _ := t.layout()
	for i, f := range form {
		switch f {
		case formFull:
			shown = append(shown, i)
		case formShort:
			shown = append(shown, i)
			short = append(short, i)
		}
	}
	return shown, short
}

// minWidth is the least a column takes in a form.
func (c Column) minWidth(f colForm) int {
	switch {
	case f == formShort:
		return c.ShortWidth
	case c.Width > 0:
		return c.Width
	}
	return max(c.MinWidth, 1)
}

// layout picks each column's form, then computes the widths: while the
// columns' least widths do not fit, the least useful column (highest
// Priority) is shortened, or dropped whole; what still does not fit is cut
// at the right edge.
func (t Table) layout() ([]int, []colForm, bool) {
	form := make([]colForm, len(t.cols))
	need := func() (int, int) {
		n, sum := 0, 0
		for i, c := range t.cols {
			if form[i] != formDropped {
				n++
				sum += c.minWidth(form[i])
			}
		}
		return sum + max(n-1, 0), n
	}
	room := t.width - gutterWidth
	for {
		sum, _ := need()
		if sum <= room {
			break
		}
		// A column in its full form goes before one already shortened:
		// the short form is what a column keeps the longest.
		victim := -1
		for i, c := range t.cols {
			if c.Priority <= 0 || form[i] == formDropped {
				continue
			}
			if victim < 0 || form[i] < form[victim] || form[i] == form[victim] && c.Priority >= t.cols[victim].Priority {
				victim = i
			}
		}
		if victim < 0 {
			break
		}
		if c := t.cols[victim]; form[victim] == formFull && c.ShortWidth > 0 && c.ShortWidth < c.minWidth(formFull) {
			form[victim] = formShort
		} else {
			form[victim] = formDropped
		}
	}
	_, n := need()
	avail := room - max(n-1, 0)
	widths := make([]int, len(t.cols))
	fixed, flexW := 0, 0
	for i, c := range t.cols {
		switch {
		case form[i] == formDropped:
		case form[i] == formShort || c.Width > 0:
			widths[i] = c.minWidth(form[i])
			fixed += widths[i]
		default:
			widths[i] = max(c.MinWidth, 1)
			fixed += widths[i]
			flexW += max(c.Flex, 1)
		}
	}
	if spare := avail - fixed; spare > 0 && flexW > 0 {
		given, last := 0, -1
		for i, c := range t.cols {
			if c.Width == 0 && form[i] == formFull {
				add := spare * max(c.Flex, 1) / flexW
				widths[i] += add
				given += add
				last = i
			}
		}
		widths[last] += spare - given
	}
	total := 0
	for _, w := range widths {
		total += w
	}
	return widths, form, total > avail
}

// shownCols yields each column that form does not drop, with its index,
// first writing to b the space that separates it from the one before.
func (t Table) shownCols(b *strings.Builder, form []colForm) iter.Seq2[int, Column] {
	return func(yield func(int, Column) bool) {
		first := true
		for i, c := range t.cols {
			if form[i] == formDropped {
				continue
			}
			if !first {
				b.WriteByte(' ')
			}
			first = false
			if !yield(i, c) {
				return
			}
		}
	}
}

func (t Table) renderHeader(widths []int, form []colForm) string {
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", gutterWidth))
	for i, c := range t.shownCols(&b, form) {
		title := Sanitize(c.Title)
		if form[i] == formShort {
			title = Sanitize(c.ShortTitle)
		}
		marker := ""
		if i == t.sortCol {
			marker = "▲"
			if t.sortDesc {
				marker = "▼"
			}
		}
		if marker != "" && widths[i] >= 1 {
			// The marker takes one cell, and a space before it when there is room.
			text := Truncate(title, widths[i]-1)
			if Width(text)+2 <= widths[i] {
				text += " "
			}
			gap := widths[i] - Width(text) - 1
			if c.Align == AlignRight {
				text = strings.Repeat(" ", gap) + text
				gap = 0
			}
			b.WriteString(t.theme.TableHeader.Render(text))
			b.WriteString(t.theme.SortMarker.Render(marker))
			b.WriteString(strings.Repeat(" ", gap))
			continue
		}
		b.WriteString(t.theme.TableHeader.Render(pad(Truncate(title, widths[i]), widths[i], c.Align)))
	}
	line := b.String()
	if lipgloss.Width(line) > t.width {
		line = ansi.Truncate(line, t.width, "…")
	}
	return line
}

func (t Table) renderBody(cells []string, widths []int, form []colForm, overflow bool, bodyW int) body {
	var b strings.Builder
	for i, c := range t.shownCols(&b, form) {
		cell := ""
		if i < len(cells) {
			cell = cells[i]
		}
		if form[i] == formShort && c.ShortCell != nil {
			cell = Sanitize(c.ShortCell(cell))
		}
		fitCell(&b, cell, widths[i], c.Align, t.widths)
	}
	if overflow {
		s := ansi.Truncate(b.String(), max(t.width-gutterWidth, 0), "…")
		return body{text: s, w: Width(s)}
	}
	return body{text: b.String(), w: bodyW}
}

// fitCell writes s cut or padded to exactly w cells, measuring it once
// per value (memo; again only when it must be cut).
func fitCell(b *strings.Builder, s string, w int, a Align, memo *widthMemo) {
	n := memo.of(s)
	if n > w {
		s = Truncate(s, w)
		n = Width(s)
	}
	gap := w - n
	if gap <= 0 {
		b.WriteString(s)
		return
	}
	switch a {
	case AlignRight:
		b.WriteString(blanks(gap))
		b.WriteString(s)
	case AlignCenter:
		l := gap / 2
		b.WriteString(blanks(l))
		b.WriteString(s)
		b.WriteString(blanks(gap - l))
	default:
		b.WriteString(s)
		b.WriteString(blanks(gap))
	}
}

// textWidth is the display width of s (ANSI-aware), with a fast path for
// plain ASCII.

// pad pads s to w cells.
func pad(s string, w int, a Align) string {
	gap := w - Width(s)
	if gap <= 0 {
		return s
	}
	switch a {
	case AlignRight:
		return strings.Repeat(" ", gap) + s
	case AlignCenter:
		l := gap / 2
		return strings.Repeat(" ", l) + s + strings.Repeat(" ", gap-l)
	}
	return s + strings.Repeat(" ", gap)
}

func clampInt(v, lo, hi int) int {
	if hi < lo {
		return lo
	}
	return min(max(v, lo), hi)
}
