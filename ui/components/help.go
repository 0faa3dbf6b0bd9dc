package components

import (
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
)

// RenderHelp lays out help groups (from keymap.HelpGroups) as columns that
// fit width, or stacked when they do not. Disabled actions are greyed out
// with their reason; dangerous ones carry a "!". A non-empty query keeps
// only entries whose key, description or name contains it
// (case-insensitive), for a searchable help overlay.
func RenderHelp(groups []keymap.HelpGroup, th themes.Theme, width int, query string) string {
	q := strings.ToLower(strings.TrimSpace(query))
	var cols []string
	for _, g := range groups {
		var lines []string
		keyW := 0
		var entries []keymap.HelpEntry
		for _, e := range g.Entries {
			if q != "" && !strings.Contains(strings.ToLower(e.Key+" "+e.Desc+" "+e.Name), q) {
				continue
			}
			entries = append(entries, e)
			keyW = max(keyW, lipgloss.Width(Sanitize(e.Key)))
		}
		if len(entries) == 0 {
			continue
		}
		lines = append(lines, th.DialogTitle.Render(g.Title))
		for _, e := range entries {
			k := pad(Sanitize(e.Key), keyW, AlignLeft)
			desc := Sanitize(e.Desc)
			if e.Dangerous {
				desc += " !"
			}
			if e.Disabled {
				lines = append(lines, th.Disabled.Render(k+"  "+desc+" ("+Sanitize(e.Reason)+")"))
				continue
			}
			lines = append(lines, th.HelpKey.Render(k)+"  "+th.HelpDesc.Render(desc))
		}
		cols = append(cols, strings.Join(lines, "\n"))
	}
	if len(cols) == 0 {
		return th.Muted.Render("no key matches " + Sanitize(query))
	}
	total := 0
	for _, c := range cols {
		total += lipgloss.Width(c) + 3
	}
	if width <= 0 || total-3 <= width {
		spaced := make([]string, 0, 2*len(cols))
		for i, c := range cols {
			if i > 0 {
				spaced = append(spaced, "   ")
			}
			spaced = append(spaced, c)
		}
		return lipgloss.JoinHorizontal(lipgloss.Top, spaced...)
	}
	out := strings.Join(cols, "\n\n")
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		lines[i] = fit(l, width)
	}
	return strings.Join(lines, "\n")
}
