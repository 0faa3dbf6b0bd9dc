package ui

import (
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// filterLayer is the `/` bar. Every edit is sent to the active pane as a
// FilterMsg, so the list narrows while typing; enter keeps the filter, esc
// cancels the edit and restores the filter that was active when the bar
// opened (as k9s does).
type filterLayer struct {
	input components.Input
	prev  string // the filter before the bar opened
}

func (m *Model) openFilter() tea.Cmd {
	if m.activePane() == nil {
		return nil
	}
	in := newInput("/", "filter (! inverts)")
	prev := m.filters[m.panes[m.active].ID()]
	in.SetValue(prev)
	m.layers.push(&filterLayer{input: in, prev: prev})
	return nil
}

func (f *filterLayer) rank() int { return rankFilter }

func (f *filterLayer) key(m *Model, msg tea.KeyPressMsg) (bool, tea.Cmd) {
	if msg.String() == "enter" {
		return true, nil
	}
	return false, f.edit(m, msg)
}

func (f *filterLayer) paste(m *Model, msg tea.PasteMsg) (bool, tea.Cmd) {
	return false, f.edit(m, msg)
}

// edit hands a key or a paste to the field and the changed text to the pane.
func (f *filterLayer) edit(m *Model, msg tea.Msg) tea.Cmd {
	before := f.input.Value()
	var cmd tea.Cmd
	f.input, cmd = f.input.Update(msg)
	if v := f.input.Value(); v != before {
		return tea.Batch(cmd, m.setFilter(v))
	}
	return cmd
}

// dismiss is esc: the edit is cancelled, the previous filter comes back.
func (f *filterLayer) dismiss(m *Model) tea.Cmd {
	if f.input.Value() == f.prev {
		return nil
	}
	return m.setFilter(f.prev)
}

// The filter bar draws in the footer, not over the pane.
func (f *filterLayer) overlay(_ *Model, base string, _, _ int) string { return base }

func (f *filterLayer) line(w int) string {
	f.input.SetWidth(max(1, w-lipgloss.Width(f.input.Prompt)-1))
	return f.input.View()
}

// setFilter records the active pane's filter and tells the pane.
func (m *Model) setFilter(text string) tea.Cmd {
	if m.activePane() == nil {
		return nil
	}
	m.filters[m.panes[m.active].ID()] = text
	return m.updatePane(m.active, views.FilterMsg{Text: text})
}
