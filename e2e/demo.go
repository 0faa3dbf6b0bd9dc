package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/icholy/digest"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// The demo's built-in Organization Owner key: the control API needs it, and
// the tests read the server's state as this identity whatever role the
// dashboard itself runs as.
const (
	ownerKey    = "org-owner"
	ownerSecret = "org-owner-secret"
)

// startWait bounds how long the program may take to draw its first screen.
const startWait = 15 * time.Second

// StartDemo runs the binary like Start with --demo, its embedded server on
// a free loopback port the test picked (--demo-listen), so the test can
// reach that server (DemoAPI, SimGet, SimRequests). args are the other
// flags. If another process takes the port between picking and binding,
// the program exits at once and StartDemo tries another port.
func StartDemo(t testing.TB, w, h int, env []string, args ...string) *Session {
	t.Helper()
	const attempts = 3
	for attempt := 1; ; attempt++ {
		addr := pickDemoAddr(t)
		s := Start(t, w, h, env, append([]string{"--demo", "--demo-listen", addr}, args...)...)
		// The dashboard draws only once the demo server listens; a failed
		// start ends the program without drawing.
		s.waitUntil(func(screen string) bool { return strings.TrimSpace(screen) != "" || !s.Alive() },
			startWait, "the program to draw or end")
		if s.Alive() {
			s.demoURL = "http://" + addr
			return s
		}
		out := s.Stderr()
		if attempt == attempts || !strings.Contains(out, "address already in use") {
			t.Fatalf("dbadmin-tui --demo --demo-listen %s did not start: %s", addr, out)
		}
		s.stderr = "" // the collision is not the program's fault; keep its cleanup quiet
	}
}

// pickDemoAddr is FreeLoopbackAddr; a test replaces it to force a collision.
var pickDemoAddr = FreeLoopbackAddr

// FreeLoopbackAddr returns 127.0.0.1:PORT with a port that was free a
// moment ago (the system picked it, and it was released for the caller).
func FreeLoopbackAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("find a free port: %v", err)
	}
	addr := ln.Addr().String()
	if err := ln.Close(); err != nil {
		t.Fatalf("find a free port: %v", err)
	}
	return addr
}

// DemoURL is the demo server's base URL (http://127.0.0.1:PORT).
func (s *Session) DemoURL() string {
	s.t.Helper()
	if s.demoURL == "" {
		s.t.Fatal("not a demo session: start it with StartDemo")
	}
	return s.demoURL
}

// DemoAPI is the project's client for the demo server as Organization
// Owner, with no retries so a failure shows at once.
func (s *Session) DemoAPI() *apiclient.Client {
	s.t.Helper()
	return ownerClient(s.t, s.DemoURL(), -1)
}

// ownerClient is the project's client for the server at base as
// Organization Owner, retrying maxRetries times (-1: never).
func ownerClient(t testing.TB, base string, maxRetries int) *apiclient.Client {
	t.Helper()
	c, err := apiclient.New(apiclient.Options{BaseURL: base, Service: "atlas", MaxRetries: maxRetries,
		Auth: apiclient.DigestAuth(ownerKey, ownerSecret)})
	if err != nil {
		t.Fatalf("client for %s: %v", base, err)
	}
	return c
}

// SimGet GETs a path of the demo server's control API (for example
// "/clock"; it lives under /api/atlas/sim, outside the client's catalog) as
// Organization Owner and decodes the JSON answer into out.
func (s *Session) SimGet(path string, out any) {
	s.t.Helper()
	hc := &http.Client{Timeout: 10 * time.Second,
		Transport: &digest.Transport{Username: ownerKey, Password: ownerSecret}}
	url := s.DemoURL() + "/api/atlas/sim" + path
	res, err := hc.Get(url)
	if err != nil {
		s.t.Fatalf("GET %s: %v", url, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		s.t.Fatalf("GET %s: %s %v: %s", url, res.Status, err, body)
	}
	if err := json.Unmarshal(body, out); err != nil {
		s.t.Fatalf("GET %s: %v: %s", url, err, body)
	}
}

// SimRequests is the demo server's log of recent requests, oldest first.
// The reads the test itself makes (as org-owner) are in it too.
func (s *Session) SimRequests() []apisim.RequestRecord {
	s.t.Helper()
	var log struct {
		Requests []apisim.RequestRecord `json:"requests"`
	}
	s.SimGet("/requests", &log)
	return log.Requests
}

// SimWrites counts the requests other than GET that reached the demo
// server's versioned API, whatever the answer, by "METHOD path", for paths
// containing pathPart ("" for all). An unsigned 401 is left out: it is the
// HTTP Digest challenge (a new or stale nonce), after which the client
// sends the same request again, signed.
func (s *Session) SimWrites(pathPart string) map[string]int {
	s.t.Helper()
	out := map[string]int{}
	for _, r := range s.SimRequests() {
		challenge := r.Status == http.StatusUnauthorized && r.Identity == ""
		if r.Method != http.MethodGet && !challenge && strings.HasPrefix(r.Path, "/api/atlas/v2/") &&
			strings.Contains(r.Path, pathPart) {
			out[fmt.Sprintf("%s %s", r.Method, r.Path)]++
		}
	}
	return out
}

// SimPut PUTs a JSON body to a path of the demo server's control API (for
// example "/faults") as Organization Owner.
func (s *Session) SimPut(path, body string) {
	s.t.Helper()
	hc := &http.Client{Timeout: 10 * time.Second,
		Transport: &digest.Transport{Username: ownerKey, Password: ownerSecret}}
	url := s.DemoURL() + "/api/atlas/sim" + path
	req, err := http.NewRequest(http.MethodPut, url, strings.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := hc.Do(req)
	if err != nil {
		s.t.Fatalf("PUT %s: %v", url, err)
	}
	defer res.Body.Close()
	if b, _ := io.ReadAll(res.Body); res.StatusCode != http.StatusOK {
		s.t.Fatalf("PUT %s: %s: %s", url, res.Status, b)
	}
}
