package apisim

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
)

// Options configure a Server. The zero value is a usable demo server.
type Options struct {
	Service       string  // path segment after /api/; default "atlas"
	Seed          int64   // world seed; default 1
	Clock         Clock   // default: the wall clock scaled by Speed
	Speed         float64 // default 1
	Latency       time.Duration
	FaultRate     float64 // share of API calls answered 500/503
	MalformedRate float64 // share of successful bodies truncated
	// RateLimitPerMin, when set, makes every endpoint set refill that many
	// tokens a minute per scope, with that capacity; RateLimits sets single
	// endpoint sets (by id) and wins over it. Otherwise the default sets apply.
	RateLimitPerMin int
	RateLimits      map[string]RateLimit
	StateFile       string // load at start, save on change and on Close
	StateMaxBytes   int64  // refuse a larger state file; default DefaultStateMaxBytes
	DigestSHA256    bool   // offer (and accept) digest SHA-256 instead of the service's MD5
	Identities      []Identity
	// Orgs and Projects size the seeded world (orgchart.go); zero means
	// the demo's DefaultOrgs and DefaultProjects.
	Orgs, Projects int
	// HTTP limits of Start's server; zero means the Default* constant.
	ReadHeaderTimeout time.Duration
	ReadTimeout       time.Duration
	WriteTimeout      time.Duration
	IdleTimeout       time.Duration
	MaxHeaderBytes    int
}

// Server is the local Administration API.
type Server struct {
	opts    Options
	service string
	clock   Clock
	idents  map[string]*Identity
	builtin bool

	mu    sync.Mutex // guards world
	world *World

	digest  *digestAuth
	tokens  *tokenStore
	limiter *tokenBuckets
	faults  *faultInjector
	reqlog  *requestLog
	persist *persister
	hooks   webhookOutbox

	mux     *http.ServeMux
	handler http.Handler

	srvMu   sync.Mutex
	httpSrv *http.Server
	closed  bool
}

// New builds a server: the world from the state file or the seed, the routes
// from the catalog.
func New(opts Options) (*Server, error) {
	if opts.Service == "" {
		opts.Service = "atlas"
	}
	if strings.ContainsAny(opts.Service, "/{} ") {
		return nil, fmt.Errorf("service %q: must be a single path segment", opts.Service)
	}
	if opts.Seed == 0 {
		opts.Seed = 1
	}
	if opts.Speed == 0 {
		opts.Speed = 1
	}
	if opts.Speed < 0 {
		return nil, fmt.Errorf("speed must be positive, got %v", opts.Speed)
	}
	if opts.FaultRate < 0 || opts.FaultRate > 1 || opts.MalformedRate < 0 || opts.MalformedRate > 1 {
		return nil, fmt.Errorf("fault and malformed rates must be between 0 and 1")
	}
	if opts.RateLimitPerMin < 0 || opts.Latency < 0 {
		return nil, fmt.Errorf("rate limit and latency must not be negative")
	}
	if opts.Clock == nil {
		opts.Clock = newScaledClock(opts.Speed)
	}
	var err error
	s := &Server{opts: opts, service: opts.Service, clock: opts.Clock, idents: map[string]*Identity{}}
	ids := opts.Identities
	if ids == nil {
		ids, s.builtin = demoIdentitiesFor(opts.Orgs, opts.Projects), true
	} else if err := validateIdentities(ids); err != nil {
		return nil, err
	}
	for i := range ids {
		id := ids[i]
		s.idents[id.PublicKey] = &id
	}
	s.digest = newDigestAuth(s.clock, opts.DigestSHA256)
	s.tokens = newTokenStore(s.clock)
	if s.limiter, err = newTokenBuckets(s.clock, s.service, opts.RateLimitPerMin, opts.RateLimits); err != nil {
		return nil, err
	}
	s.faults = newFaultInjector(opts.Seed, opts.FaultRate, opts.MalformedRate)
	s.reqlog = newRequestLog(500)

	if opts.StateFile != "" {
		var saved time.Time
		s.world, saved, err = loadState(opts.StateFile, opts.StateMaxBytes)
		if err != nil {
			return nil, err
		}
		// The world goes on from the time it was saved at (clock.go).
		if r, ok := s.clock.(resumer); ok && !saved.IsZero() {
			r.resume(saved)
		}
	}
	seeded := s.world == nil
	if seeded {
		s.world = seedWorld(opts.Seed, s.clock.Now())
		orgChart(s.world, opts.Seed, s.clock.Now(), opts.Orgs, opts.Projects)
	}
	s.world.identities = s.idents
	if opts.StateFile != "" {
		s.persist = newPersister(opts.StateFile, s.snapshotState)
		if seeded {
			// A new state file is written at once: a crash before the first
			// change then restarts from the same world, and a path that
			// cannot be written is an error now, not at exit.
			if err := s.persist.save(); err != nil {
				return nil, err
			}
		}
	}
	if err := s.routes(); err != nil {
		return nil, err
	}
	return s, nil
}

// Handler is the whole server as an http.Handler, for httptest or embedding.
func (s *Server) Handler() http.Handler { return s.handler }

// UsesBuiltinIdentities reports whether the demo keys are in use; such a
// server must only listen on loopback.
func (s *Server) UsesBuiltinIdentities() bool { return s.builtin }

// Start listens on addr and serves in the background. It refuses a
// non-loopback address while the built-in demo keys are in use, since their
// secrets are public.
func (s *Server) Start(addr string) (string, error) {
	if addr == "" {
		addr = "127.0.0.1:8484"
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("address %q: %w", addr, err)
	}
	if s.builtin && !isLoopback(host) {
		return "", fmt.Errorf("address %s is not loopback: the built-in demo keys are public, pass your own identities (--keys) to listen there", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("listen: %w", err)
	}
	srv := s.newHTTPServer()
	s.srvMu.Lock()
	s.httpSrv = srv
	s.srvMu.Unlock()
	go func() { _ = srv.Serve(shapedListener{ln}) }()
	return "http://" + ln.Addr().String(), nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Close stops serving (letting requests in flight finish) and saves state.
func (s *Server) Close() error {
	s.srvMu.Lock()
	if s.closed {
		s.srvMu.Unlock()
		return nil
	}
	s.closed = true
	s.limiter.close()
	srv := s.httpSrv
	s.srvMu.Unlock()
	var errs []error
	if srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if err := srv.Shutdown(ctx); err != nil {
			errs = append(errs, fmt.Errorf("shutdown: %w", err))
		}
		cancel()
	}
	if s.persist != nil {
		if err := s.persist.close(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Now is the server's clock reading.
func (s *Server) Now() time.Time { return s.clock.Now() }

func (s *Server) identity(pub string) *Identity { return s.idents[pub] }

// WorldInfo names the seeded world's main ids, for tests and demos.
type WorldInfo struct {
	OrgID    string
	Projects map[string]string // name -> id
	Clusters map[string]string // "project/cluster" -> kind
}

// World describes the current world.
func (s *Server) World() WorldInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	info := WorldInfo{OrgID: s.world.Org.ID, Projects: map[string]string{}, Clusters: map[string]string{}}
	for _, p := range s.world.Projects {
		info.Projects[p.Name] = p.ID
		for _, c := range s.world.Clusters {
			if c.GroupID == p.ID {
				info.Clusters[p.Name+"/"+c.Name] = c.Kind
			}
		}
	}
	return info
}

// routes registers every catalog operation plus the token endpoints and the
// control API.
func (s *Server) routes() error {
	mux := http.NewServeMux()
	for _, op := range catalog.Served() {
		h, ok := opHandlers[op.ID]
		if !ok && op.Source != "" {
			h, ok = opHandlers[op.Source] // a v1.0 copy runs the v2 handler
		}
		if !ok {
			return fmt.Errorf("apisim: no handler for operation %s", op.ID)
		}
		mux.Handle(op.Pattern(s.service), s.serveOp(op, h))
	}
	mux.HandleFunc("POST /api/oauth/token", s.handleToken)
	mux.HandleFunc("POST /api/oauth/revoke", s.handleRevoke)
	s.controlRoutes(mux)
	s.mux = mux
	s.handler = s.logged(http.HandlerFunc(s.dispatch))
	return nil
}

// dispatch answers unknown paths and wrong methods with the error body,
// which ServeMux alone would answer in plain text.
func (s *Server) dispatch(w http.ResponseWriter, r *http.Request) {
	if _, pattern := s.mux.Handler(r); pattern != "" {
		s.mux.ServeHTTP(w, r)
		return
	}
	probe := &headerProbe{h: http.Header{}}
	h, _ := s.mux.Handler(r)
	h.ServeHTTP(probe, r)
	if probe.status == http.StatusMethodNotAllowed {
		e := newError(http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED", "%s is not allowed on %s.", r.Method, r.URL.Path)
		e.Header = http.Header{"Allow": probe.h.Values("Allow")}
		writeError(w, e, false)
		return
	}
	writeError(w, newError(http.StatusNotFound, "RESOURCE_NOT_FOUND", "Cannot find resource %s.", r.URL.Path), false)
}

// headerProbe records what ServeMux's own 404/405 handler would send.
type headerProbe struct {
	h      http.Header
	status int
}

func (p *headerProbe) Header() http.Header         { return p.h }
func (p *headerProbe) Write(b []byte) (int, error) { return len(b), nil }
func (p *headerProbe) WriteHeader(code int)        { p.status = code }
