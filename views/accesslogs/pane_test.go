package accesslogs

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// env is the pane's test environment; ticks fire at once (the test
// delivers them when it wants a poll).
type env struct{ *viewstest.Env[*Pane] }

func newEnv(t *testing.T, identity, groupID, cluster string, w, h int) *env {
	t.Helper()
	return &env{viewstest.Open[*Pane](t, Registration, viewstest.Setup{Identity: identity, Cluster: cluster, Width: w, Height: h, RunTimers: true,
		New: func(c views.Context) views.Pane { return newPane(c, 0) },
		Context: func(c *views.Context) {
			c.GroupID, c.ProjectName = groupID, ""
			c.Poll = views.Poll{Fast: time.Nanosecond, Normal: time.Nanosecond, Slow: time.Nanosecond}
		}})}
}

// advance moves the server clock and polls once.
func (e *env) advance(d time.Duration) {
	e.Sim.Clock.Advance(d)
	e.Tick()
}

func (e *env) action(a keymap.Action) { e.Action(a.Name) }

// confirm answers the open dialog, which closes it.
func (e *env) confirm(input string) {
	e.T.Helper()
	c := e.LastConfirm()
	e.Confirms = nil
	a := c.Action
	a.Confirmed, a.Input = true, input
	e.Send(a)
}

// shownRecords are the records of the shown lines, oldest first.
func (e *env) shownRecords() []Record {
	var out []Record
	for i := range e.P.st.lv.Len() {
		out = append(out, *e.P.st.line(i))
	}
	return out
}

// serverRecords reads the server's records of [from, to] directly.
func (e *env) serverRecords(cluster string, from, to time.Time) []apiclient.AccessLog {
	e.T.Helper()
	logs, err := e.Sim.Client.AccessLogs().ByCluster(context.Background(), e.P.Ctx.GroupID, cluster, apiclient.AccessLogsOptions{Start: &from, End: &to})
	require.NoError(e.T, err)
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

func screen(e *env) string { return ansi.Strip(e.P.View()) }

// The tail loads the since window, then grows on the clock: every record
// the server has is shown exactly once, in time order, with one request a
// poll in steady state.
func TestTailGrowsWithoutDuplicatesOrGaps(t *testing.T) {
	e := newEnv(t, "monitoring-admin", apisim.DemoPaymentsID, "payments-rs", 140, 30)
	require.True(t, e.P.loaded)
	first := e.P.st.lv.Len()
	require.Positive(t, first)
	floor := viewstest.Start.Add(-defaultSince)
	for _, d := range []time.Duration{3 * time.Second, 17 * time.Second, time.Second, 45 * time.Second, 2 * time.Second, 90 * time.Second} {
		before := e.Sim.Count("dbAccessHistory")
		e.advance(d)
		assert.LessOrEqual(t, e.Sim.Count("dbAccessHistory")-before, 2, "a poll is one request, two when checking a long answer")
	}
	assert.Greater(t, e.P.st.lv.Len(), first, "the tail grew")
	// Let late records arrive, then compare with the server's own answer.
	e.advance(10 * time.Second)
	want := keyCounts(e.serverRecords("payments-rs", floor, e.P.win.Newest().Add(999*time.Millisecond)))
	got := map[string]int{}
	var prev time.Time
	for _, r := range e.shownRecords() {
		if r.At.After(e.P.win.Newest()) {
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

// On apisim's steady stream (records 0 to 4 s late) a poll re-reads at most
// 20% more records than it brings new, one request a poll, and every record
// is shown once.
func TestTailRereadsLittle(t *testing.T) {
	e := newEnv(t, "monitoring-admin", apisim.DemoPaymentsID, "payments-rs", 140, 30)
	e.advance(5 * time.Second) // the poll that measures the lag
	read0, fresh0 := e.P.win.Counts()
	req0 := e.Sim.Count("dbAccessHistory")
	const polls = 120 // ten minutes at the default 5 s
	for range polls {
		e.advance(5 * time.Second)
	}
	read, fresh := e.P.win.Counts()
	read, fresh = read-read0, fresh-fresh0
	t.Logf("%d polls: %d records received, %d new (%.1f%% re-read), lag %s", polls, read, fresh, 100*float64(read-fresh)/float64(fresh), e.P.win.Lag)
	require.Greater(t, fresh, polls, "the stream brings records")
	assert.LessOrEqual(t, float64(read-fresh), 0.2*float64(fresh), "re-read %d for %d new", read-fresh, fresh)
	assert.LessOrEqual(t, e.Sim.Count("dbAccessHistory")-req0, polls+2, "one request a poll (and one checking a long answer)")
	assert.LessOrEqual(t, e.P.win.Lag, 6*time.Second, "the lag follows the server's (under 4 s)")
	want := keyCounts(e.serverRecords("payments-rs", viewstest.Start.Add(-defaultSince), e.P.win.Newest().Add(999*time.Millisecond)))
	got := map[string]int{}
	for _, r := range e.shownRecords() {
		if !r.At.After(e.P.win.Newest()) {
			got[r.key()]++
		}
	}
	sameRecords(t, want, got)
}

// Hidden, the pane stops polling; shown again, it catches up with no gap.
func TestTailCatchesUpAfterBeingHidden(t *testing.T) {
	e := newEnv(t, "monitoring-admin", apisim.DemoPaymentsID, "payments-prod", 120, 24)
	e.Run(e.P.SetVisible(false))
	e.Ticks = nil
	n := e.Sim.Count("dbAccessHistory")
	e.Sim.Clock.Advance(10 * time.Minute)
	assert.Equal(t, n, e.Sim.Count("dbAccessHistory"), "no request while hidden")
	e.Run(e.P.SetVisible(true))
	e.advance(10 * time.Second)
	want := keyCounts(e.serverRecords("payments-prod", viewstest.Start.Add(-defaultSince), e.P.win.Newest().Add(999*time.Millisecond)))
	got := map[string]int{}
	for _, r := range e.shownRecords() {
		if !r.At.After(e.P.win.Newest()) {
			got[r.key()]++
		}
	}
	sameRecords(t, want, got)
}

// F shows only failures; i and u filter by address prefix and user; esc
// clears; the summary names the burst's address.
func TestFilters(t *testing.T) {
	e := newEnv(t, "monitoring-admin", apisim.DemoPaymentsID, "payments-rs", 140, 30)
	e.P.since = time.Hour
	e.Run(e.P.restart(""))
	all := e.P.st.lv.Len()
	e.action(keysOf(e.Ctx.Keys).FailuresOnly)
	fails := e.shownRecords()
	require.NotEmpty(t, fails)
	assert.Less(t, len(fails), all)
	for _, r := range fails {
		require.False(t, r.AuthResult, "a success shown with failures only")
	}
	assert.Contains(t, screen(e), "failures only")
	assert.NotContains(t, strings.Join(strings.Split(screen(e), "\n")[3:e.P.bodyRows()+3], "\n"), " ok ")
	e.advance(30 * time.Second)
	for _, r := range e.shownRecords() {
		require.False(t, r.AuthResult, "a new success slipped through")
	}

	ip := fails[len(fails)-1].IPAddress
	e.action(keysOf(e.Ctx.Keys).IPFilter)
	require.Len(t, e.Confirms, 1)
	assert.NotEmpty(t, e.Confirms[0].Prompt)
	e.confirm(ip[:strings.LastIndexByte(ip, '.')+1])
	for _, r := range e.shownRecords() {
		require.True(t, strings.HasPrefix(r.IPAddress, ip[:strings.LastIndexByte(ip, '.')+1]))
	}
	e.action(keysOf(e.Ctx.Keys).IPFilter)
	e.confirm("evil;rm")
	require.NotEmpty(t, e.Toasts)
	assert.True(t, e.Toasts[len(e.Toasts)-1].Err)
	assert.Contains(t, e.Toasts[len(e.Toasts)-1].Text, "evil;rm", "the typed text is kept in the message")

	e.Press("esc")
	assert.False(t, e.P.st.filter.active(), "esc clears every filter")
	assert.Equal(t, e.P.st.recs.Len(), e.P.st.lv.Len())
	e.action(keysOf(e.Ctx.Keys).UserFilter)
	e.confirm("ALICE")
	for _, r := range e.shownRecords() {
		require.Equal(t, "alice", r.Username)
	}
	assert.Contains(t, e.P.summary, "top failing: ")
}

// Scrolling up pauses the view (polling goes on, the indicator says so);
// G jumps to the end and resumes; f stops and restarts polling.
func TestScrollPausesAndGResumes(t *testing.T) {
	e := newEnv(t, "monitoring-admin", apisim.DemoPaymentsID, "payments-rs", 120, 20)
	e.Press("up")
	assert.False(t, e.P.st.lv.Following())
	top := e.P.st.lv.Top()
	n := e.P.st.lv.Len()
	e.advance(time.Minute)
	assert.Greater(t, e.P.st.lv.Len(), n, "records still arrive while paused")
	assert.Equal(t, top, e.P.st.lv.Top(), "the view stays put")
	assert.Contains(t, screen(e), "PAUSED")
	assert.Contains(t, screen(e), "(G resumes)")
	e.action(keysOf(e.Ctx.Keys).End)
	assert.True(t, e.P.st.lv.Following())
	assert.Contains(t, screen(e), "following")

	e.action(keysOf(e.Ctx.Keys).Follow)
	assert.Contains(t, screen(e), "stopped (f follows)")
	e.Ticks = nil
	before := e.Sim.Count("dbAccessHistory")
	_, cmd := e.P.Update(views.PollTickMsg{Pane: ID, Gen: 1 << 40})
	e.Run(cmd)
	assert.Equal(t, before, e.Sim.Count("dbAccessHistory"), "a stale tick starts nothing")
	e.action(keysOf(e.Ctx.Keys).Follow)
	assert.Greater(t, e.Sim.Count("dbAccessHistory"), before, "f polls at once")
}

// / searches and highlights, n/N move between matches, y copies the
// selected line; the search shadows the root's filter.
func TestSearchAndYank(t *testing.T) {
	e := newEnv(t, "monitoring-admin", apisim.DemoPaymentsID, "payments-rs", 140, 20)
	e.action(keysOf(e.Ctx.Keys).Search)
	e.confirm("etl-runner")
	require.GreaterOrEqual(t, e.P.match, 0)
	first := e.P.match
	assert.Contains(t, e.P.Selected(), "etl-runner")
	assert.False(t, e.P.st.lv.Following(), "jumping to a match pauses the view")
	e.action(keysOf(e.Ctx.Keys).PrevMatch)
	assert.Less(t, e.P.match, first)
	assert.Contains(t, e.P.Selected(), "etl-runner")
	e.action(keysOf(e.Ctx.Keys).NextMatch)
	assert.Equal(t, first, e.P.match)
	e.action(keysOf(e.Ctx.Keys).NextMatch)
	assert.Contains(t, e.Toasts[len(e.Toasts)-1].Text, "wrapped")
	e.action(keysOf(e.Ctx.Keys).Search)
	e.confirm("no-such-text-anywhere")
	assert.Contains(t, e.Toasts[len(e.Toasts)-1].Text, "no line contains")

	e.action(keysOf(e.Ctx.Keys).Raw)
	e.action(keysOf(e.Ctx.Keys).End)
	assert.True(t, strings.HasPrefix(e.P.Selected(), `{"t":{"$date":`), "raw mode yanks the logLine: %s", e.P.Selected())
}

// h lists the cluster's hosts; picking one tails only that host through
// the host route.
func TestHostTarget(t *testing.T) {
	e := newEnv(t, "monitoring-admin", apisim.DemoPaymentsID, "payments-rs", 140, 24)
	e.action(keysOf(e.Ctx.Keys).Hosts)
	require.NotNil(t, e.P.hostList)
	require.Len(t, e.P.hostList.items, 4, "whole cluster and three hosts")
	assert.Contains(t, screen(e), "whole cluster payments-rs")
	e.Press("down")
	e.Press("enter")
	host := e.P.host
	require.NotEmpty(t, host)
	assert.Positive(t, e.Sim.Count("/dbAccessHistory/processes/"+host))
	for _, r := range e.shownRecords() {
		require.Equal(t, host, r.Hostname)
	}
	assert.Contains(t, screen(e), "host "+host)
}

// Tenant clusters have no access log: the server's reason on screen, and
// no more requests until r.
func TestTenantClusterStops(t *testing.T) {
	e := newEnv(t, "org-owner", apisim.DemoAnalyticsID, "reports-m2", 120, 20)
	require.NotNil(t, e.P.stopped)
	assert.Contains(t, screen(e), "TENANT_CLUSTER_UNSUPPORTED")
	assert.Contains(t, screen(e), "M2")
	assert.Empty(t, e.Ticks, "no poll scheduled")
	n := e.Sim.Count("dbAccessHistory")
	e.Send(views.PauseMsg{Paused: false})
	assert.Equal(t, n, e.Sim.Count("dbAccessHistory"))
}

// s asks for a file name and writes the shown records as JSON lines; a
// failed write keeps everything and says why.
func TestSave(t *testing.T) {
	e := newEnv(t, "monitoring-admin", apisim.DemoPaymentsID, "payments-rs", 120, 20)
	e.action(keysOf(e.Ctx.Keys).FailuresOnly)
	e.action(keysOf(e.Ctx.Keys).Save)
	require.Len(t, e.Confirms, 1)
	c := e.Confirms[0]
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
	last := e.Toasts[len(e.Toasts)-1]
	assert.False(t, last.Err)
	assert.Contains(t, last.Text, path)
	assert.Contains(t, last.Text, components.Thousands(len(shown)))

	n := e.P.st.lv.Len()
	e.action(keysOf(e.Ctx.Keys).Save)
	e.confirm(path) // exists: not overwritten
	last = e.Toasts[len(e.Toasts)-1]
	assert.True(t, last.Err)
	assert.Contains(t, last.Text, "exists")
	assert.Equal(t, n, e.P.st.lv.Len(), "the records are kept")
}

// An escape sequence in a user name never reaches the terminal.
func TestServerStringsAreSanitized(t *testing.T) {
	e := newEnv(t, "monitoring-admin", apisim.DemoPaymentsID, "payments-rs", 140, 40)
	e.P.since = 24 * time.Hour
	e.Run(e.P.restart(""))
	// apisim sends "\x1b]0;pwned\x07admin" among the user names; the
	// client cleans every decoded string, so the stream holds "admin".
	require.NotEmpty(t, e.shownRecords())
	for _, r := range e.shownRecords() {
		require.NotContains(t, r.Username, "\x1b", "the client's boundary cleans every string")
		require.NotContains(t, r.Username, "pwned")
	}
	e.action(keysOf(e.Ctx.Keys).UserFilter)
	e.confirm("admin")
	view := e.P.View()
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
			e.action(keysOf(e.Ctx.Keys).FailuresOnly)
			e.action(keysOf(e.Ctx.Keys).Wrap)
		}},
		{name: "paused_search", w: 120, h: 14, setup: func(e *env) {
			e.action(keysOf(e.Ctx.Keys).Search)
			e.confirm("bob")
		}},
		{name: "hosts", w: 120, h: 12, setup: func(e *env) { e.action(keysOf(e.Ctx.Keys).Hosts) }},
		{name: "raw", w: 120, h: 10, setup: func(e *env) { e.action(keysOf(e.Ctx.Keys).Raw) }},
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
			view := e.P.View()
			lines := strings.Split(view, "\n")
			require.Len(t, lines, tc.h)
			for i, l := range lines {
				require.LessOrEqual(t, ansi.StringWidth(l), tc.w, "line %d too wide", i)
			}
			viewstest.Golden(t, "accesslogs/"+tc.name, ansi.Strip(view))
		})
	}
}

// With no cluster in the context the pane lists the project's deployments:
// dedicated ones can be picked with enter, the others are greyed with the
// reason and refused on screen without a request. Picking tails the
// cluster; h then lists its hosts; esc goes back to the list.
func TestClusterListPicksInPane(t *testing.T) {
	e := newEnv(t, "monitoring-admin", apisim.DemoPaymentsID, "", 120, 14)
	require.True(t, e.P.clustersLoaded)
	require.NoError(t, e.P.clustersErr)
	scr := screen(e)
	assert.Contains(t, scr, "access logs are per cluster")
	assert.Contains(t, scr, "3 of 5 deployments keep an access log")
	assert.Contains(t, scr, "payments-flex")
	assert.Contains(t, scr, "flex cluster: no access history")
	assert.Contains(t, scr, "serverless instance: no access history")
	assert.Zero(t, e.Sim.Count("/dbAccessHistory/"), "nothing is tailed before a pick")

	// The greyed rows come last; enter on one is refused with the reason.
	e.action(keysOf(e.Ctx.Keys).End)
	require.Equal(t, "payments-serverless", e.P.clusters[e.P.clusterCursor].name)
	e.Press("enter")
	require.NotEmpty(t, e.Toasts)
	last := e.Toasts[len(e.Toasts)-1]
	assert.True(t, last.Err)
	assert.Contains(t, last.Text, "payments-serverless")
	assert.Contains(t, last.Text, "no access history")
	assert.Zero(t, e.Sim.Count("/dbAccessHistory/"))

	// h before a pick says what to do.
	e.action(keysOf(e.Ctx.Keys).Hosts)
	assert.Nil(t, e.P.hostList)
	assert.Contains(t, e.Toasts[len(e.Toasts)-1].Text, "pick a cluster first")

	for e.P.clusters[e.P.clusterCursor].name != "payments-rs" {
		e.Press("up")
	}
	e.Press("enter")
	assert.Positive(t, e.Sim.Count("/dbAccessHistory/clusters/payments-rs"))
	assert.Contains(t, screen(e), "Access log · cluster payments-rs")

	e.action(keysOf(e.Ctx.Keys).Hosts)
	require.NotNil(t, e.P.hostList)
	assert.Contains(t, screen(e), "whole cluster payments-rs")
	e.Press("esc")
	assert.Nil(t, e.P.hostList)

	e.Press("esc")
	assert.Contains(t, screen(e), "access logs are per cluster", "esc goes back to the list")
	before := e.Sim.Count("/dbAccessHistory/")
	e.Run(e.P.SetVisible(true))
	assert.Equal(t, before, e.Sim.Count("/dbAccessHistory/"), "no tail while the list is shown")
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
	km := views.Registry{Registration}.Keymap()
	p := New(views.Context{Keys: km, Theme: themes.MustGet("mono"), LogBuffer: 1200}).(*Pane)
	assert.Equal(t, 1200, p.st.capacity())
	p = New(views.Context{Keys: km, Theme: themes.MustGet("mono")}).(*Pane)
	assert.Equal(t, 50_000, p.st.capacity(), "0 means the default")
}

// With no directory typed, a save goes into the export directory (made if
// missing, 0700), never the directory the dashboard was started from, and
// the toast names the full path.
func TestSaveGoesToTheExportDirectory(t *testing.T) {
	t.Chdir(t.TempDir())
	e := newEnv(t, "monitoring-admin", apisim.DemoPaymentsID, "payments-rs", 120, 20)
	dir := filepath.Join(t.TempDir(), "state", "dbadmin-tui", "exports")
	e.P.Ctx.ExportDir = dir
	for _, input := range []string{"", "mine.jsonl"} {
		e.action(keysOf(e.Ctx.Keys).Save)
		e.confirm(input)
		last := e.Toasts[len(e.Toasts)-1]
		require.False(t, last.Err, last.Text)
		name := input
		if name == "" {
			name = "accesslogs-payments-rs-20250601T120000Z.jsonl"
		}
		path := filepath.Join(dir, name)
		info, err := os.Stat(path)
		require.NoError(t, err, last.Text)
		assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
		assert.Contains(t, last.Text, " "+path, "the toast shows the full path")
	}
	info, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), info.Mode().Perm())
	cwd, _ := os.ReadDir(".")
	assert.Empty(t, cwd, "nothing written where the dashboard started")
}

// At 80 columns the key columns (user, reason) and the host stay readable:
// SOURCE, the date and IP go first, whole; the warning that older records
// were not loaded is the last text cut: it takes a line of its own rather
// than be cut, and the body gives up a row. The cluster list's hint wraps.
func TestNarrowColumnsAndWarningsAreTheLastCut(t *testing.T) {
	for _, w := range []int{80, 100, 120, 200} {
		e := newEnv(t, "monitoring-admin", apisim.DemoPaymentsID, "payments-rs", w, 16)
		e.advance(20 * time.Second)
		e.action(keysOf(e.Ctx.Keys).FailuresOnly)
		e.P.truncated = true
		view := ansi.Strip(e.P.View())
		lines := strings.Split(view, "\n")
		require.Len(t, lines, 16)
		for i, l := range lines {
			require.LessOrEqual(t, ansi.StringWidth(l), w, "line %d too wide", i)
		}
		header := lines[2]
		for _, col := range []string{"TIME", "RES", "USER", "HOST", "REASON"} {
			assert.Contains(t, header, col, "%d cols", w)
		}
		assert.Regexp(t, `FAIL +\S+ .*(Authentication|UserNotFound)\w*: \w`, view, "%d cols: a failure's reason is readable", w)
		assert.NotContains(t, view, "REA…", "%d cols", w)
		assert.Contains(t, view, "⚠ older records of the window not loaded", "%d cols: the warning whole", w)
		if w >= 200 {
			assert.Contains(t, header, "SOURCE")
			assert.Contains(t, view, "2025-06-01 ", "the date at 200 columns")
		}
		if w == 80 {
			assert.NotContains(t, header, "SOURCE")
			assert.NotContains(t, header, " IP ")
			assert.Equal(t, "⚠ older records of the window not loaded", strings.TrimSpace(lines[14]), "a line of its own")
			assert.Contains(t, lines[15], "following")
		}
	}
	e := newEnv(t, "monitoring-admin", apisim.DemoPaymentsID, "", 80, 10)
	view := ansi.Strip(e.P.View())
	assert.Contains(t, view, "for every pane)", "the hint wraps, not cut")
	assert.NotContains(t, view, "…")
}

// A Triage row of failed authentications opens here (views.SelectMsg,
// View "failures", the address as ItemID): failures only, from that
// address, over at least the board's 15 minutes.
func TestSelectFromTheBoardShowsOneAddressFailures(t *testing.T) {
	e := newEnv(t, "monitoring-admin", apisim.DemoPaymentsID, "payments-rs", 140, 30)
	e.P.since = 5 * time.Minute
	e.Run(e.P.restart(""))
	now := e.Sim.Clock.Now()
	ip := ""
	for _, l := range e.serverRecords("payments-rs", now.Add(-15*time.Minute), now) {
		if !l.AuthResult {
			ip = l.IPAddress
			break
		}
	}
	require.NotEmpty(t, ip, "a failure in the last 15 minutes")
	e.Send(views.SelectMsg{View: "failures", ItemID: ip})
	assert.Equal(t, 15*time.Minute, e.P.since)
	shown := e.shownRecords()
	require.NotEmpty(t, shown)
	for _, r := range shown {
		require.False(t, r.AuthResult)
		require.Equal(t, ip, r.IPAddress)
	}
	assert.Contains(t, screen(e), "failures only")

	e.Send(views.SelectMsg{ItemID: "x"}) // not a failures row: nothing changes
	assert.Equal(t, ip, e.P.st.filter.ip)
}

func TestEveryKeyFieldNamesARegisteredAction(t *testing.T) {
	assert.Empty(t, views.MissingKeys[keys](Registration))
}
