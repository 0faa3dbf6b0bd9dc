package ui

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/keymap/keytest"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/alerts"
)

// driveEveryActionKey presses, in every pane, every key of every action the
// keymap knows (pane, table, navigation, dialog), each followed by y and
// enter in case a dialog opened, with hostile panes that also try to send
// every mutating operation of their actions on any plain key.
func driveEveryActionKey(t *testing.T, d *driver) {
	km := keymap.Default()
	var keys []string
	for _, a := range km.Actions() {
		if a.Scope() == keymap.ScopeGlobal {
			continue // pane switching and quit are driven separately
		}
		keys = append(keys, a.Keys()...)
	}
	for i := range Panes().IDs() {
		d.m.switchTo(i)
		d.Settle()
		for _, k := range keys {
			for _, p := range []string{k, "y", "enter"} {
				d.Send(keytest.Press(p))
				d.Drain()
			}
			for d.m.layers.len() > 0 {
				d.Send(keytest.Press("esc"))
			}
		}
		d.Settle()
	}
	d.Settle()
}

// driveEveryActionKeyAs opens the dashboard for a caller with these roles
// (mod sets its options), drives every action key once it is ready and
// returns the API, which counts what reached it.
func driveEveryActionKeyAs(t *testing.T, roles []catalog.Assignment, mod func(*Options)) *fakeAPI {
	t.Helper()
	api := newFakeAPI(t, roles...)
	m := newModel(t, api, mod)
	d := newDriver(t, m, 120, 40)
	d.Settle()
	require.Equal(t, phaseReady, m.phase)
	driveEveryActionKey(t, d)
	return api
}

func TestNoMutationReachesServerInReadOnlyMode(t *testing.T) {
	api := driveEveryActionKeyAs(t, []catalog.Assignment{orgOwner()}, func(o *Options) { o.ReadOnly = true; o.Panes = recPanes(true, nil) })
	assert.Zero(t, api.mutations.Load(), "mutating requests: %v", api.mutated)
}

func TestNoMutationReachesServerWithoutTheRole(t *testing.T) {
	api := driveEveryActionKeyAs(t, projectReadOnly(), func(o *Options) { o.Panes = recPanes(true, nil) })
	assert.Zero(t, api.mutations.Load(), "mutating requests: %v", api.mutated)
}

func TestNoMutationFromPlaceholderPanesInReadOnlyMode(t *testing.T) {
	api := driveEveryActionKeyAs(t, []catalog.Assignment{orgOwner()}, func(o *Options) { o.ReadOnly = true })
	assert.Zero(t, api.mutations.Load())
}

// The control: the same drive with an owner in read-write mode does reach
// the server, so the zero counts above mean something.
func TestOwnerSessionDoesMutate(t *testing.T) {
	api := driveEveryActionKeyAs(t, []catalog.Assignment{orgOwner()}, func(o *Options) { o.Panes = recPanes(false, nil) })
	assert.Positive(t, api.mutations.Load())
}

func TestDeniedActionSaysWhy(t *testing.T) {
	cases := []struct {
		name     string
		roles    []catalog.Assignment
		readOnly bool
		want     string
	}{
		{"read-only mode", []catalog.Assignment{orgOwner()}, true, "acknowledge: read-only mode"},
		{"missing role", projectReadOnly(), false, "acknowledge needs Organization Owner or Project Owner or Project Alerts Manager"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			api := newFakeAPI(t, tc.roles...)
			panes := map[views.ID]*recPane{}
			m := newModel(t, api, func(o *Options) { o.ReadOnly = tc.readOnly; o.Panes = recPanes(false, panes) })
			d := newDriver(t, m, 160, 40)
			d.Settle()
			d.Press("a")
			assert.Contains(t, d.Screen(), tc.want)
			assert.Empty(t, panes[alerts.ID].actionsGot(), "the pane never hears of a denied action")
			assert.Empty(t, panes[alerts.ID].keysGot(), "nor gets the key as a plain key")
			assert.Zero(t, api.mutations.Load())

			d.Press("?")
			assert.Contains(t, d.Screen(), "acknowledge", "help lists the action")
			assert.Contains(t, d.Screen(), tc.want[len("acknowledge"):][:12], "greyed with the reason")
		})
	}
}

// A confirmation answered after read-only mode was turned on is refused at
// delivery.
func TestConfirmedActionIsGatedAgainAtDelivery(t *testing.T) {
	d, panes, api := readyModel(t, nil)
	d.Send(asked(views.ConfirmMsg{Pane: alerts.ID, Title: "Ack?", Action: views.ActionMsg{Name: "alerts.ack"}}))
	d.Settle()
	d.m.gate.SetReadOnly(true)
	d.Press("y")
	assert.Empty(t, panes[alerts.ID].actionsGot())
	assert.Zero(t, api.mutations.Load())
}

// judgePane is a recording pane that judges its dialogs' answers itself.
type judgePane struct{ *recPane }

func (judgePane) JudgesAnswers() {}

// A pane disables what the row under the cursor refuses; when a dialog's
// answer comes, the row may be another (a refresh moved it). A pane that
// judges answers on the item the dialog named gets the answer; a new key
// press is still refused, and so is the answer for a pane that does not.
func TestAnsweredDialogGoesToAPaneThatJudgesIt(t *testing.T) {
	d, panes, _ := readyModel(t, nil)
	m := d.m
	i := m.paneIndex(alerts.ID)
	a, ok := m.paneAction(i, "", "alerts.ack")
	require.True(t, ok)
	a = a.Disabled("the row under the cursor is resolved")
	got := func() int { return len(panes[alerts.ID].actionsGot()) }

	collect(m.deliverAction(i, a, views.ActionMsg{Name: a.Name, Confirmed: true}))
	assert.Equal(t, 0, got(), "a pane that does not judge answers: refused")

	m.panes[i] = judgePane{panes[alerts.ID]}
	collect(m.deliverAction(i, a, views.ActionMsg{Name: a.Name}))
	assert.Equal(t, 0, got(), "a key press is refused by the row")
	collect(m.deliverAction(i, a, views.ActionMsg{Name: a.Name, Confirmed: true, Target: "alert-1"}))
	require.Equal(t, 1, got(), "the answer goes to the pane, which checks its target")
	assert.Equal(t, "alert-1", panes[alerts.ID].actionsGot()[0].Target)
}
