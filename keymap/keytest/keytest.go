// Package keytest builds key presses from the names the keymap uses
// ("a", "enter", "ctrl+space", "shift+tab", "alt+backspace"), for tests.
// It is the one such helper: the keymap's, the components' and the panes'
// tests all use it, and its test proves that every key of the default
// keymap reads back as its own name.
package keytest

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// named are the keys spelt by name rather than by the character they type.
var named = map[string]rune{
	"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "space": tea.KeySpace,
	"backspace": tea.KeyBackspace, "delete": tea.KeyDelete, "insert": tea.KeyInsert,
	"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
	"home": tea.KeyHome, "end": tea.KeyEnd, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
	"f1": tea.KeyF1, "f2": tea.KeyF2, "f3": tea.KeyF3, "f4": tea.KeyF4, "f5": tea.KeyF5,
}

var mods = []struct {
	prefix string
	mod    tea.KeyMod
}{{"ctrl+", tea.ModCtrl}, {"alt+", tea.ModAlt}, {"shift+", tea.ModShift}}

// Press is the key press whose String() is name. A printable key without
// modifiers carries its text, as a terminal sends it.
func Press(name string) tea.KeyPressMsg {
	var msg tea.KeyPressMsg
	base := name
	for found := true; found && len(base) > 1; {
		found = false
		for _, m := range mods {
			if rest, ok := strings.CutPrefix(base, m.prefix); ok && rest != "" {
				msg.Mod |= m.mod
				base, found = rest, true
			}
		}
	}
	if code, ok := named[base]; ok {
		msg.Code = code
		if code == tea.KeySpace && msg.Mod == 0 {
			msg.Text = " "
		}
		return msg
	}
	r := []rune(base)
	msg.Code = r[0]
	if msg.Mod == 0 {
		msg.Text = base
	}
	return msg
}

// Presses are the key presses of names, in order.
func Presses(names ...string) []tea.KeyPressMsg {
	out := make([]tea.KeyPressMsg, len(names))
	for i, n := range names {
		out[i] = Press(n)
	}
	return out
}
