package ui

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// A context picker list that reached the client's row cap says "showing
// the first N" under the list; one under it says nothing. The cap is
// lowered to 2 so the fake's two projects and two clusters reach it while
// its one organization does not.
func TestContextPickerSaysWhenAListReachedTheRowCap(t *testing.T) {
	viewstest.LowerRowCap(t, 2)
	d, _, _ := readyModel(t, nil)
	d.Press("@")
	p, ok := d.m.layers.top().(*pickerLayer)
	require.True(t, ok)
	for p.stage != stageOrg {
		d.Press("backspace")
	}
	require.Len(t, d.m.scope.orgs, 1)
	assert.NotContains(t, d.Screen(), "showing the first", "one organization is under the cap")

	d.Press("enter")
	require.Equal(t, stageProject, p.stage)
	require.Len(t, d.m.scope.projects, 2)
	assert.Contains(t, d.Screen(), "showing the first 2")

	d.Type("payments")
	d.Press("enter")
	d.Settle()
	require.Equal(t, stageCluster, p.stage)
	require.Len(t, p.clusters, 2)
	assert.Contains(t, d.Screen(), "showing the first 2")
}
