package alerts_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/ui"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/alerts"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// newWorld is apisim on a manual clock with the clock's own incidents off.
func newWorld(t *testing.T) *viewstest.Sim {
	t.Helper()
	w := viewstest.NewSim(t, viewstest.SimOptions{})
	w.Control("PUT", "/incidents/schedule", `{"enabled": false}`)
	return w
}

// newDriver runs the real root model with the alerts pane as identity.
func newDriver(t *testing.T, w *viewstest.Sim, identity string, width, height int) *viewstest.ModelDriver {
	t.Helper()
	m, err := ui.New(ui.Options{Client: w.ClientAs(identity, viewstest.GateUnknownRoles), Profile: "test", Theme: "mono",
		Clock: w.Clock.Now, Project: "payments", Panes: views.Registry{alerts.Registration}})
	require.NoError(t, err)
	return viewstest.NewModelDriver(t, m, width, height)
}

// requireGolden compares a screen with testdata/alerts/<name>.golden.
func requireGolden(t *testing.T, name, got string) {
	t.Helper()
	viewstest.Golden(t, "alerts/"+name, viewstest.Screen(got))
}

// alertOf reads an alert back from the simulator.
func alertOf(t *testing.T, w *viewstest.Sim, id string) *apiclient.Alert {
	t.Helper()
	a, err := w.Client.Alerts().Get(context.Background(), apisim.DemoPaymentsID, id)
	require.NoError(t, err)
	return a
}
