package search

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// The server away while the indexes are read again: the tree stays as
// last read, the header says it is stale and the pane is stale; it gave
// way to "Listing its indexes failed" under a header that read live.
func TestAnOutageKeepsTheTreeAsLastRead(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 30)
	require.True(t, h.P.loaded)
	var name string
	for _, cl := range h.P.clusters {
		if len(cl.Indexes) > 0 {
			name = cl.Indexes[0].Name
		}
	}
	require.NotEmpty(t, name)
	w.FailReads(func(path string) bool { return strings.HasSuffix(path, "/search/indexes") })
	h.Send(views.RefreshMsg{})
	screen := h.Screen()
	assert.Contains(t, screen, name, "the index as last read")
	assert.NotContains(t, screen, "Listing its indexes failed")
	assert.Contains(t, screen, "stale: 1 cluster as last read (r retries)")
	assert.False(t, h.P.Health().StaleSince.IsZero(), "the pane is stale")

	w.Intercept(nil)
	h.Send(views.RefreshMsg{})
	assert.NotContains(t, h.Screen(), "stale")
	assert.True(t, h.P.Health().StaleSince.IsZero())
}

// The cluster itself not read: the tree stays too, the header says stale.
func TestAnOutageOfTheClusterReadKeepsTheTree(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 30)
	require.True(t, h.P.loaded)
	before := h.P.table.SelectedID()
	w.FailReads(nil)
	h.Send(views.RefreshMsg{})
	screen := h.Screen()
	assert.NotContains(t, screen, "search indexes: ", "no failure line in place of the tree")
	assert.Contains(t, screen, "stale: as last read (r retries)")
	assert.Equal(t, before, h.P.table.SelectedID())
	assert.False(t, h.P.Health().StaleSince.IsZero())
}
