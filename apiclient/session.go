package apiclient

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
)

// Several dashboards on one upstream identity (the sessions of `serve`)
// share one Client's connections, authentication state and Scheduler, and
// one copy of what was read (ReadShare). Each session has its own view of
// that client (Client.Session): its own Gate, so a read-only member's write
// is refused in the client that member's dashboard calls, and its own
// Actor, named on every write it makes (Options.OnWrite).

// Actor is who makes a session's requests: a team member's name and the
// fingerprint of the SSH key they came in with, or the local user.
type Actor struct {
	Name        string
	Fingerprint string // "" for the local user
	Profile     string
}

// WriteEvent is one write as the client saw it, told to OnWrite before Do
// returns, so a journal holds it before any screen shows the outcome.
type WriteEvent struct {
	Actor   Actor
	Op      string
	Method  string
	Params  map[string]string // the targets: groupId, clusterName, alertId, ...
	Body    json.RawMessage   // the values sent (nil when none)
	Status  int               // the answer's HTTP status; 0 when none came
	Outcome string            // "applied", "refused", "not sent", "unknown"
	Error   string            // the failure, when Outcome is not "applied"
	Sent    time.Time
}

// WriteHook is told of each write; a non-nil error from Before refuses
// the write before it is sent (its text is the refusal's reason).
type WriteHook interface {
	Before(a Actor, op catalog.Op, params map[string]string, body any) error
	After(e WriteEvent)
}

// SessionOptions set what a session's view of a shared client has of its
// own.
type SessionOptions struct {
	Gate  *Gate // required: each session has its own (read-only, roles)
	Actor Actor
	Hook  WriteHook // nil: writes are not told
}

// Session is a view of c for one dashboard session: the same connections,
// authentication, Scheduler and ReadShare, its own gate, actor and write
// hook. The views are cheap; c itself is never used to call.
func (c *Client) Session(o SessionOptions) *Client {
	s := &Client{
		base: c.base, service: c.service, userAgent: c.userAgent, auth: c.auth,
		http: c.http, log: c.log, retries: c.retries, backoff: c.backoff, gate: o.Gate,
		sched: c.sched, budget: c.budget, onRetry: c.onRetry, retryIf: c.retryIf,
		deprecations: map[string]Deprecation{}, share: c.share, actor: o.Actor, hook: o.Hook,
	}
	s.skew.Store(c.skew.Load())
	c.lastDate.mu.Lock()
	date, arrived := c.lastDate.date, c.lastDate.arrived
	c.lastDate.mu.Unlock()
	if !arrived.IsZero() {
		s.lastDate.observe(date, arrived)
	}
	return s
}

// SetWriteHook sets the actor and hook of a client used by one dashboard
// (the single-user dashboard journals its user's writes this way).
func (c *Client) SetWriteHook(a Actor, h WriteHook) {
	c.actor, c.hook = a, h
}

// Actor is who this client's writes are made by.
func (c *Client) Actor() Actor { return c.actor }

// ShareReads makes c (and every Session of it made afterwards) share
// identical GET reads through rs.
func (c *Client) ShareReads(rs *ReadShare) { c.share = rs }

// ReadShare is one copy of what was read, for the sessions of one
// identity: an identical GET (same URL, same media type) already under way
// is joined instead of sent again, and its answer is reused for Window
// after it came. Any write sent through a client sharing it drops every
// copy, and a read started before that write ended is not reused after it,
// so no session reads its own write's past. A read-back after a write
// (WithRetries, as the Verify* helpers do) always goes to the server.
type ReadShare struct {
	Window time.Duration
	now    func() time.Time

	mu      sync.Mutex
	gen     uint64
	entries map[string]*shared

	stats ShareStats
}

// ShareStats count what a ReadShare saved.
type ShareStats struct {
	Sent   int64 // reads that went to the server
	Joined int64 // reads that waited for one under way
	Reused int64 // reads answered from a fresh copy
}

type shared struct {
	gen  uint64
	prio Priority
	done chan struct{}
	at   time.Time // when the answer came
	res  *http.Response
	data []byte
	err  error
}

// NewReadShare shares reads for window after their answer.
func NewReadShare(window time.Duration) *ReadShare {
	return &ReadShare{Window: window, now: time.Now, entries: map[string]*shared{}}
}

type shareWindowKey struct{}

// WithShareWindow lets the reads made with ctx take a copy up to d old
// (when d is longer than the share's Window): a poll accepts what another
// session read within one poll interval.
func WithShareWindow(ctx context.Context, d time.Duration) context.Context {
	return context.WithValue(ctx, shareWindowKey{}, d)
}

// Stats returns the counters so far.
func (rs *ReadShare) Stats() ShareStats {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.stats
}

// Invalidate drops every copy: the next read of anything goes to the
// server.
func (rs *ReadShare) Invalidate() {
	rs.mu.Lock()
	rs.gen++
	clear(rs.entries)
	rs.mu.Unlock()
}

// get answers key from a copy, a read under way, or fetch. fromCopy says
// the answer was not this caller's own request.
func (rs *ReadShare) get(ctx context.Context, key string, fetch func(context.Context) (*http.Response, []byte, error)) (res *http.Response, data []byte, fromCopy bool, err error) {
	prio, _, ok := PriorityOf(ctx)
	if !ok {
		prio = PriorityVisible
	}
	window := rs.Window
	if d, ok := ctx.Value(shareWindowKey{}).(time.Duration); ok && d > window {
		window = d
	}
	rs.mu.Lock()
	e := rs.entries[key]
	switch {
	case e == nil || e.gen != rs.gen:
	case isDone(e.done) && e.err == nil && rs.now().Sub(e.at) < window:
		rs.stats.Reused++
		rs.mu.Unlock()
		return e.res, e.data, true, nil
	case !isDone(e.done) && prio <= e.prio:
		rs.stats.Joined++
		rs.mu.Unlock()
		select {
		case <-e.done:
		case <-ctx.Done():
			return nil, nil, true, ctx.Err()
		}
		// A leader that gave up (its session closed, its timeout) is no
		// answer for this caller: it reads on its own.
		if e.err == nil || !(errors.Is(e.err, context.Canceled) || errors.Is(e.err, context.DeadlineExceeded)) {
			return e.res, e.data, true, e.err
		}
		rs.mu.Lock()
	}
	e = &shared{gen: rs.gen, prio: prio, done: make(chan struct{})}
	rs.entries[key] = e
	rs.stats.Sent++
	rs.mu.Unlock()
	// The request is this caller's own: its context, its cancellation.
	e.res, e.data, e.err = fetch(ctx)
	rs.mu.Lock()
	e.at = rs.now()
	// Only a good answer is kept: a 429 or a 5xx is not an answer to
	// serve for Window.
	failed := e.err != nil || e.res == nil || e.res.StatusCode < 200 || e.res.StatusCode > 299
	if failed && rs.entries[key] == e {
		delete(rs.entries, key)
	}
	rs.mu.Unlock()
	close(e.done)
	return e.res, e.data, false, e.err
}

func isDone(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// exchange is one attempt's round trip: the answer of a read sent ahead
// (readahead.go), else through the ReadShare for a GET that may share,
// else acquire, send and observe. fromCopy answers were neither paced nor
// observed again.
func (c *Client) exchange(ctx context.Context, op catalog.Op, params map[string]string, target, mediaType string, body []byte, sent *time.Time) (res *http.Response, data []byte, fromCopy bool, err error) {
	own := func(ctx context.Context) (*http.Response, []byte, error) {
		if err := c.sched.acquire(ctx, op, params); err != nil {
			return nil, nil, errAcquire{err}
		}
		*sent = c.SentFloor()
		return c.send(ctx, op, target, mediaType, body)
	}
	_, readBack := ctx.Value(retriesKey{}).(int)
	if op.Method == http.MethodGet && !readBack {
		if res, data, ok := c.takeAhead(ctx, target+"\x00"+mediaType, sent); ok {
			return res, data, true, nil // observed when it came
		}
	}
	if c.share == nil || op.Method != http.MethodGet || readBack {
		res, data, err = own(ctx)
		if op.Mutates() && c.share != nil {
			c.share.Invalidate()
		}
		return res, data, false, err
	}
	return c.share.get(ctx, target+"\x00"+mediaType, own)
}

// errAcquire marks a request that never left: it waited for the rate
// limit until its context ended.
type errAcquire struct{ error }

func (e errAcquire) Unwrap() error { return e.error }

// tellWrite tells the hook what became of a write (deferred in Do).
func (c *Client) tellWrite(op catalog.Op, r Request, sent time.Time, resp **Response, err *error) {
	e := WriteEvent{Actor: c.actor, Op: op.ID, Method: op.Method, Params: r.Params, Sent: sent, Outcome: "applied"}
	if r.Body != nil {
		if b, merr := json.Marshal(r.Body); merr == nil {
			e.Body = b
		}
	}
	if *resp != nil {
		e.Status = (*resp).StatusCode
	}
	if *err != nil {
		e.Error = (*err).Error()
		var denied *DeniedError
		var unknown *OutcomeUnknownError
		switch {
		case errors.As(*err, &denied):
			e.Outcome = "not sent"
		case errors.As(*err, &unknown):
			e.Outcome, e.Status = "unknown", unknown.Status
		default:
			e.Outcome = "failed"
			if apiErr, ok := AsError(*err); ok {
				e.Outcome, e.Status = "refused", apiErr.Status
			} else if errors.Is(*err, ErrRateLimitWait) {
				e.Outcome = "not sent"
			}
		}
	}
	c.hook.After(e)
}

// tellSettled tells the hook what a read-back found of a write whose
// outcome was unknown (deferred in the Verify* helpers), so the journal
// holds the verified outcome as well.
func (c *Client) tellSettled(opID string, params map[string]string, holds *bool, err *error) {
	if c.hook == nil {
		return
	}
	op, _ := catalog.Get(opID)
	e := WriteEvent{Actor: c.actor, Op: opID, Method: op.Method, Params: params, Sent: time.Now(), Outcome: "verified: not applied"}
	switch {
	case *err != nil:
		e.Outcome, e.Error = "unknown", "the read-back failed: "+(*err).Error()
	case *holds:
		e.Outcome = "verified: applied"
	}
	c.hook.After(e)
}
