package ui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/dbadmin-tui/dbadmin-tui/components"
)

// maxYank caps what `y` copies: terminals drop longer OSC 52 payloads
// (74994 base64 bytes is the common limit).
const maxYank = 74994 / 4 * 3

// yank copies the active pane's selection through the terminal (OSC 52), so
// it works over SSH; under tmux the sequence is also sent through tmux's
// passthrough.
func (m *Model) yank() tea.Cmd {
	p := m.activePane()
	if p == nil {
		return nil
	}
	if y, ok := p.(yanker); ok {
		if s, what, ok := y.Yank(); ok && s != "" {
			if len(s) > maxYank {
				s = s[:maxYank]
			}
			return tea.Batch(clipboardCmds(s, m.opts.Tmux), m.toast("copied "+what, false))
		}
	}
	s := clean(p.Selected())
	if s == "" {
		return m.toast("nothing selected to copy", false)
	}
	if len(s) > maxYank {
		s = s[:maxYank]
	}
	return tea.Batch(clipboardCmds(s, m.opts.Tmux), m.toast("copied "+components.Truncate(s, 40), false))
}

// yanker is a pane whose `y` copies something else than the selection's
// id where it has one (a download restore's URL): the text, and what it is
// in words for the notice; ok false copies the selection.
type yanker interface {
	Yank() (text, what string, ok bool)
}

func clipboardCmds(s string, tmux bool) tea.Cmd {
	cmds := []tea.Cmd{tea.SetClipboard(s)}
	if tmux {
		cmds = append(cmds, tea.Raw(ansi.TmuxPassthrough(ansi.SetSystemClipboard(s))))
	}
	return tea.Batch(cmds...)
}
