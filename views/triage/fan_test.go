package triage

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
		f.add(answer(fmt.Sprint(i), 5*time.Millisecond, &inFlight, &peak), true, false)
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
	f.add(job("rest-1"), false, false)
	f.add(job("alerts-1"), true, false)
	f.add(job("rest-2"), false, false)
	f.add(job("alerts-2"), true, false)
	f.add(job("written"), true, true)
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

	f.add(job("old"), true, false)
	f.drop()
	assert.Nil(t, f.work(), "nothing left to run after drop")
	assert.Equal(t, 5, len(order))
}
