package clusters

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/listpane"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

type env = viewstest.Env[*listpane.Pane[apiclient.Cluster]]

func open(t *testing.T, w, h int) *env {
	return viewstest.Open[*listpane.Pane[apiclient.Cluster]](t, Registration, viewstest.Setup{Width: w, Height: h})
}

func TestClustersGolden(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {200, 60}} {
		e := open(t, size[0], size[1])
		viewstest.Golden(t, "clusters/list_"+itoa(size[0])+"x"+itoa(size[1]), e.Screen())
	}
}

func itoa(n int) string { return map[int]string{80: "80", 24: "24", 200: "200", 60: "60"}[n] }

// Every cluster of the project is listed, with what the service says of it.
func TestClustersListsTheProject(t *testing.T) {
	e := open(t, 200, 60)
	want, err := e.Ctx.Client.Clusters().All(t.Context(), e.Ctx.GroupID)
	require.NoError(t, err)
	require.NotEmpty(t, want)
	s := e.Screen()
	for _, c := range want {
		assert.Contains(t, s, c.Name)
	}
	flex, err := e.Ctx.Client.Clusters().AllFlex(t.Context(), e.Ctx.GroupID)
	require.NoError(t, err)
	sl, err := e.Ctx.Client.Clusters().AllServerless(t.Context(), e.Ctx.GroupID)
	require.NoError(t, err)
	require.NotEmpty(t, flex, "the demo project has a flex cluster")
	require.NotEmpty(t, sl, "and a serverless instance")
	assert.Contains(t, s, flex[0].Name)
	assert.Contains(t, s, sl[0].Name)
	assert.Empty(t, e.Sim.Writes(), "read-only")
}

// enter opens the detail, esc closes it; B jumps to the selected
// cluster's snapshots in the Backups pane.
func TestClustersDetailAndJumps(t *testing.T) {
	e := open(t, 120, 30)
	c, ok := e.P.Item()
	require.True(t, ok)
	e.Action("clusters.detail")
	assert.Contains(t, e.Screen(), "End of life")
	assert.True(t, e.P.CanGoBack())
	e.Press("esc")
	assert.False(t, e.P.CanGoBack())
	for name, pane := range map[string]views.ID{"clusters.backups": "backups", "clusters.alerts": "alerts",
		"clusters.search": "search", "clusters.logs": "accesslogs"} {
		n := len(e.Jumps)
		e.Action(name)
		require.Len(t, e.Jumps, n+1, name)
		j := e.Jumps[n]
		assert.Equal(t, views.JumpMsg{From: ID, Pane: pane, GroupID: e.Ctx.GroupID, Cluster: c.Name,
			View: map[views.ID]string{"backups": "snapshots"}[pane], Name: c.Name}, j)
	}
}

// End of life comes from the release table; a series it does not know
// shows none.
func TestClustersEndOfLife(t *testing.T) {
	assert.Equal(t, "2024-02-29", eol(apiclient.Cluster{MongoDBVersion: "4.4.29"}))
	assert.Equal(t, "-", eol(apiclient.Cluster{MongoDBVersion: "8.0.1"}))
	assert.Equal(t, "shared tier: no access logs", tenant("no access logs")(apiclient.Cluster{
		ReplicationSpecs: []apiclient.ReplicationSpec{{RegionConfigs: []apiclient.RegionConfig{{ProviderName: "TENANT"}}}}}))
}

// A failed read says what failed in the pane's place, and r reads again.
func TestClustersLoadFailureSaysWhatAndRetries(t *testing.T) {
	sim := viewstest.NewSim(t, viewstest.SimOptions{})
	sim.Intercept(func(w http.ResponseWriter, r *http.Request, _ http.Handler) bool {
		if strings.HasSuffix(r.URL.Path, "/flexClusters") {
			http.Error(w, `{"error":500,"errorCode":"UNEXPECTED_ERROR","detail":"boom"}`, http.StatusInternalServerError)
			return true
		}
		return false
	})
	e := viewstest.Open[*listpane.Pane[apiclient.Cluster]](t, Registration, viewstest.Setup{Sim: sim, Width: 120, Height: 30})
	s := e.Screen()
	assert.Contains(t, s, "clusters: flex clusters:")
	assert.Contains(t, s, "(r retries)")
	assert.NotContains(t, s, "payments-prod", "no half list")
	sim.Intercept(nil)
	e.Refresh()
	assert.Contains(t, e.Screen(), "payments-flex")
}

// The root's filter narrows the list; the EOL column sorts by date, the
// series with no known end last.
func TestClustersFilterAndSort(t *testing.T) {
	e := open(t, 120, 30)
	e.Send(views.FilterMsg{Text: "legacy"})
	s := e.Screen()
	assert.Contains(t, s, "payments-legacy")
	assert.NotContains(t, s, "payments-prod")
	e.Send(views.FilterMsg{})
	for range 6 { // NAME, STATE, TYPE, TIER, VERSION, then EOL
		e.Press("o")
	}
	lines := strings.Split(e.Screen(), "\n")
	require.Greater(t, len(lines), 3)
	assert.Contains(t, lines[1], "payments-legacy", "4.0 ended first")
	assert.Contains(t, lines[2], "payments-rs")
}
