package backups

import (
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
	w.FailReads(func(path string) bool { return strings.Contains(path, "/backup/") })
	h.Send(views.RefreshMsg{})
	assert.False(t, h.P.Health().StaleSince.IsZero(), "the pane says it is stale")
	screen := h.Screen()
	assert.NotContains(t, screen, "(r retries)")
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
	w.FailReads(func(path string) bool { return strings.Contains(path, "/backup/snapshots") })
	h := newHarness(t, w, "payments-rs", 120, 24)
	assert.Contains(t, h.Screen(), "Snapshots: 503 SERVICE_UNAVAILABLE: try later (r retries)")
}

// A refusal names its snapshot: moving the cursor from one snapshot the
// compliance policy keeps to another does not tell the root the refusal's
// cause is gone (its message came after the next key's refusal, and
// cleared it: "↑ d" fast said nothing).
func TestMovingBetweenKeptSnapshotsKeepsTheRefusal(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 16)
	h.P.snaps.SetCursor(3)
	h.ActionKey("d")
	first := h.P.keptHere()
	require.NotEmpty(t, first, "the demo's policy keeps this daily snapshot")
	resolved := h.Resolved
	h.Press("down")
	require.NotEmpty(t, h.P.keptHere(), "the next one is kept too")
	require.NotEqual(t, first, h.P.keptHere())
	assert.Equal(t, resolved, h.Resolved, "nothing resolved: both holds are true")
	h.ActionKey("d")
	assert.Contains(t, h.LastToast().Text, "delete snapshot: snapshot "+short(h.P.snaps.SelectedID())+" is kept until")
}

// The same, with the refusal the root's (a greyed key): no notice in the
// pane, only the hold under the cursor, which moves to another kept row.
func TestMovingBetweenKeptSnapshotsResolvesNothing(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 16)
	h.P.snaps.SetCursor(2)
	h.Press("down")
	require.NotEmpty(t, h.P.keptHere())
	resolved := h.Resolved
	h.Press("down")
	require.NotEmpty(t, h.P.keptHere())
	assert.Equal(t, resolved, h.Resolved)
}
