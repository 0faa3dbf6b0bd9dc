package e2e

import (
	"strings"
	"testing"
)

// cursorLine is the screen line with the table cursor.
func cursorLine(screen string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, "▸") {
			return l
		}
	}
	return ""
}

// TestTriageEnterLandsOnTheOwningPane: from the board, enter on a row of
// each kind opens its pane on the row's project (and cluster) with the
// item selected; esc comes back to the board.
func TestTriageEnterLandsOnTheOwningPane(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 40}} {
		s := StartDemo(t, size[0], size[1], nil, "--pane", "triage", "--demo-speed", "1")
		s.WaitFor("12 of 12 projects", wait)
		cases := []struct {
			filter, project, pane, selected string
		}{
			{"restore failed", "inventory", "Restores", "failed"},
			{"orders-text FAILED", "mobile-backend", "Search", "orders-text"},
			{"new: HOST_DOWN on catalog", "catalog", "EVENT TYPE", "HOST_DOWN"},
			{"export failed", "identity", "Exports", "Failed"},
		}
		for _, c := range cases {
			s.SendFast("/")
			s.SendFast(strings.Split(c.filter, "")...)
			s.SendFast("Enter", "Enter")
			s.waitUntil(func(sc string) bool {
				return !strings.Contains(sc, "Triage ·") && strings.Contains(sc, "› "+c.project[:min(len(c.project), 8)]) && // the header may be cut at 80 columns
					strings.Contains(sc, c.pane) && strings.Contains(cursorLine(sc), c.selected)
			}, wait, c.filter+": its pane, project and item")
			s.SendFast("Escape")
			s.WaitFor("Triage ·", wait)
			s.SendFast("Escape") // the board's filter
			s.WaitGone("/ "+c.filter, wait)
		}
		s.SendFast("q")
	}
}
