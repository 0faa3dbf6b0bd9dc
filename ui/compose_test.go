package ui

import (
	"fmt"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/keymap/keytest"
)

// The screen the root composes (the pane's block taken as it is when the
// pane says it is exact, chrome lines padded) is byte for byte what
// lipgloss makes of the same parts: the pane fitted to its box, stacked by
// JoinVertical. On every pane, at 80x24, 120x40 and 200x60, after a
// cursor move.
func TestComposeIsJoinVertical(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		api := newFakeAPI(t, orgOwner())
		m := newModel(t, api, nil)
		d := newDriver(t, m, size[0], size[1])
		d.Settle()
		require.Equal(t, phaseReady, m.phase)
		for i := range m.panes {
			t.Run(fmt.Sprintf("%dx%d/%s", size[0], size[1], m.panes[i].ID()), func(t *testing.T) {
				d.Press(fmt.Sprint(i + 1))
				d.Settle()
				d.Send(keytest.Press("j"))
				got := m.render()
				footer := m.renderFooter()
				w, h := m.paneSize()
				h = max(h-max(len(footer)-chromeBottom, 0), 1)
				block := lipgloss.NewStyle().Width(w).Height(h).MaxWidth(w).MaxHeight(h).Render(m.activePane().View())
				if line := m.staleLine(w); line != "" && h > 1 {
					block = place(block, padRight(line, w), 0, h-1)
				}
				want := lipgloss.JoinVertical(lipgloss.Left, m.renderHeader(), m.renderTabs(), block, strings.Join(footer, "\n"))
				require.Equal(t, want, got)
			})
		}
	}
}
