package ui

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/views"
)

func TestRegisteredPanesAreConsistent(t *testing.T) {
	require.NoError(t, Panes().Validate(ShellCommands()...))
	km := Panes().Keymap()
	require.Len(t, km.Global.Jump, len(Panes()))
	for i, r := range Panes() {
		assert.Equal(t, r.JumpHelp(), km.Global.Jump[i].Help().Desc)
		assert.Positive(t, r.Poll, "%s polls at its own interval", r.ID)
	}
}

// A pane named or aliased like a palette command would silently take it:
// the root refuses such a list at start.
func TestAPaneCannotTakeAPaletteCommand(t *testing.T) {
	bad := append(Panes(), views.Registration{ID: "fleet", Title: "Fleet", Aliases: []string{"Cluster"},
		New: func(views.Context) views.Pane { return nil }})
	require.ErrorContains(t, bad.Validate(ShellCommands()...), `pane "fleet": name "cluster" is a palette command`)
	_, err := New(Options{Client: newFakeAPI(t).client(t), Panes: bad})
	require.ErrorContains(t, err, "is a palette command")
	bad[len(bad)-1].Aliases = []string{"fl"}
	require.NoError(t, bad.Validate(ShellCommands()...))
}

func TestDangerousActionsAreTagged(t *testing.T) {
	km := Panes().Keymap()
	for _, name := range []string{"migration.cutover", "backups.delete", "backups.cancelRestore", "search.delete",
		"migration.start", "migration.dropDestination"} {
		a, ok := km.Lookup(name)
		require.True(t, ok, name)
		assert.True(t, a.Dangerous, name)
	}
	ack, _ := km.Lookup("alerts.ack")
	assert.False(t, ack.Dangerous)
	assert.Equal(t, "acknowledgeAlert", ack.Op)
}

// Pane keys against global, navigation, table and sibling keys, over the
// real registered panes.
func TestPaneKeysConflicts(t *testing.T) {
	km := Panes().Keymap()
	require.ErrorContains(t, km.Apply(map[string][]string{"accesslogs.raw": {"q"}}), "global.quit")
	require.ErrorContains(t, km.Apply(map[string][]string{"accesslogs.hosts": {"j"}}), "nav.down")
	require.ErrorContains(t, km.Apply(map[string][]string{"alerts.newConfigJSON": {"a"}}), "alerts.ack")
	require.ErrorContains(t, km.Apply(map[string][]string{"backups.newBucket": {"o"}}), "table.sortNext")
	require.NoError(t, Panes().Keymap().Apply(map[string][]string{"migration.dropDestination": {"o"}}), "migration has no table")
	require.ErrorContains(t, km.Apply(map[string][]string{"global.filter": {"f"}}), "accesslogs.follow")
	require.NoError(t, km.Apply(map[string][]string{"accesslogs.hosts": {"H"}}))
	h, _ := km.Lookup("accesslogs.hosts")
	require.Equal(t, "H", h.Help().Key)
}

// However many panes there are, the open palette lists the shell's
// commands first: a ninth pane cannot push :org off its first screen.
func TestPaletteKeepsItsCommandsOnScreenWithMorePanes(t *testing.T) {
	panes := Panes()
	for _, id := range []views.ID{"extra1", "extra2"} {
		panes = append(panes, views.Registration{ID: id, Title: string(id), New: func(views.Context) views.Pane { return nil }})
	}
	m := newModel(t, newFakeAPI(t), func(o *Options) { o.Panes = panes })
	p := &paletteLayer{input: newInput(":", "")}
	cands := p.candidates(m)
	require.Len(t, cands, len(shellCommands)+len(panes))
	for i, c := range shellCommands {
		assert.Equal(t, c.name, cands[i].text, "the shell's commands first, in their order")
	}
	for i, r := range panes {
		assert.Equal(t, r.CommandName(), cands[len(shellCommands)+i].text, "then every pane in tab order")
	}
	assert.Equal(t, "org", cands[0].text, "the palette's first row is :org, whatever the number of panes")
}
