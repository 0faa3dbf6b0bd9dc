package apiclient_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// unauthorizedCounter counts what a handler answers 401, by whether the
// request carried a digest answer (a refused answer: stale, replayed or
// wrong) or nothing (the unsigned first try that fetches a challenge).
type unauthorizedCounter struct {
	all, signed, refused, challenged atomic.Int64
}

func (c *unauthorizedCounter) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &apisim.StatusRecorder{ResponseWriter: w}
		h.ServeHTTP(rec, r)
		c.all.Add(1)
		signed := r.Header.Get("Authorization") != ""
		if signed {
			c.signed.Add(1)
		}
		if rec.Status == http.StatusUnauthorized {
			if signed {
				c.refused.Add(1)
			} else {
				c.challenged.Add(1)
			}
		}
	})
}

// TestDigestAtHighConcurrency: 5,000 reads from 1,000 goroutines at once
// (each on a project, so a rate-limit bucket, of its own) through one client,
// against apisim's strict nonce checks (each count used once, a window of
// counts, five-minute nonces), with a little latency so requests overlap.
// Every read succeeds, no signed request is refused (STALE_NONCE,
// NONCE_REPLAYED), and the unsigned tries that fetch a challenge stay a
// handful: one per connection lane, under 1 % of the requests. Six minutes
// later every nonce is stale: each lane meets it once and carries on with
// the new challenge, and no read fails.
func TestDigestAtHighConcurrency(t *testing.T) {
	clock := apisim.NewManualClock(time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC))
	s, err := apisim.New(apisim.Options{Clock: clock, RateLimitPerMin: 1_000_000, Latency: 5 * time.Millisecond})
	require.NoError(t, err)
	var n unauthorizedCounter
	ts := httptest.NewServer(n.wrap(s.Handler()))
	t.Cleanup(func() { ts.Close(); _ = s.Close() })
	c, err := apiclient.New(apiclient.Options{BaseURL: ts.URL, Auth: apiclient.DigestAuth("org-owner", "org-owner-secret"), MaxRetries: -1})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	burst := func(name string) (total, refused, challenged int64) {
		all0, ref0, ch0 := n.all.Load(), n.refused.Load(), n.challenged.Load()
		const workers, each = 1000, 5
		var wg sync.WaitGroup
		var failed atomic.Int64
		var firstErr atomic.Value
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range each {
					// The projects do not exist: 404 comes after the
					// digest was accepted.
					_, err := c.Alerts().List(ctx, fmt.Sprintf("%024x", w), apiclient.AlertListOptions{})
					if e, ok := apiclient.AsError(err); !ok || e.Status != http.StatusNotFound {
						failed.Add(1)
						firstErr.CompareAndSwap(nil, err)
					}
				}
			}()
		}
		wg.Wait()
		total, refused, challenged = n.all.Load()-all0, n.refused.Load()-ref0, n.challenged.Load()-ch0
		t.Logf("%s: %d requests for %d reads: %d signed answered 401, %d unsigned challenges", name, total, workers*each, refused, challenged)
		if e := firstErr.Load(); e != nil {
			t.Errorf("%s: first failure: %v", name, e)
		}
		assert.Zero(t, failed.Load(), "%s: reads that failed", name)
		return total, refused, challenged
	}

	total, refused, challenged := burst("fresh")
	assert.Zero(t, refused, "signed requests answered 401")
	assert.Less(t, float64(refused+challenged), 0.01*float64(total), "requests answered 401")

	clock.Advance(6 * time.Minute)
	total, refused, challenged = burst("every nonce stale")
	assert.Zero(t, challenged, "lanes already made fetch no challenge unsigned")
	assert.LessOrEqual(t, refused, int64(40), "one stale answer per lane (40) at most")
	assert.Less(t, float64(refused), 0.01*float64(total), "requests answered 401")
}
