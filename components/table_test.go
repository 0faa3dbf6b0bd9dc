package components

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
)

func alertCols() []Column {
	return []Column{
		{Title: "ID", Width: 6},
		{Title: "Severity", Width: 9},
		{Title: "Event", MinWidth: 10},
		{Title: "Count", Width: 5, Align: AlignRight, SortNumber: func(r Row) float64 {
			f, _ := strconv.ParseFloat(r.Cells[3], 64)
			return f
		}},
	}
}

func alertRows(ids ...string) []Row {
	rows := make([]Row, len(ids))
	for i, id := range ids {
		rows[i] = Row{ID: id, Cells: []string{id, "WARNING", "event " + id, strconv.Itoa(len(ids) - i)}, Class: "WARNING"}
	}
	return rows
}

func newAlertTable(ids ...string) Table {
	tb := NewTable(alertCols(), dark(), keymap.Default())
	tb.SetSize(60, 10)
	tb.SetRows(alertRows(ids...))
	return tb
}

func TestTableCursorFollowsIDAcrossRefresh(t *testing.T) {
	tb := newAlertTable("a", "b", "c", "d")
	tb, _ = tb.Update(key("j"))
	tb, _ = tb.Update(key("j"))
	eq(t, "c", tb.SelectedID())

	// New rows arrive above: the cursor stays on c.
	tb.SetRows(alertRows("x", "y", "a", "b", "c", "d"))
	eq(t, "c", tb.SelectedID())
	eq(t, 4, tb.Cursor())

	// c vanishes: the cursor stays at the same index.
	tb.SetRows(alertRows("x", "y", "a", "b", "d"))
	eq(t, 4, tb.Cursor())
	eq(t, "d", tb.SelectedID())

	// Rows shrink below the cursor: clamped to the last row.
	tb.SetRows(alertRows("x", "y"))
	eq(t, "y", tb.SelectedID())
	tb.SetRows(nil)
	eq(t, -1, tb.Cursor())
	_, ok := tb.SelectedRow()
	eq(t, false, ok)
}

func TestTableSortMarkerAndOrder(t *testing.T) {
	tb := NewTable(alertCols(), dark(), nil)
	tb.SetSize(60, 10)
	tb.SetRows([]Row{
		{ID: "1", Cells: []string{"1", "b", "x", "10"}},
		{ID: "2", Cells: []string{"2", "a", "y", "9"}},
		{ID: "3", Cells: []string{"3", "B", "z", "100"}},
		{ID: "4", Cells: []string{"4", "a", "w", "1"}},
	})
	ids := func() string {
		var s []string
		for _, r := range tb.VisibleRows() {
			s = append(s, r.ID)
		}
		return strings.Join(s, ",")
	}
	tb.SortBy(1, false) // by severity text, stable, case-insensitive
	eq(t, "2,4,1,3", ids())
	mustContain(t, plain(tb.View()), "Severity▲")
	tb.SortBy(1, true) // descending keeps equal keys in their original order
	eq(t, "1,3,2,4", ids())
	mustContain(t, plain(tb.View()), "Severity▼")
	tb.SortBy(3, false) // numeric, not lexical
	eq(t, "4,2,1,3", ids())
	mustNotContain(t, plain(tb.View()), "Severity▲")

	// Keys: o cycles the sort column, O reverses.
	tb.SortBy(-1, false)
	tb, _ = tb.Update(key("o"))
	col, desc := tb.Sort()
	eq(t, 0, col)
	eq(t, false, desc)
	tb, _ = tb.Update(key("O"))
	_, desc = tb.Sort()
	eq(t, true, desc)
	eq(t, "4,3,2,1", ids())

	// The cursor stays on its row across a sort.
	tb.SetCursorID("2")
	tb.SortBy(0, false)
	eq(t, "2", tb.SelectedID())
}

func TestTableFilterAndInvert(t *testing.T) {
	tb := newAlertTable("alpha", "beta", "gamma")
	tb.SetFilter("ETA")
	eq(t, 1, tb.Len())
	eq(t, "beta", tb.SelectedID())
	tb.SetFilter("!eta")
	eq(t, 2, tb.Len())
	eq(t, 3, tb.Total())
	tb.SetFilter("!")
	eq(t, 3, tb.Len())
	tb.SetFilter("nothing")
	eq(t, 0, tb.Len())
	mustContain(t, plain(tb.View()), `no rows match "nothing"`)
	tb.SetFilter("")
	eq(t, 3, tb.Len())
}

func TestTableMarksSurviveRefresh(t *testing.T) {
	tb := newAlertTable("a", "b", "c")
	tb, _ = tb.Update(key("space")) // marks a, moves to b
	eq(t, "b", tb.SelectedID())
	tb, _ = tb.Update(key("j"))
	tb, _ = tb.Update(key("space")) // marks c
	eq(t, "a,c", strings.Join(tb.Marked(), ","))
	mustContain(t, plain(tb.View()), MarkGlyph+" a")

	tb.SetRows(alertRows("c", "new", "a", "b"))
	eq(t, "c,a", strings.Join(tb.Marked(), ","))
	tb.SetRows(alertRows("new", "a"))
	eq(t, "a", strings.Join(tb.Marked(), ","))
	eq(t, false, tb.IsMarked("c"))
	tb.ClearMarks()
	eq(t, 0, len(tb.Marked()))
}

func TestTableWindowAndNavigation(t *testing.T) {
	ids := make([]string, 100)
	for i := range ids {
		ids[i] = fmt.Sprintf("r%03d", i)
	}
	tb := newAlertTable(ids...) // 9 body rows
	tb, _ = tb.Update(key("G"))
	eq(t, "r099", tb.SelectedID())
	v := plain(tb.View())
	mustContain(t, v, "r099")
	mustNotContain(t, v, "r090")
	mustContain(t, v, "r091")
	eq(t, 10, strings.Count(v, "\n")+1)
	tb, _ = tb.Update(key("g"))
	eq(t, "r000", tb.SelectedID())
	tb, _ = tb.Update(key("pgdown"))
	eq(t, "r009", tb.SelectedID())
	tb.MoveCursor(-1000)
	eq(t, 0, tb.Cursor())
}

func TestTableSanitizesAndTruncates(t *testing.T) {
	tb := NewTable([]Column{{Title: "Name", Width: 8}, {Title: "Comment", MinWidth: 5}}, dark(), nil)
	tb.SetSize(30, 4)
	tb.SetRows([]Row{{ID: "1", Cells: []string{"a very long name", "\x1b]0;pwned\x07hi\x1b[2J there\nnext"}}})
	v := tb.View()
	mustNotContain(t, v, "pwned")
	mustNotContain(t, v, "\x1b[2J")
	mustNotContain(t, v, "\x07")
	p := plain(v)
	mustContain(t, p, "a very …")
	mustContain(t, p, "hi there next")
	for _, line := range strings.Split(p, "\n") {
		if w := Width(line); w > 30 {
			t.Fatalf("line wider than table: %d %q", w, line)
		}
	}
}

func TestTableMonoCursorIsReverse(t *testing.T) {
	tb := NewTable(alertCols(), themes.MustGet(themes.Mono), nil)
	tb.SetSize(60, 5)
	tb.SetRows(alertRows("a", "b"))
	lines := strings.Split(tb.View(), "\n")
	mustContain(t, lines[1], "\x1b[7m")
	mustNotContain(t, lines[2], "\x1b[7m")
	mustNotContain(t, tb.View(), "38;") // no colours at all
}

func TestTableRowClassStyle(t *testing.T) {
	tb := NewTable(alertCols(), dark(), nil)
	tb.SetSize(60, 5)
	tb.SetRows([]Row{{ID: "a", Cells: []string{"a"}}, {ID: "b", Cells: []string{"b"}, Class: "CRITICAL"}})
	lines := strings.Split(tb.View(), "\n")
	want := dark().SeverityCritical.Render("X")
	mustContain(t, lines[2], want[:strings.IndexByte(want, 'X')])
}

// SetRows takes the slice (no copy of the rows) and never writes to the
// caller's cells: a row with a cell to sanitize gets its own cells.
func TestTableSetRowsTakesTheRows(t *testing.T) {
	shared := []string{"s", "WARNING", "bell\a here", "1"}
	rows := append(alertRows("a", "b"), Row{ID: "s", Cells: shared})
	tb := newAlertTable()
	tb.SetRows(rows)
	eq(t, true, &tb.Rows()[0] == &rows[0])
	eq(t, "bell\a here", shared[2])
	eq(t, false, strings.Contains(tb.Rows()[2].Cells[2], "\a"))
	eq(t, true, &tb.Rows()[0].Cells[0] == &rows[0].Cells[0]) // clean cells are not copied
}

// A refresh refilling the recycled rows keeps the cursor on its row (or
// its place), drops the marks of vanished rows and filters the new text.
func TestTableRecycleRefillsInPlace(t *testing.T) {
	tb := newAlertTable("a", "b", "c", "d")
	tb.ToggleMark("a")
	tb.ToggleMark("d")
	tb.SetCursorID("c")
	first := &tb.Rows()[0]

	rows := tb.Recycle()
	eq(t, 0, len(rows))
	eq(t, 0, tb.Len())
	rows = append(rows, alertRows("x", "c", "a")...)
	tb.SetRows(rows)
	eq(t, true, &tb.Rows()[0] == first) // the same slice, rewritten
	eq(t, "c", tb.SelectedID())
	eq(t, "a", strings.Join(tb.Marked(), ","))
	tb.PrepareFilter()
	eq(t, true, tb.hayOK)
	tb.SetFilter("event x")
	eq(t, "x", tb.SelectedID())
	tb.SetFilter("")

	// The cursor row gone: the cursor stays where it was.
	tb.SetCursorID("a") // index 2
	rows = tb.Recycle()
	tb.SetRows(append(rows, alertRows("p", "q", "r", "s")...))
	eq(t, 2, tb.Cursor())
	eq(t, "r", tb.SelectedID())
	eq(t, 0, len(tb.Marked()))
	tb.SetFilter("EVENT Q")
	eq(t, "q", tb.SelectedID())
	eq(t, 1, tb.Len())
}

// A refresh that refills the recycled rows allocates nothing in proportion
// to the rows: the id index, the order, the filtered view and the filter
// text are rebuilt in the table's buffers.
func TestTableRefreshAllocatesNoSecondCopy(t *testing.T) {
	const n = 20_000
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("alert-%05d", i)
	}
	src := alertRows(ids...)
	tb := NewTable(alertCols(), dark(), nil)
	tb.SetSize(120, 40)
	tb.SortBy(3, false) // numeric: 8 bytes of key a row while it sorts
	tb.SetFilter("event")
	refresh := func() {
		rows := tb.Recycle()
		tb.SetRows(append(rows, src...))
		_ = tb.View()
	}
	refresh()
	refresh()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	const runs = 5
	for range runs {
		refresh()
	}
	runtime.ReadMemStats(&m1)
	perRow := float64(m1.TotalAlloc-m0.TotalAlloc) / runs / n
	// A copy of the rows alone is 56 bytes a row, the id index about 40, the
	// filter text 60; what remains is the sort's keys (8 a row).
	t.Logf("%.1f bytes a row", perRow)
	if perRow > 12 {
		t.Fatalf("a refresh allocated %.1f bytes a row", perRow)
	}
}

func TestTableTinySizesDoNotPanic(t *testing.T) {
	tb := newAlertTable("a", "b", "c")
	tb.SortBy(1, true)
	for w := 0; w < 12; w++ {
		for h := 0; h < 4; h++ {
			tb.SetSize(w, h)
			v := tb.View()
			for _, line := range strings.Split(plain(v), "\n") {
				if Width(line) > max(w, 0) {
					t.Fatalf("%dx%d: line %q too wide", w, h, line)
				}
			}
		}
	}
}

// A frame over many rows must not scale with the row count: a cached frame
// is one allocation (the output string).
func TestTableFrameCostIndependentOfRows(t *testing.T) {
	cols, rows := benchData()
	tb := NewTable(cols, dark(), nil)
	tb.SetSize(200, 60)
	tb.SetRows(rows)
	tb.SetCursor(len(rows) / 2)
	_ = tb.View()
	allocs := testing.AllocsPerRun(50, func() {
		tb.MoveCursor(1)
		_ = tb.View()
		tb.MoveCursor(-1)
		_ = tb.View()
	})
	if allocs > 4 {
		t.Fatalf("a frame allocated %v times", allocs)
	}
}
