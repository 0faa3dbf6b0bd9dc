package backups

import (
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
	"github.com/dbadmin-tui/dbadmin-tui/ui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

var update = flag.Bool("update", false, "rewrite the golden screens under testdata/backups")

var goldenDir = filepath.Join("..", "..", "testdata", "backups")

// start is a fixed instant (before the serverless sunset) so seeded times
// and golden screens are stable.
var start = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// world is apisim on a manual clock behind a counting handler: every
// authenticated request is logged, so a test can prove what was sent.
type world struct {
	t      *testing.T
	sim    *apisim.Server
	clock  *apisim.ManualClock
	client *apiclient.Client
	mu     sync.Mutex
	log    []string // "GET /path"
}

func newWorld(t *testing.T) *world {
	t.Helper()
	w := &world{t: t, clock: apisim.NewManualClock(start)}
	sim, err := apisim.New(apisim.Options{Clock: w.clock})
	require.NoError(t, err)
	w.sim = sim
	h := sim.Handler()
	ts := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			w.mu.Lock()
			w.log = append(w.log, r.Method+" "+r.URL.Path)
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

// requests returns the log since mark and the new mark.
func (w *world) requests(mark int) ([]string, int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.log[mark:]...), len(w.log)
}

func (w *world) mark() int { _, m := w.requests(0); return m }

func writes(reqs []string) []string {
	var out []string
	for _, r := range reqs {
		if !strings.HasPrefix(r, "GET ") {
			out = append(out, r)
		}
	}
	return out
}

// harness drives the pane as the root does: runs Cmds, routes results back,
// records toasts, confirmations and forms; poll ticks are stepped by hand.
type harness struct {
	t        *testing.T
	w        *world
	p        *Pane
	toasts   []views.ToastMsg
	confirms []views.ConfirmMsg
	forms    []views.FormMsg
	done     []views.FormDoneMsg
}

func newHarness(t *testing.T, w *world, cluster string, width, height int) *harness {
	t.Helper()
	ctx := views.Context{Client: w.client, Theme: themes.MustGet(themes.Mono), Keys: keymap.Default(),
		Clock: w.clock.Now, GroupID: apisim.DemoPaymentsID, ProjectName: "payments", ClusterName: cluster,
		Layout: views.LayoutFor(width), Poll: views.DefaultPoll}
	h := &harness{t: t, w: w, p: NewPane(ctx)}
	h.p.poll.schedule = func(time.Duration, uint64) tea.Cmd { return nil }
	h.p.SetSize(width, height)
	h.do(h.p.Init())
	h.do(h.p.SetVisible(true))
	return h
}

var cmdSlice = reflect.TypeOf([]tea.Cmd(nil))

func (h *harness) do(cmd tea.Cmd) {
	h.t.Helper()
	if cmd == nil {
		return
	}
	h.deliver(cmd())
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
	case views.FormMsg:
		h.forms = append(h.forms, m)
	case views.FormDoneMsg:
		h.done = append(h.done, m)
	case views.TaskStartMsg:
	default:
		h.update(msg)
	}
}

func (h *harness) update(msg tea.Msg) {
	h.t.Helper()
	_, cmd := h.p.Update(msg)
	h.do(cmd)
}

// key presses k: an action of the pane becomes its ActionMsg (the gate is
// the root's business), anything else a key press.
func (h *harness) key(k string) {
	h.t.Helper()
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
	case "enter":
		msg = tea.KeyPressMsg{Code: tea.KeyEnter}
	case "down":
		msg = tea.KeyPressMsg{Code: tea.KeyDown}
	}
	h.update(msg)
}

// submit answers the last form as the root does after a valid submit.
func (h *harness) submit(values components.FormValues) {
	h.t.Helper()
	require.NotEmpty(h.t, h.forms, "no form open")
	f := h.forms[len(h.forms)-1]
	a := f.Action
	a.Confirmed, a.Form, a.Values = true, f.ID, values
	h.update(a)
}

// confirm says yes to the last confirmation.
func (h *harness) confirm() {
	h.t.Helper()
	require.NotEmpty(h.t, h.confirms, "no confirmation open")
	a := h.confirms[len(h.confirms)-1].Action
	a.Confirmed = true
	h.update(a)
}

// tick delivers the pending poll tick, if any, as the timer would.
func (h *harness) tick() bool {
	h.t.Helper()
	if !h.p.poll.armed {
		return false
	}
	h.update(views.PollTickMsg{Pane: views.Backups, Gen: h.p.poll.gen})
	return true
}

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

// formScreen renders a form the pane asked for, as the root's dialog would.
func formScreen(f views.FormMsg, w, hgt int) string {
	form := components.NewForm(f.ID, f.Title, f.Fields, nil, themes.MustGet(themes.Mono), keymap.Default())
	form.SetSize(w, hgt)
	return trimRight(ansi.Strip(form.View()))
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
	require.NoError(t, err, "run go test ./views/backups -update to create it")
	assert.Equal(t, string(want), got, "screen %s differs (-update rewrites it)", name)
}
