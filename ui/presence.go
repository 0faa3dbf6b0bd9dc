package ui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// PresenceMsg tells a served dashboard that who is here changed (it draws
// again) or, with Reload, that someone's write was applied: the pane on
// screen reads again at once, unless paused.
type PresenceMsg struct{ Reload bool }

func (m *Model) presenceChanged(msg PresenceMsg) tea.Cmd {
	if !msg.Reload || m.paused || m.phase != phaseReady {
		return nil
	}
	return m.refresh()
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
