package backups

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// The root asks whether the `/` filter shows a jump's snapshot, restore or
// export: kept when it does (the jump then selects the item through it),
// lifted when it hides the item or the item is not read yet.
func TestShowsTellsWhetherTheFilterHidesTheJumpsItem(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 24)
	require.True(t, h.P.loaded)
	require.NotEmpty(t, h.P.data.Snaps)
	require.NotEmpty(t, h.P.data.Restores)

	snap := h.P.data.Snaps[1]
	h.Send(views.FilterMsg{Text: snap.ID})
	shown, known := h.P.Shows("snapshots", snap.ID)
	assert.True(t, shown && known, "its own id shows it")
	h.Send(views.FilterMsg{Text: "!" + snap.ID})
	shown, known = h.P.Shows("snapshots", snap.ID)
	assert.True(t, known)
	assert.False(t, shown, "the inverted filter hides it")

	r := h.P.data.Restores[len(h.P.data.Restores)-1]
	h.Send(views.FilterMsg{Text: r.Delivery})
	shown, known = h.P.Shows("restores", r.ID)
	assert.True(t, shown && known, "its delivery shows it")
	// Kept, the jump selects it through the filter.
	h.Send(views.SelectMsg{View: "restores", ItemID: r.ID})
	assert.Equal(t, viewRestores, h.P.view)
	assert.Equal(t, r.ID, h.P.restores.SelectedID())
	assert.Equal(t, r.Delivery, h.P.filter, "the filter is the pane's as it was")

	h.Send(views.FilterMsg{Text: "no-such-text"})
	shown, known = h.P.Shows("restores", r.ID)
	assert.True(t, known)
	assert.False(t, shown)

	_, known = h.P.Shows("restores", snap.ID)
	assert.False(t, known, "a snapshot is not a restore")
	_, known = h.P.Shows("exports", "no-such-export")
	assert.False(t, known)
	_, known = h.P.Shows("snapshots", "no-such-snapshot")
	assert.False(t, known)
}

// Before the cluster's data is in, the pane cannot tell: the root lifts
// the filter rather than keep one that may hide the item.
func TestShowsUnknownBeforeTheClusterLoads(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "", 120, 24)
	_, known := h.P.Shows("snapshots", "anything")
	assert.False(t, known)
}
