package backups

import (
	"testing"

	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
	"github.com/dbadmin-tui/dbadmin-tui/ui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// newWorld is apisim on a manual clock, every request logged, with an
// org-owner client that has no gate (the gate is the root's business).
func newWorld(t *testing.T) *viewstest.Sim { return viewstest.NewSim(t, viewstest.SimOptions{}) }

// harness drives the pane as the root does; its timers are parked, and
// poll ticks are stepped by hand with tick.
type harness struct {
	*viewstest.Driver
	p *Pane
}

func newHarness(t *testing.T, w *viewstest.Sim, cluster string, width, height int) *harness {
	t.Helper()
	ctx := w.Context(Registration)
	ctx.ClusterName, ctx.Layout = cluster, views.LayoutFor(width)
	h := &harness{p: NewPane(ctx)}
	h.Driver = viewstest.NewDriver(t, h.p)
	h.p.SetSize(width, height)
	h.Run(h.p.Init())
	h.Run(h.p.SetVisible(true))
	return h
}

// tick delivers the pending poll tick, if any, as the timer would.
func (h *harness) tick() bool {
	h.T.Helper()
	if !h.p.Polling() {
		return false
	}
	h.Send(h.p.Tick())
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
