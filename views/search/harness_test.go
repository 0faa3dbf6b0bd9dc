package search

import (
	"context"
	"os"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// newWorld is apisim on a manual clock, every request logged, with an
// org-owner client that has no gate (the gate is the root's business).
func newWorld(t testing.TB) *viewstest.Sim { return viewstest.NewSim(t, viewstest.SimOptions{}) }

// editorScript answers each editor run: given the file's text, the text
// to save (or an error for an editor that failed). Runs are recorded.
type editorScript struct {
	steps []func(file string) (string, error)
	seen  []string
}

func (e *editorScript) run(path string, done func(error) tea.Msg) tea.Cmd {
	return func() tea.Msg {
		raw, err := os.ReadFile(path)
		if err != nil {
			return done(err)
		}
		e.seen = append(e.seen, string(raw))
		if len(e.steps) == 0 {
			return done(nil) // saved unchanged
		}
		step := e.steps[0]
		e.steps = e.steps[1:]
		out, err := step(string(raw))
		if err != nil {
			return done(err)
		}
		if werr := os.WriteFile(path, []byte(out), 0o600); werr != nil {
			return done(werr)
		}
		return done(nil)
	}
}

// harness is the pane's test environment with a scripted editor.
type harness struct {
	*viewstest.Env[*Pane]
	ed *editorScript
}

func newHarness(t testing.TB, w *viewstest.Sim, cluster string, width, height int) *harness {
	t.Helper()
	ed := &editorScript{}
	return &harness{ed: ed, Env: viewstest.Open[*Pane](t, Registration, viewstest.Setup{Sim: w, Cluster: cluster, Width: width, Height: height,
		New: func(c views.Context) views.Pane { return NewWithEditor(c, ed.run) }})}
}

// selectIndex moves the cursor to the named index.
func (h *harness) selectIndex(name string) {
	h.T.Helper()
	for _, cl := range h.P.clusters {
		for _, ix := range cl.Indexes {
			if ix.Name == name {
				require.True(h.T, h.P.table.SetCursorID(indexRowID(cl.Name, ix.IndexID)), "row of %s", name)
				h.P.refreshDetail()
				return
			}
		}
	}
	h.T.Fatalf("no index %s", name)
}

func requireGolden(t *testing.T, name, got string) {
	t.Helper()
	viewstest.Golden(t, "search/"+name, got)
}

// indexOf reads an index back from the simulator.
func indexOf(w *viewstest.Sim, cluster, db, coll, name string) (*apiclient.SearchIndex, error) {
	return w.Client.Search().GetByName(context.Background(), apisim.DemoPaymentsID, cluster, db, coll, name)
}

func filterMsg(s string) views.FilterMsg { return views.FilterMsg{Text: s} }
