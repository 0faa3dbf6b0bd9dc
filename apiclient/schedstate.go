package apiclient

import (
	"math"
	"sort"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
)

// SchedulerState is what a scheduler knew of the service's rate limits: the
// endpoint sets it learned and the buckets it had spent, each as of a time.
// A start that restores it (Scheduler.Restore) plans from what the last one
// spent instead of meeting a 429 to learn it again.
type SchedulerState struct {
	Sets    map[string]StateSet        `json:"sets,omitempty"` // operation id -> endpoint set
	Values  map[string]RateLimitValues `json:"values,omitempty"`
	Buckets map[string]BucketState     `json:"buckets,omitempty"`
}

// StateSet names an operation's endpoint set and its scope.
type StateSet struct {
	ID    string `json:"id"`
	Scope string `json:"scope"`
}

// BucketState is one bucket that was not full: its shape, the tokens the
// client could still spend at At, and any hold after a 429.
type BucketState struct {
	Limit     RateLimitValues `json:"limit"`
	Exact     bool            `json:"exact,omitempty"`
	Tokens    float64         `json:"tokens"`
	At        time.Time       `json:"at"`
	HoldUntil time.Time       `json:"holdUntil,omitzero"`
}

// State is what the scheduler knows now; full buckets are left out (a
// bucket nobody spent starts full anyway).
func (s *Scheduler) State() SchedulerState {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	st := SchedulerState{Sets: map[string]StateSet{}, Values: map[string]RateLimitValues{}, Buckets: map[string]BucketState{}}
	for op, ls := range s.opSet {
		st.Sets[op] = StateSet{ID: ls.id, Scope: ls.scope}
	}
	for id, v := range s.values {
		st.Values[id] = v
	}
	for key, b := range s.buckets {
		if b.lim == nil {
			continue
		}
		tokens := b.lim.TokensAt(now)
		if tokens >= float64(usable(b.limit.Capacity)) && !b.holdUntil.After(now) {
			continue
		}
		st.Buckets[key] = BucketState{Limit: b.limit, Exact: b.exact, Tokens: tokens, At: now, HoldUntil: b.holdUntil}
	}
	return st
}

// Restore takes in what an earlier scheduler knew: endpoint sets not learned
// yet, and each bucket with the tokens it has refilled since (never more
// than this scheduler has left of it).
func (s *Scheduler) Restore(st SchedulerState) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	for op, set := range st.Sets {
		if _, ok := s.opSet[op]; !ok && set.ID != "" {
			s.opSet[op] = learnedSet{id: set.ID, scope: set.Scope}
		}
	}
	for id, v := range st.Values {
		if _, ok := s.values[id]; !ok && v.valid() {
			s.values[id] = v
		}
	}
	for key, bs := range st.Buckets {
		if !bs.Limit.valid() || bs.At.After(now) {
			continue
		}
		perSec := refillMargin * float64(bs.Limit.RefillRate) / float64(bs.Limit.RefillSeconds)
		tokens := min(float64(usable(bs.Limit.Capacity)), bs.Tokens+perSec*now.Sub(bs.At).Seconds())
		b := s.bucketLocked(key)
		if b.lim == nil {
			b.set(bs.Limit, bs.Exact, now)
		}
		if excess := b.lim.TokensAt(now) - tokens; excess > 0 {
			b.lim.ReserveN(now, int(math.Ceil(excess)))
		}
		if bs.HoldUntil.After(b.holdUntil) {
			b.holdUntil = bs.HoldUntil
			s.held[b] = key
		}
		b.answered = true
	}
	s.notifyLocked()
}

// Wait is a request the rate limit holds back: its operation and when its
// bucket next lets a request go.
type Wait struct {
	OpID   string
	Method string
	Path   string // the operation's path under /api/{service}/v2, e.g. /orgs
	Until  time.Time
	// Throttled: the server answered 429 and holds the bucket until Until;
	// otherwise the client is waiting for the refill it planned.
	Throttled bool
}

// Waiting lists the requests held back now, the longest wait first (a
// bucket held after a 429 names the request that met it); paused
// background work is not listed.
func (s *Scheduler) Waiting() []Wait {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	var out []Wait
	for b := range s.held {
		if s.idleLocked(b, now) {
			continue
		}
		var op catalog.Op
		if head := s.headLocked(b); head != nil {
			op = head.op
		} else if b.holdUntil.After(now) && b.last.ID != "" {
			// A 429's retry sleeps before it asks again.
			op = b.last
		} else {
			continue
		}
		until := b.nextTokenLocked(now)
		throttled := b.holdUntil.After(until)
		if throttled {
			until = b.holdUntil
		}
		if !until.After(now) {
			continue
		}
		out = append(out, Wait{OpID: op.ID, Method: op.Method, Path: op.Path, Until: until, Throttled: throttled})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Until.After(out[j].Until) })
	return out
}
