package migration

import (
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// env is the pane against a fresh apisim on a manual clock, driven as the
// root would drive it, as identity with its roles known to the gate.
type env struct {
	*viewstest.Driver
	sim  *viewstest.Sim
	pane *Pane
}

func newEnv(t *testing.T, identity string, w, h int) *env {
	t.Helper()
	sim := viewstest.NewSim(t, viewstest.SimOptions{Identity: identity, Gate: viewstest.GateWithRoles})
	ctx := sim.Context(Registration)
	ctx.Layout = views.LayoutFor(w)
	e := &env{sim: sim, pane: New(ctx).(*Pane)}
	e.Driver = viewstest.NewDriver(t, e.pane)
	e.pane.SetSize(w, h)
	e.Run(e.pane.Init())
	e.Run(e.pane.SetVisible(true))
	return e
}

// advance moves the server clock and polls, as a tick would.
func (e *env) advance(d time.Duration) {
	e.T.Helper()
	e.sim.Clock.Advance(d)
	e.Run(e.pane.pollNow())
}

// selectSource moves the cursor of the source step to a deployment.
func (e *env) selectSource(name string) {
	e.T.Helper()
	for i, r := range e.pane.sources {
		if r.dep.Name == name {
			e.pane.srcCursor = i
			return
		}
	}
	e.T.Fatalf("no source deployment %s", name)
}

func (e *env) selectDest(name string) {
	e.T.Helper()
	for i, c := range e.pane.clusters {
		if c.Name == name {
			e.pane.dstCursor = i
			return
		}
	}
	e.T.Fatalf("no destination %s", name)
}

// goldenScreen compares the view with testdata/migration/<name>.golden.
func goldenScreen(t *testing.T, name, view string) {
	t.Helper()
	viewstest.Golden(t, "migration/"+name, ansi.Strip(view))
}
