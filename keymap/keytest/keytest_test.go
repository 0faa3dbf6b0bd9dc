package keytest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/dbadmin-tui/dbadmin-tui/keymap/keytest"
	"github.com/dbadmin-tui/dbadmin-tui/ui"
)

// Every key the default keymap binds, for every registered pane, is built
// back into a press that reads as its name, so a test pressing "ctrl+space"
// sends ctrl+space (not ctrl+s).
func TestEveryKeymapKeyReadsBackAsItsName(t *testing.T) {
	km := ui.Panes().Keymap()
	seen := 0
	for _, s := range km.AllScopes() {
		for _, a := range km.Scope(s) {
			for _, k := range a.Keys() {
				assert.Equal(t, k, keytest.Press(k).String(), "%s", a.Name)
				seen++
			}
		}
	}
	assert.Greater(t, seen, 80, "the keymap's keys were walked")
	for _, k := range []string{"ctrl+space", `ctrl+\`, "alt+backspace", "shift+tab", "ctrl+shift+up", "q", "G", "?"} {
		assert.Equal(t, k, keytest.Press(k).String())
	}
	assert.Equal(t, "x", keytest.Press("x").Text, "a printable key carries its text")
	assert.Empty(t, keytest.Press("ctrl+x").Text)
}
