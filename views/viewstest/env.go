package viewstest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// Setup says how Open opens a pane. The zero value is the org owner with
// no gate, 120x30, the payments project, no cluster, visible.
type Setup struct {
	// Sim is the world; a new NewSim(SimOptions{Identity, Gate}) when nil.
	Sim      *Sim
	Identity string
	Gate     GateMode
	// Width and Height are the pane's size; 120x30 when zero. The layout
	// follows the width, as the root's does.
	Width, Height int
	// Cluster is the selected cluster, empty for none.
	Cluster string
	// Context changes the Context last, for what the fields above do not
	// say (another project, poll intervals, no org).
	Context func(*views.Context)
	// New builds the pane instead of the Registration's factory (a pane
	// with a scripted editor, say).
	New func(views.Context) views.Pane
	// Hidden opens the pane without showing it: Init runs, SetVisible
	// does not.
	Hidden bool
	// RunTimers runs timers at once instead of parking them (see
	// Driver.RunTimers).
	RunTimers bool
}

// Env is one pane against apisim, opened as the root opens it (the
// Context, SetSize, Init, SetVisible) and driven as the root drives it.
// It is every pane package's test environment; a package adds only
// helpers that know its own pane (selecting a row, reading a resource
// back).
type Env[P views.Pane] struct {
	*Driver
	Sim *Sim
	// P is the pane under test, as its own type.
	P P
	// Ctx is the Context the pane was given.
	Ctx views.Context
}

// Open opens the pane reg registers, as Setup says.
func Open[P views.Pane](t testing.TB, reg views.Registration, s Setup) *Env[P] {
	t.Helper()
	if s.Sim == nil {
		s.Sim = NewSim(t, SimOptions{Identity: s.Identity, Gate: s.Gate})
	}
	if s.Width == 0 {
		s.Width, s.Height = 120, 30
	}
	ctx := s.Sim.Context(reg)
	ctx.ClusterName, ctx.Layout = s.Cluster, views.LayoutFor(s.Width)
	if s.Context != nil {
		s.Context(&ctx)
	}
	build := reg.New
	if s.New != nil {
		build = s.New
	}
	p, ok := build(ctx).(P)
	require.True(t, ok, "the factory of %s builds a %T", reg.ID, build(ctx))
	// The root routes a pane's messages by its ID and titles its tab from
	// the registration: a pane built with another id would get none.
	require.Equal(t, reg.ID, p.ID(), "the pane's base has its registration's id")
	e := &Env[P]{Driver: NewDriver(t, p), Sim: s.Sim, P: p, Ctx: ctx}
	if s.RunTimers {
		e.RunTimers()
	}
	p.SetSize(s.Width, s.Height)
	e.Run(p.Init())
	if !s.Hidden {
		e.Run(p.SetVisible(true))
	}
	return e
}

// Refresh asks the pane to read again, as r does.
func (e *Env[P]) Refresh() {
	e.T.Helper()
	e.Send(views.RefreshMsg{})
}

// ToastTexts are the texts of the toasts so far, oldest first.
func (e *Env[P]) ToastTexts() []string {
	out := make([]string, 0, len(e.Toasts))
	for _, t := range e.Toasts {
		out = append(out, t.Text)
	}
	return out
}
