package e2e

import (
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// oracleHost is the apisim the oracle's walks run against: served in the
// test's process on a stopped clock (the world does not move, so a seed
// replays the same screens), with a log of every write's method, path and
// body as apisim received it. A Mutant, when set, rewrites writes on their
// way in: the client the dashboard would be if it sent other than what its
// screen said (TestOracleCatchesAMutantClient).
type oracleHost struct {
	t      testing.TB
	Server *apisim.Server
	Clock  *apisim.ManualClock
	addr   string
	srv    *http.Server

	mu        sync.Mutex
	writes    []sentWrite
	inflight  int
	lastWrite time.Time
	// Mutant is set before the host serves and never changed.
	Mutant func(h *oracleHost, w *sentWrite) bool
}

// sentWrite is one write apisim received (after a Mutant, if any).
type sentWrite struct {
	Method, Path string
	Body         []byte
	Status       int
	Mutated      bool
}

func (w sentWrite) String() string {
	s := w.Method + " " + w.Path
	if len(w.Body) > 0 {
		s += " " + string(w.Body)
	}
	return s
}

// oracleEpoch is the stopped clock's time: a whole minute, so "now" read
// from the Date header (whole seconds) is the server's now exactly.
var oracleEpoch = time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)

func startOracleHost(t testing.TB, mutant func(*oracleHost, *sentWrite) bool) *oracleHost {
	t.Helper()
	clock := apisim.NewManualClock(oracleEpoch)
	srv, err := apisim.New(apisim.Options{Clock: clock})
	if err != nil {
		t.Fatalf("apisim: %v", err)
	}
	h := &oracleHost{t: t, Server: srv, Clock: clock, addr: FreeLoopbackAddr(t), Mutant: mutant}
	ln, err := net.Listen("tcp", h.addr)
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	h.srv = &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := h.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			t.Logf("serve: %v", err)
		}
	}()
	t.Cleanup(func() {
		_ = h.srv.Close()
		_ = srv.Close()
	})
	return h
}

func (h *oracleHost) URL() string { return "http://" + h.addr }

func (h *oracleHost) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	write := r.Method != http.MethodGet && r.Method != http.MethodHead &&
		strings.HasPrefix(r.URL.Path, "/api/atlas/v2/")
	if !write {
		h.Server.Handler().ServeHTTP(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	sw := sentWrite{Method: r.Method, Path: r.URL.Path, Body: body}
	h.mu.Lock()
	h.inflight++
	h.mu.Unlock()
	mutant := h.Mutant
	// An unsigned request is the digest challenge's first leg: it is sent
	// again, signed, and only that one is applied.
	signed := r.Header.Get("Authorization") != ""
	if mutant != nil && signed && mutant(h, &sw) {
		sw.Mutated = true
		r.URL.Path, r.URL.RawPath = sw.Path, ""
	}
	r.Body = io.NopCloser(bytes.NewReader(sw.Body))
	r.ContentLength = int64(len(sw.Body))
	rec := &apisim.StatusRecorder{ResponseWriter: w}
	h.Server.Handler().ServeHTTP(rec, r)
	sw.Status = rec.Status
	h.mu.Lock()
	h.inflight--
	if signed {
		h.writes = append(h.writes, sw)
	}
	h.lastWrite = time.Now()
	h.mu.Unlock()
}

// Writes are the signed writes received so far, from the nth on.
func (h *oracleHost) Writes(from int) []sentWrite {
	h.mu.Lock()
	defer h.mu.Unlock()
	if from >= len(h.writes) {
		return nil
	}
	return append([]sentWrite(nil), h.writes[from:]...)
}

// quiet waits until no write is in flight and none arrived for d, at most
// max; it reports whether that happened.
func (h *oracleHost) quiet(d, max time.Duration) bool {
	deadline := time.Now().Add(max)
	for {
		h.mu.Lock()
		ok := h.inflight == 0 && time.Since(h.lastWrite) >= d
		h.mu.Unlock()
		if ok {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// startOracleDashboard runs the dashboard against h as the demo's
// Organization Owner, in UTC (a typed date is read in the local zone).
func startOracleDashboard(t testing.TB, h *oracleHost, w, height int, args ...string) *Session {
	t.Helper()
	env := []string{"TZ=UTC", "MONGODB_ATLAS_PUBLIC_API_KEY=" + ownerKey, "MONGODB_ATLAS_PRIVATE_API_KEY=" + ownerSecret}
	return Start(t, w, height, env, append([]string{"--base-url", h.URL()}, args...)...)
}
