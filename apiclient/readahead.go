package apiclient

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
)

// A read ahead is a read sent before its caller asks for it, because the
// caller is known to ask in a moment: at start, the first pane's first
// page leaves with the reads of who the caller is and where, instead of a
// round trip after them. The first identical read (same URL, same media
// type) takes its answer as if it had been sent itself (the scheduler
// observes it then, errors are parsed then, retries follow the taker's
// rules); a read ahead that failed to get an answer is not taken (the
// taker asks again), nor one nobody takes within readAheadKeep of its
// answer: it is dropped. The scheduler learns from its answer when it
// comes, as from any other.
const (
	readAheadWait = 30 * time.Second // a read ahead gives up after this
	readAheadKeep = 10 * time.Second // an answer nobody took is dropped after this
)

// readAhead is one read sent ahead: its answer once done is closed.
type readAhead struct {
	done chan struct{}
	sent time.Time
	res  *http.Response
	data []byte
	err  error
}

// readAheads are the reads ahead not taken yet, by URL and media type.
type readAheads struct {
	mu      sync.Mutex
	entries map[string]*readAhead
}

// put adds ra under key unless one is there already.
func (r *readAheads) put(key string, ra *readAhead) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.entries[key]; dup {
		return false
	}
	if r.entries == nil {
		r.entries = map[string]*readAhead{}
	}
	r.entries[key] = ra
	return true
}

// take removes and returns the read ahead under key, if any: each is
// taken once.
func (r *readAheads) take(key string) *readAhead {
	r.mu.Lock()
	defer r.mu.Unlock()
	ra := r.entries[key]
	delete(r.entries, key)
	return ra
}

// drop removes ra if it is still there (nobody took it).
func (r *readAheads) drop(key string, ra *readAhead) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.entries[key] == ra {
		delete(r.entries, key)
	}
}

// pending is how many reads ahead are waiting to be taken.
func (r *readAheads) pending() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.entries)
}

// ReadAhead sends the read r of opID now, for the first identical read
// the client is asked for (see readAhead above). A write, an operation the
// gate refuses, a request that does not build, or a read already ahead is
// not sent; nor anything by a client that shares its reads with other
// sessions (serve): their ReadShare already answers a read another
// session made, and a read sent ahead would pass it by.
func (c *Client) ReadAhead(opID string, r Request) {
	op, ok := catalog.Get(opID)
	if !ok || op.Method != http.MethodGet || c.share != nil {
		return
	}
	if c.gate != nil {
		if allowed, _ := c.gate.AllowedIn(op, c.gate.target(r.Params)); !allowed {
			return
		}
	}
	target, err := c.requestURL(op, r)
	if err != nil {
		return
	}
	mediaType, _ := c.mediaType(op)
	key := target + "\x00" + mediaType
	ra := &readAhead{done: make(chan struct{})}
	if !c.ahead.put(key, ra) {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), readAheadWait)
		defer cancel()
		if ra.err = c.sched.acquire(ctx, op, r.Params); ra.err == nil {
			ra.sent = c.SentFloor()
			ra.res, ra.data, ra.err = c.send(ctx, op, target, mediaType, nil)
			// The scheduler learns from the answer now, not when it is
			// taken (the taker does not observe it again).
			if ra.err != nil {
				c.sched.observe(op, r.Params, nil, nil)
			} else {
				c.sched.observe(op, r.Params, ra.res.Header, answerError(op.ID, ra.res, ra.data))
			}
		}
		close(ra.done)
		time.AfterFunc(readAheadKeep, func() { c.ahead.drop(key, ra) })
	}()
}

// takeAhead is the answer of the read ahead under key, waited for: ok is
// false when there is none, when it got no answer, or when ctx ends first
// (the caller then sends its own).
func (c *Client) takeAhead(ctx context.Context, key string, sent *time.Time) (res *http.Response, data []byte, ok bool) {
	ra := c.ahead.take(key)
	if ra == nil {
		return nil, nil, false
	}
	select {
	case <-ra.done:
	case <-ctx.Done():
		return nil, nil, false
	}
	if ra.err != nil {
		return nil, nil, false
	}
	*sent = ra.sent
	return ra.res, ra.data, true
}
