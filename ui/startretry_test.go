package ui

import (
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFailedStartRetriesByItselfWithACountdown(t *testing.T) {
	api := newFakeAPI(t, orgOwner())
	var down atomic.Bool
	down.Store(true)
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if down.Load() {
			hits.Add(1)
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"error":503,"errorCode":"SERVICE_UNAVAILABLE","detail":"down for maintenance"}`))
			return
		}
		api.srv.Config.Handler.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	m := newModel(t, api, func(o *Options) { o.Client = clientAt(t, srv.URL) })
	d := newDriver(t, m, 80, 24)
	d.Settle()
	require.Equal(t, phaseFailed, m.phase)
	assert.Contains(t, d.Screen(), "retrying in 2 s", "a visible countdown")
	assert.Contains(t, d.Screen(), "r retry now")
	assert.Equal(t, time.Duration(4*time.Second), startRetryDelay(1), "backoff doubles")
	assert.Equal(t, time.Minute, startRetryDelay(9), "capped")

	// r retries at once; the countdown's own retry that was due is then
	// dropped (one retry, not two).
	stale := retryStartMsg{attempt: m.attempt}
	d.Press("r")
	assert.Equal(t, 2, m.attempt)
	d.Send(stale)
	assert.Equal(t, 2, m.attempt, "a superseded retry is dropped")
	assert.Contains(t, d.Screen(), "retrying in 4 s", "waits longer after the second failure")

	// The server is back: the retry that comes due starts the dashboard
	// with no key pressed.
	down.Store(false)
	d.Send(retryStartMsg{attempt: m.attempt})
	d.Settle()
	assert.Equal(t, phaseReady, m.phase)
	assert.True(t, m.retryAt.IsZero())
	assert.Contains(t, d.Screen(), "payments")
}
