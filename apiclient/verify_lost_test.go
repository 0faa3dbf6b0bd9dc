package apiclient_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// applyThenTruncate forwards the write (the server applies it), runs
// meanwhile (a clock that moves while the answer is on its way), then sends
// the status with half the body: the answer is unreadable, so the outcome
// is unknown. The Date header is the server's clock when the answer leaves.
func applyThenTruncate(f *faultySim, meanwhile func()) loseFunc {
	return func(w http.ResponseWriter, r *http.Request, h http.Handler) bool {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if meanwhile != nil {
			meanwhile()
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Header().Del("Content-Length")
		w.Header().Set("Date", f.clock.Now().UTC().Format(http.TimeFormat))
		w.WriteHeader(rec.Code)
		body := rec.Body.Bytes()
		_, _ = w.Write(body[:len(body)/2])
		return true
	}
}

// A lost answer to a snapshot of a sharded cluster: the snapshot is in the
// sharded-cluster list, not the replica-set one, and the read-back finds
// it. On a replica set and with nothing taken, it is found or not as before.
func TestLostSnapshotOfAShardedClusterIsFound(t *testing.T) {
	f := newFaultySim(t, apisim.Options{Seed: 3}, 10*time.Second)
	ctx := context.Background()
	b := f.client.Backups()
	g := apisim.DemoPaymentsID
	// An answer first, so the client knows the server's clock.
	_, err := f.client.Alerts().List(ctx, g, apiclient.AlertListOptions{})
	require.NoError(t, err)

	for _, cluster := range []string{"payments-prod", "payments-rs"} {
		t.Run(cluster, func(t *testing.T) {
			req := apiclient.TakeSnapshotRequest{Description: "before the " + cluster + " upgrade", RetentionInDays: 3}
			f.setLose(applyThenTruncate(f, nil))
			_, err := b.TakeSnapshot(ctx, g, cluster, req)
			f.setLose(nil)
			ou, ok := apiclient.AsOutcomeUnknown(err)
			require.True(t, ok, "got %v", err)
			snap, found, err := b.VerifyTakeSnapshot(ctx, g, cluster, req, ou.Sent)
			require.NoError(t, err)
			require.True(t, found, "the snapshot the server took on %s was not found", cluster)
			assert.Equal(t, req.Description, snap.Description)

			other := req
			other.Description = "never taken"
			_, found, err = b.VerifyTakeSnapshot(ctx, g, cluster, other, ou.Sent)
			require.NoError(t, err)
			assert.False(t, found)
		})
	}
}

// A server clock that runs fast while the answer is held (a simulator at
// speed 60 holding an answer 10 s, or any server whose Date moved on): the
// created resource is older than the Date of the answer that was lost, but
// not older than the request. The read-back matches by the time the request
// left, so it is found; a look-alike made before the request is not.
func TestLostCreateUnderAFastClockIsFound(t *testing.T) {
	f := newFaultySim(t, apisim.Options{Seed: 3}, 10*time.Second)
	ctx := context.Background()
	g := apisim.DemoPaymentsID
	cs := f.client.AlertConfigs()
	b := f.client.Backups()
	jump := func() { f.clock.Advance(10 * time.Minute) }

	cfg := apiclient.AlertConfig{EventTypeName: "NO_PRIMARY", Enabled: true,
		Notifications: []apiclient.Notification{{TypeName: apiclient.NotifyEmail, EmailAddress: "fast-clock@example.com", IntervalMin: 5}}}
	// A look-alike created a minute (server time) before the request.
	_, err := cs.Create(ctx, g, cfg)
	require.NoError(t, err)
	f.clock.Advance(time.Minute)
	_, err = f.client.Alerts().List(ctx, g, apiclient.AlertListOptions{})
	require.NoError(t, err)

	f.setLose(applyThenTruncate(f, jump))
	_, err = cs.Create(ctx, g, cfg)
	f.setLose(nil)
	ou, ok := apiclient.AsOutcomeUnknown(err)
	require.True(t, ok, "got %v", err)
	found, ok, err := cs.VerifyCreate(ctx, g, cfg, ou.Sent)
	require.NoError(t, err)
	require.True(t, ok, "the configuration the server made was not found (sent %v, server now %v)", ou.Sent, f.clock.Now())
	all, err := cs.ListAll(ctx, g)
	require.NoError(t, err)
	newest := all[0]
	for _, a := range all {
		if a.Created != nil && a.Created.After(*newest.Created) {
			newest = a
		}
	}
	assert.Equal(t, newest.ID, found.ID, "the one made by this request, not the older look-alike")

	req := apiclient.TakeSnapshotRequest{Description: "fast clock", RetentionInDays: 3}
	f.setLose(applyThenTruncate(f, jump))
	_, err = b.TakeSnapshot(ctx, g, "payments-prod", req)
	f.setLose(nil)
	ou, ok = apiclient.AsOutcomeUnknown(err)
	require.True(t, ok, "got %v", err)
	_, ok, err = b.VerifyTakeSnapshot(ctx, g, "payments-prod", req, ou.Sent)
	require.NoError(t, err)
	assert.True(t, ok, "the snapshot taken on a fast clock was not found")
}

// The send time is a lower bound of the server's clock when the request
// left, whatever the clock does after: within a second and the round trip
// of the server's time at the send, and behind a clock that moved on
// without an answer saying so.
func TestSentFloorIsTheServersTimeAtTheSend(t *testing.T) {
	f := newFaultySim(t, apisim.Options{Seed: 3}, 10*time.Second)
	ctx := context.Background()
	assert.True(t, f.client.SentFloor().IsZero(), "nothing to go by before an answer")
	_, err := f.client.Alerts().List(ctx, apisim.DemoPaymentsID, apiclient.AlertListOptions{})
	require.NoError(t, err)
	server := f.clock.Now()
	floor := f.client.SentFloor()
	// The manual clock stands still: the floor runs ahead of it only by
	// the time this test took since the answer.
	assert.Less(t, floor.Sub(server), 500*time.Millisecond, "floor %v after the server's %v", floor, server)
	assert.WithinDuration(t, server, floor, 1500*time.Millisecond)
	f.clock.Advance(time.Hour) // no answer since: the floor does not know, and stays below
	assert.True(t, f.client.SentFloor().Before(f.clock.Now()))
}
