package search

import (
	"context"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

var update = flag.Bool("update", false, "rewrite the golden screens under testdata/search")

var goldenDir = filepath.Join("..", "..", "testdata", "search")

// start is a fixed instant so seeded times and golden screens are stable.
var start = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// world is apisim on a manual clock with a log of the writes it received.
type world struct {
	t      *testing.T
	sim    *apisim.Server
	clock  *apisim.ManualClock
	client *apiclient.Client
	mu     sync.Mutex
	writes []string // "POST /path"
}

func newWorld(t *testing.T) *world {
	t.Helper()
	w := &world{t: t, clock: apisim.NewManualClock(start)}
	sim, err := apisim.New(apisim.Options{Clock: w.clock})
	require.NoError(t, err)
	w.sim = sim
	h := sim.Handler()
	ts := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Header.Get("Authorization") != "" {
			w.mu.Lock()
			w.writes = append(w.writes, r.Method+" "+r.URL.Path)
			w.mu.Unlock()
		}
		h.ServeHTTP(rw, r)
	}))
	t.Cleanup(func() { ts.Close(); _ = sim.Close() })
	w.client, err = apiclient.New(apiclient.Options{BaseURL: ts.URL, Service: "atlas",
		Auth: apiclient.DigestAuth("org-owner", "org-owner-secret"), MaxRetries: -1})
	require.NoError(t, err)
	return w
}

func (w *world) sent() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.writes...)
}

// editorScript answers each editor run: given the file's text, the text
// to save (or an error for an editor that failed). Runs are recorded.
type editorScript struct {
	steps []func(file string) (string, error)
	seen  []string
}

func (e *editorScript) run(path string, done func(error) tea.Msg) tea.Cmd {
	return func() tea.Msg {
		raw, err := os.ReadFile(path)
		if err != nil {
			return done(err)
		}
		e.seen = append(e.seen, string(raw))
		if len(e.steps) == 0 {
			return done(nil) // saved unchanged
		}
		step := e.steps[0]
		e.steps = e.steps[1:]
		out, err := step(string(raw))
		if err != nil {
			return done(err)
		}
		if werr := os.WriteFile(path, []byte(out), 0o600); werr != nil {
			return done(werr)
		}
		return done(nil)
	}
}

// harness drives a pane the way the root does: it runs Cmds, routes
// results and pane messages back, records toasts and confirmations, and
// drops poll ticks (their timers are the root's business).
type harness struct {
	t        *testing.T
	w        *world
	p        *Pane
	ed       *editorScript
	toasts   []views.ToastMsg
	confirms []views.ConfirmMsg
}

func newHarness(t *testing.T, w *world, cluster string, width, height int) *harness {
	t.Helper()
	ed := &editorScript{}
	ctx := views.Context{Client: w.client, Theme: themes.MustGet(themes.Mono), Keys: keymap.Default(),
		Clock: w.clock.Now, GroupID: apisim.DemoPaymentsID, ProjectName: "payments", ClusterName: cluster,
		Layout: views.LayoutFor(width), Poll: views.DefaultPoll}
	h := &harness{t: t, w: w, ed: ed, p: NewWithEditor(ctx, ed.run)}
	h.p.SetSize(width, height)
	h.do(h.p.Init())
	h.do(h.p.SetVisible(true))
	return h
}

var cmdSlice = reflect.TypeOf([]tea.Cmd(nil))

// do runs a Cmd to completion, feeding what it produces back to the pane.
func (h *harness) do(cmd tea.Cmd) {
	h.t.Helper()
	if cmd == nil {
		return
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-ch:
	case <-time.After(300 * time.Millisecond):
		return // a poll tick: not ours to wait for
	}
	h.deliver(msg)
}

func (h *harness) deliver(msg tea.Msg) {
	h.t.Helper()
	if msg == nil {
		return
	}
	if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().ConvertibleTo(cmdSlice) {
		for _, c := range v.Convert(cmdSlice).Interface().([]tea.Cmd) {
			h.do(c)
		}
		return
	}
	switch m := msg.(type) {
	case views.ToastMsg:
		h.toasts = append(h.toasts, m)
	case views.ConfirmMsg:
		h.confirms = append(h.confirms, m)
	case views.TaskStartMsg, views.PollTickMsg:
	case views.PaneMsg:
		h.update(m.Msg)
	default:
		h.update(msg)
	}
}

func (h *harness) update(msg tea.Msg) {
	h.t.Helper()
	_, cmd := h.p.Update(msg)
	h.do(cmd)
}

func (h *harness) key(k string) {
	h.t.Helper()
	km := h.p.ctx.Keys
	for _, a := range h.p.Actions() {
		for _, b := range a.Keys() {
			if b == k {
				h.update(views.ActionMsg{Name: a.Name})
				return
			}
		}
	}
	msg := tea.KeyPressMsg{Text: k, Code: []rune(k)[0]}
	switch k {
	case "esc":
		msg = tea.KeyPressMsg{Code: tea.KeyEscape}
	case "down":
		msg = tea.KeyPressMsg{Code: tea.KeyDown}
	}
	_ = km
	h.update(msg)
}

// selectIndex moves the cursor to the named index.
func (h *harness) selectIndex(name string) {
	h.t.Helper()
	for _, cl := range h.p.clusters {
		for _, ix := range cl.Indexes {
			if ix.Name == name {
				require.True(h.t, h.p.table.SetCursorID(indexRowID(cl.Name, ix.IndexID)), "row of %s", name)
				h.p.refreshDetail()
				return
			}
		}
	}
	h.t.Fatalf("no index %s", name)
}

func (h *harness) refresh() { h.t.Helper(); h.update(views.RefreshMsg{}) }

func (h *harness) lastToast() string {
	if len(h.toasts) == 0 {
		return ""
	}
	return h.toasts[len(h.toasts)-1].Text
}

func (h *harness) screen() string { return trimRight(ansi.Strip(h.p.View())) }

func trimRight(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n") + "\n"
}

func requireGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join(goldenDir, name+".golden")
	if *update {
		require.NoError(t, os.MkdirAll(goldenDir, 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./views/search -update to create it")
	assert.Equal(t, string(want), got, "screen %s differs (-update rewrites it)", name)
}

func (w *world) index(cluster, db, coll, name string) (*apiclient.SearchIndex, error) {
	return w.client.Search().GetByName(context.Background(), apisim.DemoPaymentsID, cluster, db, coll, name)
}

func filterMsg(s string) views.FilterMsg { return views.FilterMsg{Text: s} }
