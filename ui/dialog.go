package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/components"
)

// confirmSpec describes a confirmation. The dialog is one of the shared
// components, so the root's questions answer like the panes': the default
// is No, and any key that is not an answer cancels.
type confirmSpec struct {
	title, body string
	dangerous   bool
	// typed, when set, must be typed exactly before yes is possible.
	typed string
	// prompt, when set, asks for free text. What was typed (here or in a
	// typed confirmation) is handed to onYes.
	prompt string
	onYes  func(m *Model, input string) tea.Cmd
	// onBack, when set, is what the previous-field key does: a wizard's
	// way back a step (views.ConfirmMsg.Back).
	onBack func(m *Model) tea.Cmd
}

// confirmLayer shows a components.Confirm, TypedConfirm or Prompt and reads
// its answer as soon as it is given, so a yes acts on the same key press.
type confirmLayer struct {
	// answer hands the dialog a message and reports whether it has
	// answered, whether the answer is yes, and the text typed.
	answer func(msg tea.Msg) (done, yes bool, input string)
	view   func(w, h int) string
	onYes  func(m *Model, input string) tea.Cmd
	onBack func(m *Model) tea.Cmd
}

func newConfirm(m *Model, spec confirmSpec) *confirmLayer {
	c := &confirmLayer{onYes: spec.onYes, onBack: spec.onBack}
	switch {
	case spec.typed != "":
		d := components.NewTypedConfirm("confirm", spec.title, spec.body, spec.typed, nil, m.theme, m.keys)
		c.answer = func(msg tea.Msg) (bool, bool, string) {
			d, _ = d.Update(msg)
			return d.Done(), d.Confirmed(), d.Value()
		}
		c.view = func(w, h int) string { d.SetSize(w, h); return d.View() }
	case spec.prompt != "":
		d := components.NewPrompt("confirm", spec.title, spec.body, spec.prompt, nil, m.theme, m.keys)
		if !spec.dangerous {
			d = d.WithEnterSubmits()
		}
		c.answer = func(msg tea.Msg) (bool, bool, string) {
			d, _ = d.Update(msg)
			return d.Done(), d.Confirmed(), d.Value()
		}
		c.view = func(w, h int) string { d.SetSize(w, h); return d.View() }
	default:
		d := components.NewConfirm("confirm", spec.title, spec.body, nil, m.theme, m.keys).
			WithDangerous(spec.dangerous).WithOtherKeysCancel()
		c.answer = func(msg tea.Msg) (bool, bool, string) {
			d, _ = d.Update(msg)
			return d.Done(), d.Confirmed(), ""
		}
		c.view = func(w, h int) string { d.SetSize(w, h); return d.View() }
	}
	return c
}

func (c *confirmLayer) rank() int { return rankDialog }

func (c *confirmLayer) dismiss(*Model) tea.Cmd { return nil }

// key answers from the dialog's own state; the result message it also
// returns is not needed.
func (c *confirmLayer) key(m *Model, msg tea.KeyPressMsg) (bool, tea.Cmd) {
	if c.onBack != nil && bound(m.keys.Dialog.PrevField, msg.String()) {
		return true, c.onBack(m)
	}
	return c.take(m, msg)
}

func (c *confirmLayer) paste(m *Model, msg tea.PasteMsg) (bool, tea.Cmd) {
	return c.take(m, msg)
}

func (c *confirmLayer) take(m *Model, msg tea.Msg) (bool, tea.Cmd) {
	done, yes, input := c.answer(msg)
	if !done || !yes || c.onYes == nil {
		return done, nil
	}
	return true, c.onYes(m, input)
}

func (c *confirmLayer) overlay(_ *Model, base string, w, h int) string {
	return center(base, c.view(w, h), w, h)
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
