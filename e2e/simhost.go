package e2e

import (
	"errors"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// SimHost is an apisim server in the test's own process, on a loopback
// port, for a dashboard started with --base-url (StartAgainst): the test
// builds its world directly (AddAlerts), keeps a log of every request that
// nothing trims (Log), and can take the server off the network and bring it
// back on the same address with its state (Stop, Restart), as a server
// outage looks to the dashboard.
type SimHost struct {
	t      testing.TB
	Server *apisim.Server
	addr   string

	mu    sync.Mutex
	srv   *http.Server
	log   []Hit
	start time.Time
}

// Hit is one request the server answered.
type Hit struct {
	At     time.Duration // since the host started
	Method string
	Path   string
	Status int
}

// StartSimHost builds apisim with opts and serves it on a free loopback
// port until the test ends.
func StartSimHost(t testing.TB, opts apisim.Options) *SimHost {
	t.Helper()
	srv, err := apisim.New(opts)
	if err != nil {
		t.Fatalf("apisim: %v", err)
	}
	h := &SimHost{t: t, Server: srv, addr: FreeLoopbackAddr(t), start: time.Now()}
	h.Restart()
	t.Cleanup(func() {
		h.Stop()
		_ = srv.Close()
	})
	return h
}

// URL is the server's base URL.
func (h *SimHost) URL() string { return "http://" + h.addr }

// ServeHTTP logs the request and passes it to apisim.
func (h *SimHost) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	sw := &apisim.StatusRecorder{ResponseWriter: w}
	h.Server.Handler().ServeHTTP(sw, r)
	h.mu.Lock()
	h.log = append(h.log, Hit{At: time.Since(h.start), Method: r.Method, Path: r.URL.Path, Status: sw.Status})
	h.mu.Unlock()
}

// Stop takes the server off the network: the port refuses connections and
// open ones are closed.
func (h *SimHost) Stop() {
	h.mu.Lock()
	srv := h.srv
	h.srv = nil
	h.mu.Unlock()
	if srv != nil {
		_ = srv.Close()
	}
}

// Restart serves again on the same address (retrying while the port is
// still being released).
func (h *SimHost) Restart() {
	h.t.Helper()
	var ln net.Listener
	var err error
	for range 50 {
		if ln, err = net.Listen("tcp", h.addr); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		h.t.Fatalf("listen on %s again: %v", h.addr, err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	h.mu.Lock()
	h.srv = srv
	h.mu.Unlock()
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			h.t.Logf("serve: %v", err)
		}
	}()
}

// Log is every request answered so far, in order.
func (h *SimHost) Log() []Hit {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Hit(nil), h.log...)
}

// Hits are the answered requests whose method is method and whose path
// contains every part.
func (h *SimHost) Hits(method string, parts ...string) []Hit {
	var out []Hit
	for _, x := range h.Log() {
		ok := x.Method == method
		for _, p := range parts {
			ok = ok && strings.Contains(x.Path, p)
		}
		if ok {
			out = append(out, x)
		}
	}
	return out
}

// StartAgainst runs the dashboard against h as the demo's Organization
// Owner (API keys in the environment), with args added.
func StartAgainst(t testing.TB, h *SimHost, w, height int, args ...string) *Session {
	t.Helper()
	env := []string{"MONGODB_ATLAS_PUBLIC_API_KEY=" + ownerKey, "MONGODB_ATLAS_PRIVATE_API_KEY=" + ownerSecret}
	return Start(t, w, height, env, append([]string{"--base-url", h.URL()}, args...)...)
}
