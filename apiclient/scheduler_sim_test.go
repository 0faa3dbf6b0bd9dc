package apiclient_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// limitedSim is apisim on the wall clock with every endpoint set at
// perMin tokens a minute; throttled counts the 429s it answered.
func limitedSim(t *testing.T, perMin int) (base string, throttled, sent *atomic.Int64) {
	t.Helper()
	s, err := apisim.New(apisim.Options{RateLimitPerMin: perMin})
	require.NoError(t, err)
	n := new(apisim.RequestCounter)
	ts := httptest.NewServer(n.Wrap(s.Handler()))
	t.Cleanup(func() { ts.Close(); _ = s.Close() })
	return ts.URL, &n.Throttled, &n.Sent
}

// TestSchedulerKeepsUnderTheLimit: with the simulator at 100 requests a
// minute per endpoint set and scope, 105 concurrent list calls all finish
// and the server answers none of them 429: the first request probes, its
// headers set the pace, and the last five wait for the refill.
func TestSchedulerKeepsUnderTheLimit(t *testing.T) {
	for _, learn := range []bool{false, true} {
		name := map[bool]string{false: "from headers", true: "from the rateLimits API"}[learn]
		t.Run(name, func(t *testing.T) {
			base, throttled, sent := limitedSim(t, 100)
			c, err := apiclient.New(apiclient.Options{BaseURL: base, Auth: apiclient.DigestAuth("read-only", "read-only-secret")})
			require.NoError(t, err)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if learn {
				require.NoError(t, c.LearnRateLimits(ctx, apiclient.RateLimitFilter{GroupID: apisim.DemoPaymentsID}))
			}
			const calls = 105
			start := time.Now()
			var wg sync.WaitGroup
			errs := make(chan error, calls)
			for range calls {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, err := c.Alerts().List(ctx, apisim.DemoPaymentsID, apiclient.AlertListOptions{ListOptions: apiclient.ListOptions{ItemsPerPage: 5}})
					errs <- err
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				require.NoError(t, err)
			}
			assert.Zero(t, throttled.Load(), "429s answered")
			assert.Zero(t, c.Scheduler().Stats().Throttled)
			assert.EqualValues(t, calls+map[bool]int64{false: 0, true: 1}[learn], sent.Load())
			el := time.Since(start)
			assert.Greater(t, el, 2*time.Second, "the last five waited for the refill (0.6 s a token)")
			t.Logf("%d calls in %v, %d waited", calls, el.Round(time.Millisecond), c.Scheduler().Stats().Waited)
		})
	}
}

// TestSchedulerAfterA429HoldsEveryone: a server that limits without saying
// so in advance answers one 429 with its parameters; the requests made while
// its Retry-After runs wait for it instead of hitting the server again, and
// then all succeed.
func TestSchedulerAfterA429HoldsEveryone(t *testing.T) {
	var n, early atomic.Int64
	refusedAt := make(chan time.Time, 1)
	var refusal atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			refusal.Store(time.Now().UnixNano())
			refusedAt <- time.Now()
			w.Header().Set("Retry-After", "1")
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(429)
			w.Write([]byte(`{"error":429,"errorCode":"RATE_LIMITED_TOKEN_BUCKET","detail":"Rate limit exceeded","parameters":["api/atlas/v2/groups/x/alerts",1,10,10,1]}`))
			return
		}
		if time.Since(time.Unix(0, refusal.Load())) < 950*time.Millisecond {
			early.Add(1)
		}
		w.Header().Set("Content-Type", r.Header.Get("Accept"))
		w.Write([]byte(`{"results":[],"totalCount":0}`))
	}))
	defer srv.Close()
	c, err := apiclient.New(apiclient.Options{BaseURL: srv.URL, Backoff: 10 * time.Millisecond})
	require.NoError(t, err)
	ctx := context.Background()
	list := func() error {
		_, err := c.Alerts().List(ctx, "5f1a2b3c4d5e6f7a8b9c0d1e", apiclient.AlertListOptions{})
		return err
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); assert.NoError(t, list()) }()
	<-refusedAt
	require.Eventually(t, func() bool { return c.Scheduler().Stats().Throttled == 1 }, time.Second, time.Millisecond)
	until, holding := c.Scheduler().HoldingBack()
	assert.True(t, holding)
	assert.WithinDuration(t, time.Now().Add(time.Second), until, 300*time.Millisecond)
	for range 6 {
		wg.Add(1)
		go func() { defer wg.Done(); assert.NoError(t, list()) }()
	}
	wg.Wait()
	assert.Zero(t, early.Load(), "requests sent during the Retry-After")
	assert.EqualValues(t, 8, n.Load(), "the refused call retried once, six more")
	assert.EqualValues(t, 1, c.Scheduler().Stats().Throttled)
}

// TestLearningKeepsWhatWasSpent: requests sent before the sets were learned
// (paced per operation, by the headers) count against the learned set's
// bucket, which does not start full again: with a bucket of 10 refilled
// once a minute, six reads before learning leave four, and of eight
// sent at once after it three go (the fourth token is the one the client
// keeps back) and five wait instead of meeting a 429.
func TestLearningKeepsWhatWasSpent(t *testing.T) {
	s, err := apisim.New(apisim.Options{RateLimits: map[string]apisim.RateLimit{
		"alertsRead_group": {Capacity: 10, RefillRate: 1, RefillSeconds: 60}}})
	require.NoError(t, err)
	var n apisim.RequestCounter
	throttled := &n.Throttled
	ts := httptest.NewServer(n.Wrap(s.Handler()))
	t.Cleanup(func() { ts.Close(); _ = s.Close() })
	c, err := apiclient.New(apiclient.Options{BaseURL: ts.URL, Auth: apiclient.DigestAuth("read-only", "read-only-secret"), MaxRetries: -1})
	require.NoError(t, err)
	ctx := context.Background()
	list := func(ctx context.Context) error {
		_, err := c.Alerts().List(ctx, apisim.DemoPaymentsID, apiclient.AlertListOptions{ListOptions: apiclient.ListOptions{ItemsPerPage: 5}})
		return err
	}
	for range 6 {
		require.NoError(t, list(ctx))
	}
	require.NoError(t, c.LearnRateLimits(ctx, apiclient.RateLimitFilter{}))
	// Eight at once: only four tokens are left, one of them kept back; the
	// others wait (and give up when the context ends) rather than being sent.
	ok, waited := burst(t, 8, list)
	assert.Zero(t, throttled.Load(), "429s answered")
	assert.EqualValues(t, 3, ok, "the four tokens left but the one kept back")
	assert.EqualValues(t, 5, waited)
}

// TestLearningCountsASharedBucketOnce: operations of one set read before the
// sets were learned each followed the set's one bucket by the
// RateLimit-Remaining headers, so what they spent is counted once, not once
// per operation: with a user-scoped bucket of 20 refilled once a minute, two
// reads each of three operations leave 14, and of 20 sent at once after
// learning 13 go (the fourteenth token is the one kept back) and 7 wait.
func TestLearningCountsASharedBucketOnce(t *testing.T) {
	s, err := apisim.New(apisim.Options{RateLimits: map[string]apisim.RateLimit{
		"accountRead_user": {Capacity: 20, RefillRate: 1, RefillSeconds: 60}}})
	require.NoError(t, err)
	var n apisim.RequestCounter
	ts := httptest.NewServer(n.Wrap(s.Handler()))
	t.Cleanup(func() { ts.Close(); _ = s.Close() })
	c, err := apiclient.New(apiclient.Options{BaseURL: ts.URL, Auth: apiclient.DigestAuth("read-only", "read-only-secret"), MaxRetries: -1})
	require.NoError(t, err)
	ctx := context.Background()
	orgs := func(ctx context.Context) error {
		_, err := c.Projects().Orgs(ctx, apiclient.NameListOptions{})
		return err
	}
	for range 2 {
		require.NoError(t, orgs(ctx))
		_, err := c.Projects().List(ctx, apiclient.ListOptions{})
		require.NoError(t, err)
		_, err = c.WhoAmI(ctx)
		require.NoError(t, err)
	}
	require.NoError(t, c.LearnRateLimits(ctx, apiclient.RateLimitFilter{}))
	ok, waited := burst(t, 20, orgs)
	assert.Zero(t, n.Throttled.Load(), "429s answered")
	assert.EqualValues(t, 13, ok, "the 14 left on the server but the one kept back")
	assert.EqualValues(t, 7, waited)
}

// burst makes n calls at once, each given a second, and counts those that
// went and those the scheduler held until their context ended; any other
// error fails the test.
func burst(t *testing.T, n int, call func(context.Context) error) (ok, waited int64) {
	t.Helper()
	short, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	var sent, held atomic.Int64
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			switch err := call(short); {
			case err == nil:
				sent.Add(1)
			case strings.Contains(err.Error(), "waiting for the rate limit"):
				held.Add(1)
			default:
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	return sent.Load(), held.Load()
}
