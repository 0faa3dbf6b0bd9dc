package apiclient

import (
	"fmt"
	"net/http"
)

// maxDigestLanes bounds the requests in flight at once under HTTP Digest
// (and the connections kept open to the service, see New). At 20 ms a
// request, 16 lanes carried at most 800 requests a second: a Triage board
// of 5,000 projects (some 55,000 requests) could not fill in under 69 s
// whatever its budgets allowed. The board keeps at most 32 in flight
// (views/triage's fanWorkers), so 8 stay for what is on screen.
const maxDigestLanes = 40

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
// cascade. A lane is made only when every other is busy.
type digestLanes struct {
	idle    chan http.RoundTripper // lanes free to use, each holding its challenge
	slots   chan struct{}          // one token per lane made
	newLane func() http.RoundTripper
}

func newDigestLanes(n int, newLane func() http.RoundTripper) *digestLanes {
	return &digestLanes{idle: make(chan http.RoundTripper, n), slots: make(chan struct{}, n), newLane: newLane}
}

// RoundTrip waits for a free lane (or makes one) and sends req through it.
// The lane is free again once the answer's headers are in: the server has
// checked the count by then.
func (d *digestLanes) RoundTrip(req *http.Request) (*http.Response, error) {
	var lane http.RoundTripper
	select {
	case lane = <-d.idle:
	default:
		select {
		case lane = <-d.idle:
		case d.slots <- struct{}{}:
			lane = d.newLane()
		case <-req.Context().Done():
			return nil, fmt.Errorf("waiting for a connection lane: %w", req.Context().Err())
		}
	}
	defer func() { d.idle <- lane }()
	return lane.RoundTrip(req)
}

// CloseIdleConnections closes the idle connections of every lane made.
func (d *digestLanes) CloseIdleConnections() {
	for {
		select {
		case lane := <-d.idle:
			defer func() { d.idle <- lane }()
			if c, ok := lane.(interface{ CloseIdleConnections() }); ok {
				c.CloseIdleConnections()
			}
		default:
			return
		}
	}
}
