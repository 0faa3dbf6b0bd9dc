package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// A jump opens a board row in the pane that owns it: the context moves to
// the row's project (and cluster), the pane is shown and asked to select
// the item; esc at pane level then comes back to the pane jumped from.

// jump starts a JumpMsg: switch the project first when it differs, and
// finish in finishJump once the new scope is loaded.
func (m *Model) jump(msg views.JumpMsg) tea.Cmd {
	if m.paneIndex(msg.Pane) < 0 {
		return m.toast("no pane "+string(msg.Pane)+" to open this in", true)
	}
	if msg.GroupID != m.scope.project.ID {
		p, err := m.findProject(msg.GroupID)
		if err != nil {
			return m.toast("open "+msg.GroupID+": "+err.Error(), true)
		}
		m.pendingJump = &msg
		return m.switchProject(p, msg.Cluster)
	}
	var cmds []tea.Cmd
	if msg.Cluster != m.scope.cluster {
		cmds = append(cmds, m.switchCluster(msg.Cluster))
	}
	return tea.Batch(append(cmds, m.finishJump(msg))...)
}

// finishJump shows the pane and hands it the item to select. A text filter
// on that pane could hide the item and leave the cursor on another row: it
// is cleared, and the notice says so.
func (m *Model) finishJump(msg views.JumpMsg) tea.Cmd {
	i := m.paneIndex(msg.Pane)
	cmd := m.switchTo(i)
	m.jumpedFrom = msg.From
	var cleared tea.Cmd
	if f := m.filters[msg.Pane]; f != "" && msg.ItemID != "" && !m.paneShows(i, msg) {
		name := msg.Name
		if name == "" {
			name = msg.ItemID
		}
		m.filters[msg.Pane] = ""
		cleared = tea.Batch(m.updatePane(i, views.FilterMsg{}), m.toast("filter /"+clean(f)+" cleared to show "+clean(name), false))
	}
	sel := m.updatePane(i, views.SelectMsg{View: msg.View, ItemID: msg.ItemID})
	return tea.Batch(cmd, cleared, sel)
}

// paneShows reports whether pane i says its list shows the jump's item
// with its filter as it is (views.Shower); a pane that cannot tell, or
// has not read the item yet, does not.
func (m *Model) paneShows(i int, msg views.JumpMsg) bool {
	s, ok := m.panes[i].(views.Shower)
	if !ok {
		return false
	}
	shown, known := s.Shows(msg.View, msg.ItemID)
	return shown && known
}

// jumpBack is esc at pane level after a jump: back to the board, where it was.
func (m *Model) jumpBack() (tea.Cmd, bool) {
	from := m.jumpedFrom
	if from == "" || m.activePane() == nil || m.activePane().ID() == from {
		return nil, false
	}
	m.jumpedFrom = ""
	return m.switchTo(m.paneIndex(from)), true
}
