package components

import (
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
)

// TypedConfirm guards the worst actions (restore over a cluster, delete an
// index, cut over): the user must type the resource name exactly. Enter with
// a mismatch confirms nothing and says why; esc cancels.
type TypedConfirm struct {
	textQuestion
	expected string
	mismatch bool
}

// NewTypedConfirm builds a typed confirm that accepts only expected (the
// resource name, sanitized the way it is displayed). km may be nil.
func NewTypedConfirm(id, title, body, expected string, payload any, th themes.Theme, km *keymap.KeyMap) TypedConfirm {
	limit := max(len([]rune(expected))*2, 64)
	return TypedConfirm{textQuestion: newTextQuestion(id, title, body, payload, limit, th, km), expected: Sanitize(expected)}
}

// Size is the outer size of the box View draws.
func (c TypedConfirm) Size() (w, h int) { return lipgloss.Size(c.View()) }

// Update takes text; enter confirms only on an exact match.
func (c TypedConfirm) Update(msg tea.Msg) (TypedConfirm, tea.Cmd) {
	if c.done {
		return c, nil
	}
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case c.keys.Cancel.Matches(k):
			cmd := c.answer(false, "")
			return c, cmd
		case c.keys.Submit.Matches(k):
			if c.input.Value() != c.expected {
				c.mismatch = true
				return c, nil
			}
			cmd := c.answer(true, c.input.Value())
			return c, cmd
		}
	}
	var cmd tea.Cmd
	before := c.input.Value()
	c.input, cmd = c.input.Update(msg)
	if c.input.Value() != before {
		c.mismatch = false
	}
	return c, cmd
}

// View draws the dialog box.
func (c TypedConfirm) View() string {
	outer, inner := dialogWidths(c.theme, c.width)
	th := c.theme
	th.DialogTitle = th.DialogTitle.Inherit(th.ErrorText)
	status := c.theme.Muted.Render(Truncate("enter confirm · esc cancel", inner))
	if c.mismatch {
		status = c.theme.ErrorText.Render(wrap("does not match "+quoteName(c.expected)+": nothing was done", inner))
	}
	return box(th, outer, c.title,
		wrap(c.body, inner),
		"",
		"Type "+c.theme.FieldFocused.Render(quoteName(c.expected))+" to confirm:",
		c.input.View(),
		status,
	)
}

func quoteName(s string) string { return "\u201c" + s + "\u201d" }

// themedInput is an Input styled from the theme.
func themedInput(th themes.Theme) Input {
	in := NewInput()
	in.PromptStyle = th.FieldFocused
	in.PlaceholderStyle = th.Muted
	return in
}
