package ui

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// check is the one gate (views.Allowed) every pane action passes before
// the pane hears of it, on the project the action acts in (a pane's own
// group when it says, else the context's).
func (m *Model) check(a keymap.Action) (bool, string) {
	group := m.ctx.GroupID
	if p := m.activePane(); p != nil && strings.HasPrefix(a.Name, string(p.ID())+".") {
		if g, ok := p.(views.ActionGrouper); ok {
			group = g.ActionGroup()
		}
	}
	return views.Allowed(m.gate, a, group)
}

// bound reports whether key k is one of the action's keys. It ignores the
// enabled flag on purpose: a disabled action's key must still be recognised
// so the user is told why nothing happens, and never falls through to the
// pane as a plain key.
func bound(a keymap.Action, k string) bool { return slices.Contains(a.Keys(), k) }

// paneAction finds the action of pane i bound to key k, or by name.
func (m *Model) paneAction(i int, k, name string) (keymap.Action, bool) {
	for _, a := range m.panes[i].Actions() {
		if (k != "" && bound(a, k)) || (name != "" && a.Name == name) {
			return a, true
		}
	}
	return keymap.Action{}, false
}

// deliverAction is the only way an ActionMsg reaches a pane: it re-checks
// the gate at the moment of delivery (a confirmation may come long after the
// key press, and read-only mode may have been turned on in between).
func (m *Model) deliverAction(i int, a keymap.Action, msg views.ActionMsg) tea.Cmd {
	if ok, why := m.check(a); !ok {
		return m.toast(deniedText(a, why), true)
	}
	return m.deliverChecked(i, a, msg)
}

// deliverChecked is deliverAction once the gate has been asked, at this
// moment, by the caller (a form's submit, which says a refusal in the form).
func (m *Model) deliverChecked(i int, a keymap.Action, msg views.ActionMsg) tea.Cmd {
	// A pane that judges its dialogs' answers itself (on the item the
	// dialog named) is not refused by what it disables for the row now.
	_, judges := m.panes[i].(views.AnswerJudge)
	if disabled := a.DisabledReason; disabled != "" && !a.Enabled() && !(judges && msg.Confirmed) {
		// The pane's state refused it: the error is the pane's, and goes
		// when the pane says its cause is gone.
		return m.toasts.PushFrom(string(m.panes[i].ID()), components.ToastError, deniedText(a, disabled))
	}
	msg.Name = a.Name
	m.delivering = a.Name
	defer func() { m.delivering = "" }()
	return m.updatePane(i, msg)
}

// deniedText says why an action was refused: "acknowledge needs Project
// Owner or ...", "acknowledge: read-only mode".
func deniedText(a keymap.Action, why string) string {
	desc := a.Help().Desc
	if desc == "" {
		desc = a.Name
	}
	if strings.HasPrefix(why, "needs ") {
		return desc + " " + why
	}
	return fmt.Sprintf("%s: %s", desc, why)
}
