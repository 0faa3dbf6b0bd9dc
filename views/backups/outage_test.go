package backups

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// The server away: the snapshots shown stay, as of the last good read,
// while the footer says stale (it said "shown as of 14:56" over a list
// replaced by "could not be listed"). Back, the list is read again.
func TestAnOutageKeepsTheRowsShownAsStale(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 24)
	require.NotEmpty(t, h.P.data.Snaps)
	rows := len(h.P.data.Snaps)
	first := h.P.snaps.SelectedID()
	w.Intercept(func(rw http.ResponseWriter, r *http.Request, _ http.Handler) bool {
		if r.Method == http.MethodGet && strings.Contains(r.URL.Path, "/backup/") {
			rw.Header().Set("Content-Type", "application/json")
			rw.WriteHeader(http.StatusServiceUnavailable)
			_, _ = rw.Write([]byte(`{"error":503,"errorCode":"SERVICE_UNAVAILABLE","detail":"try later","reason":"Service Unavailable"}`))
			return true
		}
		return false
	})
	h.Send(views.RefreshMsg{})
	assert.False(t, h.P.Health().StaleSince.IsZero(), "the pane says it is stale")
	screen := h.Screen()
	assert.NotContains(t, screen, "could not be listed")
	assert.Len(t, h.P.data.Snaps, rows)
	assert.Equal(t, first, h.P.snaps.SelectedID(), "the cursor stays where it was")

	w.Intercept(nil)
	h.Send(views.RefreshMsg{})
	assert.True(t, h.P.Health().StaleSince.IsZero(), "live again")
	assert.Nil(t, h.P.data.SnapErr)
}

// A first read that fails says so: there is nothing older to show.
func TestAFirstReadThatFailsSaysSo(t *testing.T) {
	w := newWorld(t)
	w.Intercept(func(rw http.ResponseWriter, r *http.Request, _ http.Handler) bool {
		if r.Method == http.MethodGet && strings.Contains(r.URL.Path, "/backup/snapshots") {
			rw.Header().Set("Content-Type", "application/json")
			rw.WriteHeader(http.StatusServiceUnavailable)
			_, _ = rw.Write([]byte(`{"error":503,"errorCode":"SERVICE_UNAVAILABLE","detail":"try later","reason":"Service Unavailable"}`))
			return true
		}
		return false
	})
	h := newHarness(t, w, "payments-rs", 120, 24)
	assert.Contains(t, h.Screen(), "Snapshots could not be listed")
}
