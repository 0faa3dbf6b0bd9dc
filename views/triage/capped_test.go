package triage

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// A project whose open alerts reached the client's row cap is marked in
// the coverage line ("payments: showing the first N"), and its part is
// marked capped; a project under the cap is not. The cap is lowered so the
// seeded lists reach it.
func TestCappedAlertListsMarkedInCoverage(t *testing.T) {
	const lowered = 2
	viewstest.LowerRowCap(t, lowered)
	e := newEnv(t, "org-owner", 140, 40)
	c := e.Sim.ClientAs("org-owner", viewstest.NoGate)
	capped := 0
	for _, pr := range e.P.projects {
		// Counted apart from the client's capped lists: raw reads one page
		// of up to 500.
		open := 0
		for _, a := range raw(t, c, "listAlerts", map[string]string{"groupId": pr.ID}) {
			if a["status"] == "OPEN" {
				open++
			}
		}
		part, ok := e.P.alerts[pr.ID]
		require.True(t, ok, pr.Name)
		assert.Equal(t, open >= lowered, part.Capped, "%s: %d open", pr.Name, open)
		if open >= lowered {
			capped++
		}
	}
	require.Positive(t, capped, "the seed has a project with more open alerts than the lowered cap")
	cov := e.P.coverage()
	assert.Contains(t, cov, ": showing the first 2")
	if capped > 1 {
		assert.Contains(t, cov, "(and ")
	}
	assert.Contains(t, e.Screen(), "showing the first 2", "the coverage line is on screen")
}
