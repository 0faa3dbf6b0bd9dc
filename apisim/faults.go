package apisim

import (
	"context"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"
)

// Fault injection, so a client's retry and error paths can be exercised
// against a live server. Rate limits are in ratelimit.go.

// faultInjector draws from a seeded source so a fault pattern is repeatable
// for a given seed and request order.
type faultInjector struct {
	mu        sync.Mutex
	rng       *rand.Rand
	faultRate float64
	malformed float64
	// malformedWrites loses the next N successful write answers: a body is
	// truncated, a bodiless answer dropped with the connection
	// (faults_control.go).
	malformedWrites int
	// failWrites refuses the next N writes with an injected 503 before
	// they are applied (faults_control.go).
	failWrites int
}

func newFaultInjector(seed int64, fault, malformed float64) *faultInjector {
	return &faultInjector{rng: rand.New(rand.NewPCG(uint64(seed), 0x5eed)), faultRate: fault, malformed: malformed}
}

func (f *faultInjector) roll(p float64) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.rollLocked(p)
}

func (f *faultInjector) rollLocked(p float64) bool {
	if p <= 0 {
		return false
	}
	return f.rng.Float64() < p
}

// isWrite tells a write from a read.
func isWrite(method string) bool {
	return method != http.MethodGet && method != http.MethodHead && method != http.MethodOptions
}

// fault returns an injected 500 or 503, or nil; a write is refused while
// failWrites lasts.
func (f *faultInjector) fault(method string) *apiError {
	f.mu.Lock()
	if isWrite(method) && f.failWrites > 0 {
		f.failWrites--
		f.mu.Unlock()
		return newError(http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE", "Injected fault: service unavailable (nothing was applied).")
	}
	f.mu.Unlock()
	if !f.roll(f.faultRate) {
		return nil
	}
	if f.roll(0.5) {
		e := newError(http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE", "Injected fault: service unavailable.")
		e.Header = http.Header{"Retry-After": {"1"}}
		return e
	}
	return newError(http.StatusInternalServerError, "UNEXPECTED_ERROR", "Injected fault: unexpected error.")
}

// loseWrite uses up one of malformedWrites on a successful write's answer,
// whatever its body: it reports whether this answer is to be lost.
func (f *faultInjector) loseWrite(method string) bool {
	if !isWrite(method) {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.malformedWrites > 0 {
		f.malformedWrites--
		return true
	}
	return false
}

// malform truncates a body mid-way, as a dropped connection would: a lost
// write's answer (malformedWrites) always, others at the malformed rate. A
// lost answer too short to cut is dropped (dropAnswer) instead.
func (f *faultInjector) malform(w http.ResponseWriter, method string, b []byte) []byte {
	if f.loseWrite(method) {
		if len(b) < 2 {
			dropAnswer(w)
			return nil
		}
		return b[:len(b)/2]
	}
	if len(b) < 2 || !f.roll(f.malformed) {
		return b
	}
	return b[:len(b)/2]
}

// loseBodiless is malformedWrites for a write answered without a body (a
// cut-over's 202, a DELETE's 204), which cannot be truncated: the write has
// been applied, and the connection is dropped before the status line, so
// the client gets no answer at all and the outcome is unknown to it. It
// reports whether the answer was dropped; the caller then writes nothing.
func (f *faultInjector) loseBodiless(w http.ResponseWriter, method string) bool {
	if !f.loseWrite(method) {
		return false
	}
	dropAnswer(w)
	return true
}

// dropAnswer closes the connection without a byte of answer. Where the
// connection cannot be taken over (HTTP/2, a test's recorder) the handler
// is aborted instead, which net/http turns into a dropped connection or a
// reset stream; logged records the request either way.
func dropAnswer(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	_ = conn.Close()
}

// RequestRecord is one line of the request log the control API serves.
type RequestRecord struct {
	Time       time.Time `json:"time"`
	Method     string    `json:"method"`
	Path       string    `json:"path"`
	Identity   string    `json:"identity"`
	Status     int       `json:"status"`
	DurationMS float64   `json:"durationMs"`
}

type requestLog struct {
	mu   sync.Mutex
	buf  []RequestRecord
	next int
	full bool
}

func newRequestLog(n int) *requestLog { return &requestLog{buf: make([]RequestRecord, n)} }

func (l *requestLog) add(r RequestRecord) {
	l.mu.Lock()
	l.buf[l.next] = r
	l.next = (l.next + 1) % len(l.buf)
	if l.next == 0 {
		l.full = true
	}
	l.mu.Unlock()
}

// recent returns the records oldest first.
func (l *requestLog) recent() []RequestRecord {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []RequestRecord
	if l.full {
		out = append(out, l.buf[l.next:]...)
	}
	return append(out, l.buf[:l.next]...)
}

type logKey struct{}

// logEntry carries the identity from the auth step back to the logger.
type logEntry struct{ identity string }

func setIdentity(r *http.Request, pub string) {
	if e, ok := r.Context().Value(logKey{}).(*logEntry); ok {
		e.identity = pub
	}
}

// logged records every request and turns a handler panic into a 500 with
// the error body instead of a dropped connection.
func (s *Server) logged(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		entry := &logEntry{}
		r = r.WithContext(context.WithValue(r.Context(), logKey{}, entry))
		sw := &StatusRecorder{ResponseWriter: w}
		// Date is the world's clock, not the host's: clients track skew by it.
		w.Header().Set("Date", s.clock.Now().UTC().Format(http.TimeFormat))
		defer func() {
			p := recover()
			if p != nil && p != http.ErrAbortHandler && sw.Status == 0 {
				writeError(sw, newError(http.StatusInternalServerError, "UNEXPECTED_ERROR", "Unexpected error."), false)
			}
			// An answer dropped on purpose (dropAnswer) is logged with
			// status 0: the request arrived, no answer left.
			s.reqlog.add(RequestRecord{
				Time: s.clock.Now(), Method: r.Method, Path: r.URL.Path, Identity: entry.identity,
				Status: sw.Status, DurationMS: float64(time.Since(start).Microseconds()) / 1000,
			})
			if p == http.ErrAbortHandler {
				panic(p)
			}
		}()
		next.ServeHTTP(sw, r)
	})
}
