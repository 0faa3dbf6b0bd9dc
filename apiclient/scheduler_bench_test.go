package apiclient

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// scanHoldingBack and scanSharing are HoldingBack and Sharing as they were
// before the held and shared indexes: a look at every bucket.
func scanHoldingBack(s *Scheduler) (until time.Time, holding bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	for _, b := range s.buckets {
		if !slices.ContainsFunc(b.waiters, func(w *waiter) bool { return !s.isPausedLocked(w) }) && !now.Before(b.holdUntil) {
			continue
		}
		if next := b.nextTokenLocked(now); next.After(until) {
			until, holding = next, true
		}
	}
	return until, holding
}

func scanSharing(s *Scheduler) (n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	for _, b := range s.buckets {
		if b.share.others == 0 || !b.share.until.After(now) || !b.limit.valid() {
			continue
		}
		n++
	}
	return n
}

// BenchmarkHeaderAsks is what the header asks the scheduler on every frame
// (HoldingBack and Sharing) with the buckets of a board of 1,000 projects
// (three endpoint sets each, every one answered, none holding anything
// back), before (every bucket looked at) and after (the held and shared
// indexes):
//
//	go test ./apiclient/ -run '^$' -bench HeaderAsks -benchtime 2000x
func BenchmarkHeaderAsks(b *testing.B) {
	s := newScheduler(time.Now)
	s.learn("atlas", nil)
	for i := range 1000 {
		for _, set := range []string{"alertsRead_group", "projectRead_group", "organizationRead_org"} {
			bk := s.bucketLocked(fmt.Sprintf("%s|%024x", set, i))
			bk.set(RateLimitValues{Capacity: 100, RefillRate: 100, RefillSeconds: 60}, true, time.Now())
		}
	}
	b.Run("before", func(b *testing.B) {
		for range b.N {
			scanHoldingBack(s)
			scanSharing(s)
		}
	})
	b.Run("after", func(b *testing.B) {
		for range b.N {
			s.HoldingBack()
			s.Sharing()
		}
	})
}
