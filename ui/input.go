package ui

import (
	"strings"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// lineInput is a one-line text field for the filter bar, the palette, the
// picker and dialogs. (bubbles' textinput pulls in a desktop clipboard
// package this module does not carry.) The cursor is drawn as a reversed
// cell, steady rather than blinking, so the screen does not need a timer.
type lineInput struct {
	Prompt      string
	Placeholder string
	CharLimit   int
	value       []rune
	pos         int
	width       int
}

func newInput(_ *Model, prompt string) lineInput { return lineInput{Prompt: prompt, CharLimit: 256} }

func (in *lineInput) Focus() tea.Cmd    { return nil }
func (in lineInput) Value() string      { return string(in.value) }
func (in *lineInput) SetWidth(w int)    { in.width = w }
func (in *lineInput) CursorEnd()        { in.pos = len(in.value) }
func (in *lineInput) SetValue(s string) { in.value = []rune(s); in.pos = len(in.value) }

// Update edits the value from a key press; other messages are ignored.
func (in lineInput) Update(msg tea.Msg) (lineInput, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return in, nil
	}
	switch k.String() {
	case "backspace", "ctrl+h":
		if in.pos > 0 {
			in.value = append(in.value[:in.pos-1], in.value[in.pos:]...)
			in.pos--
		}
	case "delete", "ctrl+d":
		if in.pos < len(in.value) {
			in.value = append(in.value[:in.pos], in.value[in.pos+1:]...)
		}
	case "left", "ctrl+b":
		in.pos = max(0, in.pos-1)
	case "right", "ctrl+f":
		in.pos = min(len(in.value), in.pos+1)
	case "home", "ctrl+a":
		in.pos = 0
	case "end", "ctrl+e":
		in.pos = len(in.value)
	case "ctrl+u":
		in.value = in.value[in.pos:]
		in.pos = 0
	case "ctrl+w":
		i := in.pos
		for i > 0 && unicode.IsSpace(in.value[i-1]) {
			i--
		}
		for i > 0 && !unicode.IsSpace(in.value[i-1]) {
			i--
		}
		in.value = append(in.value[:i], in.value[in.pos:]...)
		in.pos = i
	default:
		in.insert(k.Text)
	}
	return in, nil
}

// insert adds typed text, dropping control characters (a paste of escape
// sequences must not reach the screen).
func (in *lineInput) insert(text string) {
	if text == "" {
		return
	}
	var add []rune
	for _, r := range text {
		if unicode.IsPrint(r) {
			add = append(add, r)
		}
	}
	if in.CharLimit > 0 && len(in.value)+len(add) > in.CharLimit {
		add = add[:max(0, in.CharLimit-len(in.value))]
	}
	v := make([]rune, 0, len(in.value)+len(add))
	v = append(v, in.value[:in.pos]...)
	v = append(v, add...)
	v = append(v, in.value[in.pos:]...)
	in.value = v
	in.pos += len(add)
}

var cursorStyle = lipgloss.NewStyle().Reverse(true)

// View renders prompt, value and cursor, scrolled so the cursor stays in
// view within the width.
func (in lineInput) View() string {
	if len(in.value) == 0 && in.Placeholder != "" {
		ph := []rune(in.Placeholder)
		return in.Prompt + cursorStyle.Render(string(ph[0])) + lipgloss.NewStyle().Faint(true).Render(string(ph[1:]))
	}
	avail := in.width - lipgloss.Width(in.Prompt) - 1
	start := 0
	if avail > 0 && in.pos > avail {
		start = in.pos - avail
	}
	var b strings.Builder
	b.WriteString(in.Prompt)
	b.WriteString(string(in.value[start:in.pos]))
	if in.pos < len(in.value) {
		b.WriteString(cursorStyle.Render(string(in.value[in.pos])))
		b.WriteString(string(in.value[in.pos+1:]))
	} else {
		b.WriteString(cursorStyle.Render(" "))
	}
	return b.String()
}
