package ui

import (
	"reflect"
	"runtime"
	"strings"

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
	case views.ConfirmMsg:
		return m.confirmForPane(msg), true
	case views.FormMsg:
		return m.formForPane(msg), true
	case views.FormDoneMsg:
		return m.formDone(msg), true
	case views.FormStatusMsg:
		m.formStatus(msg)
		return nil, true
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
// gate before any dialog opens; when ok is false, refused is the toast that
// says why (nil when the pane is gone).
func (m *Model) dialogAction(pane views.ID, name string) (i int, a keymap.Action, refused tea.Cmd, ok bool) {
	if i = m.paneIndex(pane); i < 0 {
		return i, a, nil, false
	}
	if a, ok = m.paneAction(i, "", name); !ok {
		return i, a, m.toast("unknown action "+name, true), false
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

// fromPane tags what a pane's Cmd produces with the pane: its toasts and
// "errors resolved" are about that pane, whichever pane is on screen when
// they arrive. Batches and sequences are tagged element by element.
func fromPane(id views.ID, cmd tea.Cmd) tea.Cmd {
	if cmd == nil || isTimer(cmd) {
		return cmd
	}
	return func() tea.Msg { return tagMsg(id, cmd()) }
}

func tagMsg(id views.ID, msg tea.Msg) tea.Msg {
	switch m := msg.(type) {
	case nil:
		return nil
	case views.ToastMsg:
		if m.Pane == "" {
			m.Pane = id
		}
		return m
	case views.ErrorsResolvedMsg:
		if m.Pane == "" {
			m.Pane = id
		}
		return m
	case tea.BatchMsg:
		out := make(tea.BatchMsg, len(m))
		for i, c := range m {
			out[i] = fromPane(id, c)
		}
		return out
	}
	// tea.Sequence's message is an unexported []tea.Cmd: copy it with every
	// Cmd tagged, keeping its type so the program still runs it in order.
	v := reflect.ValueOf(msg)
	if v.Kind() == reflect.Slice && v.Type().Elem() == reflect.TypeFor[tea.Cmd]() {
		out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			c, _ := v.Index(i).Interface().(tea.Cmd)
			out.Index(i).Set(reflect.ValueOf(fromPane(id, c)).Convert(v.Type().Elem()))
		}
		return out.Interface()
	}
	return msg
}

// isTimer reports a tea.Tick or tea.Every Cmd. A timer's message is a poll
// tick or an expiry, never a toast, and it stays a bare timer so that
// whoever runs Cmds (the program, the test drivers) still knows it for one.
func isTimer(cmd tea.Cmd) bool {
	name := runtime.FuncForPC(reflect.ValueOf(cmd).Pointer()).Name()
	return strings.HasPrefix(name, "charm.land/bubbletea/v2.Tick.") || strings.HasPrefix(name, "charm.land/bubbletea/v2.Every.")
}
