package apisim

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
)

// loseNextWrites sets malformedWrites through the control API.
func loseNextWrites(t *testing.T, e *testEnv, n string) {
	t.Helper()
	st, _, b := e.digest("org-owner", "MD5").do(t, rawReq{method: "PUT", path: "/api/atlas/sim/faults",
		body: []byte(`{"malformedWrites": ` + n + `}`), ctype: "application/json"})
	require.Equal(t, http.StatusOK, st, "%s", b)
}

// loggedRequests are the request log's records of method on path.
func loggedRequests(s *Server, method, path string) []RequestRecord {
	var out []RequestRecord
	for _, r := range s.reqlog.recent() {
		if r.Method == method && r.Path == path {
			out = append(out, r)
		}
	}
	return out
}

// malformedWrites loses the next write's answer even when it has no body
// (a DELETE's 204): the delete is applied, the connection dropped before
// the status line, so the client sees "outcome unknown"; the fault is used
// up there and the next write (with a body) answers whole.
func TestLostWriteAnswerWithoutBodyIsDropped(t *testing.T) {
	e := newEnv(t, Options{})
	c, err := apiclient.New(apiclient.Options{BaseURL: e.ts.URL, Service: "atlas",
		Auth: apiclient.DigestAuth("org-owner", "org-owner-secret"), MaxRetries: 3, Backoff: time.Millisecond})
	require.NoError(t, err)
	ctx := context.Background()
	configs, err := c.AlertConfigs().ListAll(ctx, DemoPaymentsID)
	require.NoError(t, err)
	require.NotEmpty(t, configs)
	id := configs[0].ID

	loseNextWrites(t, e, "1")
	err = c.AlertConfigs().Delete(ctx, DemoPaymentsID, id)
	lost, ok := apiclient.AsOutcomeUnknown(err)
	require.True(t, ok, "the client cannot know the outcome: %v", err)
	assert.Zero(t, lost.Status, "no answer at all, not an unreadable one: %v", err)

	// The client sees the connection close before the handler returns.
	path := "/api/atlas/v2/groups/" + DemoPaymentsID + "/alertConfigs/" + id
	require.Eventually(t, func() bool { return len(loggedRequests(e.srv, "DELETE", path)) > 0 }, 5*time.Second, time.Millisecond)
	dels := loggedRequests(e.srv, "DELETE", path)
	require.Len(t, dels, 1, "sent once, never resent")
	assert.Zero(t, dels[0].Status, "logged as unanswered")
	e.srv.mu.Lock()
	gone := find(e.srv.world.AlertConfigs, func(x *AlertConfig) bool { return x.ID == id }) == nil
	e.srv.mu.Unlock()
	assert.True(t, gone, "the delete was applied before the answer was lost")

	// Used up: the next write with a body answers whole.
	a := firstOpenUnacked(t, c, e.clock.Now())
	until := e.clock.Now().Add(time.Hour)
	got, err := c.Alerts().Acknowledge(ctx, DemoPaymentsID, a.ID, apiclient.AcknowledgeRequest{AcknowledgedUntil: &until})
	require.NoError(t, err, "the fault hit one write only")
	assert.Equal(t, a.ID, got.ID)
}

// A cut-over answers 202 without a body: with malformedWrites its answer
// is lost and the cut-over is under way all the same.
func TestLostCutoverAnswerIsDroppedAfterTheCutover(t *testing.T) {
	e, c, src := migrationEnv(t)
	ctx := context.Background()
	m, err := c.Migration().Create(ctx, DemoPaymentsID, billingTo(src, "payments-prod"))
	require.NoError(t, err)
	e.srv.mu.Lock()
	ready := find(e.srv.world.Migrations, func(x *Migration) bool { return x.ID == m.ID }).ReadyAt()
	e.srv.mu.Unlock()
	e.clock.Set(ready)

	loseNextWrites(t, e, "1")
	err = c.Migration().Cutover(ctx, DemoPaymentsID, m.ID)
	_, ok := apiclient.AsOutcomeUnknown(err)
	require.True(t, ok, "the client cannot know the outcome: %v", err)
	got, err := c.Migration().Get(ctx, DemoPaymentsID, m.ID)
	require.NoError(t, err)
	assert.Equal(t, apiclient.PhaseCuttingOver, got.Phase, "the cut-over was applied")
}

// Where the connection cannot be taken over (a recorder here, HTTP/2
// elsewhere) the handler is aborted; the write is applied and the request
// logged all the same.
func TestLostAnswerWithoutHijackAborts(t *testing.T) {
	e := newEnv(t, Options{})
	e.srv.mu.Lock()
	id := e.srv.world.AlertConfigs[0].ID
	group := e.srv.world.AlertConfigs[0].GroupID
	e.srv.mu.Unlock()
	loseNextWrites(t, e, "1")

	d := e.digest("org-owner", "MD5")
	d.challenge(t)
	path := "/api/atlas/v2/groups/" + group + "/alertConfigs/" + id
	req := httptest.NewRequest("DELETE", path, nil)
	req.Header.Set("Accept", catalog.MediaType("atlas", "2023-01-01"))
	req.Header.Set("Authorization", d.authorization("DELETE", path, 1))
	rec := httptest.NewRecorder()
	assert.PanicsWithValue(t, http.ErrAbortHandler, func() { e.srv.Handler().ServeHTTP(rec, req) })
	dels := loggedRequests(e.srv, "DELETE", path)
	require.Len(t, dels, 1, "logged before the abort")
	assert.Zero(t, dels[0].Status)
	e.srv.mu.Lock()
	gone := find(e.srv.world.AlertConfigs, func(x *AlertConfig) bool { return x.ID == id }) == nil
	e.srv.mu.Unlock()
	assert.True(t, gone, "applied")
}

// A write whose answer has a body is still truncated, not dropped: the
// client gets an unreadable 2xx.
func TestLostWriteAnswerWithBodyIsTruncated(t *testing.T) {
	e := newEnv(t, Options{})
	c, err := apiclient.New(apiclient.Options{BaseURL: e.ts.URL, Service: "atlas",
		Auth: apiclient.DigestAuth("org-owner", "org-owner-secret"), MaxRetries: -1})
	require.NoError(t, err)
	a := firstOpenUnacked(t, c, e.clock.Now())
	loseNextWrites(t, e, "1")
	until := e.clock.Now().Add(time.Hour)
	_, err = c.Alerts().Acknowledge(context.Background(), DemoPaymentsID, a.ID, apiclient.AcknowledgeRequest{AcknowledgedUntil: &until})
	lost, ok := apiclient.AsOutcomeUnknown(err)
	require.True(t, ok, "%v", err)
	assert.Equal(t, http.StatusOK, lost.Status, "an answer came, unreadable")
}

// The connection is taken over through StatusRecorder, so a wrapper around
// the server (RequestCounter here, the e2e host's log) still sees the
// request come back, unanswered, instead of an aborted handler.
func TestLostAnswerReturnsThroughWrappers(t *testing.T) {
	clock := NewManualClock(testStart)
	s, err := New(Options{Clock: clock})
	require.NoError(t, err)
	var counter RequestCounter
	statuses := make(chan int, 10)
	ts := httptest.NewServer(counter.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &StatusRecorder{ResponseWriter: w}
		s.Handler().ServeHTTP(sw, r)
		if r.Method == "DELETE" && r.Header.Get("Authorization") != "" {
			statuses <- sw.Status
		}
	})))
	t.Cleanup(func() { ts.Close(); _ = s.Close() })
	e := &testEnv{t: t, srv: s, clock: clock, ts: ts}
	c, err := apiclient.New(apiclient.Options{BaseURL: ts.URL, Service: "atlas",
		Auth: apiclient.DigestAuth("org-owner", "org-owner-secret"), MaxRetries: -1})
	require.NoError(t, err)
	s.mu.Lock()
	id := s.world.AlertConfigs[0].ID
	group := s.world.AlertConfigs[0].GroupID
	s.mu.Unlock()
	loseNextWrites(t, e, "1")
	sent := counter.Sent.Load()
	err = c.AlertConfigs().Delete(context.Background(), group, id)
	_, ok := apiclient.AsOutcomeUnknown(err)
	require.True(t, ok, "%v", err)
	// The client sees the connection close before the handler returns.
	select {
	case st := <-statuses:
		assert.Zero(t, st, "the wrapper saw the write come back unanswered")
	case <-time.After(5 * time.Second):
		t.Fatal("the lost write never came back through the wrapper")
	}
	require.Eventually(t, func() bool { return counter.Sent.Load() == sent+1 }, 5*time.Second, time.Millisecond,
		"the counter counted the lost write")
	assert.Empty(t, statuses, "one DELETE")
}
