package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/ui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// formLayer is a pane's form dialog. A valid submit goes to the pane as its
// action, through the gate again; the dialog then waits, frozen, for the
// pane's FormDoneMsg, so a failed request leaves the draft on screen.
type formLayer struct {
	pane   int
	id     string
	action keymap.Action
	msg    views.ActionMsg
	form   components.Form
}

func (f *formLayer) rank() int              { return rankDialog }
func (f *formLayer) dismiss(*Model) tea.Cmd { return nil }

func (f *formLayer) key(m *Model, msg tea.KeyPressMsg) (bool, tea.Cmd) {
	var cmd tea.Cmd
	f.form, cmd = f.form.Update(msg)
	return f.form.Done(), cmd
}

// update takes the form's own submit and cancel messages.
func (f *formLayer) update(m *Model, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case components.FormSubmitMsg:
		if msg.ID != f.id {
			return nil
		}
		if ok, why := m.check(f.action); !ok {
			f.form.SetSubmitError("", deniedText(f.action, why))
			return nil
		}
		a := f.msg
		a.Confirmed, a.Form, a.Values = true, f.id, msg.Values
		return m.deliverAction(f.pane, f.action, a)
	case components.FormCancelMsg:
		if msg.ID == f.id {
			m.layers.remove(f)
		}
	}
	return nil
}

func (f *formLayer) overlay(m *Model, base string, w, h int) string {
	f.form.SetSize(w, h)
	return center(base, f.form.View(), w, h)
}

// formForPane opens the form a pane asked for, if its action is allowed now.
func (m *Model) formForPane(msg views.FormMsg) tea.Cmd {
	i, a, refused, ok := m.dialogAction(msg.Pane, msg.Action.Name)
	if !ok {
		return refused
	}
	id := msg.ID
	if id == "" {
		id = msg.Action.Name
	}
	form := components.NewForm(id, msg.Title, msg.Fields, nil, m.theme, m.keys)
	m.layers.push(&formLayer{pane: i, id: id, action: a, msg: msg.Action, form: form})
	return nil
}

// formDone closes a submitted form, or shows why it failed with the draft kept.
func (m *Model) formDone(msg views.FormDoneMsg) tea.Cmd {
	for _, l := range m.layers.all() {
		f, ok := l.(*formLayer)
		if !ok || f.id != msg.ID || m.panes[f.pane].ID() != msg.Pane {
			continue
		}
		if msg.Err == nil {
			m.layers.remove(f)
			return nil
		}
		if e, ok := apiclient.AsError(msg.Err); ok {
			f.form.SetSubmitError(e.ErrorCode, e.Detail)
		} else {
			f.form.SetSubmitError("", msg.Err.Error())
		}
		return nil
	}
	return nil
}

// formStatus sets the status line of a submitted form still waiting.
func (m *Model) formStatus(msg views.FormStatusMsg) {
	for _, l := range m.layers.all() {
		if f, ok := l.(*formLayer); ok && f.id == msg.ID && m.panes[f.pane].ID() == msg.Pane && f.form.Submitting() {
			f.form.SetStatus(msg.Text)
		}
	}
}
