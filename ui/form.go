package ui

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
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
	// held are the keys typed while the form was being sent (k9s and
	// readline users type on): they go where they belong once the pane
	// answers, never into the form that sent them.
	held []tea.KeyPressMsg
	// back is a wizard step's way back (views.FormMsg.Back).
	back *views.ActionMsg
	// doing and on: what the form does to which alerts, for the others
	// (views.FormMsg.Doing).
	doing string
	on    []views.AlertRef
}

// formKey names a pane's form.
type formKey struct {
	pane views.ID
	id   string
}

func (f *formLayer) rank() int              { return rankDialog }
func (f *formLayer) dismiss(*Model) tea.Cmd { return nil }

func (f *formLayer) key(m *Model, msg tea.KeyPressMsg) (bool, tea.Cmd) {
	if f.back != nil && !f.form.Submitting() && f.form.Focused() == 0 && bound(m.keys.Dialog.PrevField, msg.String()) {
		a := *f.back
		a.Confirmed, a.Form = true, f.id
		return true, m.deliverAction(f.pane, f.action, a)
	}
	sending := f.form.Submitting()
	var cmd tea.Cmd
	f.form, cmd = f.form.Update(msg)
	if f.form.Done() {
		return true, nil // cancelled: the pane hears nothing
	}
	if !sending && f.form.Submitting() {
		// Submitted by this key: delivered now, in this Update, not
		// through the form's FormSubmitMsg (dropped with cmd).
		return false, f.submit(m)
	}
	return false, cmd
}

// submit delivers the valid form to its pane as its action, the gate asked
// again now; a refusal is said in the form, which keeps the draft.
func (f *formLayer) submit(m *Model) tea.Cmd {
	if ok, why := m.check(f.action); !ok {
		f.form.SetSubmitError("", deniedText(f.action, why))
		return nil
	}
	a := f.msg
	a.Confirmed, a.Form, a.Values = true, f.id, f.form.Values()
	return m.deliverChecked(f.pane, f.action, a)
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
	m.layers.push(&formLayer{pane: i, id: id, action: a, msg: msg.Action, form: form, back: msg.Back, doing: msg.Doing, on: msg.On})
	m.formWhat[formKey{msg.Pane, id}] = a.Binding.Help().Desc
	return nil
}

// holdWhileSent keeps a key typed while the form on top is being sent. esc
// is never held (it closes the dialog; the write goes on), nor is ctrl+c.
func (m *Model) holdWhileSent(msg tea.KeyPressMsg) bool {
	f, ok := m.layers.top().(*formLayer)
	if !ok || !f.form.Submitting() {
		return false
	}
	if k := msg.String(); k == "esc" || k == "ctrl+c" || bound(m.keys.Dialog.Cancel, k) || len(f.held) >= maxHeld {
		return false
	}
	f.held = append(f.held, msg)
	return true
}

// sentKeysGo hands the keys typed while f was sent on, after f closed: to
// the dialog the pane opens next (the next step of a wizard), else to the
// pane, in order, as a hold on f's pane does.
func (m *Model) sentKeysGo(f *formLayer) tea.Cmd {
	if len(f.held) == 0 {
		return nil
	}
	keys := f.held
	f.held = nil
	// A hold still waiting on a pane was typed earlier: its keys go first,
	// where they belong, before this form's.
	earlier := m.releaseHold()
	m.holdGen++
	gen := m.holdGen
	m.hold = &keyHold{gen: gen, pane: m.panes[f.pane].ID(), start: time.Now(), keys: keys, formsOnly: true}
	return tea.Sequence(earlier, tea.Tick(holdFor, func(time.Time) tea.Msg { return holdExpiredMsg{gen: gen} }))
}

// formDone closes a submitted form, or shows why it failed with the draft
// kept. Keys typed while it was sent follow a success; after a failure they
// are dropped, and the form says so: typed on into a form showing an error,
// they could change the draft or send it again unseen. An error whose form
// has closed (a question was asked in between) is shown as a notice.
func (m *Model) formDone(msg views.FormDoneMsg) tea.Cmd {
	for _, l := range m.layers.all() {
		f, ok := l.(*formLayer)
		if !ok || f.id != msg.ID || m.panes[f.pane].ID() != msg.Pane {
			continue
		}
		if msg.Err == nil {
			m.layers.remove(f)
			return m.sentKeysGo(f)
		}
		code, detail := "", msg.Err.Error()
		if e, ok := apiclient.AsError(msg.Err); ok {
			code, detail = e.ErrorCode, e.Detail
		}
		if n := len(f.held); n > 0 {
			f.held = nil
			detail += fmt.Sprintf(" (%d %s typed while it was sent not applied)", n, plural(n, "key", "keys"))
		}
		f.form.SetSubmitError(code, detail)
		return nil
	}
	if msg.Err == nil {
		return nil
	}
	what := m.formWhat[formKey{msg.Pane, msg.ID}]
	if what == "" {
		what = "not done"
	}
	t := views.ToastMsg{Text: what + ": " + views.ErrText(msg.Err), Err: true, Pane: msg.Pane}
	return func() tea.Msg { return t }
}

// formStatus sets the status line of a submitted form still waiting.
func (m *Model) formStatus(msg views.FormStatusMsg) {
	for _, l := range m.layers.all() {
		if f, ok := l.(*formLayer); ok && f.id == msg.ID && m.panes[f.pane].ID() == msg.Pane && f.form.Submitting() {
			f.form.SetStatus(msg.Text)
		}
	}
}
