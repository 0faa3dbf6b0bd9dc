package apiclient_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// faultySim is apisim behind a proxy that counts the authenticated writes
// reaching it and lets a test lose answers on the way back.
type faultySim struct {
	client *apiclient.Client
	sim    *apisim.Server
	clock  *apisim.ManualClock
	writes atomic.Int64
	// lose, when set, is called for each authenticated write; it may answer
	// in place of apisim (after or without forwarding) and return true.
	lose atomic.Pointer[loseFunc]
}

type loseFunc = func(w http.ResponseWriter, r *http.Request, forward http.Handler) bool

func (f *faultySim) setLose(l loseFunc) {
	if l == nil {
		f.lose.Store(nil)
		return
	}
	f.lose.Store(&l)
}

func newFaultySim(t *testing.T, o apisim.Options, timeout time.Duration) *faultySim {
	t.Helper()
	f := &faultySim{clock: apisim.NewManualClock(time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC))}
	o.Clock = f.clock
	sim, err := apisim.New(o)
	require.NoError(t, err)
	f.sim = sim
	h := sim.Handler()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Header.Get("Authorization") != "" {
			f.writes.Add(1)
			if l := f.lose.Load(); l != nil && (*l)(w, r, h) {
				return
			}
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { ts.Close(); _ = sim.Close() })
	f.client, err = apiclient.New(apiclient.Options{BaseURL: ts.URL, Service: "atlas",
		Auth:       apiclient.DigestAuth("org-owner", "org-owner-secret"),
		HTTPClient: &http.Client{Timeout: timeout},
		// reads (the verifications) ride out the faults; writes are never retried once sent
		MaxRetries: 12, Backoff: time.Millisecond})
	require.NoError(t, err)
	return f
}

// Under truncated answers, every ack is sent once, and every one the server
// applied is reported applied: either from its answer or, when the answer was
// unreadable, from reading the alert back. None is reported as failed.
func TestAcksUnderMalformedAnswersAreSentOnceAndVerified(t *testing.T) {
	f := newFaultySim(t, apisim.Options{Seed: 3, MalformedRate: 0.3}, 10*time.Second)
	ctx := context.Background()
	alerts, err := f.client.Alerts().ListAll(ctx, apisim.DemoPaymentsID, apiclient.AlertOpen)
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(alerts), 20)
	alerts = alerts[:20]

	until := f.clock.Now().Add(time.Hour).Truncate(time.Second)
	applied, unknown := 0, 0
	for i, a := range alerts {
		req := apiclient.AcknowledgeRequest{AcknowledgedUntil: &until, AcknowledgementComment: "checking " + strconv.Itoa(i)}
		got, err := f.client.Alerts().Acknowledge(ctx, apisim.DemoPaymentsID, a.ID, req)
		if err == nil {
			assert.True(t, apiclient.AckHolds(*got, req, f.clock.Now()))
			applied++
			continue
		}
		ou, ok := apiclient.AsOutcomeUnknown(err)
		require.True(t, ok, "a write whose answer was unreadable must be outcome unknown, got %v", err)
		assert.Equal(t, http.StatusOK, ou.Status)
		assert.Contains(t, err.Error(), "outcome unknown")
		unknown++
		_, ok, verr := f.client.Alerts().VerifyAcknowledge(ctx, apisim.DemoPaymentsID, a.ID, req)
		require.NoError(t, verr)
		require.True(t, ok, "alert %s: the server applied the ack", a.ID)
		applied++
	}
	assert.EqualValues(t, len(alerts), f.writes.Load(), "one PATCH per ack on the wire")
	assert.Equal(t, len(alerts), applied, "every ack verified applied, none reported failed")
	assert.Positive(t, unknown, "the fault rate must have truncated some answers")
}

// A write's answer lost after the request left: a timeout, or a reset.
func TestLostAnswersAreOutcomeUnknownAndVerifiedEitherWay(t *testing.T) {
	f := newFaultySim(t, apisim.Options{Seed: 3}, 300*time.Millisecond)
	ctx := context.Background()
	alerts, err := f.client.Alerts().ListAll(ctx, apisim.DemoPaymentsID, apiclient.AlertOpen)
	require.NoError(t, err)
	until := f.clock.Now().Add(2 * time.Hour).Truncate(time.Second)
	req := apiclient.AcknowledgeRequest{AcknowledgedUntil: &until, AcknowledgementComment: "lost"}

	cases := []struct {
		name    string
		lose    func(w http.ResponseWriter, r *http.Request, forward http.Handler) bool
		applied bool
	}{
		{"applied, then the answer timed out", func(w http.ResponseWriter, r *http.Request, h http.Handler) bool {
			h.ServeHTTP(httptest.NewRecorder(), r)
			<-r.Context().Done()
			return true
		}, true},
		{"applied, then the connection was reset", func(w http.ResponseWriter, r *http.Request, h http.Handler) bool {
			h.ServeHTTP(httptest.NewRecorder(), r)
			resetConn(t, w)
			return true
		}, true},
		{"dropped before the server, the connection reset", func(w http.ResponseWriter, r *http.Request, h http.Handler) bool {
			resetConn(t, w)
			return true
		}, false},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f.setLose(tc.lose)
			before := f.writes.Load()
			_, err := f.client.Alerts().Acknowledge(ctx, apisim.DemoPaymentsID, alerts[i].ID, req)
			f.setLose(nil)
			ou, ok := apiclient.AsOutcomeUnknown(err)
			require.True(t, ok, "got %v", err)
			assert.Zero(t, ou.Status)
			assert.EqualValues(t, 1, f.writes.Load()-before, "never resent")
			_, holds, err := f.client.Alerts().VerifyAcknowledge(ctx, apisim.DemoPaymentsID, alerts[i].ID, req)
			require.NoError(t, err)
			assert.Equal(t, tc.applied, holds)
		})
	}
}

func resetConn(t *testing.T, w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	require.NoError(t, err)
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}

// What surely did not leave, or what the server refused, is not "unknown".
func TestKnownFailuresAreNotOutcomeUnknown(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	c, err := apiclient.New(apiclient.Options{BaseURL: "http://" + addr, MaxRetries: -1})
	require.NoError(t, err)
	_, err = c.Alerts().Acknowledge(context.Background(), apisim.DemoPaymentsID, "65a0c0ffee00000000000abc", apiclient.AcknowledgeRequest{})
	require.Error(t, err)
	_, unknown := apiclient.AsOutcomeUnknown(err)
	assert.False(t, unknown, "a refused connection sent nothing: %v", err)

	f := newFaultySim(t, apisim.Options{Seed: 3}, 10*time.Second)
	_, err = f.client.Alerts().Acknowledge(context.Background(), apisim.DemoPaymentsID, "65a0c0ffee00000000000abc", apiclient.AcknowledgeRequest{})
	_, unknown = apiclient.AsOutcomeUnknown(err)
	assert.False(t, unknown)
	assert.True(t, apiclient.IsNotFound(err), "got %v", err)
}

// Creates whose answers were truncated are found again by what was sent;
// one that never reached the server is not.
func TestCreatesWithUnreadableAnswersAreMatchedByWhatWasSent(t *testing.T) {
	f := newFaultySim(t, apisim.Options{Seed: 3}, 10*time.Second)
	truncate := func(w http.ResponseWriter, r *http.Request, h http.Handler) bool {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Header().Del("Content-Length")
		w.WriteHeader(rec.Code)
		_, _ = w.Write(body[:len(body)/2])
		return true
	}
	drop := func(w http.ResponseWriter, r *http.Request, h http.Handler) bool { resetConn(t, w); return true }
	ctx := context.Background()
	g, b := apisim.DemoPaymentsID, f.client.Backups()
	mustUnknown := func(err error) time.Time {
		t.Helper()
		ou, ok := apiclient.AsOutcomeUnknown(err)
		require.True(t, ok, "got %v", err)
		return ou.Sent
	}

	f.setLose(truncate)
	snapReq := apiclient.TakeSnapshotRequest{Description: "before the migration", RetentionInDays: 3}
	_, err := b.TakeSnapshot(ctx, g, "payments-rs", snapReq)
	sent := mustUnknown(err)
	f.setLose(nil)
	snap, ok, err := b.VerifyTakeSnapshot(ctx, g, "payments-rs", snapReq, sent)
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, "before the migration", snap.Description)

	f.setLose(drop)
	other := apiclient.TakeSnapshotRequest{Description: "never arrived", RetentionInDays: 3}
	_, err = b.TakeSnapshot(ctx, g, "payments-rs", other)
	sent = mustUnknown(err)
	f.setLose(nil)
	_, ok, err = b.VerifyTakeSnapshot(ctx, g, "payments-rs", other, sent)
	require.NoError(t, err)
	assert.False(t, ok)
	// An older snapshot with the same description does not count.
	_, ok, err = b.VerifyTakeSnapshot(ctx, g, "payments-rs", snapReq, sent.Add(time.Hour))
	require.NoError(t, err)
	assert.False(t, ok)

	snaps, err := b.AllSnapshots(ctx, g, "payments-rs")
	require.NoError(t, err)
	var done string
	for _, s := range snaps {
		if s.Status == apiclient.SnapshotCompleted {
			done = s.ID
			break
		}
	}
	require.NotEmpty(t, done)

	f.setLose(truncate)
	restoreReq := apiclient.RestoreRequest{DeliveryType: apiclient.DeliveryAutomated, SnapshotID: done,
		TargetClusterName: "analytics-main", TargetGroupID: apisim.DemoAnalyticsID}
	_, err = b.CreateRestoreJob(ctx, g, "payments-rs", restoreReq)
	sent = mustUnknown(err)
	f.setLose(nil)
	job, ok, err := b.VerifyCreateRestoreJob(ctx, g, "payments-rs", restoreReq, sent)
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, "analytics-main", job.TargetClusterName)

	buckets, err := b.ExportBuckets(ctx, g, apiclient.ListOptions{})
	require.NoError(t, err)
	require.NotEmpty(t, buckets.Results)
	f.setLose(truncate)
	exportReq := apiclient.ExportJobRequest{SnapshotID: done, ExportBucketID: buckets.Results[0].ID}
	_, err = b.CreateExportJob(ctx, g, "payments-rs", exportReq)
	sent = mustUnknown(err)
	f.setLose(nil)
	_, ok, err = b.VerifyCreateExportJob(ctx, g, "payments-rs", exportReq, sent)
	require.NoError(t, err)
	assert.True(t, ok)

	f.setLose(truncate)
	idxReq := apiclient.SearchIndexCreateRequest{Name: "verify-me", Database: "shop", CollectionName: "orders",
		Type: apiclient.IndexSearch, Definition: apiclient.IndexDefinition{Mappings: &apiclient.Mappings{Dynamic: true}}}
	_, err = f.client.Search().Create(ctx, g, "payments-rs", idxReq)
	mustUnknown(err)
	f.setLose(nil)
	_, ok, err = f.client.Search().VerifyCreateIndex(ctx, g, "payments-rs", idxReq)
	require.NoError(t, err)
	assert.True(t, ok)

	f.setLose(truncate)
	cfg := apiclient.AlertConfig{EventTypeName: "NO_PRIMARY", Enabled: true,
		Notifications: []apiclient.Notification{{TypeName: apiclient.NotifyGroup, Roles: []string{"GROUP_OWNER"}, IntervalMin: 5}}}
	_, err = f.client.AlertConfigs().Create(ctx, g, cfg)
	sent = mustUnknown(err)
	f.setLose(nil)
	_, ok, err = f.client.AlertConfigs().VerifyCreate(ctx, g, cfg, sent)
	require.NoError(t, err)
	assert.True(t, ok)
	otherCfg := cfg
	otherCfg.Notifications = []apiclient.Notification{{TypeName: apiclient.NotifyEmail, EmailAddress: "oncall@example.com", IntervalMin: 5}}
	_, ok, err = f.client.AlertConfigs().VerifyCreate(ctx, g, otherCfg, sent)
	require.NoError(t, err)
	assert.False(t, ok, "other notifications: another configuration")

	assert.EqualValues(t, 6, f.writes.Load(), "each create sent once")
}

// The client reads the server's clock from its Date header: against a
// server three days ahead, Now is the server's now.
func TestNowFollowsTheServersClock(t *testing.T) {
	f := newFaultySim(t, apisim.Options{Seed: 3}, 10*time.Second)
	ahead := time.Now().Add(72 * time.Hour)
	f.clock.Set(ahead)
	_, err := f.client.Alerts().List(context.Background(), apisim.DemoPaymentsID, apiclient.AlertListOptions{})
	require.NoError(t, err)
	assert.WithinDuration(t, ahead, f.client.Now(), 2*time.Second)
	assert.InDelta(t, (72 * time.Hour).Seconds(), f.client.ClockSkew().Seconds(), 2)

	// "for 1h" judged by the server's clock is accepted; by ours it would
	// be three days in the past.
	alerts, err := f.client.Alerts().ListAll(context.Background(), apisim.DemoPaymentsID, apiclient.AlertOpen)
	require.NoError(t, err)
	until := f.client.Now().Add(time.Hour)
	_, err = f.client.Alerts().Acknowledge(context.Background(), apisim.DemoPaymentsID, alerts[0].ID,
		apiclient.AcknowledgeRequest{AcknowledgedUntil: &until})
	require.NoError(t, err)
	local := time.Now().Add(time.Hour)
	_, err = f.client.Alerts().Acknowledge(context.Background(), apisim.DemoPaymentsID, alerts[1].ID,
		apiclient.AcknowledgeRequest{AcknowledgedUntil: &local})
	assert.True(t, errors.As(err, new(*apiclient.Error)), "our clock's hour is the server's past: %v", err)
}

// A read-back retries more than a poll: against a server whose next five
// answers to GET the alert are truncated, a plain Get (MaxRetries 3) fails
// and VerifyAcknowledge, allowed VerifyRetries, settles it; WithRetries
// narrows it again.
func TestVerifyRetriesMoreThanAPoll(t *testing.T) {
	sim, err := apisim.New(apisim.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = sim.Close() })
	var truncate atomic.Int64
	h := sim.Handler()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.Header.Get("Authorization") != "" && truncate.Add(-1) >= 0 {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"id": "`))
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	c, err := apiclient.New(apiclient.Options{BaseURL: ts.URL, Auth: apiclient.DigestAuth("org-owner", "org-owner-secret"),
		Backoff: time.Millisecond})
	require.NoError(t, err)
	ctx := context.Background()
	page, err := c.Alerts().List(ctx, apisim.DemoPaymentsID, apiclient.AlertListOptions{ListOptions: apiclient.ListOptions{ItemsPerPage: 1}})
	require.NoError(t, err)
	id := page.Results[0].ID

	truncate.Store(5)
	_, err = c.Alerts().Get(ctx, apisim.DemoPaymentsID, id)
	var de *apiclient.DecodeError
	require.ErrorAs(t, err, &de, "four tries, all truncated")

	truncate.Store(5)
	a, _, err := c.Alerts().VerifyAcknowledge(ctx, apisim.DemoPaymentsID, id, apiclient.AcknowledgeRequest{})
	require.NoError(t, err, "the sixth try is read")
	assert.Equal(t, id, a.ID)

	truncate.Store(5)
	_, _, err = c.Alerts().VerifyAcknowledge(apiclient.WithRetries(ctx, 1), apisim.DemoPaymentsID, id, apiclient.AcknowledgeRequest{})
	require.ErrorAs(t, err, &de, "the caller's allowance wins")
}
