package triage

import (
	"fmt"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// answer is a queued request that takes d and answers for group gid,
// counting the requests under way in inFlight (and the most at once in
// peak).
func answer(gid string, d time.Duration, inFlight, peak *atomic.Int64) tea.Cmd {
	return func() tea.Msg {
		n := inFlight.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(d)
		inFlight.Add(-1)
		return views.Result[partResult]{Key: keyAlerts, Value: partResult{GroupID: gid}}
	}
}

// TestFanBoundsRequestsAndBatchesAnswers runs 400 queued requests of 5 ms
// as the program runs Cmds (each on a goroutine of its own, the workers
// started again after each batch as the pane does): every answer arrives
// once, never more than fanWorkers requests are under way at once, and
// the answers come in far fewer messages than there are answers.
func TestFanBoundsRequestsAndBatchesAnswers(t *testing.T) {
	const n = 400
	f := newFan(ID)
	var inFlight, peak atomic.Int64
	for i := range n {
		f.add(answer(fmt.Sprint(i), 5*time.Millisecond, &inFlight, &peak), laneFirst)
	}
	msgs := make(chan tea.Msg, 4*n) // a worker ends with one message: never a blocked send
	var wg sync.WaitGroup
	run := func(cmd tea.Cmd) {
		if cmd == nil {
			return
		}
		msg := cmd()
		batch, ok := msg.(tea.BatchMsg)
		if !ok {
			batch = tea.BatchMsg{func() tea.Msg { return msg }}
		}
		for _, c := range batch {
			wg.Add(1)
			go func() { defer wg.Done(); msgs <- c() }()
		}
	}
	run(f.start())
	seen := map[string]int{}
	batches := 0
	for len(seen) < n {
		select {
		case msg := <-msgs:
			b, ok := msg.(views.Result[partBatch])
			if !ok {
				continue // a worker that ended with nothing to hand in
			}
			batches++
			for _, r := range b.Value {
				seen[r.Value.GroupID]++
			}
			run(f.start())
		case <-time.After(10 * time.Second):
			t.Fatalf("%d of %d answers after 10 s", len(seen), n)
		}
	}
	wg.Wait()
	for gid, k := range seen {
		require.Equal(t, 1, k, "answers for %s", gid)
	}
	assert.LessOrEqual(t, peak.Load(), int64(fanWorkers), "requests under way at once")
	assert.Greater(t, peak.Load(), int64(fanWorkers/2), "the workers run side by side")
	assert.Less(t, batches, n/10, "messages for %d answers", n)
	t.Logf("%d answers in %d batches, at most %d requests at once", n, batches, peak.Load())
}

// TestFanAlertsFirst: a worker takes the alerts queued before the rest
// queued earlier, and a request queued at the front before both; a new
// round's drop forgets what was not started.
func TestFanAlertsFirst(t *testing.T) {
	f := newFan(ID)
	var order []string
	job := func(name string) tea.Cmd {
		return func() tea.Msg {
			order = append(order, name)
			return views.Result[partResult]{Value: partResult{GroupID: name}}
		}
	}
	f.add(job("rest-1"), laneLater)
	f.add(job("alerts-1"), laneFirst)
	f.add(job("rest-2"), laneLater)
	f.add(job("alerts-2"), laneFirst)
	f.add(job("written"), laneFront)
	// One worker run by hand: it hands in its first answer at once (none
	// handed in yet), the next ones together once the queue is empty.
	var got []string
	for range 5 {
		msg := f.work()
		if b, ok := msg.(views.Result[partBatch]); ok {
			for _, r := range b.Value {
				got = append(got, r.Value.GroupID)
			}
		}
		if len(got) == 5 {
			break
		}
	}
	assert.Equal(t, []string{"written", "alerts-1", "alerts-2", "rest-1", "rest-2"}, order)
	assert.Equal(t, order, got)

	f.add(job("old"), laneFirst)
	f.drop()
	assert.Nil(t, f.work(), "nothing left to run after drop")
	assert.Equal(t, 5, len(order))
}

// drain runs what the fan holds with one worker, as the program would,
// and returns the answers in the order they left the queue.
func drain(t *testing.T, f *fan) []views.Result[partResult] {
	t.Helper()
	var got []views.Result[partResult]
	for range 1000 {
		msg := f.work()
		if b, ok := msg.(views.Result[partBatch]); ok {
			got = append(got, b.Value...)
		}
		f.mu.Lock()
		left := f.queuedLocked()
		f.mu.Unlock()
		if left == 0 && msg == nil {
			return got
		}
	}
	t.Fatal("the queue never emptied")
	return nil
}

// TestFanFillsBeforeRefreshes: the first read of a part goes before the
// reads again of parts on the board (alerts or not), alerts first among
// each; what follows a write before all; and once the fills are out the
// refreshes leave, every one, a fill queued meanwhile going first.
func TestFanFillsBeforeRefreshes(t *testing.T) {
	f := newFan(ID)
	job := func(name string) tea.Cmd {
		return func() tea.Msg { return views.Result[partResult]{Value: partResult{GroupID: name}} }
	}
	f.add(job("alerts again 1"), laneOf(true, false, false))
	f.add(job("rest again 1"), laneOf(false, false, false))
	f.add(job("rest first 1"), laneOf(false, true, false))
	f.add(job("alerts again 2"), laneOf(true, false, false))
	f.add(job("alerts first 1"), laneOf(true, true, false))
	f.add(job("rest first 2"), laneOf(false, true, false))
	f.add(job("written"), laneOf(true, false, true))
	names := func(rs []views.Result[partResult]) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.Value.GroupID)
		}
		return out
	}
	assert.Equal(t, []string{"written", "alerts first 1", "rest first 1", "rest first 2", "alerts again 1", "alerts again 2", "rest again 1"},
		names(drain(t, f)))

	f.add(job("alerts again 3"), laneFirst)
	f.add(job("rest again 2"), laneLater)
	f.add(job("rest first 3"), laneFill)
	assert.Equal(t, []string{"rest first 3", "alerts again 3", "rest again 2"}, names(drain(t, f)))
}

// TestPollReadsTheRestNeverReadBeforeTheAlertsAgain: a poll when every
// project's alerts are on the board and two projects' rest never came
// sends those two's rest first, then the alerts again (the requests as
// they leave the queue, answered by a server that knows none of the
// projects).
func TestPollReadsTheRestNeverReadBeforeTheAlertsAgain(t *testing.T) {
	srv, err := apisim.New(apisim.Options{})
	require.NoError(t, err)
	defer srv.Close()
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	c, err := apiclient.New(apiclient.Options{BaseURL: ts.URL, Service: "atlas", Auth: apiclient.DigestAuth("org-owner", "org-owner-secret")})
	require.NoError(t, err)
	s := newSynth(4, 1)
	p := s.p
	p.Ctx.Client = c
	for i, pr := range p.projects {
		p.alerts[pr.ID] = partResult{GroupID: pr.ID}
		if i < 2 {
			p.rest[pr.ID] = partResult{GroupID: pr.ID}
			p.restTick[pr.ID] = p.tick + 1 // read this poll: not due
		}
	}
	p.poll()
	var got []string
	for _, r := range drain(t, p.fan) {
		got = append(got, r.Key+" "+r.Value.GroupID)
	}
	assert.Equal(t, []string{"rest g0002", "rest g0003", "alerts g0000", "alerts g0001", "alerts g0002", "alerts g0003"}, got)
}
