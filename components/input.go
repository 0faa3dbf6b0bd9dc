package components

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Input is a single-line text input. (bubbles/textinput pulls in a local
// clipboard package this module does not carry, and a dashboard used over
// SSH has no use for it.) Typed and pasted text is sanitized, and CharLimit
// stops input at the limit, so the 201st character of a 200 limit cannot be
// typed or pasted.
type Input struct {
	Prompt      string
	Placeholder string
	CharLimit   int  // > 0: maximum number of characters
	Secret      bool // show dots instead of the text

	PromptStyle      lipgloss.Style
	TextStyle        lipgloss.Style
	PlaceholderStyle lipgloss.Style
	CursorStyle      lipgloss.Style // the cell under the cursor; reverse by default

	value   []rune
	pos     int
	width   int // text area width; 0: unbounded
	offset  int // first shown rune when the text is wider than width
	focused bool
}

// NewInput returns an empty input with a reverse-video cursor.
func NewInput() Input {
	return Input{CursorStyle: lipgloss.NewStyle().Reverse(true)}
}

// Value returns the text.
func (in Input) Value() string { return string(in.value) }

// SetValue replaces the text (sanitized, cut at CharLimit) and puts the
// cursor at the end.
func (in *Input) SetValue(s string) {
	r := []rune(Sanitize(s))
	if in.CharLimit > 0 && len(r) > in.CharLimit {
		r = r[:in.CharLimit]
	}
	in.value = r
	in.pos = len(r)
	in.scroll()
}

// Len is the number of characters (runes) typed.
func (in Input) Len() int { return len(in.value) }

// Focus and Blur show or hide the cursor; only a focused input takes keys.
func (in *Input) Focus()         { in.focused = true }
func (in *Input) Blur()          { in.focused = false }
func (in Input) Focused() bool   { return in.focused }
func (in *Input) SetWidth(w int) { in.width = max(w, 0); in.scroll() }

// SetSize sets the width; the height is always one line.
func (in *Input) SetSize(w, _ int) { in.SetWidth(w) }

func (in *Input) insert(s string) {
	r := []rune(Sanitize(s))
	if in.CharLimit > 0 {
		room := in.CharLimit - len(in.value)
		if room <= 0 {
			return
		}
		if len(r) > room {
			r = r[:room]
		}
	}
	v := make([]rune, 0, len(in.value)+len(r))
	v = append(v, in.value[:in.pos]...)
	v = append(v, r...)
	v = append(v, in.value[in.pos:]...)
	in.value = v
	in.pos += len(r)
}

// Update edits the text on key presses and pastes when focused.
func (in Input) Update(msg tea.Msg) (Input, tea.Cmd) {
	if !in.focused {
		return in, nil
	}
	switch msg := msg.(type) {
	case tea.PasteMsg:
		in.insert(msg.Content)
	case tea.KeyPressMsg:
		switch msg.String() {
		case "left", "ctrl+b":
			in.pos = max(in.pos-1, 0)
		case "right", "ctrl+f":
			in.pos = min(in.pos+1, len(in.value))
		case "home", "ctrl+a":
			in.pos = 0
		case "end", "ctrl+e":
			in.pos = len(in.value)
		case "backspace", "ctrl+h":
			if in.pos > 0 {
				in.value = append(in.value[:in.pos-1:in.pos-1], in.value[in.pos:]...)
				in.pos--
			}
		case "delete", "ctrl+d":
			if in.pos < len(in.value) {
				in.value = append(in.value[:in.pos:in.pos], in.value[in.pos+1:]...)
			}
		case "ctrl+u":
			in.value = append([]rune(nil), in.value[in.pos:]...)
			in.pos = 0
		case "ctrl+k":
			in.value = in.value[:in.pos:in.pos]
		case "ctrl+w", "alt+backspace":
			i := in.pos
			for i > 0 && in.value[i-1] == ' ' {
				i--
			}
			for i > 0 && in.value[i-1] != ' ' {
				i--
			}
			in.value = append(in.value[:i:i], in.value[in.pos:]...)
			in.pos = i
		default:
			if msg.Text != "" && msg.Mod&^tea.ModShift == 0 {
				in.insert(msg.Text)
			}
		}
	}
	in.scroll()
	return in, nil
}

// scroll keeps the cursor inside the shown part of the text.
func (in *Input) scroll() {
	in.pos = clampInt(in.pos, 0, len(in.value))
	if in.width <= 0 {
		in.offset = 0
		return
	}
	room := max(in.width-1, 1) // one cell for the cursor past the end
	if in.pos < in.offset {
		in.offset = in.pos
	}
	for in.offset < in.pos && ansi.StringWidth(string(in.value[in.offset:in.pos])) > room {
		in.offset++
	}
}

// View renders the prompt, the shown text and the cursor.
func (in Input) View() string {
	var b strings.Builder
	b.WriteString(in.PromptStyle.Render(in.Prompt))
	if len(in.value) == 0 && in.Placeholder != "" {
		ph := in.Placeholder
		if in.width > 0 {
			ph = Truncate(ph, in.width)
		}
		if in.focused {
			first, rest := ph, ""
			if rs := []rune(ph); len(rs) > 0 {
				first, rest = string(rs[0]), string(rs[1:])
			}
			b.WriteString(in.CursorStyle.Inherit(in.PlaceholderStyle).Render(first))
			b.WriteString(in.PlaceholderStyle.Render(rest))
		} else {
			b.WriteString(in.PlaceholderStyle.Render(ph))
		}
		return b.String()
	}
	shown := in.value[in.offset:]
	if in.Secret {
		shown = []rune(strings.Repeat("•", len(shown)))
	}
	cur := in.pos - in.offset
	if in.width > 0 {
		// Cut what does not fit on the right.
		limit := in.width
		if in.focused && cur >= len(shown) {
			limit-- // the cursor cell past the end
		}
		w, end := 0, 0
		for end < len(shown) {
			rw := ansi.StringWidth(string(shown[end]))
			if w+rw > limit {
				break
			}
			w += rw
			end++
		}
		shown = shown[:end]
	}
	if !in.focused {
		b.WriteString(in.TextStyle.Render(string(shown)))
		return b.String()
	}
	before := string(shown[:min(cur, len(shown))])
	b.WriteString(in.TextStyle.Render(before))
	if cur < len(shown) {
		b.WriteString(in.CursorStyle.Render(string(shown[cur])))
		b.WriteString(in.TextStyle.Render(string(shown[cur+1:])))
	} else {
		b.WriteString(in.CursorStyle.Render(" "))
	}
	return b.String()
}
