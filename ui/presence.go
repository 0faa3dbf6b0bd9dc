package ui

import (
	"strconv"
	"strings"
)

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
