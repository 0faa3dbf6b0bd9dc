package backups

import (
	"testing"

	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// newWorld is apisim on a manual clock, every request logged, with an
// org-owner client that has no gate (the gate is the root's business).
func newWorld(t *testing.T) *viewstest.Sim { return viewstest.NewSim(t, viewstest.SimOptions{}) }

// harness is the pane's test environment; poll ticks are stepped by hand
// with tick.
type harness struct{ *viewstest.Env[*Pane] }

func newHarness(t *testing.T, w *viewstest.Sim, cluster string, width, height int) *harness {
	t.Helper()
	return &harness{viewstest.Open[*Pane](t, Registration, viewstest.Setup{Sim: w, Cluster: cluster, Width: width, Height: height})}
}

// tick delivers the pending poll tick, if any, as the timer would.
func (h *harness) tick() bool {
	h.T.Helper()
	if !h.P.Polling() {
		return false
	}
	h.Send(h.P.Tick())
	return true
}

// formScreen renders a form the pane asked for, as the root's dialog would.
func formScreen(f views.FormMsg, w, hgt int) string {
	form := components.NewForm(f.ID, f.Title, f.Fields, nil, themes.MustGet(themes.Mono), keymap.Default())
	form.SetSize(w, hgt)
	return viewstest.Screen(form.View())
}

func requireGolden(t *testing.T, name, got string) {
	t.Helper()
	viewstest.Golden(t, "backups/"+name, got)
}
