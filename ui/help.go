package ui

import (
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
)

// helpLayer is the `?` overlay: the active pane's actions as it offers them
// now, then the table, navigation and global keys. Disabled actions are
// shown greyed with the reason (the role they need, read-only mode). `/`
// searches: what is typed narrows the entries to those whose key or
// description contains it.
type helpLayer struct {
	offset int
	// typing: keys go to the search text; query: the search text.
	typing bool
	query  string
}

func (m *Model) openHelp() tea.Cmd {
	m.layers.removeRank(rankHelp)
	m.layers.push(&helpLayer{})
	return nil
}

func (h *helpLayer) rank() int { return rankHelp }

func (h *helpLayer) dismiss(*Model) tea.Cmd { return nil }

// esc clears a search before it closes the overlay.
func (h *helpLayer) esc(*Model) bool {
	if !h.typing && h.query == "" {
		return false
	}
	h.typing, h.query, h.offset = false, "", 0
	return true
}

func (h *helpLayer) key(m *Model, msg tea.KeyPressMsg) (bool, tea.Cmd) {
	if h.typing {
		switch msg.String() {
		case "enter":
			h.typing = false
		case "backspace":
			r := []rune(h.query)
			h.query = string(r[:max(0, len(r)-1)])
		default:
			if msg.Text != "" {
				h.query = components.Sanitize(h.query + msg.Text)
			}
		}
		h.offset = 0
		return false, nil
	}
	switch msg.String() {
	case "/":
		h.typing = true
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
func (m *Model) helpLines(width int, query string) []string {
	st := m.theme.Styles
	keyW := 12
	var lines []string
	q := strings.ToLower(query)
	for _, g := range m.keys.HelpGroups(m.helpScope(), m.paneActionsNow()) {
		if q != "" {
			g.Entries = slices.DeleteFunc(slices.Clone(g.Entries), func(e keymap.HelpEntry) bool {
				return !strings.Contains(strings.ToLower(e.Key), q) && !strings.Contains(strings.ToLower(e.Desc), q)
			})
			if len(g.Entries) == 0 {
				continue
			}
		}
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
	lines := m.helpLines(inner, h.query)
	if len(lines) == 0 {
		lines = []string{st.Muted.Render(components.Truncate("no key matches “"+h.query+"”", inner))}
	}
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
	footer := "/ search • j/k scroll • esc/? close"
	switch {
	case h.typing:
		footer = "search: " + h.query + "▏ • enter done • esc clear"
	case h.query != "":
		footer = "search: " + h.query + " • / change • esc clear"
	}
	footer = components.Truncate(footer, inner)
	if end < len(lines) {
		footer = "more below • " + footer
	}
	parts := append([]string{lipgloss.JoinVertical(lipgloss.Left, body...)}, pinned...)
	parts = append(parts, st.Muted.Render(footer))
	content := lipgloss.JoinVertical(lipgloss.Left, parts...)
	return center(base, st.DialogBorder.Render(content), w, hgt)
}
