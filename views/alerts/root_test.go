package alerts_test

import (
	"context"
	"encoding/json"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/ui"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/alerts"
)

var update = flag.Bool("update", false, "rewrite the golden screens under testdata/alerts")

var simStart = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// world is apisim on a manual clock with the clock's own incidents off,
// and a log of the writes that reached it.
type world struct {
	t      *testing.T
	clock  *apisim.ManualClock
	url    string
	writes atomic.Int64
}

func newWorld(t *testing.T) *world {
	t.Helper()
	w := &world{t: t, clock: apisim.NewManualClock(simStart)}
	s, err := apisim.New(apisim.Options{Clock: w.clock})
	require.NoError(t, err)
	h := s.Handler()
	ts := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Header.Get("Authorization") != "" && strings.Contains(r.URL.Path, "/v2/") {
			w.writes.Add(1)
		}
		h.ServeHTTP(rw, r)
	}))
	t.Cleanup(func() { ts.Close(); _ = s.Close() })
	w.url = ts.URL
	w.control("PUT", "/incidents/schedule", `{"enabled": false}`)
	return w
}

func (w *world) client(identity string) *apiclient.Client {
	c, err := apiclient.New(apiclient.Options{BaseURL: w.url, Service: "atlas",
		Auth: apiclient.DigestAuth(identity, identity+"-secret"), MaxRetries: -1, Gate: apiclient.NewGate(nil)})
	require.NoError(w.t, err)
	return c
}

// control calls the simulator's control API as the demo service account
// (an Organization Owner), with a fresh token each time: the manual clock
// may have moved past the last one's hour.
func (w *world) control(method, path, body string) map[string]any {
	w.t.Helper()
	treq, err := http.NewRequest("POST", w.url+"/api/oauth/token", strings.NewReader("grant_type=client_credentials"))
	require.NoError(w.t, err)
	treq.SetBasicAuth("demo-sa", "demo-sa-secret")
	treq.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	tres, err := http.DefaultClient.Do(treq)
	require.NoError(w.t, err)
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	require.NoError(w.t, json.NewDecoder(tres.Body).Decode(&tok))
	tres.Body.Close()
	hreq, err := http.NewRequest(method, w.url+"/api/atlas/sim"+path, strings.NewReader(body))
	require.NoError(w.t, err)
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	res, err := http.DefaultClient.Do(hreq)
	require.NoError(w.t, err)
	defer res.Body.Close()
	var out map[string]any
	require.NoError(w.t, json.NewDecoder(res.Body).Decode(&out))
	require.Less(w.t, res.StatusCode, 300, "%s %s: %v", method, path, out)
	return out
}

// driver runs the real root model with the alerts pane synchronously:
// Cmds run on goroutines, their messages come back through a channel, and
// a Cmd slower than the timeout (a tick) is dropped.
type driver struct {
	t     *testing.T
	m     *ui.Model
	msgs  chan tea.Msg
	bells atomic.Int64
}

func newDriver(t *testing.T, w *world, identity string, width, height int) *driver {
	t.Helper()
	m, err := ui.New(ui.Options{Client: w.client(identity), Profile: "test", Theme: "mono", Clock: w.clock.Now,
		Project: "payments", Panes: []views.Factory{alerts.New}})
	require.NoError(t, err)
	d := &driver{t: t, m: m, msgs: make(chan tea.Msg, 1024)}
	d.exec(m.Init())
	d.send(tea.WindowSizeMsg{Width: width, Height: height})
	d.settle()
	return d
}

var cmdType = reflect.TypeOf(tea.Cmd(nil))

func (d *driver) exec(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		done := make(chan tea.Msg, 1)
		go func() { done <- cmd() }()
		select {
		case msg := <-done:
			d.expand(msg)
		case <-time.After(500 * time.Millisecond):
		}
	}()
}

func (d *driver) expand(msg tea.Msg) {
	switch m := msg.(type) {
	case nil:
		return
	case tea.BatchMsg:
		for _, c := range m {
			d.exec(c)
		}
		return
	case tea.RawMsg:
		if m.Msg == "\a" {
			d.bells.Add(1)
		}
		return
	}
	if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().Elem() == cmdType {
		for i := 0; i < v.Len(); i++ {
			if c := v.Index(i).Interface().(tea.Cmd); c != nil {
				done := make(chan tea.Msg, 1)
				go func() { done <- c() }()
				select {
				case m := <-done:
					d.expand(m)
				case <-time.After(500 * time.Millisecond):
					return
				}
			}
		}
		return
	}
	d.msgs <- msg
}

func (d *driver) send(msg tea.Msg) {
	if _, ok := msg.(tea.QuitMsg); ok {
		return
	}
	_, cmd := d.m.Update(msg)
	d.exec(cmd)
}

// settle delivers messages until none arrived for a while.
func (d *driver) settle() {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case msg := <-d.msgs:
			d.send(msg)
		case <-time.After(80 * time.Millisecond):
			return
		}
	}
	d.t.Fatal("driver did not settle")
}

func (d *driver) keys(ks ...string) {
	for _, k := range ks {
		d.send(press(k))
		d.settle()
	}
}

func (d *driver) typeText(s string) {
	for _, r := range s {
		d.send(press(string(r)))
	}
	d.settle()
}

func (d *driver) screen() string { return ansi.Strip(d.m.View().Content) }

func press(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	}
	r := []rune(k)
	return tea.KeyPressMsg{Code: r[0], Text: k}
}

// requireGolden compares a screen with testdata/alerts/<name>.golden at
// the repository root, or rewrites it with -update.
func requireGolden(t *testing.T, name, got string) {
	t.Helper()
	lines := strings.Split(got, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	got = strings.Join(lines, "\n") + "\n"
	path := filepath.Join("..", "..", "testdata", "alerts", name+".golden")
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "go test ./views/alerts -update creates it")
	assert.Equal(t, string(want), got, "screen %s differs (go test ./views/alerts -update rewrites it)", name)
}

// alertOf reads an alert back from the simulator.
func (w *world) alertOf(id string) *apiclient.Alert {
	w.t.Helper()
	a, err := w.client("org-owner").Alerts().Get(context.Background(), apisim.DemoPaymentsID, id)
	require.NoError(w.t, err)
	return a
}
