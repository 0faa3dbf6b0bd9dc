package ui

import (
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

var fixedNow = time.Date(2025, 3, 12, 9, 30, 0, 0, time.UTC)

func fixedClock() time.Time { return fixedNow }

// newModel builds a root model on the fake API with a fixed clock.
func newModel(t testing.TB, api *fakeAPI, mod func(*Options)) *Model {
	t.Helper()
	o := Options{Client: api.client(t), Profile: "test", Clock: fixedClock, Theme: "dark"}
	if mod != nil {
		mod(&o)
	}
	m, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// driver is the shared live driver with the root model at hand: Cmds run
// concurrently as in the program, Settle waits for every answer.
type driver struct {
	*viewstest.ModelDriver
	m *Model
}

func newDriver(t testing.TB, m *Model, w, h int) *driver {
	return &driver{ModelDriver: viewstest.NewLiveModelDriver(t, m, w, h), m: m}
}

// collect runs a Cmd and its batch synchronously (for commands known to be
// immediate) and returns the messages.
func collect(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, collect(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

// recPane records what it receives. A hostile one also tries to call every
// mutating operation of its actions directly on any key press, bypassing
// the action path, to prove the client's gate refuses it.
type recPane struct {
	views.Base // asks (toasts, dialogs) as a pane makes them
	id         views.ID
	ctx        views.Context
	got        []tea.Msg
	busy       string
	selected   string
	hostile    bool
	visible    bool
	health     views.Health
}

// recPanes are the registered panes with their factories replaced by
// recording panes that offer the registered actions.
func recPanes(hostile bool, out map[views.ID]*recPane) views.Registry {
	rs := Panes()
	for i := range rs {
		id := rs[i].ID
		rs[i].New = func(ctx views.Context) views.Pane {
			p := newRecPane(id, ctx)
			p.hostile = hostile
			if out != nil {
				out[id] = p
			}
			return p
		}
	}
	return rs
}

func newRecPane(id views.ID, ctx views.Context) *recPane {
	return &recPane{Base: views.NewBase(id, ctx, nil), id: id, ctx: ctx}
}

func (p *recPane) ID() views.ID              { return p.id }
func (p *recPane) Init() tea.Cmd             { return nil }
func (p *recPane) View() string              { return "pane " + string(p.id) }
func (p *recPane) SetSize(int, int)          {}
func (p *recPane) SetVisible(v bool) tea.Cmd { p.visible = v; return nil }
func (p *recPane) Busy() string              { return p.busy }
func (p *recPane) Selected() string          { return p.selected }
func (p *recPane) Actions() []keymap.Action  { return p.ctx.Keys.Scope(p.id.Scope()) }
func (p *recPane) Health() views.Health      { return p.health }

func (p *recPane) Update(msg tea.Msg) (views.Pane, tea.Cmd) {
	p.got = append(p.got, msg)
	switch msg := msg.(type) {
	case views.ContextChangedMsg:
		p.ctx = msg.Ctx
	case askMsg:
		p.ask(msg.a)
	case raise:
		// A pane's error, or the news that its cause is gone.
		if msg == "resolved" {
			p.ErrorsResolved()
			return p, nil
		}
		p.Refuse(string(msg))
	case views.ActionMsg:
		if a, ok := p.ctx.Keys.Lookup(msg.Name); ok && a.Op != "" {
			return p, callOp(p.ctx, a.Op)
		}
	case tea.KeyPressMsg:
		if p.hostile {
			var cmds []tea.Cmd
			for _, a := range p.Actions() {
				if op, ok := catalog.Get(a.Op); ok && op.Mutates() {
					cmds = append(cmds, callOp(p.ctx, a.Op))
				}
			}
			return p, tea.Batch(cmds...)
		}
	}
	return p, nil
}

// callOp sends the operation with every path parameter filled in.
func callOp(ctx views.Context, opID string) tea.Cmd {
	client, gid := ctx.Client, ctx.GroupID
	return func() tea.Msg {
		params := map[string]string{}
		for _, name := range catalog.MustGet(opID).Params() {
			params[name] = "0123456789abcdef01234567"
		}
		params["groupId"] = gid
		_, err := client.Do(context.Background(), opID, apiclient.Request{Params: params, Body: map[string]any{}}, nil)
		return views.ToastMsg{Text: opID + " sent", Err: err != nil}
	}
}

func (p *recPane) keysGot() []string {
	var out []string
	for _, m := range p.got {
		if k, ok := m.(tea.KeyPressMsg); ok {
			out = append(out, k.String())
		}
	}
	return out
}

func (p *recPane) actionsGot() []views.ActionMsg { return received[views.ActionMsg](p) }

// received is the messages of type T that p got, in order.
func received[T tea.Msg](p *recPane) []T {
	var out []T
	for _, m := range p.got {
		if v, ok := m.(T); ok {
			out = append(out, v)
		}
	}
	return out
}

// lastReceived is the last message of type T that p got, or T's zero value.
func lastReceived[T tea.Msg](p *recPane) T {
	var last T
	if got := received[T](p); len(got) > 0 {
		last = got[len(got)-1]
	}
	return last
}

// raise makes a recPane answer with an error toast of that text, or, for
// "resolved", with views.ErrorsResolved.
type raise string

// askMsg has a recording pane ask a of the root in its Update.
type askMsg struct{ a views.Ask }

// asked is the message that has the recording pane a names ask it, as a
// pane's Update would: the root takes the ask right after that Update.
func asked(a views.Ask) tea.Msg {
	var pane views.ID
	switch m := a.(type) {
	case views.ConfirmMsg:
		pane = m.Pane
	case views.FormMsg:
		pane = m.Pane
	case views.FormDoneMsg:
		pane = m.Pane
	case views.FormStatusMsg:
		pane = m.Pane
	case views.ToastMsg:
		pane = m.Pane
	}
	return views.PaneMsg{Pane: pane, Msg: askMsg{a}}
}

func (p *recPane) ask(a views.Ask) {
	switch m := a.(type) {
	case views.ConfirmMsg:
		p.Confirm(m)
	case views.FormMsg:
		p.Form(m)
	case views.FormDoneMsg:
		p.FormDone(m.ID, m.Err)
	case views.FormStatusMsg:
		p.FormStatus(m.ID, m.Text)
	case views.ToastMsg:
		p.Toast(m.Text, m.Err)
	}
}
