package apiclient

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
)

// StartCopies lets a start draw its first screen from what the last start
// read: the answers to the reads one pane (the one on screen at start) made,
// kept with the time they came, each given once to the identical read of
// the next start instead of sending it, until the service has answered one
// of the source's reads (from then on what is on screen is newer than any
// copy). A read answered so is marked in its
// context (WithCopyMark), so whoever shows it says how old it is and asks
// the service again at once.
//
// Only reads are kept and given (GET, 2xx, a body that decoded), only those of the
// named source, and no more than maxBytes in all: the first screen, not the
// whole session.
type StartCopies struct {
	source   string
	maxBytes int
	window   time.Duration
	now      func() time.Time

	mu     sync.Mutex
	start  time.Time
	give   map[string]StartCopy // by key, each given once
	kept   []StartCopy
	keptAt map[string]int // key → index in kept
	bytes  int
	given  int
	// served: the source has had an answer from the service; no copy is
	// given after it (a later read of the same URL, a refresh, must not
	// take an answer older than what is on screen).
	served bool
}

// StartCopy is one kept answer: the read's key (URL and media type), when
// its answer came and its body.
type StartCopy struct {
	Key  string          `json:"key"`
	At   time.Time       `json:"at"`
	Data json.RawMessage `json:"data"`
}

// Start copies' defaults: the bodies kept in all, and how long after the
// start a copy is still given (a read made later is no longer the first
// screen's).
const (
	StartCopiesMaxBytes = 256 << 10
	StartCopiesWindow   = 30 * time.Second
)

// NewStartCopies gives the copies of the last start (any older than
// maxAge dropped) and keeps the answers to source's reads for the next.
func NewStartCopies(last []StartCopy, source string, maxAge time.Duration, now func() time.Time) *StartCopies {
	if now == nil {
		now = time.Now
	}
	s := &StartCopies{source: source, maxBytes: StartCopiesMaxBytes, window: StartCopiesWindow, now: now,
		start: now(), give: map[string]StartCopy{}, keptAt: map[string]int{}}
	for _, c := range last {
		if c.Key == "" || !json.Valid(c.Data) || s.start.Sub(c.At) > maxAge || c.At.After(s.start) {
			continue
		}
		s.give[c.Key] = c
	}
	return s
}

// Kept is what the next start may be given: the latest answer to each read
// kept, in the order first read.
func (s *StartCopies) Kept() []StartCopy {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]StartCopy(nil), s.kept...)
}

// stop ends the giving: a write was sent (what it changed is in no copy,
// and the reads that check it must ask the service).
func (s *StartCopies) stop() {
	s.mu.Lock()
	s.served = true
	clear(s.give)
	s.mu.Unlock()
}

// Given counts the reads answered from a copy.
func (s *StartCopies) Given() int {
	if s == nil {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.given
}

// take gives the copy of key, once, within the window after the start and
// before the service has answered the source.
func (s *StartCopies) take(key string) (StartCopy, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.give[key]
	if !ok {
		return c, false
	}
	delete(s.give, key)
	if s.served || s.now().Sub(s.start) > s.window {
		clear(s.give)
		return c, false
	}
	s.given++
	return c, true
}

// keep records the answer to a read of the source: a read already kept
// takes the newer answer; a new one is kept while the window is open and
// the bodies fit.
func (s *StartCopies) keep(ctx context.Context, key string, data []byte) {
	// The answer decoded before it is offered: it is not checked again
	// here (a copy is decoded anew when given, and passed over when it no
	// longer decodes).
	if src, _ := ctx.Value(sourceKey{}).(string); src != s.source {
		return
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.served = true
	if i, ok := s.keptAt[key]; ok {
		if s.bytes-len(s.kept[i].Data)+len(data) <= s.maxBytes {
			s.bytes += len(data) - len(s.kept[i].Data)
			s.kept[i] = StartCopy{Key: key, At: now, Data: append(json.RawMessage(nil), data...)}
		}
		return
	}
	if now.Sub(s.start) > s.window || s.bytes+len(data) > s.maxBytes {
		return
	}
	s.keptAt[key] = len(s.kept)
	s.kept = append(s.kept, StartCopy{Key: key, At: now, Data: append(json.RawMessage(nil), data...)})
	s.bytes += len(data)
}

// UseStartCopies answers the reads it holds copies of from them and keeps
// its source's answers (nil: none).
func (c *Client) UseStartCopies(s *StartCopies) { c.copies.Store(s) }

// StartCopies is what UseStartCopies set.
func (c *Client) StartCopies() *StartCopies { return c.copies.Load() }

// CopyMark records that a read made with its context was answered from a
// start copy, and the oldest such copy's time.
type CopyMark struct {
	mu sync.Mutex
	at time.Time
}

type copyMarkKey struct{}

// WithCopyMark returns ctx carrying a new mark.
func WithCopyMark(ctx context.Context) (context.Context, *CopyMark) {
	m := &CopyMark{}
	return context.WithValue(ctx, copyMarkKey{}, m), m
}

// At is the time of the oldest copy that answered a read made with the
// mark's context; zero when the service answered them all.
func (m *CopyMark) At() time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.at
}

func (m *CopyMark) note(at time.Time) {
	m.mu.Lock()
	if m.at.IsZero() || at.Before(m.at) {
		m.at = at
	}
	m.mu.Unlock()
}

// fromStartCopy answers a read from a start copy when there is one that
// decodes into out.
func (c *Client) fromStartCopy(ctx context.Context, op catalog.Op, key string, envelope bool, out any) (*Response, bool) {
	s := c.StartCopies()
	if s == nil {
		return nil, false
	}
	cp, ok := s.take(key)
	if !ok || decode(op, cp.Data, envelope, out) != nil {
		return nil, false
	}
	if m, ok := ctx.Value(copyMarkKey{}).(*CopyMark); ok {
		m.note(cp.At)
	}
	return &Response{StatusCode: http.StatusOK, Header: http.Header{}, RateLimitLimit: -1, RateLimitRemaining: -1}, true
}

// keepStartCopy offers a read's answer (2xx, decoded) to the start copies.
func (c *Client) keepStartCopy(ctx context.Context, key string, data []byte) {
	if s := c.StartCopies(); s != nil {
		s.keep(ctx, key, data)
	}
}
