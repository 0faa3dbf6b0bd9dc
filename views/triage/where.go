package triage

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/dbadmin-tui/dbadmin-tui/components"
)

// The board's columns, and the WHERE cell fitted to its column.

func columns() []components.Column {
	return []components.Column{
		{Title: "SEVERITY", Width: 9, SortKey: func(r components.Row) string { return r.Cells[5] }},
		{Title: "KIND", Width: 8},
		// WHERE shows what fits of the row's place (fitWhere); the whole
		// of it, in the last cell, is what the filter and the sort read.
		{Title: "WHERE", MinWidth: whereMin, Flex: whereFlex, SortKey: func(r components.Row) string { return r.Cells[cellWhere] }},
		{Title: "WHAT", MinWidth: 16, Flex: whatFlex},
		{Title: "SINCE", Width: 6, Align: components.AlignRight, SortKey: func(r components.Row) string { return r.Cells[6] }},
	}
}

// The flexible columns' shares, and the cell of a row that holds its
// whole WHERE (after the cells shown and the sort keys).
const (
	whereMin  = 16
	whereFlex = 2
	whatFlex  = 3
	cellWhere = 8
)

// whereWidth is the WHERE column's width in a table w cells wide, as the
// table lays columns() out: the fixed columns and both flexible ones'
// least widths first, the rest shared by Flex (WHAT, the last, takes
// what the division leaves). No column has a Priority: none is dropped.
func whereWidth(w int) int {
	cols := columns()
	const gutter = 3 // the table's cursor and mark
	room := w - gutter - (len(cols) - 1)
	for _, c := range cols {
		room -= max(c.Width, c.MinWidth)
	}
	return whereMin + max(room, 0)*whereFlex/(whereFlex+whatFlex)
}

// fitWhere is "org › project › cluster" in at most w cells: whole when it
// fits, else cut at the left so that the end survives, the organization
// giving way first, then the project: "…payments › payments-rs" tells the
// clusters of a project apart where "Demo-Org › payments › …" did not.
func fitWhere(where string, w int) string {
	where = components.Sanitize(where)
	n := components.Width(where)
	if n <= w {
		return where
	}
	if w <= 1 {
		return components.Truncate(where, w)
	}
	tail := ansi.TruncateLeft(where, n-(w-1), "")
	// Not a separator's remains at the cut.
	for _, cut := range []string{" › ", "› ", " "} {
		if strings.HasPrefix(tail, cut) {
			tail = strings.TrimPrefix(tail, cut)
			break
		}
	}
	return "…" + tail
}
