package accesslogs

import (
	"bufio"
	"context"
	"encoding/json"
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
	"github.com/charmbracelet/x/exp/golden"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

func TestMain(m *testing.M) {
	// Golden screens live under the repository root's testdata.
	if err := os.Chdir(filepath.Join("..", "..")); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}

// simStart is the fixed server time of every test.
var simStart = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// env is the pane against apisim on a manual clock, through the shared
// client, with every request counted by path.
type env struct {
	t      *testing.T
	clock  *apisim.ManualClock
	client *apiclient.Client
	p      *Pane
	keys   *keymap.KeyMap

	mu       sync.Mutex
	requests []string // paths with queries

	ticks    []views.PollTickMsg
	confirms []views.ConfirmMsg
	toasts   []views.ToastMsg
}

func newEnv(t *testing.T, identity, groupID, cluster string, w, h int) *env {
	t.Helper()
	clock := apisim.NewManualClock(simStart)
	sim, err := apisim.New(apisim.Options{Clock: clock})
	require.NoError(t, err)
	e := &env{t: t, clock: clock, keys: keymap.Default()}
	ts := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			e.mu.Lock()
			e.requests = append(e.requests, r.URL.Path+"?"+r.URL.RawQuery)
			e.mu.Unlock()
		}
		sim.Handler().ServeHTTP(rw, r)
	}))
	t.Cleanup(func() { ts.Close(); _ = sim.Close() })
	e.client, err = apiclient.New(apiclient.Options{BaseURL: ts.URL, Service: "atlas",
		Auth: apiclient.DigestAuth(identity, identity+"-secret"), MaxRetries: -1})
	require.NoError(t, err)
	ctx := views.Context{
		Client: e.client, Theme: themes.MustGet("mono"), Keys: e.keys, Clock: clock.Now,
		GroupID: groupID, ClusterName: cluster, Layout: views.LayoutFor(w),
		// Ticks fire at once; the test delivers them when it wants a poll.
		Poll: views.Poll{Fast: time.Nanosecond, Normal: time.Nanosecond, Slow: time.Nanosecond},
	}
	e.p = newPane(ctx, 0)
	e.p.SetSize(w, h)
	e.run(e.p.Init())
	e.run(e.p.SetVisible(true))
	return e
}

// run executes a Cmd and feeds what it produces back to the pane, keeping
// poll ticks, dialogs and toasts for the test to look at.
func (e *env) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	e.feed(cmd())
}

var cmdType = reflect.TypeOf(tea.Cmd(nil))

func (e *env) feed(msg tea.Msg) {
	switch m := msg.(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range m {
			e.run(c)
		}
	case views.PollTickMsg:
		e.ticks = append(e.ticks, m)
	case views.ConfirmMsg:
		e.confirms = append(e.confirms, m)
	case views.ToastMsg:
		e.toasts = append(e.toasts, m)
	case views.TaskStartMsg, views.TaskDoneMsg:
	default:
		if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().Elem() == cmdType {
			for i := range v.Len() {
				e.run(v.Index(i).Interface().(tea.Cmd))
			}
			return
		}
		_, cmd := e.p.Update(msg)
		e.run(cmd)
	}
}

// tick delivers the newest pending poll tick.
func (e *env) tick() {
	e.t.Helper()
	require.NotEmpty(e.t, e.ticks, "no poll is scheduled")
	m := e.ticks[len(e.ticks)-1]
	e.ticks = nil
	_, cmd := e.p.Update(m)
	e.run(cmd)
}

// advance moves the server clock and polls once.
func (e *env) advance(d time.Duration) {
	e.clock.Advance(d)
	e.tick()
}

func (e *env) action(a keymap.Action) { e.feed(views.ActionMsg{Name: a.Name}) }

func (e *env) confirm(input string) {
	e.t.Helper()
	require.NotEmpty(e.t, e.confirms, "no dialog was asked for")
	c := e.confirms[len(e.confirms)-1]
	e.confirms = nil
	a := c.Action
	a.Confirmed, a.Input = true, input
	e.feed(a)
}

func (e *env) key(k string) {
	msg := tea.KeyPressMsg{Text: k, Code: []rune(k)[0]}
	switch k {
	case "up":
		msg = tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		msg = tea.KeyPressMsg{Code: tea.KeyDown}
	case "enter":
		msg = tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		msg = tea.KeyPressMsg{Code: tea.KeyEscape}
	}
	e.feed(msg)
}

func (e *env) requestCount(part string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := 0
	for _, r := range e.requests {
		if strings.Contains(r, part) {
			n++
		}
	}
	return n
}

// shownRecords are the records of the shown lines, oldest first.
func (e *env) shownRecords() []Record {
	var out []Record
	for i := range e.p.st.lv.Len() {
		out = append(out, *e.p.st.line(i))
	}
	return out
}

// serverRecords reads the server's records of [from, to] directly.
func (e *env) serverRecords(cluster string, from, to time.Time) []apiclient.AccessLog {
	e.t.Helper()
	logs, err := e.client.AccessLogs().ByCluster(context.Background(), e.p.ctx.GroupID, cluster, apiclient.AccessLogsOptions{Start: &from, End: &to})
	require.NoError(e.t, err)
	return logs
}

// sameRecords compares two multisets of records by key, reporting only
// the differences.
func sameRecords(t *testing.T, want, got map[string]int) {
	t.Helper()
	missing, extra := 0, 0
	for k, n := range want {
		if got[k] < n {
			missing += n - got[k]
			t.Logf("missing: %q", k)
		}
	}
	for k, n := range got {
		if n > want[k] {
			extra += n - want[k]
			t.Logf("extra or duplicate: %q", k)
		}
	}
	if missing+extra > 0 {
		t.Errorf("%d records missing, %d extra or duplicated (of %d)", missing, extra, len(want))
	}
}

func keyCounts(logs []apiclient.AccessLog) map[string]int {
	out := map[string]int{}
	for _, l := range logs {
		out[Record{AccessLog: l}.key()]++
	}
	return out
}

func screen(e *env) string { return ansi.Strip(e.p.View()) }

// The tail loads the since window, then grows on the clock: every record
// the server has is shown exactly once, in time order, with one request a
// poll in steady state.
func TestTailGrowsWithoutDuplicatesOrGaps(t *testing.T) {
	e := newEnv(t, "monitoring-admin", apisim.DemoPaymentsID, "payments-rs", 140, 30)
	require.True(t, e.p.loaded)
	first := e.p.st.lv.Len()
	require.Positive(t, first)
	floor := simStart.Add(-defaultSince)
	for _, d := range []time.Duration{3 * time.Second, 17 * time.Second, time.Second, 45 * time.Second, 2 * time.Second, 90 * time.Second} {
		before := e.requestCount("dbAccessHistory")
		e.advance(d)
		assert.LessOrEqual(t, e.requestCount("dbAccessHistory")-before, 2, "a poll is one request, two when checking a long answer")
	}
	assert.Greater(t, e.p.st.lv.Len(), first, "the tail grew")
	// Let late records arrive, then compare with the server's own answer.
	e.advance(10 * time.Second)
	want := keyCounts(e.serverRecords("payments-rs", floor, e.p.win.Newest().Add(999*time.Millisecond)))
	got := map[string]int{}
	var prev time.Time
	for _, r := range e.shownRecords() {
		if r.At.After(e.p.win.Newest()) {
			continue
		}
		got[r.key()]++
		assert.False(t, r.At.Before(prev.Add(-DefaultOverlap)), "lines out of order beyond the overlap")
		prev = r.At
	}
	sameRecords(t, want, got)
	assert.Contains(t, screen(e), "following")
	assert.Contains(t, screen(e), "failures ")
}

// Hidden, the pane stops polling; shown again, it catches up with no gap.
func TestTailCatchesUpAfterBeingHidden(t *testing.T) {
	e := newEnv(t, "monitoring-admin", apisim.DemoPaymentsID, "payments-prod", 120, 24)
	e.run(e.p.SetVisible(false))
	e.ticks = nil
	n := e.requestCount("dbAccessHistory")
	e.clock.Advance(10 * time.Minute)
	assert.Equal(t, n, e.requestCount("dbAccessHistory"), "no request while hidden")
	e.run(e.p.SetVisible(true))
	e.advance(10 * time.Second)
	want := keyCounts(e.serverRecords("payments-prod", simStart.Add(-defaultSince), e.p.win.Newest().Add(999*time.Millisecond)))
	got := map[string]int{}
	for _, r := range e.shownRecords() {
		if !r.At.After(e.p.win.Newest()) {
			got[r.key()]++
		}
	}
	sameRecords(t, want, got)
}

// F shows only failures; i and u filter by address prefix and user; esc
// clears; the summary names the burst's address.
func TestFilters(t *testing.T) {
	e := newEnv(t, "monitoring-admin", apisim.DemoPaymentsID, "payments-rs", 140, 30)
	e.p.since = time.Hour
	e.run(e.p.restart(""))
	all := e.p.st.lv.Len()
	e.action(e.keys.AccessLogs.FailuresOnly)
	fails := e.shownRecords()
	require.NotEmpty(t, fails)
	assert.Less(t, len(fails), all)
	for _, r := range fails {
		require.False(t, r.AuthResult, "a success shown with failures only")
	}
	assert.Contains(t, screen(e), "failures only")
	assert.NotContains(t, strings.Join(strings.Split(screen(e), "\n")[3:e.p.bodyRows()+3], "\n"), " ok ")
	e.advance(30 * time.Second)
	for _, r := range e.shownRecords() {
		require.False(t, r.AuthResult, "a new success slipped through")
	}

	ip := fails[len(fails)-1].IPAddress
	e.action(e.keys.AccessLogs.IPFilter)
	require.Len(t, e.confirms, 1)
	assert.NotEmpty(t, e.confirms[0].Prompt)
	e.confirm(ip[:strings.LastIndexByte(ip, '.')+1])
	for _, r := range e.shownRecords() {
		require.True(t, strings.HasPrefix(r.IPAddress, ip[:strings.LastIndexByte(ip, '.')+1]))
	}
	e.action(e.keys.AccessLogs.IPFilter)
	e.confirm("evil;rm")
	require.NotEmpty(t, e.toasts)
	assert.True(t, e.toasts[len(e.toasts)-1].Err)
	assert.Contains(t, e.toasts[len(e.toasts)-1].Text, "evil;rm", "the typed text is kept in the message")

	e.key("esc")
	assert.False(t, e.p.st.filter.active(), "esc clears every filter")
	assert.Equal(t, e.p.st.recN, e.p.st.lv.Len())
	e.action(e.keys.AccessLogs.UserFilter)
	e.confirm("ALICE")
	for _, r := range e.shownRecords() {
		require.Equal(t, "alice", r.Username)
	}
	assert.Contains(t, e.p.summary, "top failing: ")
}

// Scrolling up pauses the view (polling goes on, the indicator says so);
// G jumps to the end and resumes; f stops and restarts polling.
func TestScrollPausesAndGResumes(t *testing.T) {
	e := newEnv(t, "monitoring-admin", apisim.DemoPaymentsID, "payments-rs", 120, 20)
	e.key("up")
	assert.False(t, e.p.st.lv.Following())
	top := e.p.st.lv.Top()
	n := e.p.st.lv.Len()
	e.advance(time.Minute)
	assert.Greater(t, e.p.st.lv.Len(), n, "records still arrive while paused")
	assert.Equal(t, top, e.p.st.lv.Top(), "the view stays put")
	assert.Contains(t, screen(e), "PAUSED")
	assert.Contains(t, screen(e), "(G resumes)")
	e.action(e.keys.AccessLogs.End)
	assert.True(t, e.p.st.lv.Following())
	assert.Contains(t, screen(e), "following")

	e.action(e.keys.AccessLogs.Follow)
	assert.Contains(t, screen(e), "stopped (f follows)")
	e.ticks = nil
	before := e.requestCount("dbAccessHistory")
	_, cmd := e.p.Update(views.PollTickMsg{Pane: views.AccessLogs, Gen: 1 << 40})
	e.run(cmd)
	assert.Equal(t, before, e.requestCount("dbAccessHistory"), "a stale tick starts nothing")
	e.action(e.keys.AccessLogs.Follow)
	assert.Greater(t, e.requestCount("dbAccessHistory"), before, "f polls at once")
}

// / searches and highlights, n/N move between matches, y copies the
// selected line; the search shadows the root's filter.
func TestSearchAndYank(t *testing.T) {
	e := newEnv(t, "monitoring-admin", apisim.DemoPaymentsID, "payments-rs", 140, 20)
	e.action(e.keys.AccessLogs.Search)
	e.confirm("etl-runner")
	require.GreaterOrEqual(t, e.p.match, 0)
	first := e.p.match
	assert.Contains(t, e.p.Selected(), "etl-runner")
	assert.False(t, e.p.st.lv.Following(), "jumping to a match pauses the view")
	e.action(e.keys.AccessLogs.PrevMatch)
	assert.Less(t, e.p.match, first)
	assert.Contains(t, e.p.Selected(), "etl-runner")
	e.action(e.keys.AccessLogs.NextMatch)
	assert.Equal(t, first, e.p.match)
	e.action(e.keys.AccessLogs.NextMatch)
	assert.Contains(t, e.toasts[len(e.toasts)-1].Text, "wrapped")
	e.action(e.keys.AccessLogs.Search)
	e.confirm("no-such-text-anywhere")
	assert.Contains(t, e.toasts[len(e.toasts)-1].Text, "no line contains")

	e.action(e.keys.AccessLogs.Raw)
	e.action(e.keys.AccessLogs.End)
	assert.True(t, strings.HasPrefix(e.p.Selected(), `{"t":{"$date":`), "raw mode yanks the logLine: %s", e.p.Selected())
}

// h lists the cluster's hosts; picking one tails only that host through
// the host route.
func TestHostTarget(t *testing.T) {
	e := newEnv(t, "monitoring-admin", apisim.DemoPaymentsID, "payments-rs", 140, 24)
	e.action(e.keys.AccessLogs.Hosts)
	require.NotNil(t, e.p.hostList)
	require.Len(t, e.p.hostList.items, 4, "whole cluster and three hosts")
	assert.Contains(t, screen(e), "whole cluster payments-rs")
	e.key("down")
	e.key("enter")
	host := e.p.host
	require.NotEmpty(t, host)
	assert.Positive(t, e.requestCount("/dbAccessHistory/processes/"+host))
	for _, r := range e.shownRecords() {
		require.Equal(t, host, r.Hostname)
	}
	assert.Contains(t, screen(e), "host "+host)
}

// Tenant clusters have no access log: the server's reason on screen, and
// no more requests until r.
func TestTenantClusterStops(t *testing.T) {
	e := newEnv(t, "org-owner", apisim.DemoAnalyticsID, "reports-m2", 120, 20)
	require.NotNil(t, e.p.stopped)
	assert.Contains(t, screen(e), "TENANT_CLUSTER_UNSUPPORTED")
	assert.Contains(t, screen(e), "M2")
	assert.Empty(t, e.ticks, "no poll scheduled")
	n := e.requestCount("dbAccessHistory")
	e.feed(views.PauseMsg{Paused: false})
	assert.Equal(t, n, e.requestCount("dbAccessHistory"))
}

// s asks for a file name and writes the shown records as JSON lines; a
// failed write keeps everything and says why.
func TestSave(t *testing.T) {
	e := newEnv(t, "monitoring-admin", apisim.DemoPaymentsID, "payments-rs", 120, 20)
	e.action(e.keys.AccessLogs.FailuresOnly)
	e.action(e.keys.AccessLogs.Save)
	require.Len(t, e.confirms, 1)
	c := e.confirms[0]
	assert.Equal(t, "File name", c.Prompt)
	assert.Contains(t, c.Body, "accesslogs-payments-rs-20250601T120000Z.jsonl")
	path := filepath.Join(t.TempDir(), "fails.jsonl")
	e.confirm(path)
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	info, _ := f.Stat()
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
	var got []apiclient.AccessLog
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l apiclient.AccessLog
		require.NoError(t, json.Unmarshal(sc.Bytes(), &l))
		got = append(got, l)
	}
	shown := e.shownRecords()
	require.Len(t, got, len(shown))
	for i := range got {
		require.Equal(t, shown[i].AccessLog, got[i])
	}
	last := e.toasts[len(e.toasts)-1]
	assert.False(t, last.Err)
	assert.Contains(t, last.Text, path)
	assert.Contains(t, last.Text, thousands(len(shown)))

	n := e.p.st.lv.Len()
	e.action(e.keys.AccessLogs.Save)
	e.confirm(path) // exists: not overwritten
	last = e.toasts[len(e.toasts)-1]
	assert.True(t, last.Err)
	assert.Contains(t, last.Text, "exists")
	assert.Equal(t, n, e.p.st.lv.Len(), "the records are kept")
}

// An escape sequence in a user name never reaches the terminal.
func TestServerStringsAreSanitized(t *testing.T) {
	e := newEnv(t, "monitoring-admin", apisim.DemoPaymentsID, "payments-rs", 140, 40)
	e.p.since = 24 * time.Hour
	e.run(e.p.restart(""))
	found := false
	for _, r := range e.shownRecords() {
		if strings.Contains(r.Username, "\x1b]0;") {
			found = true
		}
	}
	require.True(t, found, "the stream should hold the hostile user name")
	e.action(e.keys.AccessLogs.UserFilter)
	e.confirm("pwned")
	view := e.p.View()
	assert.NotContains(t, view, "\x1b]")
	assert.NotContains(t, view, "\x07")
	assert.Contains(t, ansi.Strip(view), "  admin ", "the sequence is dropped, the rest of the name shown")
}

func TestScreens(t *testing.T) {
	for _, tc := range []struct {
		name    string
		cluster string // "-": none, the in-pane cluster list
		w, h    int
		setup   func(e *env)
	}{
		{name: "following_wide", w: 140, h: 16},
		{name: "following_80", w: 80, h: 14},
		{name: "failures_wrapped", w: 100, h: 16, setup: func(e *env) {
			e.action(e.keys.AccessLogs.FailuresOnly)
			e.action(e.keys.AccessLogs.Wrap)
		}},
		{name: "paused_search", w: 120, h: 14, setup: func(e *env) {
			e.action(e.keys.AccessLogs.Search)
			e.confirm("bob")
		}},
		{name: "hosts", w: 120, h: 12, setup: func(e *env) { e.action(e.keys.AccessLogs.Hosts) }},
		{name: "raw", w: 120, h: 10, setup: func(e *env) { e.action(e.keys.AccessLogs.Raw) }},
		{name: "clusters", cluster: "-", w: 100, h: 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cluster := "payments-rs"
			if tc.cluster == "-" {
				cluster = ""
			}
			e := newEnv(t, "monitoring-admin", apisim.DemoPaymentsID, cluster, tc.w, tc.h)
			if cluster != "" {
				e.advance(20 * time.Second)
			}
			if tc.setup != nil {
				tc.setup(e)
			}
			view := e.p.View()
			lines := strings.Split(view, "\n")
			require.Len(t, lines, tc.h)
			for i, l := range lines {
				require.LessOrEqual(t, ansi.StringWidth(l), tc.w, "line %d too wide", i)
			}
			golden.RequireEqual(goldenName{t, "accesslogs/" + tc.name}, ansi.Strip(view))
		})
	}
}

// goldenName files a golden screen under the pane's name.
type goldenName struct {
	testing.TB
	name string
}

func (g goldenName) Name() string { return g.name }

// With no cluster in the context the pane lists the project's deployments:
// dedicated ones can be picked with enter, the others are greyed with the
// reason and refused on screen without a request. Picking tails the
// cluster; h then lists its hosts; esc goes back to the list.
func TestClusterListPicksInPane(t *testing.T) {
	e := newEnv(t, "monitoring-admin", apisim.DemoPaymentsID, "", 120, 14)
	require.True(t, e.p.clustersLoaded)
	require.NoError(t, e.p.clustersErr)
	scr := screen(e)
	assert.Contains(t, scr, "access logs are per cluster")
	assert.Contains(t, scr, "3 of 5 deployments keep an access log")
	assert.Contains(t, scr, "payments-flex")
	assert.Contains(t, scr, "flex cluster: no access history")
	assert.Contains(t, scr, "serverless instance: no access history")
	assert.Zero(t, e.requestCount("/dbAccessHistory/"), "nothing is tailed before a pick")

	// The greyed rows come last; enter on one is refused with the reason.
	e.action(e.keys.AccessLogs.End)
	require.Equal(t, "payments-serverless", e.p.clusters[e.p.clusterCursor].name)
	e.key("enter")
	require.NotEmpty(t, e.toasts)
	last := e.toasts[len(e.toasts)-1]
	assert.True(t, last.Err)
	assert.Contains(t, last.Text, "payments-serverless")
	assert.Contains(t, last.Text, "no access history")
	assert.Zero(t, e.requestCount("/dbAccessHistory/"))

	// h before a pick says what to do.
	e.action(e.keys.AccessLogs.Hosts)
	assert.Nil(t, e.p.hostList)
	assert.Contains(t, e.toasts[len(e.toasts)-1].Text, "pick a cluster first")

	for e.p.clusters[e.p.clusterCursor].name != "payments-rs" {
		e.key("up")
	}
	e.key("enter")
	assert.Positive(t, e.requestCount("/dbAccessHistory/clusters/payments-rs"))
	assert.Contains(t, screen(e), "Access log · cluster payments-rs")

	e.action(e.keys.AccessLogs.Hosts)
	require.NotNil(t, e.p.hostList)
	assert.Contains(t, screen(e), "whole cluster payments-rs")
	e.key("esc")
	assert.Nil(t, e.p.hostList)

	e.key("esc")
	assert.Contains(t, screen(e), "access logs are per cluster", "esc goes back to the list")
	before := e.requestCount("/dbAccessHistory/")
	e.run(e.p.SetVisible(true))
	assert.Equal(t, before, e.requestCount("/dbAccessHistory/"), "no tail while the list is shown")
}

// A project whose clusters are all shared-tier or dedicated shows the
// tenant ones greyed with their tier.
func TestClusterListGreysSharedTiers(t *testing.T) {
	e := newEnv(t, "org-owner", apisim.DemoAnalyticsID, "", 120, 10)
	scr := screen(e)
	assert.Contains(t, scr, "shared tier M0: no access history")
	assert.Contains(t, scr, "analytics-main")
}

// The profile's log_buffer reaches the pane through the context.
func TestLogBufferFromContext(t *testing.T) {
	km := keymap.Default()
	p := New(views.Context{Keys: km, Theme: themes.MustGet("mono"), LogBuffer: 1200}).(*Pane)
	assert.Equal(t, 1200, p.st.capacity())
	p = New(views.Context{Keys: km, Theme: themes.MustGet("mono")}).(*Pane)
	assert.Equal(t, 50_000, p.st.capacity(), "0 means the default")
}
