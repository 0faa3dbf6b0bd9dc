package backups

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// A list that reached the row cap says so above the table, in the words the
// Alerts header uses, and holds the cap's rows; a list under it says nothing.
func TestCappedListsSaySoAboveTheTable(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 24)
	require.True(t, h.P.loaded)
	require.Greater(t, len(h.P.data.Snaps), 2, "the seed holds more snapshots than the lowered cap")
	require.Less(t, len(h.P.data.Exports), 2, "and fewer export jobs")
	assert.NotContains(t, h.Screen(), "showing the first")

	viewstest.LowerRowCap(t, 2)
	h2 := newHarness(t, w, "payments-rs", 80, 24)
	require.True(t, h2.P.loaded)
	assert.Len(t, h2.P.data.Snaps, 2)
	assert.Equal(t, 2, h2.P.snaps.Len())
	s := h2.Screen()
	assert.Contains(t, s, "Snapshots")
	assert.Contains(t, s, ": showing the first 2")
	assert.Contains(t, h2.P.noteText(), "Snapshots")
	assert.NotContains(t, h2.P.noteText(), "Exports", "a list under the cap is not named")
	assert.LessOrEqual(t, len(strings.Split(strings.TrimRight(s, "\n"), "\n")), 24, "the note line is taken from the table, not added below the screen")
}

// The cluster picker says when the project's cluster list reached the cap.
func TestCappedClusterListSaysSo(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "", 120, 24)
	dedicated := 0
	for _, c := range h.P.clusters {
		if c.Kind != kindFlex && c.Kind != kindServerless {
			dedicated++
		}
	}
	require.Greater(t, dedicated, 2, "the seed holds more clusters than the lowered cap")
	assert.NotContains(t, h.Screen(), "showing the first")

	viewstest.LowerRowCap(t, 2)
	h = newHarness(t, w, "", 120, 24)
	assert.Contains(t, h.Screen(), "deployments in ")
	assert.Contains(t, h.Screen(), "(showing the first 2)")
}
