package apiclient

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
)

// ErrRateLimitWait is the error of a request given up (its context ended)
// while it waited for the rate limit; it was never sent.
var ErrRateLimitWait = errors.New("waiting for the rate limit")

// Priority orders requests that wait for the same bucket's tokens.
type Priority int

const (
	// PriorityBackground is a poll of data nobody is looking at.
	PriorityBackground Priority = iota
	// PriorityVisible is a read of what is on screen (the default for reads).
	PriorityVisible
	// PriorityAsked is a read the user asked for (`r`): it goes before
	// every poll waiting for the same bucket, on screen or not.
	PriorityAsked
	// PriorityWrite is a user's write (the default for writes).
	PriorityWrite
)

func (p Priority) String() string {
	switch p {
	case PriorityBackground:
		return "background"
	case PriorityVisible:
		return "visible"
	case PriorityAsked:
		return "asked"
	case PriorityWrite:
		return "write"
	}
	return "priority(" + strconv.Itoa(int(p)) + ")"
}

type workKey struct{}

type work struct {
	prio Priority
	tag  string
}

// WithPriority marks the requests made with ctx: their priority and a tag
// (a pane's name, say) that Scheduler.Pause can hold back while it is
// background work. An empty tag cannot be paused.
func WithPriority(ctx context.Context, p Priority, tag string) context.Context {
	return context.WithValue(ctx, workKey{}, work{prio: p, tag: tag})
}

type sourceKey struct{}

// WithSource names who makes the requests made with ctx (a pane's id), for
// Scheduler.Sharing to say whose reads a shared bucket paces.
func WithSource(ctx context.Context, name string) context.Context {
	return context.WithValue(ctx, sourceKey{}, name)
}

// PriorityOf is what WithPriority put in ctx; ok is false when nothing.
func PriorityOf(ctx context.Context) (p Priority, tag string, ok bool) {
	w, ok := ctx.Value(workKey{}).(work)
	return w.prio, w.tag, ok
}

// rateBucket is one token bucket: what the client knows of the server's
// bucket for an endpoint set and scope.
type rateBucket struct {
	lim       *rate.Limiter // nil: nothing learned yet, not throttled
	limit     RateLimitValues
	exact     bool      // values from the rateLimits API or a 429's parameters
	holdUntil time.Time // after a 429: nothing is sent before this
	waiters   []*waiter
	// Until the first answer for a bucket nothing is known of it: one
	// request goes alone (the probe) and its answer's headers set the pace.
	answered, probing bool
	// heard: the tokens have followed what the server said remains (a
	// RateLimit-Remaining header or a 429's none), not only the client's
	// own count.
	heard bool
	sent  int // requests let through
	share budgetShare
	// inflight: requests let through and not answered yet; left: what the
	// server said remained at the last answer (-1: not said).
	inflight, left int
	// last is the operation of the latest answer: after a 429 it names
	// what waits for the hold even while its retry sleeps outside.
	last catalog.Op
	// source is the source (WithSource, else the tag) of the latest such
	// request let through: the pane whose reads draw from the bucket.
	source string
}

type waiter struct {
	prio Priority
	tag  string
	seq  uint64
	op   catalog.Op
}

// RateLimitValues is a bucket's shape: at most Capacity tokens, RefillRate
// added every RefillSeconds.
type RateLimitValues struct {
	Capacity      int
	RefillRate    int
	RefillSeconds int
}

func (v RateLimitValues) valid() bool {
	return v.Capacity > 0 && v.RefillRate > 0 && v.RefillSeconds > 0
}

// conservativeLimit is assumed for a bucket the server limited (a 429)
// without saying how.
var conservativeLimit = RateLimitValues{Capacity: 10, RefillRate: 10, RefillSeconds: 60}

// Scheduler is the one gate every request of a Client passes: a token
// bucket per endpoint set and scope, learned from the rateLimits API (see
// Client.LearnRateLimits), else from a 429's parameters and the
// RateLimit-* headers, else assumed conservatively after a bare 429. Waiting
// requests go in priority order (a write, then a read the user asked for
// with `r`, then what is on screen, then background polls; first come first
// within one), so `r` never queues behind the planned waits of polls; a
// background request whose tag is paused waits until it is resumed. After a
// 429 the bucket holds every request until Retry-After, so one 429 never
// becomes a storm.
type Scheduler struct {
	now func() time.Time

	mu      sync.Mutex
	buckets map[string]*rateBucket
	opSet   map[string]learnedSet      // operation id -> endpoint set from the rateLimits API
	values  map[string]RateLimitValues // endpoint set id -> its values
	paused  map[string]bool
	// held are the buckets that may hold a request back (one had a
	// waiter or a hold after a 429), shared those others spend too, each
	// with its key: what HoldingBack, Waiting and Sharing look at, which
	// the header asks on every frame, instead of every bucket (thousands
	// on a board of a thousand projects). Entries that hold nothing any
	// more leave as they are looked at.
	held    map[*rateBucket]string
	shared  map[*rateBucket]string
	seq     uint64
	changed chan struct{} // closed and replaced on every change waiters care about
	stats   SchedulerStats
}

type learnedSet struct {
	id    string
	scope string
}

// SchedulerStats count what the scheduler did.
type SchedulerStats struct {
	Granted   int64 // requests let through
	Waited    int64 // of which had to wait for a token, a hold or a resume
	Throttled int64 // 429 answers seen
}

// NewScheduler returns a scheduler on the wall clock.
func NewScheduler() *Scheduler { return newScheduler(time.Now) }

func newScheduler(now func() time.Time) *Scheduler {
	return &Scheduler{now: now, buckets: map[string]*rateBucket{}, opSet: map[string]learnedSet{},
		values: map[string]RateLimitValues{}, held: map[*rateBucket]string{}, shared: map[*rateBucket]string{},
		paused: map[string]bool{}, changed: make(chan struct{})}
}

// Pause holds back background requests tagged tag (a hidden pane's polls)
// until Resume; visible reads and writes with the tag still go.
func (s *Scheduler) Pause(tag string) {
	s.mu.Lock()
	s.paused[tag] = true
	s.notifyLocked()
	s.mu.Unlock()
}

// Resume lets tag's background requests go again.
func (s *Scheduler) Resume(tag string) {
	s.mu.Lock()
	delete(s.paused, tag)
	s.notifyLocked()
	s.mu.Unlock()
}

// Stats returns the counters so far.
func (s *Scheduler) Stats() SchedulerStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

// HoldingBack reports whether requests are waiting for the rate limit and,
// if so, the latest time one of the waiting buckets lets its next request go
// ("rate limited: next refresh in 20 s"). Paused work is not counted.
func (s *Scheduler) HoldingBack() (until time.Time, holding bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	for b := range s.held {
		if s.idleLocked(b, now) {
			continue
		}
		if !slices.ContainsFunc(b.waiters, func(w *waiter) bool { return !s.isPausedLocked(w) }) && !now.Before(b.holdUntil) {
			continue
		}
		next := b.nextTokenLocked(now)
		if b.holdUntil.After(next) {
			next = b.holdUntil
		}
		if next.After(now) && next.After(until) {
			until, holding = next, true
		}
	}
	return until, holding
}

// idleLocked reports whether b holds nothing back (no waiter, no hold in
// force) and, if so, takes it out of the held index.
func (s *Scheduler) idleLocked(b *rateBucket, now time.Time) bool {
	if len(b.waiters) > 0 || now.Before(b.holdUntil) {
		return false
	}
	delete(s.held, b)
	return true
}

func (b *rateBucket) nextTokenLocked(now time.Time) time.Time {
	if b.lim == nil {
		return now
	}
	tokens := b.lim.TokensAt(now)
	if tokens >= 1 {
		return now
	}
	perToken := float64(time.Second) / float64(b.lim.Limit())
	return now.Add(time.Duration((1 - tokens) * perToken))
}

func (s *Scheduler) isPausedLocked(w *waiter) bool {
	return w.prio == PriorityBackground && w.tag != "" && s.paused[w.tag]
}

func (s *Scheduler) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// bucketKey names the bucket a request draws from: the learned endpoint set
// and its scope, else the operation and the project or organization it
// names (the narrowest guess).
func (s *Scheduler) bucketKeyLocked(op catalog.Op, params map[string]string) string {
	if ls, ok := s.opSet[op.ID]; ok {
		switch ls.scope {
		case "GROUP", "PROJECT": // the spec says GROUP
			return ls.id + "|" + params["groupId"]
		case "ORGANIZATION":
			return ls.id + "|" + params["orgId"]
		}
		return ls.id + "|"
	}
	return op.ID + "|" + params["groupId"] + "|" + params["orgId"]
}

// bucketLocked finds or makes the bucket of key; a new bucket of a learned
// endpoint set starts full with the set's values.
func (s *Scheduler) bucketLocked(key string) *rateBucket {
	b := s.buckets[key]
	if b == nil {
		b = &rateBucket{left: -1}
		if set, _, ok := strings.Cut(key, "|"); ok {
			if v, known := s.values[set]; known {
				b.set(v, true, s.now())
			}
		}
		s.buckets[key] = b
	}
	return b
}

// acquire waits until the request may be sent: its bucket has a token, no
// hold is in force, no waiter of higher priority is ahead of it and, for
// paused background work, until it is resumed.
func (s *Scheduler) acquire(ctx context.Context, op catalog.Op, params map[string]string) error {
	wk, ok := ctx.Value(workKey{}).(work)
	if !ok {
		wk.prio = PriorityVisible
		if op.Mutates() {
			wk.prio = PriorityWrite
		}
	}
	s.mu.Lock()
	key := s.bucketKeyLocked(op, params)
	b := s.bucketLocked(key)
	s.seq++
	me := &waiter{prio: wk.prio, tag: wk.tag, seq: s.seq, op: op}
	source, _ := ctx.Value(sourceKey{}).(string)
	if source == "" {
		source = wk.tag
	}
	b.waiters = append(b.waiters, me)
	s.held[b] = key
	leave := func() {
		b.waiters = slices.DeleteFunc(b.waiters, func(w *waiter) bool { return w == me })
		s.notifyLocked()
	}
	waited := false
	for {
		now := s.now()
		var wait time.Duration = -1 // -1: until something changes
		switch {
		case s.isPausedLocked(me):
		case now.Before(b.holdUntil):
			wait = b.holdUntil.Sub(now)
		case s.headLocked(b) != me:
		case b.lim == nil && !b.answered:
			if !b.probing {
				b.probing, wait = true, 0
			}
		case b.lim == nil:
			wait = 0
		case b.inflight > 0 && b.heard && b.left >= 0 && b.left <= b.inflight+b.share.reserve(now)+1:
			// Nearly empty on the server: one request at a time, each
			// sent once the last one's answer says what remains.
		default:
			r := b.lim.ReserveN(now, 1)
			if d := r.DelayFrom(now); d > 0 {
				r.CancelAt(now)
				wait = d
			} else {
				wait = 0
			}
		}
		if wait == 0 {
			leave()
			if source != "" {
				b.source = source
			}
			b.sent++
			b.inflight++
			s.stats.Granted++
			if waited {
				s.stats.Waited++
			}
			s.mu.Unlock()
			return nil
		}
		waited = true
		ch := s.changed
		s.mu.Unlock()
		var timer <-chan time.Time
		if wait > 0 {
			t := time.NewTimer(wait)
			timer = t.C
			defer t.Stop()
		}
		select {
		case <-ctx.Done():
			s.mu.Lock()
			leave()
			s.mu.Unlock()
			return fmt.Errorf("%s: %w: %w", op.ID, ErrRateLimitWait, ctx.Err())
		case <-ch:
		case <-timer:
		}
		s.mu.Lock()
		// The op may have been mapped to a learned set meanwhile.
		if nk := s.bucketKeyLocked(op, params); nk != key {
			b.waiters = slices.DeleteFunc(b.waiters, func(w *waiter) bool { return w == me })
			key, b = nk, s.bucketLocked(nk)
			b.waiters = append(b.waiters, me)
			s.held[b] = key
		}
	}
}

// headLocked is the waiter that may take the next token: highest priority,
// then first come; paused work is skipped.
func (s *Scheduler) headLocked(b *rateBucket) *waiter {
	var head *waiter
	for _, w := range b.waiters {
		if s.isPausedLocked(w) {
			continue
		}
		if head == nil || w.prio > head.prio || (w.prio == head.prio && w.seq < head.seq) {
			head = w
		}
	}
	return head
}
