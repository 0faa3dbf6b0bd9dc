// Package viewstest is what the panes' tests share: apisim on a manual clock
// behind a request log (NewSim), a Context for a pane against it, drivers
// that stand in for the program and the root model (Driver for one pane,
// ModelDriver for a whole tea.Model, synchronous or live), key presses by
// name (Press) and golden screens under the repository root's testdata/
// (Golden, with -update).
//
// It is imported only by tests; nothing in the dashboard depends on it.
package viewstest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// Start is where every manual clock starts: a fixed instant (before the
// serverless sunset) so seeded times and golden screens are stable.
var Start = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// GateMode says whether a client gets an action gate, and what it knows.
type GateMode int

const (
	// NoGate: the client sends whatever it is asked to.
	NoGate GateMode = iota
	// GateUnknownRoles: the root's client before it connects; everything
	// is allowed until a 403 says no.
	GateUnknownRoles
	// GateWithRoles: the identity's roles learned from who-am-I and the
	// payments project's org known, as the root has them once connected.
	GateWithRoles
)

// SimOptions configures NewSim.
type SimOptions struct {
	// Identity is the demo identity of Sim.Client; "org-owner" when empty.
	Identity string
	// Clock is the server's clock; a new manual clock at Start when nil.
	Clock *apisim.ManualClock
	// Gate is Sim.Client's gate.
	Gate GateMode
}

// Sim is apisim on a manual clock behind a handler that logs every
// authenticated API request, so a test can prove what was, and what was
// not, sent.
type Sim struct {
	t      testing.TB
	Server *apisim.Server
	Clock  *apisim.ManualClock
	Client *apiclient.Client
	URL    string

	mu   sync.Mutex
	reqs []Request
	// intercept, when set, sees each logged request first and may answer
	// it itself, forwarding to the server or not (Intercept).
	intercept func(w http.ResponseWriter, r *http.Request, server http.Handler) bool
}

// Intercept puts f in front of the server for the logged requests (a lost
// answer, a clock that moves while an answer is held); f returns true when
// it answered. nil removes it.
func (s *Sim) Intercept(f func(w http.ResponseWriter, r *http.Request, server http.Handler) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.intercept = f
}

// FailReads answers the logged GETs whose path match accepts (nil: every
// one) with 503 SERVICE_UNAVAILABLE in the API's error body, as an outage
// does; the others reach the server. FailReads(nil) then Intercept(nil)
// ends it.
func (s *Sim) FailReads(match func(path string) bool) {
	s.Intercept(func(rw http.ResponseWriter, r *http.Request, _ http.Handler) bool {
		if r.Method != http.MethodGet || (match != nil && !match(r.URL.Path)) {
			return false
		}
		rw.Header().Set("Content-Type", "application/json")
		rw.WriteHeader(http.StatusServiceUnavailable)
		_, _ = rw.Write([]byte(`{"error":503,"errorCode":"SERVICE_UNAVAILABLE","detail":"try later","reason":"Service Unavailable"}`))
		return true
	})
}

// Request is one authenticated API request that reached the server (the
// token endpoints and the control API are not logged).
type Request struct {
	Method, Path, Query string
}

// String is "METHOD /path".
func (r Request) String() string { return r.Method + " " + r.Path }

// NewSim starts a seeded simulator for the test and a client to it; both
// are closed when the test ends.
func NewSim(t testing.TB, o SimOptions) *Sim {
	t.Helper()
	if o.Clock == nil {
		o.Clock = apisim.NewManualClock(Start)
	}
	if o.Identity == "" {
		o.Identity = "org-owner"
	}
	// The manual clock stands still unless a test moves it, so no bucket
	// would ever refill: every endpoint set gets more tokens than a test
	// uses. The rate limits are tested on the wall clock (apisim,
	// apiclient's scheduler tests, e2e).
	srv, err := apisim.New(apisim.Options{Clock: o.Clock, RateLimitPerMin: 1 << 30})
	require.NoError(t, err)
	s := &Sim{t: t, Server: srv, Clock: o.Clock}
	h := srv.Handler()
	ts := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		// The digest handshake's first, unauthenticated try is not a request
		// the client chose to make; neither are tokens and control calls.
		if r.Header.Get("Authorization") != "" && !strings.HasPrefix(r.URL.Path, "/api/oauth/") &&
			!strings.HasPrefix(r.URL.Path, "/api/atlas/sim/") {
			s.mu.Lock()
			s.reqs = append(s.reqs, Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery})
			f := s.intercept
			s.mu.Unlock()
			if f != nil && f(rw, r, h) {
				return
			}
		}
		h.ServeHTTP(rw, r)
	}))
	t.Cleanup(func() { ts.Close(); _ = srv.Close() })
	s.URL = ts.URL
	s.Client = s.ClientAs(o.Identity, o.Gate)
	return s
}

// ClientAs is another client to the same server, as a demo identity (its
// private key is "<identity>-secret"). Retries are off: a test sees the
// server's first answer.
func (s *Sim) ClientAs(identity string, gate GateMode) *apiclient.Client {
	s.t.Helper()
	o := apiclient.Options{BaseURL: s.URL, Service: "atlas",
		Auth: apiclient.DigestAuth(identity, identity+"-secret"), MaxRetries: -1}
	if gate != NoGate {
		o.Gate = apiclient.NewGate(nil)
	}
	c, err := apiclient.New(o)
	require.NoError(s.t, err)
	if gate == GateWithRoles {
		who, err := c.WhoAmI(context.Background())
		require.NoError(s.t, err)
		c.Gate().SetRoles(who.APIKey.Roles)
		c.Gate().SetProjectOrg(apisim.DemoPaymentsID, apisim.DemoOrgID)
	}
	return c
}

// Context is what the root hands a pane for the demo org's payments
// project through Sim.Client: mono theme, the default keys of the panes
// given (the pane under test's Registration), the manual clock and the
// default poll intervals; the manual clock is the wall clock too. Layout is narrow and no cluster is selected;
// tests set what their pane needs.
func (s *Sim) Context(panes ...views.Registration) views.Context {
	return views.Context{
		Client: s.Client, Gate: s.Client.Gate(), Theme: themes.MustGet(themes.Mono), Keys: views.Registry(panes).Keymap(),
		Clock: s.Clock.Now, Wall: s.Clock.Now, OrgID: apisim.DemoOrgID, OrgName: "Demo-Org",
		GroupID: apisim.DemoPaymentsID, ProjectName: "payments",
		Poll:  views.DefaultPoll.WithDefaults(views.Registry(panes).PollDefaults()),
		Timer: Timer,
	}
}

// Requests is every logged request so far, oldest first.
func (s *Sim) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Mark is where the log stands now, for RequestsSince and WritesSince.
func (s *Sim) Mark() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.reqs)
}

// RequestsSince lists the requests after mark as "METHOD /path".
func (s *Sim) RequestsSince(mark int) []string {
	var out []string
	for _, r := range s.Requests()[mark:] {
		out = append(out, r.String())
	}
	return out
}

// WritesSince lists the mutating (non-GET) requests after mark as
// "METHOD /path".
func (s *Sim) WritesSince(mark int) []string {
	var out []string
	for _, r := range s.Requests()[mark:] {
		if r.Method != http.MethodGet {
			out = append(out, r.String())
		}
	}
	return out
}

// Writes lists every mutating request so far as "METHOD /path".
func (s *Sim) Writes() []string { return s.WritesSince(0) }

// Count is how many requests' "path?query" contain part.
func (s *Sim) Count(part string) int {
	n := 0
	for _, r := range s.Requests() {
		if strings.Contains(r.Path+"?"+r.Query, part) {
			n++
		}
	}
	return n
}

// Control calls the simulator's control API (path below /api/atlas/sim) as
// the demo service account, an Organization Owner, with a fresh token each
// time (the manual clock may have moved past the last one's hour). It
// fails the test unless the answer is a 2xx JSON object, and returns it.
func (s *Sim) Control(method, path, body string) map[string]any {
	s.t.Helper()
	treq, err := http.NewRequest(http.MethodPost, s.URL+"/api/oauth/token", strings.NewReader("grant_type=client_credentials"))
	require.NoError(s.t, err)
	treq.SetBasicAuth("demo-sa", "demo-sa-secret")
	treq.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	tres, err := http.DefaultClient.Do(treq)
	require.NoError(s.t, err)
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	err = json.NewDecoder(tres.Body).Decode(&tok)
	tres.Body.Close()
	require.NoError(s.t, err)
	req, err := http.NewRequest(method, s.URL+"/api/atlas/sim"+path, strings.NewReader(body))
	require.NoError(s.t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	res, err := http.DefaultClient.Do(req)
	require.NoError(s.t, err)
	defer res.Body.Close()
	var out map[string]any
	require.NoError(s.t, json.NewDecoder(res.Body).Decode(&out))
	require.Less(s.t, res.StatusCode, 300, "%s %s: %v", method, path, out)
	return out
}
