package apiclient

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lanesOf is the digest lanes of a client made with DigestAuth.
func lanesOf(t *testing.T, c *Client) *digestLanes {
	t.Helper()
	g, ok := c.http.Transport.(*hostGuard)
	require.True(t, ok)
	d, ok := g.authed.(*digestLanes)
	require.True(t, ok)
	return d
}

// waitLanes waits until n lanes are idle (the ones readied ahead are put
// there once their challenge is in).
func waitLanes(t *testing.T, d *digestLanes, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	free := func() int {
		d.mu.Lock()
		defer d.mu.Unlock()
		return len(d.free)
	}
	for free() < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d lanes free after 10 s, want %d", free(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// The lanes readied at the first request hold challenges of their own: a
// burst of requests after it is signed at once, none waits for a 401.
func TestDigestWarmLanesSignABurstWithoutChallenges(t *testing.T) {
	c, d := warmDigestClient(t)
	ctx := context.Background()
	req := Request{Params: map[string]string{"groupId": testGroup}}
	_, err := c.Do(ctx, "listAlerts", req, nil)
	require.NoError(t, err)
	waitLanes(t, lanesOf(t, c), DefaultWarmLanes)
	d.mu.Lock()
	assert.Equal(t, DefaultWarmLanes-1, d.heads, "one HEAD for each lane readied ahead")
	before := d.challenge
	d.mu.Unlock()

	var wg sync.WaitGroup
	for range DefaultWarmLanes - 4 {
		wg.Go(func() {
			_, err := c.Do(ctx, "listAlerts", req, nil)
			assert.NoError(t, err)
		})
	}
	wg.Wait()
	d.mu.Lock()
	defer d.mu.Unlock()
	assert.Equal(t, before, d.challenge, "a request through a readied lane met a challenge")
	assert.Equal(t, 1+DefaultWarmLanes-4+before, d.requests, "each request of the burst is one round trip")
}

// A challenge fetched ahead that the service no longer honours costs the
// request a new challenge, not a failure.
func TestDigestWarmLaneWithAnExpiredNonceRecovers(t *testing.T) {
	c, d := warmDigestClient(t)
	ctx := context.Background()
	req := Request{Params: map[string]string{"groupId": testGroup}}
	_, err := c.Do(ctx, "listAlerts", req, nil)
	require.NoError(t, err)
	waitLanes(t, lanesOf(t, c), DefaultWarmLanes)
	d.expireNonce()
	var wg sync.WaitGroup
	for range DefaultWarmLanes {
		wg.Go(func() {
			_, err := c.Do(ctx, "listAlerts", req, nil)
			assert.NoError(t, err, "a readied lane whose nonce expired")
		})
	}
	wg.Wait()
}

// A readied lane's challenge is used only while fresh (warmFor): after
// that its first request asks the service, as a new lane's does.
func TestPrimedChallengeIsNotUsedOnceOld(t *testing.T) {
	var sent int
	next := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		sent++
		return &http.Response{StatusCode: http.StatusOK, Body: http.NoBody, Request: r}, nil
	})
	hdr := http.Header{"Www-Authenticate": {`Digest realm="r", nonce="n", qop="auth"`}}
	fresh := &primed{next: next, challenge: hdr, until: time.Now().Add(time.Minute)}
	r, _ := http.NewRequest(http.MethodGet, "http://example.invalid/x", nil)
	res, err := fresh.RoundTrip(r)
	require.NoError(t, err)
	assert.Equal(t, http.StatusUnauthorized, res.StatusCode, "a fresh challenge is handed out")
	assert.Equal(t, 0, sent)

	old := &primed{next: next, challenge: hdr, until: time.Now().Add(-time.Second)}
	res, err = old.RoundTrip(r)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, res.StatusCode, "an old challenge is not")
	assert.Equal(t, 1, sent)
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// After a burst has made many lanes, requests one at a time keep to the
// lane freed last: when the nonce goes stale, one lane meets one new
// challenge, not each lane in turn.
func TestDigestLanesReuseTheLaneFreedLast(t *testing.T) {
	c, d := warmDigestClient(t)
	ctx := context.Background()
	req := Request{Params: map[string]string{"groupId": testGroup}}
	var wg sync.WaitGroup
	for range 30 {
		wg.Go(func() {
			_, err := c.Do(ctx, "listAlerts", req, nil)
			assert.NoError(t, err)
		})
	}
	wg.Wait()
	waitLanes(t, lanesOf(t, c), DefaultWarmLanes)
	d.expireNonce()
	d.mu.Lock()
	before := d.challenge
	d.mu.Unlock()
	for range 10 {
		_, err := c.Do(ctx, "listAlerts", req, nil)
		require.NoError(t, err)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	assert.Equal(t, before+1, d.challenge, "ten requests in turn met more than one stale nonce")
}

// warmDigestClient is a digest client that readies DefaultWarmLanes at its
// first request, as the dashboard's does.
func warmDigestClient(t *testing.T) (*Client, *digestServer) {
	t.Helper()
	d := &digestServer{}
	srv := httptest.NewServer(d)
	t.Cleanup(srv.Close)
	return newTestClient(t, srv.URL, Options{Auth: DigestAuth("pub", "priv"), WarmLanes: DefaultWarmLanes}), d
}

// A client not told to ready lanes sends no HEAD: a lane meets its
// challenge when first used.
func TestDigestLanesAreNotReadiedUnlessAsked(t *testing.T) {
	c, d := digestClient(t, "priv")
	_, err := c.Do(context.Background(), "listAlerts", Request{Params: map[string]string{"groupId": testGroup}}, nil)
	require.NoError(t, err)
	time.Sleep(50 * time.Millisecond) // a HEAD sent in the background would be in by now
	d.mu.Lock()
	defer d.mu.Unlock()
	assert.Zero(t, d.heads)
}
