package keymap

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/keymap/keytest"
)

// The dashboard's real panes register in package ui (which tests them
// together); these two stand-ins exercise the mechanics: a table pane and
// one without, with a dangerous, a help-only and a shadowing action.
const (
	scopeAlpha Scope = "alpha"
	scopeBeta  Scope = "beta"
)

func testPanes() []Pane {
	a := NewAction
	return []Pane{
		{Scope: scopeAlpha, Title: "Alpha", Table: true, Actions: []Action{
			a("alpha.detail", "enter", "details", "enter").Calls("getAlert"),
			a("alpha.ack", "a", "acknowledge", "a").Calls("acknowledgeAlert"),
			a("alpha.delete", "d", "delete config", "d").Calls("deleteAlertConfiguration").AsDangerous(),
			a("alpha.newJSON", "N", "new ($EDITOR)", "N").Calls("createAlertConfiguration").InHelpOnly(),
		}},
		{Scope: scopeBeta, Title: "Beta", Jump: "beta logs", Actions: []Action{
			a("beta.follow", "f", "follow", "f"),
			a("beta.search", "/", "search", "/").Replacing("global.filter"),
			a("beta.raw", "l", "raw line", "l").InHelpOnly(),
		}},
	}
}

func testMap() *KeyMap { return Default(testPanes()...) }

func press(s string) tea.KeyPressMsg { return keytest.Press(s) }

func lookup(t *testing.T, km *KeyMap, name string) Action {
	t.Helper()
	a, ok := km.Lookup(name)
	require.True(t, ok, name)
	return a
}

func TestDefaultHasNoConflicts(t *testing.T) {
	require.NoError(t, Default().Validate())
	require.NoError(t, testMap().Validate())
}

func TestNamesAreUniqueAndScoped(t *testing.T) {
	km := testMap()
	seen := map[string]bool{}
	for _, a := range km.Actions() {
		require.False(t, seen[a.Name], "duplicate name %s", a.Name)
		seen[a.Name] = true
		require.NotEmpty(t, a.Keys(), a.Name)
		require.NotEmpty(t, a.Help().Desc, a.Name)
		require.Contains(t, km.AllScopes(), a.Scope(), a.Name)
	}
}

func TestJumpKeysFollowThePanes(t *testing.T) {
	km := testMap()
	require.Len(t, km.Global.Jump, 2)
	require.Equal(t, []string{"1"}, km.Global.Jump[0].Keys())
	require.Equal(t, "alpha", km.Global.Jump[0].Help().Desc, "lower-case title by default")
	require.Equal(t, "beta logs", km.Global.Jump[1].Help().Desc)
	require.Equal(t, "Beta", km.Title(scopeBeta))
	require.Equal(t, "Global", km.Title(ScopeGlobal))
	require.Empty(t, Default().Global.Jump)
}

func TestApplyOverride(t *testing.T) {
	km := testMap()
	require.NoError(t, km.Apply(map[string][]string{"alpha.ack": {"A", "ctrl+k"}, "global.quit": {"Q"}}))
	ack := lookup(t, km, "alpha.ack")
	require.True(t, ack.Matches(press("A")))
	require.False(t, ack.Matches(press("a")))
	require.Equal(t, "A/ctrl+k", ack.Help().Key)
	require.True(t, km.Global.Quit.Matches(press("Q")))
	require.False(t, km.Global.Quit.Matches(press("q")))
	// A fresh map and the panes it was built from are untouched.
	require.True(t, lookup(t, testMap(), "alpha.ack").Matches(press("a")))
}

func TestCloneSharesNothing(t *testing.T) {
	km := testMap()
	c := km.Clone()
	require.NoError(t, c.Disable("alpha.ack", "x"))
	require.NoError(t, c.Apply(map[string][]string{"global.pane1": {"!"}}))
	require.True(t, lookup(t, km, "alpha.ack").Enabled())
	require.Equal(t, []string{"1"}, km.Global.Jump[0].Keys())
}

func TestApplyConflictRefusedNamingBoth(t *testing.T) {
	km := testMap()
	err := km.Apply(map[string][]string{"alpha.ack": {"d"}})
	require.ErrorContains(t, err, `"d"`)
	require.ErrorContains(t, err, "alpha.ack")
	require.ErrorContains(t, err, "alpha.delete")
	require.True(t, lookup(t, km, "alpha.ack").Matches(press("a")), "nothing applied")

	// A pane key against a global, a navigation and a table key.
	require.ErrorContains(t, km.Apply(map[string][]string{"alpha.ack": {"q"}}), "global.quit")
	require.ErrorContains(t, km.Apply(map[string][]string{"beta.raw": {"j"}}), "nav.down")
	require.ErrorContains(t, km.Apply(map[string][]string{"alpha.newJSON": {"o"}}), "table.sortNext")
	require.NoError(t, testMap().Apply(map[string][]string{"beta.raw": {"o"}}), "beta has no table: o is free there")
	// The same key in two panes never active together is fine.
	require.NoError(t, km.Apply(map[string][]string{"alpha.ack": {"f"}}))
}

func TestApplyUnknownActionRefused(t *testing.T) {
	km := testMap()
	err := km.Apply(map[string][]string{"alpha.nope": {"x"}, "alpha.ack": {"b"}})
	require.ErrorContains(t, err, `unknown action "alpha.nope"`)
	require.True(t, lookup(t, km, "alpha.ack").Matches(press("a")), "all or nothing")
}

func TestShadowingIsNotAConflict(t *testing.T) {
	km := testMap()
	require.NoError(t, km.Validate())
	// But rebinding the shadowed global onto another key of that pane is.
	require.ErrorContains(t, km.Apply(map[string][]string{"global.filter": {"f"}}), "beta.follow")
}

func TestDisableWithReasonAndHelp(t *testing.T) {
	km := testMap()
	require.NoError(t, km.Disable("alpha.ack", "needs PROJECT_OWNER"))
	require.False(t, lookup(t, km, "alpha.ack").Matches(press("a")))
	dis := km.Disabled(scopeAlpha)
	require.Len(t, dis, 1)
	require.Equal(t, "needs PROJECT_OWNER", dis[0].DisabledReason)

	var found bool
	for _, g := range km.HelpGroups(scopeAlpha, km.Scope(scopeAlpha)) {
		for _, e := range g.Entries {
			if e.Name == "alpha.ack" {
				found = true
				require.True(t, e.Disabled)
				require.Equal(t, "needs PROJECT_OWNER", e.Reason)
			}
		}
	}
	require.True(t, found)

	// Overriding keys keeps the action disabled.
	require.NoError(t, km.Apply(map[string][]string{"alpha.ack": {"b"}}))
	require.False(t, lookup(t, km, "alpha.ack").Matches(press("b")))
	require.NoError(t, km.Enable("alpha.ack"))
	require.True(t, lookup(t, km, "alpha.ack").Matches(press("b")))
	require.Error(t, km.Disable("nope", "x"))
}

func TestGate(t *testing.T) {
	km := testMap()
	km.Gate(func(a Action) (bool, string) {
		if strings.HasPrefix(a.Op, "delete") {
			return false, "read-only mode"
		}
		return true, ""
	})
	del := lookup(t, km, "alpha.delete")
	require.False(t, del.Enabled())
	require.Equal(t, "read-only mode", del.DisabledReason)
	require.True(t, lookup(t, km, "alpha.ack").Enabled())
	require.True(t, km.Global.Quit.Enabled(), "local actions untouched")
}

// Help lists the actions the pane offers now, not the keymap's defaults:
// a view that renames or disables one shows exactly that.
func TestHelpGroupsTakeThePanesActions(t *testing.T) {
	km := testMap()
	now := []Action{lookup(t, km, "alpha.delete").WithDesc("delete bucket"),
		lookup(t, km, "alpha.ack").Disabled("nothing selected")}
	groups := km.HelpGroups(scopeAlpha, now)
	require.Equal(t, []Scope{scopeAlpha, ScopeTable, ScopeNavigation, ScopeGlobal},
		[]Scope{groups[0].Scope, groups[1].Scope, groups[2].Scope, groups[3].Scope})
	require.Equal(t, "Alpha", groups[0].Title)
	require.Len(t, groups[0].Entries, 2)
	require.Equal(t, "delete bucket", groups[0].Entries[0].Desc)
	require.True(t, groups[0].Entries[0].Dangerous)
	require.Equal(t, "nothing selected", groups[0].Entries[1].Reason)

	require.Len(t, km.HelpGroups(scopeBeta, km.Scope(scopeBeta)), 3, "no table group")
	require.Len(t, km.HelpGroups(ScopeDialog, nil), 1)
}

func TestSpaceIsSpelledSpace(t *testing.T) {
	km := Default()
	require.True(t, km.Table.Mark.Matches(press("space")))
	require.NoError(t, km.Apply(map[string][]string{"table.mark": {" "}}))
	require.Equal(t, []string{"space"}, km.Table.Mark.Keys())
}

func TestContextPickerIsARemappableGlobal(t *testing.T) {
	km := testMap()
	require.Equal(t, []string{"@", "ctrl+o"}, km.Global.Context.Keys())
	var inHelp bool
	for _, g := range km.HelpGroups(scopeAlpha, nil) {
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

// The footer keeps to a pane's main actions; help-only ones are in ? only.
func TestFooterLeavesOutHelpOnly(t *testing.T) {
	km := testMap()
	var keys []string
	for _, a := range km.Footer(km.Scope(scopeAlpha)) {
		keys = append(keys, a.Help().Key)
	}
	require.NotContains(t, keys, "N", "alpha.newJSON is not in the footer")
	require.Equal(t, []string{"enter", "a", "d", "/", "?", "q"}, keys)
}

// A global key a pane binds itself runs the pane's action: the footer
// leaves the global one out and help greys it with what the key does here.
// Remapped off the key, the global one is back.
func TestFooterAndHelpLeaveOutAGlobalThePaneShadows(t *testing.T) {
	km := testMap()
	footerKeys := func(actions []Action) (keys []string) {
		for _, a := range km.Footer(actions) {
			keys = append(keys, a.Help().Key+" "+a.Help().Desc)
		}
		return keys
	}
	filterEntry := func(actions []Action) HelpEntry {
		for _, g := range km.HelpGroups(scopeBeta, actions) {
			for _, e := range g.Entries {
				if e.Name == "global.filter" {
					return e
				}
			}
		}
		t.Fatal("global.filter not in help")
		return HelpEntry{}
	}
	beta := km.Scope(scopeBeta)
	require.Equal(t, []string{"f follow", "/ search", "? help", "q quit"}, footerKeys(beta))
	e := filterEntry(beta)
	assert.True(t, e.Disabled)
	assert.Equal(t, "here / is search", e.Reason)

	assert.Contains(t, footerKeys(km.Scope(scopeAlpha)), "/ filter", "a pane that does not bind / keeps it")

	require.NoError(t, km.Apply(map[string][]string{"beta.search": {"ctrl+f"}}))
	beta = km.Scope(scopeBeta)
	assert.Contains(t, footerKeys(beta), "/ filter")
	assert.False(t, filterEntry(beta).Disabled)
}
