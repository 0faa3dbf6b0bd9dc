package ui

import (
	"slices"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/ui/components"
)

// helpLayer is the `?` overlay: the active pane's actions as it offers them
// now, then the table, navigation and global keys. Disabled actions are
// shown greyed with the reason (the role they need, read-only mode).
type helpLayer struct {
	offset int
}

func (m *Model) openHelp() tea.Cmd {
	m.layers.removeRank(rankHelp)
	m.layers.push(&helpLayer{})
	return nil
}

func (h *helpLayer) rank() int { return rankHelp }

func (h *helpLayer) dismiss(*Model) tea.Cmd { return nil }

func (h *helpLayer) key(m *Model, msg tea.KeyPressMsg) (bool, tea.Cmd) {
	switch msg.String() {
	case "?", "q":
		return true, nil
	case "down", "j":
		h.offset++
	case "up", "k":
		h.offset = max(0, h.offset-1)
	case "pgdown", "space":
		h.offset += 10
	case "pgup":
		h.offset = max(0, h.offset-10)
	case "home", "g":
		h.offset = 0
	}
	return false, nil
}

// paneActionsNow is what the active pane offers in the view on screen, each
// action run through the gate its key goes through: help and the footer
// show exactly what the keys do, greyed with the reason where the gate or
// the pane's state refuses.
func (m *Model) paneActionsNow() []keymap.Action {
	p := m.activePane()
	if p == nil {
		return nil
	}
	acts := slices.Clone(p.Actions())
	for i, a := range acts {
		if ok, why := m.check(a); !ok {
			acts[i] = a.Disabled(why)
		}
	}
	return acts
}

// helpScope is the keymap scope whose actions help lists first.
func (m *Model) helpScope() keymap.Scope {
	if p := m.activePane(); p != nil {
		return p.ID().Scope()
	}
	return keymap.ScopeGlobal
}

// helpLines renders the groups as one column of lines, each group a title
// and its entries.
func (m *Model) helpLines(width int) []string {
	st := m.theme.Styles
	keyW := 12
	var lines []string
	for _, g := range m.keys.HelpGroups(m.helpScope(), m.paneActionsNow()) {
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, st.DialogTitle.Render(g.Title))
		for _, e := range g.Entries {
			k := padRight(e.Key, keyW)
			desc := e.Desc
			if e.Dangerous {
				desc += " (!)"
			}
			if e.Disabled {
				row := components.Truncate(k+" "+desc+" — "+e.Reason, width)
				lines = append(lines, st.Disabled.Render(row))
				continue
			}
			lines = append(lines, components.Truncate(st.HelpKey.Render(k)+" "+st.HelpDesc.Render(desc), width))
		}
	}
	return lines
}

func (h *helpLayer) overlay(m *Model, base string, w, hgt int) string {
	st := m.theme.Styles
	inner := max(20, min(76, w-6))
	rows := max(3, hgt-6)
	lines := m.helpLines(inner)
	// The demo server's address stays in view above the footer, wherever
	// the list is scrolled.
	var pinned []string
	if m.opts.DemoServer != "" {
		pinned = []string{
			components.Truncate(st.HelpKey.Render("demo server")+" "+st.HelpDesc.Render(m.opts.DemoServer), inner),
			components.Truncate(st.Muted.Render("digest keys: org-owner/org-owner-secret (each demo role: ROLE/ROLE-secret)"), inner),
		}
	}
	bodyRows := max(1, rows-1-len(pinned))
	h.offset = max(0, min(h.offset, len(lines)-bodyRows))
	end := min(len(lines), h.offset+bodyRows)
	body := lines[h.offset:end]
	footer := "j/k scroll • esc/? close"
	if end < len(lines) {
		footer = "more below • " + footer
	}
	parts := append([]string{lipgloss.JoinVertical(lipgloss.Left, body...)}, pinned...)
	parts = append(parts, st.Muted.Render(footer))
	content := lipgloss.JoinVertical(lipgloss.Left, parts...)
	return center(base, st.DialogBorder.Render(content), w, hgt)
}
