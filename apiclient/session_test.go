package apiclient_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// counted is what reached the server: signed requests (a digest
// challenge's unsigned first try is not one), counted as they arrive.
type counted struct{ Sent atomic.Int64 }

// sharedSim is apisim behind a counter of the requests that reached it,
// and a client for it sharing reads for window.
func sharedSim(t *testing.T, window time.Duration) (*apiclient.Client, *counted, *atomic.Int64) {
	t.Helper()
	s, err := apisim.New(apisim.Options{})
	require.NoError(t, err)
	n := new(counted)
	var patches atomic.Int64
	h := s.Handler()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			n.Sent.Add(1)
			if r.Method == http.MethodPatch {
				patches.Add(1)
			}
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { ts.Close(); _ = s.Close() })
	c, err := apiclient.New(apiclient.Options{BaseURL: ts.URL, Auth: apiclient.DigestAuth("org-owner", "org-owner-secret")})
	require.NoError(t, err)
	c.ShareReads(apiclient.NewReadShare(window))
	return c, n, &patches
}

type recordHook struct {
	mu     sync.Mutex
	events []apiclient.WriteEvent
	refuse error
}

func (h *recordHook) Before(apiclient.Actor, catalog.Op, map[string]string, any) error {
	return h.refuse
}

func (h *recordHook) After(e apiclient.WriteEvent) {
	h.mu.Lock()
	h.events = append(h.events, e)
	h.mu.Unlock()
}

// TestReadShareFiveSessionsCostOne: five sessions asking the same list at
// once, then again within the window, cost one request; after the window
// it is read again once.
func TestReadShareFiveSessionsCostOne(t *testing.T) {
	c, n, _ := sharedSim(t, time.Hour)
	ctx := context.Background()
	// The first request of a bucket probes alone; warm it.
	_, err := c.Alerts().Get(ctx, apisim.DemoPaymentsID, "nope")
	require.Error(t, err)
	sessions := make([]*apiclient.Client, 5)
	for i := range sessions {
		sessions[i] = c.Session(apiclient.SessionOptions{Gate: apiclient.NewGate(nil)})
	}
	before := n.Sent.Load()
	for round := range 3 {
		var wg sync.WaitGroup
		for _, s := range sessions {
			wg.Add(1)
			go func() {
				defer wg.Done()
				page, err := s.Alerts().List(ctx, apisim.DemoPaymentsID, apiclient.AlertListOptions{})
				assert.NoError(t, err)
				assert.NotEmpty(t, page.Results, "round %d", round)
			}()
		}
		wg.Wait()
	}
	assert.Equal(t, int64(1), n.Sent.Load()-before, "15 identical reads from 5 sessions")
}

// TestReadShareWindowAndWrites: a copy older than the window is read
// again; a write through any session drops every copy; a read-back after
// a write (WithRetries, as Verify* does) always goes to the server; a
// failed answer is not kept.
func TestReadShareWindowAndWrites(t *testing.T) {
	c, n, _ := sharedSim(t, 300*time.Millisecond)
	ctx := context.Background()
	a := c.Session(apiclient.SessionOptions{Gate: apiclient.NewGate(nil)})
	b := c.Session(apiclient.SessionOptions{Gate: apiclient.NewGate(nil)})
	list := func(s *apiclient.Client) []apiclient.Alert {
		t.Helper()
		page, err := s.Alerts().List(ctx, apisim.DemoPaymentsID, apiclient.AlertListOptions{})
		require.NoError(t, err)
		return page.Results
	}
	alerts := list(a)
	sent := n.Sent.Load()
	list(b)
	assert.Equal(t, sent, n.Sent.Load(), "within the window: shared")
	time.Sleep(350 * time.Millisecond)
	_, err := b.Alerts().List(apiclient.WithShareWindow(ctx, time.Hour), apisim.DemoPaymentsID, apiclient.AlertListOptions{})
	require.NoError(t, err)
	assert.Equal(t, sent, n.Sent.Load(), "a poll takes a copy as old as its interval")
	list(b)
	assert.Equal(t, sent+1, n.Sent.Load(), "after the window: read again")

	var target apiclient.Alert
	for _, al := range alerts {
		if al.AcknowledgedUntil == nil && al.Status == apiclient.AlertOpen {
			target = al
			break
		}
	}
	require.NotEmpty(t, target.ID)
	until := time.Now().Add(time.Hour).UTC().Truncate(time.Second)
	_, err = a.Alerts().Acknowledge(ctx, apisim.DemoPaymentsID, target.ID, apiclient.AcknowledgeRequest{AcknowledgedUntil: &until})
	require.NoError(t, err)
	sent = n.Sent.Load()
	var seen bool
	for _, al := range list(b) {
		if al.ID == target.ID {
			seen = al.AcknowledgedUntil != nil
		}
	}
	assert.True(t, seen, "b reads a's write at once, not the copy from before it")
	assert.Equal(t, sent+1, n.Sent.Load())

	sent = n.Sent.Load()
	_, err = b.Alerts().Get(apiclient.WithRetries(ctx, 0), apisim.DemoPaymentsID, target.ID)
	require.NoError(t, err)
	_, err = b.Alerts().Get(apiclient.WithRetries(ctx, 0), apisim.DemoPaymentsID, target.ID)
	require.NoError(t, err)
	assert.Equal(t, sent+2, n.Sent.Load(), "read-backs are never shared")

	sent = n.Sent.Load()
	for range 2 {
		_, err = b.Alerts().Get(ctx, apisim.DemoPaymentsID, "000000000000000000000000")
		require.Error(t, err)
	}
	assert.Equal(t, sent+2, n.Sent.Load(), "a 404 is not kept")
}

// TestSessionWriteHook: a session's write is told to its hook, with the
// actor, targets, values and outcome, before Do returns; a refusal by the
// hook or the gate sends nothing and is told as "not sent".
func TestSessionWriteHook(t *testing.T) {
	c, _, patches := sharedSim(t, time.Minute)
	ctx := context.Background()
	hook := &recordHook{}
	actor := apiclient.Actor{Name: "alice", Fingerprint: "SHA256:x", Profile: "org-owner"}
	s := c.Session(apiclient.SessionOptions{Gate: apiclient.NewGate(nil), Actor: actor, Hook: hook})
	page, err := s.Alerts().List(ctx, apisim.DemoPaymentsID, apiclient.AlertListOptions{Status: apiclient.AlertOpen})
	require.NoError(t, err)
	require.NotEmpty(t, page.Results)
	id := page.Results[0].ID
	until := time.Now().Add(time.Hour).UTC().Truncate(time.Second)
	_, err = s.Alerts().Acknowledge(ctx, apisim.DemoPaymentsID, id, apiclient.AcknowledgeRequest{AcknowledgedUntil: &until, AcknowledgementComment: "on it"})
	require.NoError(t, err)
	require.Len(t, hook.events, 1, "told before Do returned")
	e := hook.events[0]
	assert.Equal(t, actor, e.Actor)
	assert.Equal(t, "acknowledgeAlert", e.Op)
	assert.Equal(t, "applied", e.Outcome)
	assert.Equal(t, 200, e.Status)
	assert.Equal(t, id, e.Params["alertId"])
	assert.Contains(t, string(e.Body), "on it")
	assert.Equal(t, int64(1), patches.Load())

	hook.refuse = errors.New("alice is read-only")
	_, err = s.Alerts().Acknowledge(ctx, apisim.DemoPaymentsID, id, apiclient.AcknowledgeRequest{AcknowledgedUntil: &until})
	var denied *apiclient.DeniedError
	require.ErrorAs(t, err, &denied)
	assert.Contains(t, err.Error(), "alice is read-only")
	require.Len(t, hook.events, 2)
	assert.Equal(t, "not sent", hook.events[1].Outcome)
	assert.Equal(t, int64(1), patches.Load(), "the refused write never left")

	// Another session's gate is its own.
	hook.refuse = nil
	ro := apiclient.NewGate(nil)
	ro.SetReadOnly(true)
	r := c.Session(apiclient.SessionOptions{Gate: ro, Hook: hook})
	_, err = r.Alerts().Acknowledge(ctx, apisim.DemoPaymentsID, id, apiclient.AcknowledgeRequest{AcknowledgedUntil: &until})
	require.ErrorAs(t, err, &denied)
	_, err = s.Alerts().Acknowledge(ctx, apisim.DemoPaymentsID, id, apiclient.AcknowledgeRequest{AcknowledgedUntil: &until})
	require.NoError(t, err)
	assert.Equal(t, int64(2), patches.Load())

	// A read-back after an unknown outcome is told too: the verified one.
	n := len(hook.events)
	got, holds, err := s.Alerts().VerifyAcknowledge(ctx, apisim.DemoPaymentsID, id, apiclient.AcknowledgeRequest{AcknowledgedUntil: &until, AcknowledgementComment: "on it"})
	require.NoError(t, err)
	require.True(t, holds, "%+v", got)
	require.Len(t, hook.events, n+1)
	assert.Equal(t, "verified: applied", hook.events[n].Outcome)
	assert.Equal(t, id, hook.events[n].Params["alertId"])
}

// TestReadShareJoinerOutlivesItsLeader: a read joined to another
// session's, whose session closes while it is under way, is read on its
// own instead of failing with the leader's cancellation.
func TestReadShareJoinerOutlivesItsLeader(t *testing.T) {
	var got atomic.Int64
	arrived := make(chan struct{}, 4)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if got.Add(1) == 1 {
			arrived <- struct{}{}
			<-r.Context().Done() // the leader: answered never
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":"a1","status":"OPEN"}`))
	}))
	t.Cleanup(ts.Close)
	c, err := apiclient.New(apiclient.Options{BaseURL: ts.URL, MaxRetries: -1})
	require.NoError(t, err)
	rs := apiclient.NewReadShare(time.Minute)
	c.ShareReads(rs)
	a := c.Session(apiclient.SessionOptions{Gate: apiclient.NewGate(nil)})
	b := c.Session(apiclient.SessionOptions{Gate: apiclient.NewGate(nil)})
	leaderCtx, cancel := context.WithCancel(context.Background())
	leaderErr := make(chan error, 1)
	go func() {
		_, err := a.Alerts().Get(leaderCtx, "g1", "a1")
		leaderErr <- err
	}()
	<-arrived
	joined := make(chan error, 1)
	var alert *apiclient.Alert
	go func() {
		var err error
		alert, err = b.Alerts().Get(context.Background(), "g1", "a1")
		joined <- err
	}()
	require.Eventually(t, func() bool { return rs.Stats().Joined == 1 }, 5*time.Second, 5*time.Millisecond)
	cancel()
	require.Error(t, <-leaderErr)
	require.NoError(t, <-joined)
	assert.Equal(t, "a1", alert.ID)
	assert.Equal(t, int64(2), got.Load())
}
