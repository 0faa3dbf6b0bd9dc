package components

import (
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/dbadmin-tui/dbadmin-tui/keymap"
)

// padLines is what a lipgloss block of w x h makes of s: each line padded
// with spaces to w cells, cut to h lines, blank lines added up to h.
func padLines(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	for len(lines) < h {
		lines = append(lines, "")
	}
	lines = lines[:h]
	for i, l := range lines {
		if d := w - ansi.StringWidth(l); d > 0 {
			lines[i] = l + strings.Repeat(" ", d)
		}
	}
	return strings.Join(lines, "\n")
}

// Box is View padded to the table's size, every line exactly its width:
// with rows, marks and the cursor, overflowing columns, columns that leave
// room over (no flexible one), no rows, a filter matching nothing, wide
// characters, and narrower than the gutter. A second Box over the same
// window is the same frame; one over a moved cursor or a new mark is not.
func TestTableBoxIsViewPaddedToSize(t *testing.T) {
	fixed := []Column{{Title: "ID", Width: 6}, {Title: "N", Width: 3}}
	cases := []struct {
		name string
		cols []Column
		w, h int
		ids  []string
		tune func(*Table)
	}{
		{name: "rows", cols: alertCols(), w: 60, h: 10, ids: []string{"a", "b", "c"}},
		{name: "marked", cols: alertCols(), w: 60, h: 4, ids: []string{"a", "b", "c", "d", "e"}, tune: func(tb *Table) {
			tb.ToggleMark("b")
			tb.MoveCursor(3)
		}},
		{name: "overflow", cols: alertCols(), w: 20, h: 6, ids: []string{"a", "b"}},
		{name: "room over", cols: fixed, w: 40, h: 5, ids: []string{"a", "b"}},
		{name: "no rows", cols: alertCols(), w: 50, h: 5},
		{name: "no match", cols: alertCols(), w: 50, h: 5, ids: []string{"a"}, tune: func(tb *Table) { tb.SetFilter("zzz") }},
		{name: "wide", cols: alertCols(), w: 44, h: 5, ids: []string{"界界界界", "b"}},
		{name: "narrow", cols: alertCols(), w: 2, h: 4, ids: []string{"a", "b"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tb := NewTable(c.cols, dark(), keymap.Default())
			tb.SetSize(c.w, c.h)
			if c.ids != nil {
				tb.SetRows(alertRows(c.ids...))
			}
			if c.tune != nil {
				c.tune(&tb)
			}
			box := tb.Box()
			eq(t, padLines(tb.View(), c.w, c.h), box)
			lines := strings.Split(box, "\n")
			eq(t, c.h, len(lines))
			for i, l := range lines {
				eq(t, c.w, ansi.StringWidth(l), "line", i)
			}
			eq(t, box, tb.Box())
		})
	}

	tb := newAlertTable("a", "b", "c")
	before := tb.Box()
	tb.MoveCursor(1)
	moved := tb.Box()
	if moved == before {
		t.Fatal("the cursor moved, the frame did not")
	}
	tb.ToggleMark("c")
	if marked := tb.Box(); marked == moved || !strings.Contains(marked, MarkGlyph) {
		t.Fatalf("a mark does not show:\n%s", marked)
	}
	// As many marks, one moved out of the window: the frame changes.
	tb = newAlertTable("a", "b", "c", "d", "e")
	tb.SetSize(60, 4)
	tb.ToggleMark("a")
	withA := tb.Box()
	tb.ToggleMark("a")
	tb.ToggleMark("e")
	if tb.Box() == withA {
		t.Fatalf("a's mark was taken off, the frame still shows it:\n%s", withA)
	}
	tb.SetFilter("event b")
	eq(t, 1, tb.Len())
	if !strings.Contains(tb.Box(), "event b") || strings.Contains(tb.Box(), "event a") {
		t.Fatalf("the filter does not show:\n%s", tb.Box())
	}
}

// A table given rows without cells and a CellsFunc draws, sorts and
// filters as one given every cell, and asks for the cells of the rows it
// draws only, until a sort by a column or a filter needs them all; the
// filter's text goes when the filter is cleared.
func TestTableCellsOnDemand(t *testing.T) {
	ids := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"}
	full := alertRows(ids...)
	eager := NewTable(alertCols(), dark(), keymap.Default())
	eager.SetSize(60, 5)
	eager.SetRows(alertRows(ids...))

	asked := 0
	lazy := NewTable(alertCols(), dark(), keymap.Default())
	lazy.SetSize(60, 5)
	lazy.SetCellsFunc(func(i int, buf []string) []string {
		asked++
		return append(buf[:0], full[i].Cells...)
	})
	bare := make([]Row, len(full))
	for i, r := range full {
		bare[i] = Row{ID: r.ID, Class: r.Class}
	}
	lazy.SetRows(bare)

	eq(t, eager.View(), lazy.View())
	eq(t, 4, asked, "cells asked for: the 4 rows drawn")
	eager.MoveCursor(6)
	lazy.MoveCursor(6)
	eq(t, eager.Box(), lazy.Box())
	row, _ := lazy.SelectedRow()
	eq(t, "event g", row.Cells[2])

	eager.SortBy(3, true)
	lazy.SortBy(3, true)
	eq(t, eager.View(), lazy.View())

	eager.SetFilter("EVENT K")
	lazy.SetFilter("EVENT K")
	eq(t, 1, lazy.Len())
	eq(t, eager.View(), lazy.View())
	if !lazy.hayOK {
		t.Fatal("a filter is set and its text was not made")
	}
	lazy.SetFilter("")
	if lazy.hay != nil || lazy.hayOK {
		t.Fatal("the filter was cleared and its text is still held")
	}
	eq(t, len(ids), lazy.Len())
}

// The width memo gives what Width gives, keeps only the texts that need
// measuring, and holds at most widthMemoSize of them.
func TestWidthMemo(t *testing.T) {
	var w widthMemo
	for _, s := range []string{"plain", "界界", "\x1b[1mbold\x1b[m", "—", ""} {
		eq(t, Width(s), w.of(s), s)
		eq(t, Width(s), w.of(s), s)
	}
	eq(t, 3, len(w.m), "the three that are not plain ASCII")
	for i := range widthMemoSize + 10 {
		w.of(strings.Repeat("界", i%7+1) + strconv.Itoa(i))
	}
	if len(w.m) > widthMemoSize {
		t.Fatalf("%d widths held, over %d", len(w.m), widthMemoSize)
	}
}
