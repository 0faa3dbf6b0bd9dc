package search

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// A cluster whose index list reached the client's row cap says so in the
// header and in its detail, in the words the Alerts header uses, and holds
// the cap's rows. The cap is lowered so the seeded list reaches it.
func TestCappedIndexListSaysSo(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 100, 30)
	var seeded int
	for _, cl := range h.P.clusters {
		seeded += len(cl.Indexes)
	}
	require.Greater(t, seeded, 2)
	assert.NotContains(t, h.Screen(), "showing the first")

	viewstest.LowerRowCap(t, 2)
	h = newHarness(t, w, "payments-rs", 100, 30)
	require.Len(t, h.P.clusters, 1)
	assert.Len(t, h.P.clusters[0].Indexes, 2)
	assert.Contains(t, h.Screen(), "2 indexes (payments-rs: showing the first 2)")
	assert.Contains(t, h.P.clusterText("payments-rs"), fmt.Sprintf("2 search indexes (%s).", apiclient.ShowingFirst(2)))
}

// The project's cluster list reaching the client's row cap is said in the
// header too (the cap lowered below the seeded clusters).
func TestCappedClusterListSaysSo(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "", 140, 30)
	require.Greater(t, len(h.P.clusters), 1)
	assert.NotContains(t, h.Screen(), "showing the first")

	viewstest.LowerRowCap(t, 1)
	h = newHarness(t, w, "", 140, 30)
	require.Len(t, h.P.clusters, 1)
	assert.Contains(t, h.Screen(), "(clusters: showing the first 1)")
}
