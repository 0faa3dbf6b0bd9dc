package migration

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
	"github.com/dbadmin-tui/dbadmin-tui/ui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

func TestMain(m *testing.M) {
	// Golden screens live under the repository root's testdata/.
	if err := os.Chdir(filepath.Join("..", "..")); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}

var simStart = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// env is the pane against a fresh apisim on a manual clock, standing in for
// the root: it runs the pane's Cmds, records what the pane asks the root for
// (forms, confirmations, toasts) and logs every request that reached the
// server.
type env struct {
	t      *testing.T
	pane   *Pane
	client *apiclient.Client
	clock  *apisim.ManualClock
	sim    *apisim.Server

	mu       sync.Mutex
	requests []string // "POST /api/atlas/v2/..."

	forms    []views.FormMsg
	done     []views.FormDoneMsg
	confirms []views.ConfirmMsg
	toasts   []views.ToastMsg
}

func newEnv(t *testing.T, identity string, w, h int) *env {
	t.Helper()
	clock := apisim.NewManualClock(simStart)
	s, err := apisim.New(apisim.Options{Clock: clock})
	require.NoError(t, err)
	e := &env{t: t, clock: clock, sim: s}
	handler := s.Handler()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			e.mu.Lock()
			e.requests = append(e.requests, r.Method+" "+r.URL.Path)
			e.mu.Unlock()
		}
		handler.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { ts.Close(); _ = s.Close() })
	c, err := apiclient.New(apiclient.Options{BaseURL: ts.URL, Service: "atlas",
		Auth: apiclient.DigestAuth(identity, identity+"-secret"), MaxRetries: -1, Gate: apiclient.NewGate(nil)})
	require.NoError(t, err)
	e.client = c
	who, err := c.WhoAmI(context.Background())
	require.NoError(t, err)
	c.Gate().SetRoles(who.APIKey.Roles)
	c.Gate().SetProjectOrg(apisim.DemoPaymentsID, apisim.DemoOrgID)
	ctx := views.Context{
		Client: c, Gate: c.Gate(), Theme: themes.Resolve("mono", true, true), Keys: keymap.Default(),
		Clock: clock.Now, OrgID: apisim.DemoOrgID, OrgName: "Demo Org", GroupID: apisim.DemoPaymentsID,
		ProjectName: "payments", Layout: views.LayoutFor(w), Poll: views.DefaultPoll,
	}
	e.pane = New(ctx).(*Pane)
	e.pane.SetSize(w, h)
	e.run(e.pane.Init())
	e.run(e.pane.SetVisible(true))
	return e
}

// run executes a Cmd the way the program would and feeds the pane what is
// addressed to it; ticks are not waited for (pollNow stands in for them).
func (e *env) run(cmd tea.Cmd) {
	e.t.Helper()
	if cmd == nil {
		return
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	select {
	case msg := <-done:
		e.deliver(msg)
	case <-time.After(300 * time.Millisecond):
		// a tick
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
	case views.ResultMsg:
		e.send(m)
	case views.ConfirmMsg:
		e.confirms = append(e.confirms, m)
	case views.FormMsg:
		e.forms = append(e.forms, m)
	case views.FormDoneMsg:
		e.done = append(e.done, m)
	case views.ToastMsg:
		e.toasts = append(e.toasts, m)
	case views.TaskStartMsg, views.PollTickMsg:
	default:
		v := reflect.ValueOf(msg)
		if v.Kind() == reflect.Slice && v.Type().Elem() == cmdType {
			for i := 0; i < v.Len(); i++ {
				e.run(v.Index(i).Interface().(tea.Cmd))
			}
			return
		}
		e.t.Logf("unhandled message %T", msg)
	}
}

func (e *env) send(msg tea.Msg) {
	e.t.Helper()
	_, cmd := e.pane.Update(msg)
	e.run(cmd)
}

func (e *env) key(keys ...string) {
	e.t.Helper()
	for _, k := range keys {
		e.send(press(k))
	}
}

func press(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// action delivers an action as the root does once the gate allowed it.
func (e *env) action(name string) { e.send(views.ActionMsg{Name: name}) }

// answer says yes to the last confirmation.
func (e *env) answer() {
	e.t.Helper()
	c := e.lastConfirm()
	a := c.Action
	a.Confirmed = true
	e.send(a)
}

// submit submits the last form: values override the fields' initial
// values; every field's own rule runs first, as the form does.
func (e *env) submit(values components.FormValues) error {
	e.t.Helper()
	require.NotEmpty(e.t, e.forms, "no form was opened")
	f := e.forms[len(e.forms)-1]
	all := components.FormValues{}
	for _, fd := range f.Fields {
		switch fd.Kind {
		case components.FieldChoice:
			all[fd.Key] = fd.Choices[fd.Choice]
		case components.FieldToggle:
			all[fd.Key] = "false"
			if fd.On {
				all[fd.Key] = "true"
			}
		default:
			all[fd.Key] = fd.Value
		}
	}
	for k, v := range values {
		all[k] = v
	}
	for _, fd := range f.Fields {
		if fd.Validate != nil {
			if err := fd.Validate(all[fd.Key], all); err != nil {
				return err
			}
		}
	}
	a := f.Action
	a.Confirmed, a.Form, a.Values = true, f.ID, all
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

func (e *env) lastDone() views.FormDoneMsg {
	e.t.Helper()
	require.NotEmpty(e.t, e.done, "no form was answered")
	return e.done[len(e.done)-1]
}

// writes are the mutating requests that reached the server.
func (e *env) writes() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, r := range e.requests {
		if r[:3] != "GET" {
			out = append(out, r)
		}
	}
	return out
}

// advance moves the server clock and polls, as a tick would.
func (e *env) advance(d time.Duration) {
	e.t.Helper()
	e.clock.Advance(d)
	e.run(e.pane.pollNow())
}

// selectSource moves the cursor of the source step to a deployment.
func (e *env) selectSource(name string) {
	e.t.Helper()
	for i, r := range e.pane.sources {
		if r.dep.Name == name {
			e.pane.srcCursor = i
			return
		}
	}
	e.t.Fatalf("no source deployment %s", name)
}

func (e *env) selectDest(name string) {
	e.t.Helper()
	for i, c := range e.pane.clusters {
		if c.Name == name {
			e.pane.dstCursor = i
			return
		}
	}
	e.t.Fatalf("no destination %s", name)
}

// goldenScreen compares the view with testdata/migration/<name>.golden.
func goldenScreen(t *testing.T, name, view string) {
	t.Helper()
	golden.RequireEqual(goldenName{t, "migration/" + name}, ansi.Strip(view))
}

type goldenName struct {
	testing.TB
	name string
}

func (g goldenName) Name() string { return g.name }
