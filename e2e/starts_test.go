package e2e

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// accountReads are the requests that draw from the account's tightest
// bucket (10 tokens, 5 a minute, as the service documents for /orgs): who
// the caller is, the organization list, the project list.
func accountReads(h *SimHost) (n int) {
	for _, x := range h.Log() {
		if x.Method == http.MethodGet && (x.Path == "/api/atlas/v2" || x.Path == "/api/atlas/v2/orgs" || x.Path == "/api/atlas/v2/groups") {
			n++
		}
	}
	return n
}

// TestTenStartsInAMinute starts the real binary ten times in a row against
// one apisim with its default budgets, as a user who quits and comes back
// (the same cache and state directories): each start has alert rows on
// screen within 2 s, the starts after the first draw the organization tree
// from the cache and say so ("cached … ago"), the account's tightest
// bucket is spent by the first start only, and apisim answers no request
// 429.
func TestTenStartsInAMinute(t *testing.T) {
	RequireTmux(t)
	h := StartSimHost(t, apisim.Options{})
	Binary(t)
	home := t.TempDir()
	env := []string{"MONGODB_ATLAS_PUBLIC_API_KEY=" + ownerKey, "MONGODB_ATLAS_PRIVATE_API_KEY=" + ownerSecret,
		"XDG_STATE_HOME=" + home, "XDG_CACHE_HOME=" + home}
	begin := time.Now()
	var afterFirst int
	for i := range 10 {
		start := time.Now()
		s := Start(t, 120, 30, env, "--base-url", h.URL(), "--pane", "alerts")
		screen := s.waitUntil(func(sc string) bool { return strings.Contains(sc, "▸  OPEN") }, 10*time.Second, "alert rows")
		took := time.Since(start)
		t.Logf("start %d: alert rows after %v", i+1, took.Round(time.Millisecond))
		if took > 2*time.Second {
			t.Errorf("start %d: alert rows after %v, want within 2 s", i+1, took.Round(time.Millisecond))
		}
		if i > 0 && !strings.Contains(screen, "cached") {
			t.Errorf("start %d: the header does not say the tree came from the cache:\n%s", i+1, screen)
		}
		if i == 0 {
			afterFirst = accountReads(h)
		}
		s.SendKeys("q")
		s.WaitExit(wait)
	}
	if el := time.Since(begin); el > time.Minute {
		t.Errorf("ten starts took %v, more than a minute", el.Round(time.Millisecond))
	}
	var limited int
	for _, x := range h.Log() {
		if x.Status == http.StatusTooManyRequests {
			limited++
			t.Errorf("429 for %s %s at %v", x.Method, x.Path, x.At)
		}
	}
	if n := accountReads(h); n != afterFirst {
		t.Errorf("the nine starts after the first asked who the caller is or for the org/project lists %d times; want none (the cache is under two minutes old)", n-afterFirst)
	}
	t.Logf("ten starts in %v: %d requests, %d answered 429, %d account reads (all by the first start)", time.Since(begin).Round(time.Millisecond), len(h.Log()), limited, accountReads(h))
}

// TestStartDrawsTheLastScreenFromTheCache: a start draws its first screen
// from what the last start read, says how old it is, and checks it with
// the service at once; with the service gone the rows stay, marked stale.
//
//  1. A first start reads the alerts and quits.
//  2. Someone else acknowledges an open alert (the service's state moves on
//     from what the cache holds).
//  3. The second start shows the rows before any alert read reaches the
//     server ("cached … ago · checking", the old acknowledged count), then
//     reads the alerts in full and shows the acknowledgement.
//  4. With the server gone, a third start still has its rows on screen
//     within 2 s, said to be cached, then stale; `r` once the server is
//     back brings it up to date.
func TestStartDrawsTheLastScreenFromTheCache(t *testing.T) {
	RequireTmux(t)
	// Each answer takes 400 ms: the check of a cached screen cannot
	// answer before the screen is read.
	h := StartSimHost(t, apisim.Options{Latency: 400 * time.Millisecond})
	Binary(t)
	home := t.TempDir()
	env := []string{"MONGODB_ATLAS_PUBLIC_API_KEY=" + ownerKey, "MONGODB_ATLAS_PRIVATE_API_KEY=" + ownerSecret,
		"XDG_STATE_HOME=" + home, "XDG_CACHE_HOME=" + home}
	args := []string{"--base-url", h.URL(), "--pane", "alerts"}

	s := Start(t, 120, 30, env, args...)
	first := s.waitUntil(func(sc string) bool { return openSummary.MatchString(sc) && strings.Contains(sc, "updated") }, 20*time.Second, "alert rows")
	acked := openSummary.FindStringSubmatch(first)[2]
	s.SendKeys("q")
	s.WaitExit(wait)

	// Someone else acknowledges an alert that is open and not acknowledged.
	c, err := apiclient.New(apiclient.Options{BaseURL: h.URL(), Auth: apiclient.DigestAuth(ownerKey, ownerSecret), MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	open, err := c.Alerts().ListAll(ctx, apisim.DemoPaymentsID, apiclient.AlertOpen)
	if err != nil {
		t.Fatal(err)
	}
	var target string
	for _, a := range open {
		if a.AcknowledgedUntil == nil {
			target = a.ID
			break
		}
	}
	if target == "" {
		t.Fatal("no open alert without an acknowledgement in the demo world")
	}
	until := time.Now().Add(time.Hour)
	if _, err := c.Alerts().Acknowledge(ctx, apisim.DemoPaymentsID, target, apiclient.AcknowledgeRequest{AcknowledgedUntil: &until, AcknowledgementComment: "by a teammate"}); err != nil {
		t.Fatal(err)
	}
	reads := len(h.Hits("GET", "/alerts"))

	start := time.Now()
	s = Start(t, 120, 30, env, args...)
	cached := s.waitUntil(func(sc string) bool { return openSummary.MatchString(sc) }, 10*time.Second, "alert rows")
	took := time.Since(start)
	if !strings.Contains(cached, "· checking") || openSummary.FindStringSubmatch(cached)[2] != acked {
		t.Errorf("the first screen is not the cached one (acknowledged %s, said cached and checking):\n%s", acked, cached)
	}
	if took > 2*time.Second {
		t.Errorf("rows after %v, want within 2 s", took.Round(time.Millisecond))
	}
	checked := s.waitUntil(func(sc string) bool {
		m := openSummary.FindStringSubmatch(sc)
		return m != nil && m[2] != acked && strings.Contains(sc, "updated")
	}, 10*time.Second, "the acknowledgement made meanwhile, read from the service")
	if strings.Contains(checked, "checking") {
		t.Errorf("still checking once the service answered:\n%s", checked)
	}
	if len(h.Hits("GET", "/alerts")) <= reads {
		t.Errorf("the cached screen was not checked with the service")
	}
	s.SendKeys("q")
	s.WaitExit(wait)

	h.Stop()
	start = time.Now()
	s = Start(t, 120, 30, env, args...)
	screen := s.waitUntil(func(sc string) bool { return openSummary.MatchString(sc) && strings.Contains(sc, "cached") }, 10*time.Second, "cached alert rows with the server gone")
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("rows with the server gone after %v, want within 2 s", took.Round(time.Millisecond))
	}
	if !strings.Contains(screen, "OPEN") {
		t.Errorf("no alert rows:\n%s", screen)
	}
	s.waitUntil(func(sc string) bool { return strings.Contains(sc, "✗ stale") && openSummary.MatchString(sc) }, 30*time.Second, "the rows kept, marked stale")
	h.Restart()
	s.SendKeys("r")
	s.waitUntil(func(sc string) bool { return strings.Contains(sc, "updated") && !strings.Contains(sc, "✗ stale") }, 30*time.Second, "up to date once the server is back")
	s.SendKeys("q")
	s.WaitExit(wait)
}

// openSummary is the alerts pane's count line: "172 alerts · 38 open (5
// acknowledged)".
var openSummary = regexp.MustCompile(`(\d+) open \((\d+) acknowledged\)`)
