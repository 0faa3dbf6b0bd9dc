package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/keymap/keytest"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/alerts"
	"github.com/dbadmin-tui/dbadmin-tui/views/backups"
)

// slowFormPane is a recording pane whose ack opens its form a little
// later, as a pane does that first reads something (the form is asked for
// when the read answers); with noForm it answers the ack with a Cmd that
// opens nothing; with atOnce it asks for the form in the key's Update.
type slowFormPane struct {
	*recPane
	noForm, atOnce bool
}

// formRead is the slow pane's read answering.
type formRead struct{}

func (p *slowFormPane) askForm() {
	p.Form(views.FormMsg{ID: "ack", Title: "Acknowledge",
		Fields: []components.Field{{Key: "comment", Label: "Comment"}}, Action: views.ActionMsg{Name: "alerts.ack"}})
}

func (p *slowFormPane) Update(msg tea.Msg) (views.Pane, tea.Cmd) {
	if _, ok := msg.(formRead); ok {
		p.askForm()
		return p, nil
	}
	if a, ok := msg.(views.ActionMsg); ok && a.Name == "alerts.ack" && !a.Confirmed {
		p.got = append(p.got, msg)
		switch {
		case p.noForm:
			return p, func() tea.Msg { time.Sleep(20 * time.Millisecond); return nil }
		case p.atOnce: // and reads on meanwhile
			p.askForm()
			return p, func() tea.Msg { return nil }
		}
		return p, func() tea.Msg {
			time.Sleep(60 * time.Millisecond)
			return views.PaneMsg{Pane: alerts.ID, Msg: formRead{}}
		}
	}
	_, cmd := p.recPane.Update(msg)
	return p, cmd
}

func holdModel(t *testing.T, noForm, atOnce bool) (*Model, **slowFormPane) {
	api := newFakeAPI(t, orgOwner())
	var pane *slowFormPane
	rs := recPanes(false, nil)
	for i := range rs {
		if rs[i].ID == alerts.ID {
			id := rs[i].ID
			rs[i].New = func(ctx views.Context) views.Pane {
				pane = &slowFormPane{recPane: newRecPane(id, ctx), noForm: noForm, atOnce: atOnce}
				return pane
			}
		}
	}
	return newModel(t, api, func(o *Options) { o.Panes = rs }), &pane
}

// typeAtAlerts runs a holdModel in a program, shows the Alerts pane once the
// dashboard is ready and types keys there in one write. It returns the
// program's ask and the Alerts pane.
func typeAtAlerts(t *testing.T, noForm, atOnce bool, keys string) (func(func(*Model) any) any, **slowFormPane) {
	t.Helper()
	m, pane := holdModel(t, noForm, atOnce)
	w, ask := pipeProgram(t, m)
	waitReady(t, ask)
	ask(func(m *Model) any { return m.switchTo(m.paneIndex(alerts.ID)) })
	waitModel(t, ask, "the alerts pane", func(m *Model) bool { return m.panes[m.active].ID() == alerts.ID })
	_, err := w.Write([]byte(keys))
	require.NoError(t, err)
	return ask, pane
}

// `a` and a comment in one write: the keys typed before the form opened
// land in the form, none on the list.
func TestKeysTypedBeforeTheDialogGoIntoIt(t *testing.T) {
	ask, pane := typeAtAlerts(t, false, false, "atyre check")
	waitModel(t, ask, "the comment typed into the form", func(m *Model) bool {
		f, ok := m.layers.top().(*formLayer)
		return ok && f.form.Values()["comment"] == "tyre check"
	})
	keys := ask(func(*Model) any { return (*pane).keysGot() }).([]string)
	assert.Empty(t, keys, "no key reached the list")
}

// A pane that asks for its form in the Update of the key: the form is
// open before the next key is read, so nothing is held.
func TestADialogAskedAtOnceHoldsNothing(t *testing.T) {
	ask, pane := typeAtAlerts(t, false, true, "atyre check")
	waitModel(t, ask, "the comment typed into the form", func(m *Model) bool {
		f, ok := m.layers.top().(*formLayer)
		return ok && f.form.Values()["comment"] == "tyre check"
	})
	assert.Empty(t, ask(func(*Model) any { return (*pane).keysGot() }).([]string), "no key reached the list")
	assert.Zero(t, ask(func(m *Model) any { return m.holdGen }).(int), "no key was held")
}

// With no dialog coming, the held keys go to the list, in order.
func TestHeldKeysGoToTheListWhenNoDialogComes(t *testing.T) {
	ask, pane := typeAtAlerts(t, true, false, "ajk")
	waitModel(t, ask, "j and k at the list", func(m *Model) bool { return len((*pane).keysGot()) == 2 })
	keys := ask(func(*Model) any { return strings.Join((*pane).keysGot(), " ") })
	assert.Equal(t, "j k", keys)
	assert.Nil(t, ask(func(m *Model) any { return m.hold }).(*keyHold))
}

// A toast from another pane while keys are held for the Alerts pane's ack
// (a hidden pane's refresh, say) is no answer to the ack: the keys stay
// held and go into the form when it opens.
func TestAnotherPanesToastKeepsTheKeysHeld(t *testing.T) {
	m, pane := holdModel(t, false, false)
	d := newDriver(t, m, 120, 40)
	d.Settle()
	require.Equal(t, alerts.ID, m.panes[m.active].ID())
	d.Send(keytest.Press("a")) // the form is on its way, not yet delivered
	d.Send(keytest.Press("t"))
	d.Send(keytest.Press("y"))
	require.NotNil(t, m.hold)
	d.Send(views.ToastMsg{Pane: backups.ID, Text: "snapshot taken"})
	require.NotNil(t, m.hold, "still holding")
	assert.Len(t, m.hold.keys, 2)
	assert.Empty(t, (*pane).keysGot(), "no key reached the list")
	assert.Len(t, (*pane).actionsGot(), 1, "t ran no action on the list")
	d.Settle()
	f, ok := m.layers.top().(*formLayer)
	require.True(t, ok, "the form opened")
	assert.Equal(t, "ty", f.form.Values()["comment"])
	assert.Empty(t, (*pane).keysGot(), "no key reached the list")
}
