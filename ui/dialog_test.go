package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/alerts"
)

// A prompt hands the text back in the action; a typed confirmation needs
// the exact name; both default to No and a yes goes through the gate.
func TestConfirmMsgPromptAndTypedConfirmation(t *testing.T) {
	d, panes, _ := readyModel(t, nil)
	m := d.m
	ask := func(msg views.ConfirmMsg) {
		d.Send(asked(msg))
		d.Settle()
		require.Equal(t, 1, m.layers.len(), "the dialog opened")
	}
	ack := views.ActionMsg{Name: "alerts.ack", Target: "a1"}

	ask(views.ConfirmMsg{Pane: alerts.ID, Title: "Ack?", Prompt: "Comment:", Action: ack})
	d.Type("on it")
	d.Press("tab", "enter")
	assert.Empty(t, panes[alerts.ID].actionsGot(), "tab reaches No; enter answers it")
	assert.Equal(t, 0, m.layers.len())

	// A prompt for a non-dangerous action submits its text on enter.
	ask(views.ConfirmMsg{Pane: alerts.ID, Title: "Ack?", Prompt: "Comment:", Action: ack})
	d.Type("yes, on it")
	d.Send(tea.PasteMsg{Content: " \x1b[2J(paged)"})
	d.Press("enter")
	got := panes[alerts.ID].actionsGot()
	require.Len(t, got, 1)
	assert.True(t, got[0].Confirmed)
	assert.Equal(t, "yes, on it (paged)", got[0].Input, "typed and pasted text, sanitized")
	assert.Equal(t, "a1", got[0].Target)

	ask(views.ConfirmMsg{Pane: alerts.ID, Title: "Delete?", TypeToConfirm: "pay-main", Action: ack})
	d.Type("pay-mai")
	d.Press("enter")
	assert.Len(t, panes[alerts.ID].actionsGot(), 1, "a near miss confirms nothing")
	assert.Equal(t, 1, m.layers.len(), "and says so in the dialog")
	assert.Contains(t, d.Screen(), "does not match")
	d.Type("n")
	m.gate.SetReadOnly(true)
	d.Press("enter")
	assert.Len(t, panes[alerts.ID].actionsGot(), 1, "the yes is gated again")
	assert.Contains(t, d.Screen(), "read-only mode")
	m.gate.SetReadOnly(false)

	ask(views.ConfirmMsg{Pane: alerts.ID, Title: "Delete?", TypeToConfirm: "pay-main", Action: ack})
	d.Type("pay-main")
	d.Press("enter")
	got = panes[alerts.ID].actionsGot()
	require.Len(t, got, 2)
	assert.True(t, got[1].Confirmed)
	assert.Equal(t, 0, m.layers.len())
}

// The context picker's key comes from the keymap, so it can be moved.
func TestContextPickerKeyIsRemappable(t *testing.T) {
	d, _, _ := readyModel(t, func(o *Options) {
		km := keymap.Default()
		require.NoError(t, km.Apply(map[string][]string{"global.context": {"ctrl+g"}}))
		o.Keys = km
	})
	d.Press("@")
	assert.Equal(t, 0, d.m.layers.len(), "@ is no longer bound")
	d.Press("ctrl+g")
	_, isPicker := d.m.layers.top().(*pickerLayer)
	assert.True(t, isPicker)
	d.Press("?")
	assert.Equal(t, 1, d.m.layers.len(), "? is text in the picker")
	d.Press("esc")
	help := ansi.Strip(strings.Join(d.m.helpLines(80, ""), "\n"))
	assert.Regexp(t, `ctrl\+g +org/project/cluster picker`, help, "help shows the new key")
}
