package ui

import (
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

// TestStartSaysWhatItWaitsFor: when the last start left who-am-I's bucket
// empty, the connecting screen names the call and the time it goes
// ("waiting for GET / (who am I): keeping to the rate limit until
// 13:42:10"), not a bare "Connecting to …".
func TestStartSaysWhatItWaitsFor(t *testing.T) {
	api := newFakeAPI(t, orgOwner())
	m := newModel(t, api, nil)
	now := time.Now()
	m.client.Scheduler().Restore(apiclient.SchedulerState{Buckets: map[string]apiclient.BucketState{
		"getSystemStatus||": {Limit: apiclient.RateLimitValues{Capacity: 10, RefillRate: 5, RefillSeconds: 60}, Exact: true, Tokens: 0, At: now},
	}})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	go m.connect()() // waits for the refill; the test does not
	deadline := time.Now().Add(5 * time.Second)
	for len(m.client.Scheduler().Waiting()) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("who-am-I never waited for its bucket")
		}
		time.Sleep(10 * time.Millisecond)
	}
	screen := ansi.Strip(m.View().Content)
	if !strings.Contains(screen, "waiting for GET / (who am I): keeping to the rate limit until ") {
		t.Fatalf("the connecting screen does not say what it waits for:\n%s", screen)
	}
}

var heldBy429 = regexp.MustCompile(`waiting for GET /(orgs|groups|groups/[0-9a-f]{24}/\w+): rate limited until \d\d:\d\d:\d\d`)

// TestStartSaysWhenA429HoldsIt: every list of the start is answered 429
// with Retry-After: 20; while the retry waits, the connecting screen says
// so ("waiting for GET /orgs: rate limited until 13:42:10"), not a bare
// "Connecting to …" (issue 24 case 8).
func TestStartSaysWhenA429HoldsIt(t *testing.T) {
	api := newFakeAPI(t, orgOwner())
	api.limited.Store(true)
	m := newModel(t, api, func(o *Options) {
		c, err := apiclient.New(apiclient.Options{BaseURL: api.srv.URL, Gate: apiclient.NewGate(nil)})
		if err != nil {
			t.Fatal(err)
		}
		o.Client = c // retries, as the dashboard's client does
	})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	go m.connect()()
	deadline := time.Now().Add(5 * time.Second)
	for {
		screen := ansi.Strip(m.View().Content)
		if heldBy429.MatchString(screen) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the connecting screen does not say what holds the start:\n%s", screen)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
