package apiclient_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/icholy/digest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// TestSharedBudgetMeetsNo429: a project's alerts bucket holds 20 tokens
// and refills 10 a second; another client (apisim's control API) spends
// half of that refill. Four readers that want more than the bucket gives
// find out from RateLimit-Remaining that the budget is shared, pace at what
// the other client leaves, and the server answers none of them 429;
// Sharing names the bucket and what the others take.
func TestSharedBudgetMeetsNo429(t *testing.T) {
	s, err := apisim.New(apisim.Options{RateLimits: map[string]apisim.RateLimit{"alertsRead_group": {Capacity: 20, RefillRate: 600, RefillSeconds: 60}}})
	require.NoError(t, err)
	n := new(apisim.RequestCounter)
	ts := httptest.NewServer(n.Wrap(s.Handler()))
	t.Cleanup(func() { ts.Close(); _ = s.Close() })

	owner := &http.Client{Transport: &digest.Transport{Username: "org-owner", Password: "org-owner-secret"}}
	body := []byte(`{"endpointSetId":"alertsRead_group","groupId":"` + apisim.DemoPaymentsID + `","perMinute":300}`)
	req, err := http.NewRequest(http.MethodPut, ts.URL+"/api/atlas/sim/ratelimits/spend", bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	res, err := owner.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)

	c, err := apiclient.New(apiclient.Options{BaseURL: ts.URL, Auth: apiclient.DigestAuth("read-only", "read-only-secret"), MaxRetries: -1})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// As the dashboard does at start: the bucket's refill is known.
	require.NoError(t, c.LearnRateLimits(ctx, apiclient.RateLimitFilter{GroupID: apisim.DemoPaymentsID}))
	begin := time.Now()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var done int
	// The readers are a pane's: the source names it.
	polls := apiclient.WithSource(ctx, "alerts-pane")
	for range 4 {
		wg.Go(func() {
			for ctx.Err() == nil {
				_, err := c.Alerts().List(polls, apisim.DemoPaymentsID, apiclient.AlertListOptions{ListOptions: apiclient.ListOptions{ItemsPerPage: 1}})
				mu.Lock()
				if err == nil {
					done++
				} else if e, ok := apiclient.AsError(err); ok {
					t.Logf("%v after %v", e.Status, time.Since(begin).Round(time.Millisecond))
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	shares := c.Scheduler().Sharing()
	t.Logf("%d reads in 10 s, %d answered 429, sharing %+v", done, n.Throttled.Load(), shares)
	assert.Zero(t, n.Throttled.Load(), "429s answered")
	require.Len(t, shares, 1, "the alerts bucket is shared")
	assert.Equal(t, "alerts", shares[0].Name)
	assert.Equal(t, "alerts-pane", shares[0].Source, "whose reads the bucket paces")
	assert.InDelta(t, 300, shares[0].OthersPerMin, 150, "what the other client takes a minute")
	assert.Greater(t, done, 20, "the readers still got what the other client left")
}
