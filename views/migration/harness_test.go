package migration

import (
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// env is the pane's test environment, as identity with its roles known
// to the gate.
type env struct{ *viewstest.Env[*Pane] }

func newEnv(t *testing.T, identity string, w, h int) *env {
	t.Helper()
	return &env{viewstest.Open[*Pane](t, Registration, viewstest.Setup{Identity: identity, Gate: viewstest.GateWithRoles, Width: w, Height: h})}
}

// advance moves the server clock and polls, as a tick would.
func (e *env) advance(d time.Duration) {
	e.T.Helper()
	e.Sim.Clock.Advance(d)
	e.Run(e.P.pollNow())
}

// selectSource moves the cursor of the source step to a deployment.
func (e *env) selectSource(name string) {
	e.T.Helper()
	for i, r := range e.P.sources {
		if r.dep.Name == name {
			e.P.srcCursor = i
			return
		}
	}
	e.T.Fatalf("no source deployment %s", name)
}

func (e *env) selectDest(name string) {
	e.T.Helper()
	for i, c := range e.P.clusters {
		if c.Name == name {
			e.P.dstCursor = i
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
