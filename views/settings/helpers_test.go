package settings

import (
	"context"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
	"github.com/dbadmin-tui/dbadmin-tui/ui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

var simStart = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// env is a pane against a fresh apisim (manual clock, seeded world), with a
// log of the mutating requests that reached the server.
type env struct {
	t      *testing.T
	pane   *Pane
	client *apiclient.Client
	clock  *apisim.ManualClock

	mu     sync.Mutex
	writes []string // "PATCH /api/atlas/v2/groups/.../awsCustomDNS"

	// what the pane asked the root for
	confirms []views.ConfirmMsg
	forms    []views.FormMsg
	done     []views.FormDoneMsg
	toasts   []views.ToastMsg
	execs    int // editor launches
}

func newEnv(t *testing.T, identity string, layout views.Layout, w, h int) *env {
	t.Helper()
	clock := apisim.NewManualClock(simStart)
	s, err := apisim.New(apisim.Options{Clock: clock})
	require.NoError(t, err)
	e := &env{t: t, clock: clock}
	handler := s.Handler()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Header.Get("Authorization") != "" {
			e.mu.Lock()
			e.writes = append(e.writes, r.Method+" "+r.URL.Path)
			e.mu.Unlock()
		}
		handler.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { ts.Close(); _ = s.Close() })
	c, err := apiclient.New(apiclient.Options{BaseURL: ts.URL, Service: "atlas",
		Auth: apiclient.DigestAuth(identity, identity+"-secret"), MaxRetries: -1, Gate: apiclient.NewGate(nil)})
	require.NoError(t, err)
	e.client = c
	// The root learns the caller's roles from who-am-I; so does the test.
	who, err := c.WhoAmI(context.Background())
	require.NoError(t, err)
	c.Gate().SetRoles(who.APIKey.Roles)
	c.Gate().SetProjectOrg(apisim.DemoPaymentsID, apisim.DemoOrgID)
	ctx := views.Context{
		Client: c, Gate: c.Gate(), Theme: themes.Resolve("mono", true, true), Keys: keymap.Default(),
		Clock: clock.Now, OrgID: apisim.DemoOrgID, OrgName: "Demo Org", GroupID: apisim.DemoPaymentsID,
		ProjectName: "payments", Layout: layout, Poll: views.DefaultPoll,
	}
	e.pane = New(ctx).(*Pane)
	e.pane.SetSize(w, h)
	e.run(e.pane.Init())
	return e
}

// run executes a Cmd the way the program would and feeds the pane the
// messages addressed to it; ticks and editor launches are not run.
func (e *env) run(cmd tea.Cmd) {
	e.t.Helper()
	if cmd == nil {
		return
	}
	msg := runWithTimeout(cmd)
	e.deliver(msg)
}

func runWithTimeout(cmd tea.Cmd) tea.Msg {
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	select {
	case m := <-done:
		return m
	case <-time.After(200 * time.Millisecond):
		return nil // a tick: not driven here
	}
}

var cmdType = reflect.TypeOf(tea.Cmd(nil))

func (e *env) deliver(msg tea.Msg) {
	e.t.Helper()
	switch m := msg.(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range m {
			e.run(c)
		}
	case views.ResultMsg, views.PaneMsg:
		if pm, ok := m.(views.PaneMsg); ok {
			msg = pm.Msg
		}
		_, cmd := e.pane.Update(msg)
		e.run(cmd)
	case views.ConfirmMsg:
		e.confirms = append(e.confirms, m)
	case views.ToastMsg:
		e.toasts = append(e.toasts, m)
	case views.FormMsg:
		e.forms = append(e.forms, m)
	case views.FormDoneMsg:
		e.done = append(e.done, m)
	case views.TaskStartMsg, views.PollTickMsg:
	default:
		v := reflect.ValueOf(msg)
		if v.Kind() == reflect.Slice && v.Type().Elem() == cmdType {
			for i := 0; i < v.Len(); i++ {
				e.run(v.Index(i).Interface().(tea.Cmd))
			}
			return
		}
		// tea.ExecProcess's message: the program would hand the terminal
		// to the editor; running it here is TestEditorScript's job.
		if reflect.TypeOf(msg).String() == "tea.execMsg" {
			e.execs++
			return
		}
		e.t.Logf("unhandled message %T", msg)
	}
}

// send gives the pane a message and runs what it returns.
func (e *env) send(msg tea.Msg) {
	e.t.Helper()
	_, cmd := e.pane.Update(msg)
	e.run(cmd)
}

func (e *env) key(k string) {
	e.t.Helper()
	e.send(press(k))
}

func press(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// action delivers an action as the root would after the gate allowed it.
func (e *env) action(name string) { e.send(views.ActionMsg{Name: name}) }

// answer says yes to the last confirmation, with input typed in its prompt.
func (e *env) answer(input string) {
	e.t.Helper()
	require.NotEmpty(e.t, e.confirms, "no confirmation was asked")
	c := e.confirms[len(e.confirms)-1]
	a := c.Action
	a.Confirmed, a.Input = true, input
	e.send(a)
}

// submit submits the last form with values, as the root does once every
// field validates (a field that does not is returned as its error).
func (e *env) submit(values components.FormValues) error {
	e.t.Helper()
	require.NotEmpty(e.t, e.forms, "no form was opened")
	f := e.forms[len(e.forms)-1]
	for _, fd := range f.Fields {
		if _, ok := values[fd.Key]; !ok && fd.Kind == components.FieldChoice {
			values[fd.Key] = fd.Choices[fd.Choice]
		}
	}
	for _, fd := range f.Fields {
		if fd.Validate != nil {
			if err := fd.Validate(values[fd.Key], values); err != nil {
				return err
			}
		}
	}
	a := f.Action
	a.Confirmed, a.Form, a.Values = true, f.ID, values
	e.send(a)
	return nil
}

func (e *env) lastConfirm() views.ConfirmMsg {
	e.t.Helper()
	require.NotEmpty(e.t, e.confirms, "no confirmation was asked")
	return e.confirms[len(e.confirms)-1]
}

func (e *env) lastToast() views.ToastMsg {
	e.t.Helper()
	require.NotEmpty(e.t, e.toasts, "no toast")
	return e.toasts[len(e.toasts)-1]
}

func (e *env) sent() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.writes...)
}

// selectRow moves the cursor to the row with id.
func (e *env) selectRow(id string) {
	e.t.Helper()
	for i, r := range e.pane.rows() {
		if r.id == id {
			e.pane.cursor, e.pane.keep = i, id
			return
		}
	}
	e.t.Fatalf("no row %s", id)
}

// roleRow finds the row of the first role that matches.
func (e *env) roleRow(match func(apiclient.AccessRole) bool) string {
	e.t.Helper()
	for _, r := range e.pane.rows() {
		if r.role != nil && match(*r.role) {
			return r.id
		}
	}
	e.t.Fatal("no such role")
	return ""
}

func (e *env) settings() (*apiclient.AuditLog, *apiclient.AWSCustomDNS, *apiclient.AccessRoles) {
	e.t.Helper()
	ctx := context.Background()
	owner, err := apiclient.New(apiclient.Options{BaseURL: e.client.BaseURL(), Service: "atlas",
		Auth: apiclient.DigestAuth("project-owner", "project-owner-secret"), MaxRetries: -1})
	require.NoError(e.t, err)
	a, err := owner.Settings().AuditLog(ctx, apisim.DemoPaymentsID)
	require.NoError(e.t, err)
	d, err := owner.Settings().CustomDNS(ctx, apisim.DemoPaymentsID)
	require.NoError(e.t, err)
	r, err := owner.Settings().AccessRoles(ctx, apisim.DemoPaymentsID)
	require.NoError(e.t, err)
	return a, d, r
}
