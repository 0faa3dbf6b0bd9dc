package components

import (
	"slices"

	"charm.land/lipgloss/v2"

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
