package apiclient

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"
)

// slowBucket makes the bucket of listAlerts on group g empty, refilling one
// token every 40 ms, so waiters are let through one at a time.
func slowBucket(s *Scheduler, g string) {
	op := catalog.MustGet("listAlerts")
	s.mu.Lock()
	b := s.bucketLocked(s.bucketKeyLocked(op, map[string]string{"groupId": g}))
	b.answered = true
	b.lim = rate.NewLimiter(rate.Every(40*time.Millisecond), 1)
	b.lim.ReserveN(time.Now(), 1)
	s.mu.Unlock()
}

func waitersOf(s *Scheduler) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, b := range s.buckets {
		n += len(b.waiters)
	}
	return n
}

// TestSchedulerPriorityOrder: requests queued background first, then
// visible, then writes, then a read the user asked for (`r`), are let
// through writes first, then the asked read, then visible, then
// background, each class in arrival order.
func TestSchedulerPriorityOrder(t *testing.T) {
	s := NewScheduler()
	const g = "5f1a2b3c4d5e6f7a8b9c0d1e"
	slowBucket(s, g)
	// A write to the same bucket key: use listAlerts for all, marked by priority.
	op := catalog.MustGet("listAlerts")
	params := map[string]string{"groupId": g}
	var mu sync.Mutex
	var order []string
	var wg sync.WaitGroup
	queue := func(p Priority, name string) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			require.NoError(t, s.acquire(WithPriority(context.Background(), p, "alerts"), op, params))
			mu.Lock()
			order = append(order, name)
			mu.Unlock()
		}()
		n := waitersOf(s)
		require.Eventually(t, func() bool { return waitersOf(s) >= n }, time.Second, time.Millisecond)
		time.Sleep(2 * time.Millisecond) // arrival order is the order queued
	}
	queue(PriorityBackground, "bg1")
	queue(PriorityBackground, "bg2")
	queue(PriorityVisible, "vis1")
	queue(PriorityWrite, "write1")
	queue(PriorityVisible, "vis2")
	queue(PriorityAsked, "asked1")
	until, holding := s.HoldingBack()
	assert.True(t, holding)
	assert.WithinDuration(t, time.Now().Add(40*time.Millisecond), until, 40*time.Millisecond)
	wg.Wait()
	assert.Equal(t, []string{"write1", "asked1", "vis1", "vis2", "bg1", "bg2"}, order)
	_, holding = s.HoldingBack()
	assert.False(t, holding)
}

// TestSchedulerPausedBackgroundWaits: a paused tag's background requests
// wait until resumed while its visible reads and other tags go.
func TestSchedulerPausedBackgroundWaits(t *testing.T) {
	s := NewScheduler()
	op := catalog.MustGet("listAlerts")
	params := map[string]string{"groupId": "5f1a2b3c4d5e6f7a8b9c0d1e"}
	s.mu.Lock()
	s.bucketLocked(s.bucketKeyLocked(op, params)).answered = true
	s.mu.Unlock()
	s.Pause("alerts")
	done := make(chan struct{})
	go func() {
		_ = s.acquire(WithPriority(context.Background(), PriorityBackground, "alerts"), op, params)
		close(done)
	}()
	require.NoError(t, s.acquire(WithPriority(context.Background(), PriorityVisible, "alerts"), op, params))
	require.NoError(t, s.acquire(WithPriority(context.Background(), PriorityBackground, "backups"), op, params))
	select {
	case <-done:
		t.Fatal("a paused background request went")
	case <-time.After(50 * time.Millisecond):
	}
	_, holding := s.HoldingBack()
	assert.False(t, holding, "paused work is not rate limiting")
	s.Resume("alerts")
	select {
	case <-done:
	case <-time.After(time.Second):
		t.Fatal("resumed request still waits")
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.Pause("x")
	cancel()
	err := s.acquire(WithPriority(ctx, PriorityBackground, "x"), op, params)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Zero(t, waitersOf(s))
}

func TestLimitFromParameters(t *testing.T) {
	v, ok := limitFromParameters([]any{"api/atlas/v2/orgs", 55.0, 10.0, 5.0, 60.0})
	assert.True(t, ok)
	assert.Equal(t, RateLimitValues{10, 5, 60}, v)
	_, ok = limitFromParameters([]any{"api/atlas/v2/orgs", 55.0})
	assert.False(t, ok)
	_, ok = limitFromParameters([]any{"p", 1.0, 0.0, 5.0, 60.0})
	assert.False(t, ok)
}

func TestUsableKeepsOneTokenBack(t *testing.T) {
	assert.Equal(t, 1, usable(1))
	assert.Equal(t, 2, usable(2))
	assert.Equal(t, 9, usable(10), "of the documented 10, one is kept back")
	assert.Equal(t, 99, usable(100))
}

// TestRemainingKeepsTheTokenBack: the token usable keeps back of a bucket's
// capacity stays kept back whatever the server says remains, down to zero.
func TestRemainingKeepsTheTokenBack(t *testing.T) {
	op := catalog.MustGet("listAlerts")
	params := map[string]string{"groupId": "g"}
	for _, c := range []struct{ capacity, remaining, tokens int }{
		{10, 10, 9}, {10, 3, 2}, {10, 2, 1}, {10, 1, 0}, {10, 0, 0},
		{3, 3, 2}, {3, 2, 1}, {3, 1, 0},
		{2, 2, 2}, {2, 1, 1}, {2, 0, 0},
		{1, 1, 1}, {1, 0, 0},
	} {
		now := time.Now()
		s := newScheduler(func() time.Time { return now })
		h := http.Header{}
		h.Set("RateLimit-Limit", strconv.Itoa(c.capacity))
		h.Set("RateLimit-Remaining", strconv.Itoa(c.remaining))
		s.observe(op, params, h, nil)
		b := s.buckets[s.bucketKeyLocked(op, params)]
		assert.InDelta(t, float64(c.tokens), b.lim.TokensAt(now), 1e-9, "capacity %d, %d remaining", c.capacity, c.remaining)
	}
}
