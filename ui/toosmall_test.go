package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/backups"
)

// Keys and a paste that arrive while the window is too small to draw (a
// pane dragged through a small size) are kept, counted on screen, and
// applied in order once it is larger: `:` typed, a paste of "backups",
// enter, then `j` at the pane. q with a palette open is text, not quit.
func TestKeysAndPastesWhileTooSmallGoInOrder(t *testing.T) {
	api := newFakeAPI(t, orgOwner())
	panes := map[views.ID]*recPane{}
	m := newModel(t, api, func(o *Options) { o.Panes = recPanes(false, panes) })
	d := newDriver(t, m, 120, 40)
	d.Settle()
	require.Equal(t, phaseReady, m.phase)

	d.Press(":")
	d.Send(tea.WindowSizeMsg{Width: 50, Height: 12})
	d.Send(tea.PasteMsg{Content: "backup"})
	d.Press("s", "enter", "j")
	require.Len(t, m.pending, 4)
	assert.Contains(t, d.Screen(), "4 keys kept")
	d.Send(tea.WindowSizeMsg{Width: 120, Height: 40})
	d.Settle()
	assert.Equal(t, backups.ID, m.panes[m.active].ID())
	assert.Equal(t, 0, m.layers.len(), "the palette ran and closed")
	assert.Equal(t, []string{"j"}, m.panes[m.active].(*recPane).keysGot())

	// q typed into a palette while small is the palette's, not quit.
	d.Press(":")
	d.Send(tea.WindowSizeMsg{Width: 50, Height: 12})
	d.Press("q")
	require.Len(t, m.pending, 1)
}
