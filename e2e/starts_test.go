package e2e

import (
	"net/http"
	"strings"
	"testing"
	"time"

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
