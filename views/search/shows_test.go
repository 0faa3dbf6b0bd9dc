package search

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// The root asks whether the `/` filter shows a jump's index: kept when it
// does (the jump then selects the index through it), lifted when it hides
// the index or the index is not read yet.
func TestShowsTellsWhetherTheFilterHidesTheJumpsIndex(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 30)
	var cl string
	for _, c := range h.P.clusters {
		if c.Name == "payments-rs" && len(c.Indexes) > 1 {
			cl = c.Name
		}
	}
	require.Equal(t, "payments-rs", cl, "the demo's payments-rs has search indexes")
	ix := h.P.clusters[0].Indexes[0]
	for _, c := range h.P.clusters {
		if c.Name == cl {
			ix = c.Indexes[len(c.Indexes)-1]
		}
	}

	h.Send(views.FilterMsg{Text: ix.Name})
	shown, known := h.P.Shows("", ix.IndexID)
	assert.True(t, shown && known, "its own name shows it")
	// Kept, the jump selects it through the filter, even folded away.
	h.P.collapsed[collRowID(cl, ix.Database, ix.CollectionName)] = true
	h.Send(views.SelectMsg{ItemID: ix.IndexID})
	assert.Equal(t, indexRowID(cl, ix.IndexID), h.P.table.SelectedID())
	assert.Equal(t, ix.Name, h.P.filter)

	h.Send(views.FilterMsg{Text: "!" + ix.Name})
	shown, known = h.P.Shows("", ix.IndexID)
	assert.True(t, known)
	assert.False(t, shown, "the inverted filter hides it")

	_, known = h.P.Shows("", "no-such-index")
	assert.False(t, known)
}

// A role that may not list search indexes is no "0 indexes": the header
// says they are not visible with the role, the cluster row says which
// roles read them, and the pane is not stale for it.
func TestReadOnlyRoleIsNoZeroIndexes(t *testing.T) {
	w := viewstest.NewSim(t, viewstest.SimOptions{Identity: "read-only", Gate: viewstest.GateWithRoles})
	h := newHarness(t, w, "payments-rs", 200, 20)
	screen := h.Screen()
	assert.NotContains(t, screen, "0 indexes")
	assert.Contains(t, screen, "Search indexes · payments-rs · not visible with your role")
	assert.Contains(t, screen, "Its search indexes: not visible with your role (needs Project Data Access Read")
	assert.True(t, h.P.Health().StaleSince.IsZero(), "stale for a role")
}

// Every cluster of the project: the one too old for search is not asked,
// the others are not visible with the role: the header says that, not
// "0 indexes + 2 clusters not read".
func TestReadOnlyRoleOnEveryClusterIsNoZeroIndexes(t *testing.T) {
	w := viewstest.NewSim(t, viewstest.SimOptions{Identity: "read-only", Gate: viewstest.GateWithRoles})
	h := newHarness(t, w, "", 200, 20)
	head := strings.SplitN(h.Screen(), "\n", 2)[0]
	assert.NotContains(t, head, "0 indexes")
	assert.NotContains(t, head, "not read")
	assert.True(t, strings.HasSuffix(strings.TrimSpace(head), "· not visible with your role"), head)
}
