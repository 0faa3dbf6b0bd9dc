package components

import (
	"slices"
	"strings"
	"testing"

	"github.com/dbadmin-tui/dbadmin-tui/keymap"
)

// priorityCols is an alert-like table: STATUS shortens to a marker, CREATED
// goes before AGE, the event type is the key column.
func priorityCols() []Column {
	return []Column{
		{Title: "STATUS", Width: 10, Priority: 2, ShortWidth: 1, ShortTitle: "S",
			ShortCell: func(s string) string { return map[string]string{"OPEN": "●"}[s] }},
		{Title: "EVENT TYPE", MinWidth: 24, Flex: 3},
		{Title: "CREATED", Width: 17, Priority: 5},
		{Title: "AGE", Width: 4, Priority: 3},
		{Title: "NOTE", MinWidth: 10, Flex: 1, Priority: 4},
	}
}

func TestTablePrioritiesDropLeastUsefulWhole(t *testing.T) {
	tb := NewTable(priorityCols(), dark(), keymap.Default())
	tb.SetRows([]Row{{ID: "a", Cells: []string{"OPEN", "CPS_SNAPSHOT_FAILED_BACKUP", "2026-11-21 00:14", "7h", "why"}}})
	for _, tc := range []struct {
		width       int
		shown, shrt []int
	}{
		{120, []int{0, 1, 2, 3, 4}, nil},
		{68, []int{0, 1, 3, 4}, nil}, // CREATED dropped, AGE kept
		{50, []int{0, 1, 3}, nil},    // then the note
		{40, []int{0, 1}, nil},       // then AGE
		{33, []int{0, 1}, []int{0}},  // STATUS becomes a marker
		{30, []int{0, 1}, []int{0}},  // the key column is never dropped
		{20, []int{1}, nil},          // at last even the marker; the key column is cut at the edge
	} {
		tb.SetSize(tc.width, 3)
		shown, short := tb.Layout()
		if !slices.Equal(shown, tc.shown) || !slices.Equal(short, tc.shrt) {
			t.Errorf("width %d: shown %v short %v, want %v %v", tc.width, shown, short, tc.shown, tc.shrt)
		}
		out := plain(tb.View())
		for _, l := range strings.Split(out, "\n") {
			if Width(l) > tc.width {
				t.Errorf("width %d: line %q is %d wide", tc.width, l, Width(l))
			}
		}
		if tc.width >= 33 {
			mustContain(t, out, "CPS_SNAPSHOT_FAILED_BACKUP")
		}
		if slices.Contains(tc.shrt, 0) {
			mustContain(t, out, "▸  ● CPS")
		}
	}
}
