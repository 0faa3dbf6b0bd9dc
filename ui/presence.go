package ui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// PresenceMsg tells a served dashboard that who is here changed (it draws
// again) or, with Reload, that someone's write was applied: the pane on
// screen reads again at once, unless paused.
type PresenceMsg struct{ Reload bool }

func (m *Model) presenceChanged(msg PresenceMsg) tea.Cmd {
	var cmds []tea.Cmd
	if m.opts.Presence != nil {
		// The panes that mark rows with who acts on them mark them again.
		for i := range m.panes {
			cmds = append(cmds, m.updatePane(i, views.PresenceMsg{}))
		}
	}
	if msg.Reload && !m.paused && m.phase == phaseReady {
		cmds = append(cmds, m.refresh())
	}
	return tea.Batch(cmds...)
}

// formsChanged tells the others, under serve, what this session's open
// dialog does to which alerts ("alice: acknowledging" on their rows), from
// the moment it opens until it is sent, cancelled or replaced: the root
// sees every dialog come and go, so no pane has to say when.
func (m *Model) formsChanged() {
	if m.opts.Presence == nil {
		return
	}
	var doing string
	var on []views.AlertRef
	for _, l := range m.layers.all() {
		if f, ok := l.(*formLayer); ok && f.doing != "" && len(f.on) > 0 {
			doing, on = f.doing, f.on
		}
	}
	key := doing
	for _, a := range on {
		key += "\n" + a.GroupID + "/" + a.AlertID
	}
	if key == m.doing {
		return
	}
	m.doing = key
	m.opts.Presence.Doing(doing, on)
}

// presencePart is the header's "with bob, carol" under `serve`: who else is
// on this server now; shorter, "+2".
func (m *Model) presencePart() (headerPart, bool) {
	if m.opts.Presence == nil {
		return headerPart{}, false
	}
	others := m.opts.Presence.Others()
	if len(others) == 0 {
		return headerPart{}, false
	}
	names := make([]string, len(others))
	for i, n := range others {
		names[i] = clean(n)
	}
	n := strconv.Itoa(len(others))
	return headerPart{forms: []string{"with " + strings.Join(names, ", "), "+" + n + " here", "+" + n},
		style: m.theme.Styles.RoleBadge.Render}, true
}
