package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// A pane read in parts (the Triage board) has the header say how fresh
// each part is: every part's age and the stale ones with since when and
// why when wide; the oldest age and the stale parts' names at 80 columns;
// and the pane's own stale line is not drawn over it (the board says which
// rows are stale itself).
func TestHeaderSaysHowFreshEachPartIs(t *testing.T) {
	wall := fixedNow
	d, panes, _ := readyModel(t, func(o *Options) { o.Wall = func() time.Time { return wall } })
	d.Press("1")
	d.Settle()
	board := panes["triage"]
	require.NotNil(t, board)
	require.True(t, board.visible)
	header := func(w int) string {
		d.Send(tea.WindowSizeMsg{Width: w, Height: 30})
		return strings.SplitN(d.Screen(), "\n", 2)[0]
	}

	set := func(parts []views.PartHealth) {
		var b views.Base
		b.SetParts(parts)
		board.health = b.Health()
	}
	set([]views.PartHealth{
		{Name: "alerts", OK: fixedNow.Add(-12 * time.Second)},
		{Name: "clusters", OK: fixedNow.Add(-3 * time.Minute)},
		{Name: "snapshots", OK: fixedNow.Add(-3 * time.Minute)},
		{Name: "auth bursts"},
	})
	wide := header(200)
	assert.Contains(t, wide, "alerts 12s ago · clusters, snapshots 3m ago · auth bursts not read yet ● live")
	narrow := header(80)
	assert.Contains(t, narrow, "oldest 3m ago")
	assert.NotContains(t, narrow, "stale")
	assert.NotContains(t, narrow, "updated", "the board's age is its parts', not its last answer's")

	since := fixedNow.Add(-time.Minute)
	set([]views.PartHealth{
		{Name: "alerts", OK: fixedNow.Add(-12 * time.Second)},
		{Name: "clusters", OK: fixedNow.Add(-3 * time.Minute)},
		{Name: "exports", OK: fixedNow.Add(-3 * time.Minute), StaleSince: since,
			Err: &apiclient.Error{Status: 503, ErrorCode: "SERVICE_UNAVAILABLE"}},
	})
	wide = header(200)
	assert.Contains(t, wide, "alerts 12s ago · clusters 3m ago · ✗ exports stale since 09:29:00 · 503 SERVICE_UNAVAILABLE")
	assert.NotContains(t, wide, "● live")
	narrow = header(80)
	assert.Contains(t, narrow, "Acme Corp › payments › all clusters", "the context stays whole")
	assert.Regexp(t, `3m ago( · | )✗ exports`, narrow)
	assert.NotContains(t, d.Screen(), "data stale since", "no root stale line over the board")

	// Many stale parts at 80 columns: the age and how many.
	set([]views.PartHealth{
		{Name: "alerts", OK: fixedNow.Add(-2 * time.Hour), StaleSince: since, Err: &apiclient.Error{Status: 503}},
		{Name: "clusters", OK: fixedNow.Add(-3 * time.Minute), StaleSince: since, Err: &apiclient.Error{Status: 503}},
		{Name: "snapshots", OK: fixedNow.Add(-3 * time.Minute), StaleSince: since, Err: &apiclient.Error{Status: 503}},
		{Name: "restores", OK: fixedNow.Add(-3 * time.Minute), StaleSince: since, Err: &apiclient.Error{Status: 503}},
		{Name: "search", OK: fixedNow.Add(-3 * time.Minute), StaleSince: since, Err: &apiclient.Error{Status: 503}},
	})
	assert.Contains(t, header(200), "✗ alerts, clusters, snapshots, restores, search stale since 09:29:00 · 503")
	narrow = header(80)
	assert.Contains(t, narrow, "2h ✗5")
	assert.Contains(t, narrow, "Acme Corp › payments › all clusters")
}
