package alerts

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// The alert configurations' header says "showing the first N" when their
// list reached the client's row cap, and holds the cap's rows; the alerts
// list, read page by page, stops at the cap too. The cap is lowered so the
// seeded lists reach it.
func TestCappedConfigurationsSaySo(t *testing.T) {
	all, err := newPaneEnv(t).Sim.Client.AlertConfigs().ListAll(context.Background(), apisim.DemoPaymentsID)
	require.NoError(t, err)
	require.Greater(t, len(all), 2, "the seed holds more configurations than the lowered cap")

	viewstest.LowerRowCap(t, 2)
	e := newPaneEnv(t)
	require.True(t, e.P.loaded)
	assert.Len(t, e.P.alerts, 2)
	assert.Contains(t, e.P.listHeader(), "2 alerts (showing the first 2)")
	e.Send(views.ActionMsg{Name: actConfigs})
	require.Equal(t, modeConfigs, e.P.mode)
	assert.Len(t, e.P.cfgOrder, 2)
	assert.Equal(t, 2, e.P.cfgTable.Len())
	assert.Contains(t, e.Screen(), "Alert configurations · 2 (showing the first 2) · ")
}

// An alert's detail says when the configurations that raised it reached
// the client's row cap (the cap lowered to one: the alert's one
// configuration reaches it).
func TestCappedDetailConfigurationsSaySo(t *testing.T) {
	e := newPaneEnv(t)
	e.P.SetSize(200, 120)
	e.Action(actDetail)
	require.Equal(t, modeDetail, e.P.mode)
	require.NotEmpty(t, e.P.detailConfigs)
	assert.NotContains(t, e.Screen(), "showing the first")
	e.Press("esc")

	viewstest.LowerRowCap(t, 1)
	e = newPaneEnv(t)
	e.P.SetSize(200, 120) // the whole detail on screen
	e.Action(actDetail)
	require.Equal(t, modeDetail, e.P.mode)
	require.Len(t, e.P.detailConfigs, 1)
	assert.Contains(t, e.Screen(), "Configurations: showing the first 1 (there may be more on the server).")
}
