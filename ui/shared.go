package ui

import (
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// routeToPane delivers messages addressed to one pane, visible or not.
func (m *Model) routeToPane(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case views.Routed:
		r := msg.Route()
		var cmds []tea.Cmd
		if r.Task != "" {
			cmds = append(cmds, m.tasks.Finish(r.TaskID, r.Err, ""))
		}
		if r.Err == nil {
			m.updated[r.Pane] = m.opts.Wall()
			if r.Load {
				// The server answers again: a failure held on the task
				// line goes once it has been readable.
				cmds = append(cmds, m.tasks.Recovered())
			}
		}
		cmds = append(cmds, m.updatePane(m.paneIndex(r.Pane), msg))
		return tea.Batch(cmds...), true
	case views.PollTickMsg:
		return m.updatePane(m.paneIndex(msg.Pane), msg), true
	case views.PaneMsg:
		return m.updatePane(m.paneIndex(msg.Pane), msg.Msg), true
	}
	return nil, false
}

// confirmForPane opens the dialog a pane asked for; a yes goes back to the
// pane as its action, through the gate again.
func (m *Model) confirmForPane(msg views.ConfirmMsg) tea.Cmd {
	i, a, refused, ok := m.dialogAction(msg.Pane, msg.Action.Name)
	if !ok {
		return refused
	}
	action := msg.Action
	spec := confirmSpec{
		title: msg.Title, body: msg.Body, dangerous: a.Dangerous, typed: msg.TypeToConfirm, prompt: msg.Prompt,
		onYes: func(m *Model, input string) tea.Cmd {
			action.Confirmed, action.Input = true, input
			return m.deliverAction(i, a, action)
		},
	}
	if msg.Back != nil {
		back := *msg.Back
		back.Confirmed = true
		spec.onBack = func(m *Model) tea.Cmd { return m.deliverAction(i, a, back) }
	}
	m.layers.push(newConfirm(m, spec))
	return nil
}

// dialogAction finds the action a pane wants to ask about and checks the
// gate before any dialog opens (unless the pane asks while it handles that
// allowed action); when ok is false, refused is the toast that
// says why (nil when the pane is gone).
func (m *Model) dialogAction(pane views.ID, name string) (i int, a keymap.Action, refused tea.Cmd, ok bool) {
	if i = m.paneIndex(pane); i < 0 {
		return i, a, nil, false
	}
	if a, ok = m.paneAction(i, "", name); !ok {
		return i, a, m.toast("unknown action "+name, true), false
	}
	if m.delivering == name {
		// Asked in the Update of that very action, which the gate allowed
		// a moment ago: nothing can have changed in between.
		return i, a, nil, true
	}
	if allowed, why := m.check(a); !allowed {
		return i, a, m.toast(deniedText(a, why), true), false
	}
	return i, a, nil, true
}

// handleShared handles the footer's messages: toasts, tasks, the spinner.
func (m *Model) handleShared(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case views.ToastMsg:
		level := components.ToastInfo
		if msg.Err {
			level = components.ToastError
		}
		return m.toasts.PushFrom(string(msg.Pane), level, msg.Text), true
	case views.ErrorsResolvedMsg:
		m.toasts.ClearErrorsFrom(string(msg.Pane)) // their cause is gone
		return nil, true
	case views.TaskStartMsg:
		return m.tasks.Start(msg.ID, msg.Text), true
	case views.TaskDoneMsg:
		return m.tasks.Finish(msg.ID, msg.Err, ""), true
	case spinner.TickMsg, components.TaskClearMsg:
		var cmd tea.Cmd
		m.tasks, cmd = m.tasks.Update(msg)
		return cmd, true
	case components.ShowToastMsg, components.ToastExpireMsg:
		var cmd tea.Cmd
		m.toasts, cmd = m.toasts.Update(msg)
		return cmd, true
	}
	return nil, false
}

// toast shows a notice; info ones expire after seconds, errors after longer
// or when the pane or the context they were about is left.
func (m *Model) toast(text string, isErr bool) tea.Cmd {
	if isErr {
		return m.toasts.Error(text)
	}
	return m.toasts.Info(text)
}

func toastFromErr(what string, err error) views.ToastMsg {
	return views.ToastMsg{Text: what + ": " + err.Error(), Err: true}
}
