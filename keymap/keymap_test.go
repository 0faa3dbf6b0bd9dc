package keymap

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func press(s string) tea.KeyPressMsg {
	switch s {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	}
	r := []rune(s)[0]
	return tea.KeyPressMsg{Code: r, Text: s}
}

func TestDefaultHasNoConflicts(t *testing.T) {
	require.NoError(t, Default().Validate())
}

func TestNamesAreUniqueAndScoped(t *testing.T) {
	seen := map[string]bool{}
	for _, a := range Default().Actions() {
		require.False(t, seen[a.Name], "duplicate name %s", a.Name)
		seen[a.Name] = true
		require.NotEmpty(t, a.Keys(), a.Name)
		require.NotEmpty(t, a.Help().Desc, a.Name)
		require.Contains(t, AllScopes(), a.Scope(), a.Name)
	}
}

func TestDangerousTags(t *testing.T) {
	km := Default()
	for _, a := range []Action{km.Migration.Cutover, km.Backups.Delete, km.Backups.CancelRestore, km.Search.Delete, km.Migration.Start, km.Migration.DropDestination} {
		require.True(t, a.Dangerous, a.Name)
	}
	require.False(t, km.Alerts.Ack.Dangerous)
	require.Equal(t, "acknowledgeAlert", km.Alerts.Ack.Op)
}

func TestApplyOverride(t *testing.T) {
	km := Default()
	require.NoError(t, km.Apply(map[string][]string{"alerts.ack": {"A", "ctrl+a"}, "global.quit": {"Q"}}))
	require.True(t, km.Alerts.Ack.Matches(press("A")))
	require.False(t, km.Alerts.Ack.Matches(press("a")))
	require.Equal(t, "A/ctrl+a", km.Alerts.Ack.Help().Key)
	require.True(t, km.Global.Quit.Matches(press("Q")))
	require.False(t, km.Global.Quit.Matches(press("q")))
	// A fresh default is untouched: no shared mutable state.
	require.True(t, Default().Alerts.Ack.Matches(press("a")))
}

func TestApplyConflictRefusedNamingBoth(t *testing.T) {
	km := Default()
	err := km.Apply(map[string][]string{"alerts.ack": {"d"}})
	require.Error(t, err)
	require.Contains(t, err.Error(), `"d"`)
	require.Contains(t, err.Error(), "alerts.ack")
	require.Contains(t, err.Error(), "alerts.delete")
	// Nothing applied.
	require.True(t, km.Alerts.Ack.Matches(press("a")))

	// A pane key against a global key.
	err = km.Apply(map[string][]string{"backups.snapshot": {"q"}})
	require.ErrorContains(t, err, "global.quit")
	require.ErrorContains(t, err, "backups.snapshot")

	// The same key in two panes never active together is fine.
	require.NoError(t, km.Apply(map[string][]string{"alerts.ack": {"z"}}))
}

func TestApplyUnknownActionRefused(t *testing.T) {
	km := Default()
	err := km.Apply(map[string][]string{"alerts.nope": {"x"}, "alerts.ack": {"b"}})
	require.ErrorContains(t, err, `unknown action "alerts.nope"`)
	require.True(t, km.Alerts.Ack.Matches(press("a")), "all or nothing")
}

func TestShadowingIsNotAConflict(t *testing.T) {
	km := Default()
	require.NoError(t, km.Validate())
	// But rebinding the shadowed global onto another access-log key is.
	err := km.Apply(map[string][]string{"global.filter": {"f"}})
	require.ErrorContains(t, err, "accesslogs.follow")
}

func TestDisableWithReasonAndHelp(t *testing.T) {
	km := Default()
	require.NoError(t, km.Disable("alerts.ack", "needs PROJECT_OWNER"))
	require.False(t, km.Alerts.Ack.Matches(press("a")))
	dis := km.Disabled(ScopeAlerts)
	require.Len(t, dis, 1)
	require.Equal(t, "needs PROJECT_OWNER", dis[0].DisabledReason)

	var found bool
	for _, g := range km.HelpGroups(ScopeAlerts) {
		for _, e := range g.Entries {
			if e.Name == "alerts.ack" {
				found = true
				require.True(t, e.Disabled)
				require.Equal(t, "needs PROJECT_OWNER", e.Reason)
			}
		}
	}
	require.True(t, found)

	// Overriding keys keeps the action disabled.
	require.NoError(t, km.Apply(map[string][]string{"alerts.ack": {"b"}}))
	require.False(t, km.Alerts.Ack.Matches(press("b")))
	require.NoError(t, km.Enable("alerts.ack"))
	require.True(t, km.Alerts.Ack.Matches(press("b")))
	require.Error(t, km.Disable("nope", "x"))
}

func TestGate(t *testing.T) {
	km := Default()
	km.Gate(func(a Action) (bool, string) {
		if strings.HasPrefix(a.Op, "delete") {
			return false, "read-only mode"
		}
		return true, ""
	})
	require.False(t, km.Backups.Delete.Enabled())
	require.Equal(t, "read-only mode", km.Backups.Delete.DisabledReason)
	require.True(t, km.Alerts.Ack.Enabled())
	require.True(t, km.Global.Quit.Enabled(), "local actions untouched")
}

func TestHelpViews(t *testing.T) {
	km := Default()
	h := km.HelpFor(ScopeAlerts)
	full := h.FullHelp()
	require.Len(t, full, 4) // alerts, table, navigation, global
	require.Equal(t, km.Alerts.Detail.Binding.Help(), full[0][0].Help())
	require.NotEmpty(t, h.ShortHelp())
	require.Len(t, km.HelpFor(ScopeAccessLogs).FullHelp(), 3)
	require.Len(t, km.HelpFor(ScopeDialog).FullHelp(), 1)
}

func TestSpaceIsSpelledSpace(t *testing.T) {
	km := Default()
	require.True(t, km.Table.Mark.Matches(press("space")))
	require.NoError(t, km.Apply(map[string][]string{"table.mark": {" "}}))
	require.Equal(t, []string{"space"}, km.Table.Mark.Keys())
}

func TestContextPickerIsARemappableGlobal(t *testing.T) {
	km := Default()
	require.Equal(t, []string{"@", "ctrl+o"}, km.Global.Context.Keys())
	var inHelp bool
	for _, g := range km.HelpGroups(ScopeAlerts) {
		for _, e := range g.Entries {
			if e.Name == "global.context" {
				inHelp = g.Scope == ScopeGlobal && e.Key == "@/ctrl+o"
			}
		}
	}
	require.True(t, inHelp, "listed with the global keys")
	require.NoError(t, km.Apply(map[string][]string{"global.context": {"ctrl+g"}}))
	require.Equal(t, []string{"ctrl+g"}, km.Global.Context.Keys())
	require.ErrorContains(t, km.Apply(map[string][]string{"global.context": {"q"}}), "global.quit")
}

// The keys panes used to handle on their own are keymap actions now, in
// their pane's group, so help lists them, config can rebind them and the
// conflict check sees them.
func TestPaneKeysAreInTheKeymap(t *testing.T) {
	km := Default()
	for name, want := range map[string]struct {
		key, op   string
		dangerous bool
	}{
		"alerts.newConfig":          {"n", "createAlertConfiguration", false},
		"alerts.newConfigJSON":      {"N", "createAlertConfiguration", false},
		"alerts.editConfig":         {"e", "updateAlertConfiguration", false},
		"alerts.editConfigJSON":     {"E", "updateAlertConfiguration", false},
		"backups.newBucket":         {"b", "createExportBucket", false},
		"backups.editSchedule":      {"s", "updateBackupSchedule", false},
		"migration.dropDestination": {"D", "createPushMigration", true},
		"accesslogs.hosts":          {"h", "listAtlasProcesses", false},
		"accesslogs.since":          {"S", "listAccessLogsByClusterName", false},
		"accesslogs.userFilter":     {"u", "", false},
		"accesslogs.raw":            {"l", "", false},
	} {
		a, ok := km.Lookup(name)
		require.True(t, ok, name)
		require.Equal(t, []string{want.key}, a.Keys(), name)
		require.Equal(t, want.op, a.Op, name)
		require.Equal(t, want.dangerous, a.Dangerous, name)
		var inHelp bool
		for _, g := range km.HelpGroups(a.Scope()) {
			for _, e := range g.Entries {
				inHelp = inHelp || (e.Name == name && g.Scope == a.Scope())
			}
		}
		require.True(t, inHelp, "%s is in its pane's help group", name)
	}
	// Pane keys against global, navigation and sibling keys.
	require.ErrorContains(t, km.Apply(map[string][]string{"accesslogs.raw": {"q"}}), "global.quit")
	require.ErrorContains(t, km.Apply(map[string][]string{"accesslogs.hosts": {"j"}}), "nav.down")
	require.ErrorContains(t, km.Apply(map[string][]string{"alerts.newConfigJSON": {"a"}}), "alerts.ack")
	require.ErrorContains(t, km.Apply(map[string][]string{"backups.newBucket": {"o"}}), "table.sortNext")
	require.NoError(t, Default().Apply(map[string][]string{"migration.dropDestination": {"o"}}), "migration has no table: o is free there")
	require.ErrorContains(t, km.Apply(map[string][]string{"backups.newBucket": {"r"}}), "global.refresh")
	// And rebinding one works, with the help label following.
	require.NoError(t, km.Apply(map[string][]string{"accesslogs.hosts": {"H"}}))
	require.Equal(t, "H", km.AccessLogs.Hosts.Help().Key)
}

// The footer keeps to a pane's main actions; help-only ones are in ? only.
func TestShortHelpLeavesOutHelpOnly(t *testing.T) {
	km := Default()
	var keys []string
	for _, b := range km.HelpFor(ScopeAlerts).ShortHelp() {
		keys = append(keys, b.Help().Key)
	}
	require.False(t, strings.Contains(strings.Join(keys, " "), "N"), "alerts.newConfigJSON is not in the footer: %v", keys)
	require.Contains(t, keys, "?")
	require.True(t, km.Alerts.NewConfigJSON.HelpOnly)
}
