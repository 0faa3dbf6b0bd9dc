package apiclient

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
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
		values: map[string]RateLimitValues{},
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
	for _, b := range s.buckets {
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

// observe learns from an answer: the RateLimit-* headers lower the bucket's
// tokens to what the server says remain; a 429 sets the bucket from its
// parameters (or conservatively) and holds it until Retry-After.
// A nil header is a request that got no answer.
func (s *Scheduler) observe(op catalog.Op, params map[string]string, h http.Header, apiErr *Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.bucketLocked(s.bucketKeyLocked(op, params))
	defer s.notifyLocked()
	b.probing = false
	b.inflight = max(0, b.inflight-1)
	b.last = op
	if h == nil {
		return
	}
	b.answered = true
	limit, lerr := strconv.Atoi(h.Get("RateLimit-Limit"))
	remaining, rerr := strconv.Atoi(h.Get("RateLimit-Remaining"))
	throttled := apiErr != nil && apiErr.Status == http.StatusTooManyRequests
	if (lerr != nil || rerr != nil || limit <= 0) && !throttled {
		return
	}
	now := s.now()
	if throttled {
		s.stats.Throttled++
		if v, ok := limitFromParameters(apiErr.Parameters); ok {
			b.set(v, true, now)
		} else if !b.exact && b.lim == nil {
			b.set(conservativeLimit, false, now)
		}
		remaining = 0
		rerr = nil
		wait := apiErr.RetryAfter
		if wait <= 0 {
			wait = time.Second
		}
		if until := now.Add(wait); until.After(b.holdUntil) {
			b.holdUntil = until
		}
	} else if !b.exact && limit > 0 && (b.lim == nil || b.limit.Capacity != limit) {
		// The headers give the capacity, not the refill: assume the whole
		// capacity a minute until a 429 or the rateLimits API says more.
		b.set(RateLimitValues{Capacity: limit, RefillRate: limit, RefillSeconds: 60}, false, now)
	}
	if rerr == nil {
		b.left = remaining
	}
	if rerr == nil && b.lim != nil {
		b.share.observe(b, now, remaining)
		b.heard = true
		// While others spend the bucket, what they may take in the next
		// second is theirs too. Fewer left than the client keeps back is
		// a debt: nothing goes until the kept-back tokens are there again.
		left := remaining - b.share.reserve(now) - (b.limit.Capacity - usable(b.limit.Capacity))
		if excess := b.lim.TokensAt(now) - float64(left); excess >= 1 {
			b.lim.ReserveN(now, min(int(math.Floor(excess)), b.lim.Burst()))
		}
	}
}

// refillMargin paces the client a little slower than the server refills,
// so a request the client sends as the token appears does not reach the
// server a moment before it does there (the server's clock for a bucket
// starts when the first request arrives, later than the client sent it).
const refillMargin = 0.9

// usable is how much of a bucket's capacity the client spends: one token is
// kept back where there are more than two, for a request the client did
// not count (another tool on the same key, a request whose answer was
// lost and is being checked) and for requests that reach the server in
// another order than they left.
func usable(capacity int) int {
	if capacity > 2 {
		return capacity - 1
	}
	return capacity
}

// usableLeft is how many of the tokens the server says remain the client
// spends: the token usable keeps back of the capacity stays kept back
// however few remain.
func usableLeft(remaining, capacity int) int {
	return max(0, remaining-(capacity-usable(capacity)))
}

// set replaces the bucket's shape, keeping no more tokens than it had.
func (b *rateBucket) set(v RateLimitValues, exact bool, now time.Time) {
	tokens := float64(usable(v.Capacity))
	if b.lim != nil {
		tokens = min(tokens, b.lim.TokensAt(now))
	}
	b.limit, b.exact = v, exact
	b.lim = rate.NewLimiter(rate.Limit(refillMargin*float64(v.RefillRate)/float64(v.RefillSeconds)), usable(v.Capacity))
	if spent := float64(usable(v.Capacity)) - tokens; spent >= 1 {
		b.lim.ReserveN(now, int(math.Ceil(spent)))
	}
	if v.valid() {
		// What others take of the bucket still holds.
		b.share.pace(b, now, float64(v.RefillRate)/float64(v.RefillSeconds))
	}
}

// limitFromParameters reads a RATE_LIMITED_TOKEN_BUCKET 429's parameters:
// [path, retryAfterSec, capacity, refillRate, refillDurationSec].
func limitFromParameters(p []any) (RateLimitValues, bool) {
	if len(p) < 5 {
		return RateLimitValues{}, false
	}
	num := func(v any) int {
		switch x := v.(type) {
		case float64:
			return int(x)
		case string:
			n, _ := strconv.Atoi(x)
			return n
		}
		return 0
	}
	v := RateLimitValues{Capacity: num(p[2]), RefillRate: num(p[3]), RefillSeconds: num(p[4])}
	return v, v.valid()
}

// learn installs endpoint sets from the rateLimits API: each catalog
// operation whose method and path a set lists draws from that set's bucket
// (per project or organization for those scopes), with the set's values.
func (s *Scheduler) learn(service string, sets []RateLimitSet) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	byEndpoint := map[string]RateLimitSet{}
	for _, set := range sets {
		for _, e := range set.Endpoints {
			byEndpoint[e.Method+" "+e.Path] = set
		}
	}
	for _, op := range catalog.All() {
		set, ok := byEndpoint[op.Pattern(service)]
		if !ok {
			continue
		}
		s.opSet[op.ID] = learnedSet{id: set.EndpointSetID, scope: set.Scope}
	}
	for _, set := range sets {
		v := set.Values()
		if !v.valid() {
			continue
		}
		s.values[set.EndpointSetID] = v
		for key, b := range s.buckets {
			if strings.HasPrefix(key, set.EndpointSetID+"|") {
				b.set(v, true, now)
			}
		}
	}
	s.foldGuessesLocked(now)
	s.notifyLocked()
}

// foldGuessesLocked moves what was learned under the narrow guess (a bucket
// per operation, before the sets were known) into the learned set's bucket:
// the tokens spent there and any hold after a 429 count against the set, so
// requests made while the sets were being learned are not sent again on a
// bucket that starts full.
//
// A guess that heard the server's remaining followed the set's one bucket:
// each answer's RateLimit-Remaining counts every request of the set,
// whichever operation made it, so summing such guesses would count the same
// requests once per operation. Of them the one that has spent most (the
// lowest remaining, plus what it sent since) is what the set spent. A guess
// that never heard a remaining has only its own count, which no header
// vouches for: it is added on top, at worst counting a request the server
// already counted twice (a request held back, never a 429).
func (s *Scheduler) foldGuessesLocked(now time.Time) {
	type spent struct{ heard, own float64 }
	spentOf := map[*rateBucket]*spent{}
	for key, old := range s.buckets {
		parts := strings.Split(key, "|")
		if len(parts) != 3 {
			continue // already a set's bucket
		}
		op, ok := catalog.Get(parts[0])
		if !ok {
			continue
		}
		if _, mapped := s.opSet[op.ID]; !mapped {
			continue
		}
		nk := s.bucketKeyLocked(op, map[string]string{"groupId": parts[1], "orgId": parts[2]})
		nb := s.bucketLocked(nk)
		sp := spentOf[nb]
		if sp == nil {
			sp = &spent{}
			spentOf[nb] = sp
		}
		switch {
		case old.lim == nil: // nothing learned to pace it: every request it sent
			sp.own += float64(old.sent)
		case old.heard:
			sp.heard = max(sp.heard, float64(usable(old.limit.Capacity))-old.lim.TokensAt(now))
		default:
			sp.own += max(0, float64(usable(old.limit.Capacity))-old.lim.TokensAt(now))
		}
		old.sent = 0
		if old.holdUntil.After(nb.holdUntil) {
			nb.holdUntil = old.holdUntil
		}
		nb.answered = nb.answered || old.answered
		if len(old.waiters) == 0 && !old.probing {
			delete(s.buckets, key)
		}
	}
	for nb, sp := range spentOf {
		// Rounded up: a guess refilled at its own assumed pace.
		if total := sp.heard + sp.own; nb.lim != nil && total > 0 {
			nb.lim.ReserveN(now, int(math.Ceil(total)))
		}
	}
}
