package settings

import (
	"context"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// env is the pane's test environment, as identity with its roles known
// to the gate; the pane is opened but not shown (no polls).
type env struct{ *viewstest.Env[*Pane] }

func newEnv(t *testing.T, identity string, layout views.Layout, w, h int) *env {
	t.Helper()
	return &env{viewstest.Open[*Pane](t, Registration, viewstest.Setup{Identity: identity, Gate: viewstest.GateWithRoles,
		Width: w, Height: h, Hidden: true, Context: func(c *views.Context) { c.Layout = layout }})}
}

// goldenScreen compares the pane's view with testdata/settings/<name>.golden.
func goldenScreen(t *testing.T, name, view string) {
	t.Helper()
	viewstest.Golden(t, "settings/"+name, ansi.Strip(view))
}

// selectRow moves the cursor to the row with id.
func (e *env) selectRow(id string) {
	e.T.Helper()
	for i, r := range e.P.rows() {
		if r.id == id {
			e.P.cursor, e.P.keep = i, id
			return
		}
	}
	e.T.Fatalf("no row %s", id)
}

// roleRow finds the row of the first role that matches.
func (e *env) roleRow(match func(apiclient.AccessRole) bool) string {
	e.T.Helper()
	for _, r := range e.P.rows() {
		if r.role != nil && match(*r.role) {
			return r.id
		}
	}
	e.T.Fatal("no such role")
	return ""
}

// settings reads the project's settings back from the simulator as its
// owner.
func (e *env) settings() (*apiclient.AuditLog, *apiclient.AWSCustomDNS, *apiclient.AccessRoles) {
	e.T.Helper()
	ctx := context.Background()
	owner := e.Sim.ClientAs("project-owner", viewstest.NoGate)
	a, err := owner.Settings().AuditLog(ctx, apisim.DemoPaymentsID)
	require.NoError(e.T, err)
	d, err := owner.Settings().CustomDNS(ctx, apisim.DemoPaymentsID)
	require.NoError(e.T, err)
	r, err := owner.Settings().AccessRoles(ctx, apisim.DemoPaymentsID)
	require.NoError(e.T, err)
	return a, d, r
}
