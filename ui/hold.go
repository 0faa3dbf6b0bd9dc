package ui

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// Keys typed between an action key and the dialog it opens belong to the
// dialog: "a" then "tyre check" typed in one go must fill the ack form,
// not fire t, y, r, e on the list. A pane that can ask at once asks in the
// Update that handles the key (views.Ask): the dialog is open before the
// next key is read, and nothing is held. A pane that must read first (the
// restore wizard lists the clusters it may restore onto) answers with a
// Cmd; the root then holds the keys that follow and replays them into the
// dialog when the pane asks for it. If no dialog comes (the pane refused
// with a toast, or holdFor passes) they go to the pane as usual, in order.

// holdFor is how long keys wait for a dialog before they go to the list.
const holdFor = 600 * time.Millisecond

// maxHeld bounds the keys held for one dialog.
const maxHeld = 256

// keyHold is a hold in progress.
type keyHold struct {
	gen   int
	pane  views.ID // the pane whose answer it waits on
	start time.Time
	keys  []tea.KeyPressMsg
	// formsOnly: typed while a form was sent, so blind to what came next;
	// they may fill a next form, never answer a question.
	formsOnly bool
}

// holdExpiredMsg ends hold gen if it is still on.
type holdExpiredMsg struct{ gen int }

// opensDialog reports whether action a is a write: those answer with a
// form or a confirmation.
func opensDialog(a keymap.Action) bool {
	op, ok := catalog.Get(a.Op)
	return ok && op.Mutates()
}

// startHold begins holding keys after a's action answered with cmd and
// asked for no dialog yet: the pane is reading what its dialog needs.
func (m *Model) startHold(a keymap.Action, cmd tea.Cmd) tea.Cmd {
	if cmd == nil || !opensDialog(a) || m.layers.top() != nil {
		return cmd // no answer to wait for, or the dialog is open already
	}
	if ok, _ := m.check(a); !ok || (a.DisabledReason != "" && !a.Enabled()) || m.toasted == m.panes[m.active].ID() {
		return cmd // refused: the keys stay with the list
	}
	m.holdGen++
	gen := m.holdGen
	// Keys already held for an earlier action go first, in order.
	var carried []tea.KeyPressMsg
	if m.hold != nil {
		carried = m.hold.keys
	}
	m.hold = &keyHold{gen: gen, pane: m.panes[m.active].ID(), start: time.Now(), keys: carried}
	return tea.Batch(cmd, tea.Tick(holdFor, func(time.Time) tea.Msg { return holdExpiredMsg{gen: gen} }))
}

// holding keeps msg if a hold is on and nothing is open over the pane.
// ctrl+c is never held.
func (m *Model) holding(msg tea.KeyPressMsg) bool {
	if m.hold == nil || m.layers.top() != nil || msg.String() == "ctrl+c" {
		return false
	}
	if len(m.hold.keys) >= maxHeld {
		return false // full: handleKey releases it first (holdOverdue)
	}
	m.hold.keys = append(m.hold.keys, msg)
	return true
}

// holdOverdue reports whether the hold's deadline passed (its tick may not
// have arrived yet) or it is full: its keys go first, then the new one.
func (m *Model) holdOverdue() bool {
	return m.hold != nil && (time.Since(m.hold.start) > holdFor || len(m.hold.keys) >= maxHeld)
}

// releaseHold ends the hold and replays its keys where they now belong:
// into the dialog that opened, or to the pane level.
func (m *Model) releaseHold() tea.Cmd {
	if m.hold == nil {
		return nil
	}
	keys := m.hold.keys
	m.hold = nil
	cmds := make([]tea.Cmd, 0, len(keys))
	for _, k := range keys {
		cmds = append(cmds, m.handleKey(k))
	}
	return tea.Sequence(cmds...)
}

// afterUpdate releases a hold once a dialog is open over the pane.
func (m *Model) afterUpdate(cmd tea.Cmd) tea.Cmd {
	top := m.layers.top()
	if m.hold == nil || top == nil {
		return cmd
	}
	if _, form := top.(*formLayer); m.hold.formsOnly && !form {
		// A question came: keys typed before it was seen do not answer it.
		n := len(m.hold.keys)
		m.hold = nil
		return tea.Batch(cmd, m.toast(fmt.Sprintf("%d %s typed before this question not applied", n, plural(n, "key", "keys")), true))
	}
	return tea.Batch(cmd, m.releaseHold())
}

// plural is one or many by n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
