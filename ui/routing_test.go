package ui

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/keymap/keytest"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/alerts"
	"github.com/dbadmin-tui/dbadmin-tui/views/backups"
)

func readyModel(t *testing.T, mod func(*Options)) (*driver, map[views.ID]*recPane, *fakeAPI) {
	api := newFakeAPI(t, orgOwner())
	panes := map[views.ID]*recPane{}
	m := newModel(t, api, func(o *Options) {
		o.Panes = recPanes(false, panes)
		if mod != nil {
			mod(o)
		}
	})
	d := newDriver(t, m, 120, 40)
	d.Settle()
	require.Equal(t, phaseReady, m.phase, "connected")
	return d, panes, api
}

func TestNumberKeysAndTabSwitchPanes(t *testing.T) {
	d, panes, _ := readyModel(t, nil)
	m := d.m
	assert.Equal(t, 1, m.active, "the dashboard opens on the first pane about one project, not the board")
	assert.True(t, panes[alerts.ID].visible)
	for i, id := range Panes().IDs() {
		d.Press(string(rune('1' + i)))
		assert.Equal(t, i, m.active, "key %d", i+1)
		assert.True(t, panes[id].visible)
	}
	assert.False(t, panes[alerts.ID].visible, "switched-away pane is hidden")
	d.Press("6", "tab")
	assert.Equal(t, 6, m.active, "tab goes to the next pane")
	d.Press("1", "shift+tab")
	assert.Equal(t, len(Panes())-1, m.active, "shift+tab wraps back")
	assert.Contains(t, d.Screen(), "pane "+string(Panes()[len(Panes())-1].ID))
	set := m.paneIndex("settings")
	d.Press(string(rune('1' + set)))
	assert.Contains(t, d.Screen(), "pane settings")
	d.Press("tab")
	assert.Equal(t, set, m.active, "in Settings tab moves between its sections")
}

func TestPlainKeysReachTheActivePaneOnly(t *testing.T) {
	d, panes, _ := readyModel(t, nil)
	d.Press("j", "down")
	assert.Equal(t, []string{"j", "down"}, panes[alerts.ID].keysGot())
	assert.Empty(t, panes[backups.ID].keysGot())
}

func TestActionKeyIsDeliveredAsActionMsg(t *testing.T) {
	d, panes, api := readyModel(t, nil)
	d.Press("a")
	got := panes[alerts.ID].actionsGot()
	require.Len(t, got, 1)
	assert.Equal(t, "alerts.ack", got[0].Name)
	assert.Empty(t, panes[alerts.ID].keysGot(), "an action key never arrives as a plain key")
	assert.EqualValues(t, 1, api.mutations.Load(), "an allowed action reaches the server")
}

func TestEscClosesTopLayerOnly(t *testing.T) {
	d, panes, _ := readyModel(t, nil)
	m := d.m
	d.Press("/")
	d.Press("?")
	// `?` typed into the filter bar: the bar is the top layer and takes it.
	assert.Equal(t, 1, m.layers.len())
	assert.Equal(t, "?", m.filters[alerts.ID])
	d.Press("enter")
	assert.Equal(t, 0, m.layers.len(), "enter keeps the filter and closes the bar")
	d.Press("?")
	require.Equal(t, 1, m.layers.len())
	_, isHelp := m.layers.top().(*helpLayer)
	assert.True(t, isHelp)
	d.Press(":", "1", "j")
	assert.Equal(t, 1, m.layers.len(), "keys go to help, not to the palette or the pane")
	assert.Equal(t, 1, m.active)
	assert.Empty(t, panes[alerts.ID].keysGot())
	d.Press("esc")
	assert.Equal(t, 0, m.layers.len())
	d.Press("esc")
	assert.Equal(t, "", m.filters[alerts.ID], "esc at pane level clears the filter")
}

func TestDialogGoesAboveLowerLayers(t *testing.T) {
	d, panes, _ := readyModel(t, nil)
	m := d.m
	panes[alerts.ID].busy = "restore of snap-1 running"
	d.Press("/")
	d.Send(asked(views.ConfirmMsg{Pane: alerts.ID, Title: "Ack?", Action: views.ActionMsg{Name: "alerts.ack"}}))
	d.Settle()
	require.Equal(t, 2, m.layers.len())
	_, isDialog := m.layers.top().(*confirmLayer)
	assert.True(t, isDialog, "the dialog is above the filter bar")
	d.Press("esc")
	_, isFilter := m.layers.top().(*filterLayer)
	assert.True(t, isFilter, "esc closed only the dialog")
}

func TestFilterTextIsSentToThePane(t *testing.T) {
	d, panes, _ := readyModel(t, nil)
	d.Press("/")
	d.Type("!pay")
	last := lastReceived[views.FilterMsg](panes[alerts.ID])
	assert.Equal(t, "!pay", last.Text)
	assert.Contains(t, d.Screen(), "/!pay")
}

func TestQuitWithoutBusyPaneQuits(t *testing.T) {
	d, _, _ := readyModel(t, nil)
	_, cmd := d.m.Update(keytest.Press("q"))
	require.NotNil(t, cmd)
	assert.Equal(t, tea.QuitMsg{}, cmd())
}

func TestQuitConfirmDefaultsToNo(t *testing.T) {
	d, panes, _ := readyModel(t, nil)
	m := d.m
	panes[backups.ID].busy = "restore of snap-1 running"
	_, cmd := m.Update(keytest.Press("q"))
	assert.Nil(t, cmd, "quit asks first")
	assert.Contains(t, d.Screen(), "restore of snap-1 running")
	_, cmd = m.Update(keytest.Press("enter"))
	assert.Nil(t, cmd, "enter on the default No does not quit")
	assert.Equal(t, 0, m.layers.len())

	m.Update(keytest.Press("ctrl+c"))
	_, cmd = m.Update(keytest.Press("x"))
	assert.Nil(t, cmd, "any other key cancels")
	assert.Equal(t, 0, m.layers.len())

	m.Update(keytest.Press("q"))
	_, cmd = m.Update(keytest.Press("y"))
	require.NotNil(t, cmd)
	assert.Equal(t, tea.QuitMsg{}, cmd())

	m.Update(keytest.Press("q"))
	m.Update(keytest.Press("right"))
	_, cmd = m.Update(keytest.Press("enter"))
	require.NotNil(t, cmd, "enter on a focused Yes quits")
	assert.Equal(t, tea.QuitMsg{}, cmd())
}

func TestPaletteSwitchesPaneProjectAndReadOnly(t *testing.T) {
	d, panes, _ := readyModel(t, nil)
	m := d.m
	d.Press(":")
	d.Type("back")
	d.Press("enter")
	assert.Equal(t, 2, m.active)

	d.Press(":")
	d.Type("proj")
	d.Press("tab")
	d.Type("sea")
	assert.Contains(t, d.Screen(), "project search-prod")
	d.Press("enter")
	assert.Equal(t, fakeSearch, m.ctx.GroupID)
	changed := slices.ContainsFunc(received[views.ContextChangedMsg](panes[alerts.ID]), func(c views.ContextChangedMsg) bool {
		return c.Scope && c.Ctx.GroupID == fakeSearch
	})
	assert.True(t, changed, "every pane hears of the new project")
	assert.Contains(t, d.Screen(), "search-prod")

	d.Press(":")
	d.Type("ro")
	d.Press("enter")
	assert.True(t, m.gate.ReadOnly())
	assert.Contains(t, d.Screen(), "READ-ONLY")

	d.Press(":")
	d.Type("theme mono")
	d.Press("enter")
	assert.Equal(t, "mono", m.theme.Name)
}

func TestContextPickerRemembersPerProfile(t *testing.T) {
	store := &ContextStore{Path: t.TempDir() + "/context.json"}
	d, _, api := readyModel(t, func(o *Options) { o.State = store })
	m := d.m
	d.Press("@")
	d.Press("enter") // the only org
	d.Type("srch")
	d.Press("enter") // search-prod, fuzzy
	d.Type("search-1")
	d.Press("enter")
	assert.Equal(t, fakeSearch, m.ctx.GroupID)
	assert.Equal(t, "search-1", m.ctx.ClusterName)
	assert.Equal(t, 0, m.layers.len())
	d.Settle()
	r, ok := store.Load("test")
	require.True(t, ok)
	assert.Equal(t, Remembered{OrgID: fakeOrg, GroupID: fakeSearch, ClusterName: "search-1"}, r)

	// A new start of the same profile opens there.
	m2 := newModel(t, api, func(o *Options) { o.State = store; o.Panes = recPanes(false, nil) })
	d2 := newDriver(t, m2, 120, 40)
	d2.Settle()
	assert.Equal(t, fakeSearch, m2.ctx.GroupID)
	assert.Equal(t, "search-1", m2.ctx.ClusterName)
	assert.True(t, strings.Contains(d2.Screen(), "search-prod › search-1"), d2.Screen())
}

func TestYankCopiesSelection(t *testing.T) {
	d, panes, _ := readyModel(t, func(o *Options) { o.Tmux = true })
	_, cmd := d.m.Update(keytest.Press("y"))
	require.NotNil(t, cmd)
	assert.Contains(t, d.Screen(), "nothing selected")

	panes[alerts.ID].selected = "a10000000000000000000001\x1b]0;x\x07"
	_, cmd = d.m.Update(keytest.Press("y"))
	require.NotNil(t, cmd)
	assert.Contains(t, d.Screen(), "copied a10000000000000000000001")

	msgs := collect(clipboardCmds("a1", true))
	require.Len(t, msgs, 2)
	assert.Equal(t, "a1", fmt.Sprint(msgs[0]), "OSC 52 through Bubble Tea")
	raw := fmt.Sprint(msgs[1])
	assert.Contains(t, raw, "Ptmux;", "and through tmux's passthrough")
	assert.Contains(t, raw, "52;c;"+base64.StdEncoding.EncodeToString([]byte("a1")))
	assert.Len(t, collect(clipboardCmds("a1", false)), 1)
}

// esc in the filter prompt cancels the edit: the filter active before the
// prompt opened comes back (none when there was none), and the pane hears it.
func TestEscInFilterPromptRestoresThePreviousFilter(t *testing.T) {
	d, panes, _ := readyModel(t, nil)
	m := d.m
	d.Press("/")
	d.Type("pay")
	d.Press("enter")
	require.Equal(t, "pay", m.filters[alerts.ID])
	d.Press("/")
	d.Type("ments-rs")
	require.Equal(t, "payments-rs", m.filters[alerts.ID], "the list narrows while typing")
	d.Press("esc")
	assert.Equal(t, 0, m.layers.len(), "esc closes the prompt")
	assert.Equal(t, "pay", m.filters[alerts.ID], "esc restores the filter the prompt opened with")
	last := lastReceived[views.FilterMsg](panes[alerts.ID])
	assert.Equal(t, "pay", last.Text, "the pane is told the restored filter")
	d.Press("esc")
	assert.Equal(t, "", m.filters[alerts.ID], "esc at pane level then clears it")
	d.Press("/")
	d.Type("x")
	d.Press("esc")
	assert.Equal(t, "", m.filters[alerts.ID], "a prompt opened with no filter leaves none")
}
