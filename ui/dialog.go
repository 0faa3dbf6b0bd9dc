package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// confirmSpec describes a confirmation. The default answer is No: enter on
// an untouched dialog cancels, and so does any key that is not an answer.
type confirmSpec struct {
	title, body string
	// typed, when set, must be typed exactly before yes is possible.
	typed string
	// prompt, when set, asks for free text handed to onInput before onYes.
	prompt  string
	onYes   func(m *Model) tea.Cmd
	onInput func(string)
}

type confirmLayer struct {
	spec  confirmSpec
	yes   bool // the focused button; starts on No
	input lineInput
	typed bool // the dialog has a text field
}

func newConfirm(m *Model, spec confirmSpec) *confirmLayer {
	c := &confirmLayer{spec: spec}
	if spec.typed != "" || spec.prompt != "" {
		c.typed = true
		c.input = newInput(m, "> ")
		c.input.CharLimit = 200
		c.input.Focus()
	}
	return c
}

func (c *confirmLayer) rank() int { return rankDialog }

func (c *confirmLayer) dismiss(*Model) tea.Cmd { return nil }

func (c *confirmLayer) key(m *Model, msg tea.KeyPressMsg) (bool, tea.Cmd) {
	k := msg.String()
	switch k {
	case "tab", "shift+tab", "left", "right":
		c.yes = !c.yes
		return false, nil
	case "enter":
		if !c.yes || !c.ready() {
			return true, nil
		}
		return true, c.confirm(m)
	}
	if c.typed {
		var cmd tea.Cmd
		c.input, cmd = c.input.Update(msg)
		return false, cmd
	}
	switch k {
	case "y", "Y":
		return true, c.confirm(m)
	case "n", "N":
		return true, nil
	}
	// Any other key cancels: a stray key must never confirm.
	return true, nil
}

// ready reports whether yes may be chosen: a typed confirmation needs the
// exact name.
func (c *confirmLayer) ready() bool {
	return c.spec.typed == "" || c.input.Value() == c.spec.typed
}

func (c *confirmLayer) confirm(m *Model) tea.Cmd {
	if c.spec.onInput != nil && c.typed {
		c.spec.onInput(c.input.Value())
	}
	if c.spec.onYes == nil {
		return nil
	}
	return c.spec.onYes(m)
}

func (c *confirmLayer) overlay(m *Model, base string, w, h int) string {
	st := m.theme.Styles
	inner := min(60, w-6)
	var b strings.Builder
	b.WriteString(st.DialogTitle.Render(clean(c.spec.title)))
	b.WriteString("\n\n")
	b.WriteString(lipgloss.NewStyle().Width(inner).Render(cleanText(c.spec.body)))
	if c.typed {
		b.WriteString("\n\n")
		if c.spec.typed != "" {
			b.WriteString(st.FieldLabel.Render("Type " + clean(c.spec.typed) + " to confirm:"))
		} else {
			b.WriteString(st.FieldLabel.Render(clean(c.spec.prompt)))
		}
		b.WriteString("\n")
		c.input.SetWidth(inner - 4)
		b.WriteString(c.input.View())
	}
	no, yes := st.ButtonUnfocused, st.ButtonUnfocused
	if c.yes {
		yes = st.ButtonFocused
	} else {
		no = st.ButtonFocused
	}
	b.WriteString("\n\n")
	b.WriteString(no.Render("No") + "  " + yes.Render("Yes"))
	b.WriteString("\n")
	b.WriteString(st.Muted.Render(c.hint()))
	return center(base, st.DialogBorder.Render(b.String()), w, h)
}

func (c *confirmLayer) hint() string {
	if c.typed {
		return "tab: switch • enter: choose • esc: cancel"
	}
	return "y: yes • n/esc: no • enter: choose"
}

func bulletList(items []string) string {
	var b strings.Builder
	for _, it := range items {
		b.WriteString("  • ")
		b.WriteString(clean(it))
		b.WriteString("\n")
	}
	return b.String()
}
