package triage

import (
	"net/http/httptest"
	"os"
	"reflect"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// TestScale200Projects measures the board over --projects 200 at 20 ms a
// request under apisim's default rate limits, with the pane's Cmds run
// concurrently as the program runs them. Opt-in (it takes tens of
// seconds): TRIAGE_SCALE=1 go test -run Scale -v ./views/triage/
func TestScale200Projects(t *testing.T) {
	if os.Getenv("TRIAGE_SCALE") == "" {
		t.Skip("set TRIAGE_SCALE=1 to measure")
	}
	srv, err := apisim.New(apisim.Options{Projects: 200, Orgs: 4, Latency: 20 * time.Millisecond})
	require.NoError(t, err)
	var n apisim.RequestCounter
	reqs, throttled := &n.Sent, &n.Throttled
	ts := httptest.NewServer(n.Wrap(srv.Handler()))
	defer ts.Close()
	defer srv.Close()
	c, err := apiclient.New(apiclient.Options{BaseURL: ts.URL, Service: "atlas", Auth: apiclient.DigestAuth("org-owner", "org-owner-secret")})
	require.NoError(t, err)
	// Poll ticks never fire by themselves: the test polls by hand.
	noTimer := func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }
	ctx := views.Context{Client: c, Theme: themes.MustGet(themes.Mono), Keys: views.Registry{Registration}.Keymap(), Poll: views.DefaultPoll, Timer: noTimer}
	p := New(ctx).(*Pane)
	p.SetSize(200, 56)

	var ms0 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms0)
	start := time.Now()
	msgs := make(chan tea.Msg, 1024)
	var wg sync.WaitGroup
	var run func(tea.Cmd)
	run = func(cmd tea.Cmd) {
		if cmd == nil {
			return
		}
		wg.Add(1)
		go func() { defer wg.Done(); msgs <- cmd() }()
	}
	// deliver does what the program would with a Cmd's message: runs a
	// batch's Cmds, a sequence's request (its last Cmd), or updates the pane.
	deliver := func(msg tea.Msg) {
		switch m := msg.(type) {
		case nil:
		case tea.BatchMsg:
			for _, c := range m {
				run(c)
			}
		default:
			if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice {
				run(v.Index(v.Len() - 1).Interface().(tea.Cmd))
				return
			}
			_, cmd := p.Update(msg)
			run(cmd)
		}
	}
	run(p.SetVisible(true))
	var firstAlerts, complete time.Duration
	var peak uint64
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for complete == 0 {
		var msg tea.Msg
		select {
		case msg = <-msgs:
		case <-time.After(3 * time.Minute):
			t.Fatalf("the board did not complete: %s", p.coverage())
		}
		deliver(msg)
		if firstAlerts == 0 && len(p.alerts) > 0 {
			firstAlerts = time.Since(start)
		}
		if len(p.projects) > 0 && len(p.rest) == len(p.projects) && len(p.alerts) == len(p.projects) {
			complete = time.Since(start)
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapInuse)
	}
	first := reqs.Load()
	// settle runs cmd and what follows from it until no part is pending.
	settle := func(cmd tea.Cmd) {
		run(cmd)
		for {
			select {
			case msg := <-msgs:
				deliver(msg)
			case <-time.After(2 * time.Second):
				if p.pending[keyAlerts]+p.pending[keyRest]+p.pending[keyAuth] == 0 {
					return
				}
			}
		}
	}
	settle(nil)
	// The polls of restSlow intervals: each reads every project's alerts
	// and the rest of the projects it is due for.
	var perPoll []int64
	for range restSlow {
		mark := reqs.Load()
		settle(p.poll())
		perPoll = append(perPoll, reqs.Load()-mark)
	}
	slices.Sort(perPoll)
	var sum int64
	for _, n := range perPoll {
		sum += n
	}
	mark := reqs.Load()
	settle(func() tea.Msg { return views.RefreshMsg{} })
	full := reqs.Load() - mark
	t.Logf("polls over %d intervals: %d requests, %d to %d a poll (median %d); r: %d", restSlow, sum, perPoll[0], perPoll[len(perPoll)-1], perPoll[len(perPoll)/2], full)
	t.Logf("200 projects, 20 ms latency, default budgets: first alert rows %v, complete board %v; requests: first load %d; 429s %d; heap in use peak %.1f MiB (from %.1f); %d rows",
		firstAlerts.Round(time.Millisecond), complete.Round(time.Millisecond), first, throttled.Load(),
		float64(peak)/(1<<20), float64(ms0.HeapInuse)/(1<<20), len(p.Items()))
	require.Zero(t, throttled.Load(), "no 429")
	// Measured 10,538 (TriageAuthBursts off, the polls back to back); the
	// bound leaves about 14% for the world's drift. Re-reading every
	// project's rest every restEvery polls cost 16,850.
	require.LessOrEqual(t, sum, int64(pollsBound), "requests of the polls over %d intervals", restSlow)
}

// pollsBound bounds the requests of the restSlow polls of TestScale200Projects.
const pollsBound = 12_000
