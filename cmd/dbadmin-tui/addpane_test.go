package main

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/config"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/ui"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// oncall is a throwaway pane: one registration, nothing else anywhere.
var oncall = views.Registration{
	ID: "oncall", Title: "Oncall", Aliases: []string{"onc"}, Table: true, Poll: 7 * time.Second,
	Reads:   []views.Read{{Desc: "list", Op: "listAlerts"}},
	Actions: []keymap.Action{keymap.NewAction("oncall.claim", "", "claim incident", "c").Calls("acknowledgeAlert")},
	New:     func(ctx views.Context) views.Pane { return &oncallPane{ctx: ctx} },
}

type oncallPane struct{ ctx views.Context }

func (p *oncallPane) ID() views.ID                         { return oncall.ID }
func (p *oncallPane) Init() tea.Cmd                        { return nil }
func (p *oncallPane) Update(tea.Msg) (views.Pane, tea.Cmd) { return p, nil }
func (p *oncallPane) View() string                         { return "oncall pane" }
func (p *oncallPane) SetSize(int, int)                     {}
func (p *oncallPane) Actions() []keymap.Action             { return p.ctx.Keys.Scope(oncall.ID.Scope()) }
func (p *oncallPane) SetVisible(bool) tea.Cmd              { return nil }
func (p *oncallPane) Busy() string                         { return "" }
func (p *oncallPane) Selected() string                     { return "" }

// Adding a pane is its package and one line in the root's list: with the
// throwaway pane appended to that list (a ninth pane, after Clusters), it shows up in the palette, the help,
// --pane, the [poll] settings and the keymap's conflict checking.
func TestAddAPane(t *testing.T) {
	panes := append(ui.Panes(), oncall)
	key := strconv.Itoa(len(panes))
	require.NoError(t, panes.Validate(ui.ShellCommands()...))

	// --pane: by name, alias and number; the error lists it.
	for _, s := range []string{"oncall", "ONC", key} {
		id, err := paneFlag(panes, s)
		require.NoError(t, err, s)
		assert.Equal(t, oncall.ID, id, s)
	}
	id, err := paneFlag(panes, "1")
	require.NoError(t, err)
	assert.Equal(t, ui.Panes()[0].ID, id, "the others keep their keys")
	_, err = paneFlag(panes, "nope")
	assert.ErrorContains(t, err, ", oncall")

	// [poll]: its key is accepted, with its own default.
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	require.NoError(t, os.WriteFile(path, []byte("[poll]\noncall = \"3s\"\n"), 0o600))
	env := func(k string) string { return map[string]string{"XDG_CONFIG_HOME": dir, "HOME": dir}[k] }
	prof, err := config.Load(config.LoadOptions{ConfigPath: path, Env: env, Panes: panes.PollDefaults()})
	require.NoError(t, err)
	assert.Equal(t, 3*time.Second, pollFrom(prof.Poll).Every(oncall.ID))
	_, err = config.Load(config.LoadOptions{ConfigPath: path, Env: env, Panes: ui.Panes().PollDefaults()})
	assert.ErrorContains(t, err, "config.toml:2: unknown pane", "unknown without the registration")
	assert.Equal(t, 7*time.Second, panes.PollDefaults()["oncall"])

	// Conflicts: its key against a global one, and a registration that
	// takes a global key is refused at start.
	assert.ErrorContains(t, panes.Keymap().Apply(map[string][]string{"oncall.claim": {"q"}}), "global.quit")
	bad := oncall
	bad.Actions = []keymap.Action{keymap.NewAction("oncall.claim", "", "claim", "?")}
	assert.ErrorContains(t, append(ui.Panes(), bad).Validate(ui.ShellCommands()...), "global.help")

	// The palette and the help, on the running dashboard.
	w := viewstest.NewSim(t, viewstest.SimOptions{})
	m, err := ui.New(ui.Options{Client: w.ClientAs("org-owner", viewstest.GateUnknownRoles), Profile: "test",
		Theme: "mono", Clock: w.Clock.Now, Project: "payments", Panes: panes, Pane: "alerts"})
	require.NoError(t, err)
	d := viewstest.NewLiveModelDriver(t, m, 120, 40)
	d.Settle()
	assert.Contains(t, d.Screen(), key+" Oncall")
	d.Press(":")
	d.Type("onc")
	assert.Contains(t, d.Screen(), "oncall pane", "the palette offers it")
	d.Press("enter")
	assert.Contains(t, d.Screen(), "c claim incident", "it is active: the footer shows its keys")
	d.Press("?")
	s := d.Screen()
	assert.Contains(t, s, "Oncall")
	assert.Contains(t, s, "claim incident")
	assert.Contains(t, s, key+"            oncall", "its jump key")
	d.Press("esc", "c")
	assert.Empty(t, w.Writes(), "the stand-in sends nothing")
}
