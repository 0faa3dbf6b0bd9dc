package apiclient

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

// maxDigestLanes bounds the requests in flight at once under HTTP Digest
// (and the connections kept open to the service, see New). At 20 ms a
// request, 16 lanes carried at most 800 requests a second: a Triage board
// of 5,000 projects (some 55,000 requests) could not fill in under 69 s
// whatever its budgets allowed. The board keeps at most 32 in flight
// (views/triage's fanWorkers), so 8 stay for what is on screen.
const maxDigestLanes = 40

// DefaultWarmLanes is the lanes the dashboard readies at its first request
// (Options.WarmLanes), in the background: a start asks a handful of reads
// at once, then the alerts pane asks up to 32 pages at once (a project of
// 10,000 alerts: 20), and each lane made for them would first wait a round
// trip for its challenge. Fetched beside the start's first reads, the
// challenges are in before the pages are asked. Each costs one refused
// HEAD request, as a lane made on demand costs one refused request, and
// an idle connection kept open.
const DefaultWarmLanes = 24

// warmFor is how long a challenge fetched ahead stays good for a lane's
// first request: well within any nonce's life, so a lane readied and left
// unused meets the service's challenge anew rather than a stale one.
const warmFor = 10 * time.Second

// digestLanes sends each request through one of a few digest transports,
// each used by one request at a time.
//
// One digest transport shared by every request numbers its requests in the
// order they are signed, but hundreds in flight reach the server in another
// order; a server that keeps a window of counts (or insists on order, as RFC
// 7616 allows) refuses the ones that fall behind, every refusal replaces the
// shared challenge, and the nonces handed out meanwhile expire unused: most
// requests end 401 (STALE_NONCE, NONCE_REPLAYED). A lane instead sends its
// next request only once the server has answered the last, so its counts
// reach the server strictly in order: a lane meets at most one challenge
// when it starts and one more each time its nonce goes stale, never a
// cascade. A lane is made only when every other is busy; at the first
// request, up to Options.WarmLanes are readied ahead, each with a challenge of its
// own. The lane freed last is used first: after a burst (a full pass of
// alerts makes 32) the few requests of a poll keep to the same lanes, whose
// nonces stay fresh, instead of taking each lane in turn and meeting a
// stale nonce on every one.
type digestLanes struct {
	tokens  chan struct{} // one per lane in use or being readied
	mu      sync.Mutex
	free    []*lane // the lanes not in use, the one freed last at the end
	base    http.RoundTripper
	newLane func(next http.RoundTripper) http.RoundTripper
	warm    int
	once    sync.Once
}

// lane is a digest transport and, for a lane readied ahead, the challenge
// it was given.
type lane struct {
	rt http.RoundTripper
	p  *primed
}

func newDigestLanes(n, warm int, base http.RoundTripper, newLane func(next http.RoundTripper) http.RoundTripper) *digestLanes {
	return &digestLanes{tokens: make(chan struct{}, n), base: base, newLane: newLane, warm: min(warm, n)}
}

// RoundTrip waits for a free lane (or makes one) and sends req through it.
// The lane is free again once the answer's headers are in: the server has
// checked the count by then.
func (d *digestLanes) RoundTrip(req *http.Request) (*http.Response, error) {
	select {
	case d.tokens <- struct{}{}:
	default:
		select {
		case d.tokens <- struct{}{}:
		case <-req.Context().Done():
			return nil, fmt.Errorf("waiting for a connection lane: %w", req.Context().Err())
		}
	}
	l := d.take()
	d.once.Do(func() { d.warmUp(req) })
	defer d.put(l)
	res, err := l.rt.RoundTrip(req)
	if err != nil || l.p == nil || !l.p.refused {
		return res, err
	}
	// The challenge fetched ahead was refused (the service dropped its
	// nonce early): the refusal brings a new challenge, with which the
	// request is signed and sent again, once, as a lane whose cached
	// challenge went stale does.
	l.p = nil
	again := req.Clone(req.Context())
	if req.Body != nil && req.Body != http.NoBody {
		if req.GetBody == nil {
			return res, nil
		}
		if again.Body, err = req.GetBody(); err != nil {
			return res, nil
		}
	}
	if res.Header.Get("WWW-Authenticate") == "" {
		return res, nil
	}
	_, _ = io.Copy(io.Discard, res.Body)
	_ = res.Body.Close()
	l.rt = d.newLane(&primed{next: d.base, challenge: res.Header, until: time.Now().Add(warmFor)})
	return l.rt.RoundTrip(again)
}

// take is the lane freed last, or a new one when none is free (the caller
// holds a token).
func (d *digestLanes) take() *lane {
	d.mu.Lock()
	defer d.mu.Unlock()
	if n := len(d.free); n > 0 {
		l := d.free[n-1]
		d.free[n-1] = nil
		d.free = d.free[:n-1]
		return l
	}
	return &lane{rt: d.newLane(d.base)}
}

// put frees a lane and its token.
func (d *digestLanes) put(l *lane) {
	d.mu.Lock()
	d.free = append(d.free, l)
	d.mu.Unlock()
	<-d.tokens
}

// warmUp readies up to d.warm-1 more lanes in the background, each with the
// challenge of a HEAD request like req sent without credentials; a lane
// readied ahead goes under the others, used when they are busy.
func (d *digestLanes) warmUp(req *http.Request) {
	for range d.warm - 1 {
		select {
		case d.tokens <- struct{}{}:
		default:
			return // every lane is in use or being readied
		}
		head, err := http.NewRequestWithContext(context.WithoutCancel(req.Context()), http.MethodHead, req.URL.String(), nil)
		if err != nil {
			<-d.tokens
			return
		}
		head.Header.Set("User-Agent", req.Header.Get("User-Agent"))
		go func() {
			ctx, cancel := context.WithTimeout(head.Context(), warmFor)
			defer cancel()
			p := &primed{next: d.base}
			if res, err := d.base.RoundTrip(head.WithContext(ctx)); err == nil {
				_, _ = io.Copy(io.Discard, res.Body)
				_ = res.Body.Close()
				if res.StatusCode == http.StatusUnauthorized {
					p.challenge, p.until = res.Header, time.Now().Add(warmFor)
				}
			}
			l := &lane{rt: d.newLane(p), p: p}
			d.mu.Lock()
			d.free = append([]*lane{l}, d.free...)
			d.mu.Unlock()
			<-d.tokens
		}()
	}
}

// primed answers a lane's first request, sent without credentials, with the
// challenge fetched ahead (while it is fresh) instead of sending it: the
// digest transport signs the request and sends it once, with credentials.
// Anything else goes to next.
type primed struct {
	next      http.RoundTripper
	challenge http.Header
	until     time.Time
	signed    bool // the challenge was handed out: the next request is signed with it
	refused   bool // and the service refused that request
}

func (p *primed) RoundTrip(req *http.Request) (*http.Response, error) {
	if p.signed {
		p.signed = false
		res, err := p.next.RoundTrip(req)
		p.refused = err == nil && res.StatusCode == http.StatusUnauthorized
		return res, err
	}
	h := p.challenge
	p.challenge = nil
	if h == nil || req.Header.Get("Authorization") != "" || time.Now().After(p.until) {
		return p.next.RoundTrip(req)
	}
	if req.Body != nil {
		_ = req.Body.Close()
	}
	p.signed = true
	return &http.Response{Status: "401 Unauthorized", StatusCode: http.StatusUnauthorized, Proto: "HTTP/1.1",
		ProtoMajor: 1, ProtoMinor: 1, Header: h, Body: http.NoBody, Request: req}, nil
}

func (p *primed) CloseIdleConnections() {
	if c, ok := p.next.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// CloseIdleConnections closes the idle connections of every lane made.
func (d *digestLanes) CloseIdleConnections() {
	d.mu.Lock()
	free := append([]*lane(nil), d.free...)
	d.mu.Unlock()
	for _, l := range free {
		if c, ok := l.rt.(interface{ CloseIdleConnections() }); ok {
			c.CloseIdleConnections()
		}
	}
}
