package apiclient

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"golang.org/x/time/rate"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
)

// observe learns from an answer: the RateLimit-* headers lower the bucket's
// tokens to what the server says remain; a 429 sets the bucket from its
// parameters (or conservatively) and holds it until Retry-After.
// A nil header is a request that got no answer.
func (s *Scheduler) observe(op catalog.Op, params map[string]string, h http.Header, apiErr *Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := s.bucketKeyLocked(op, params)
	b := s.bucketLocked(key)
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
			s.held[b] = key
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
		if b.share.others > 0 {
			s.shared[b] = key
		}
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
			s.held[nb] = nk
		}
		nb.answered = nb.answered || old.answered
		if len(old.waiters) == 0 && !old.probing {
			delete(s.buckets, key)
			delete(s.held, old)
			delete(s.shared, old)
		}
	}
	for nb, sp := range spentOf {
		// Rounded up: a guess refilled at its own assumed pace.
		if total := sp.heard + sp.own; nb.lim != nil && total > 0 {
			nb.lim.ReserveN(now, int(math.Ceil(total)))
		}
	}
}
