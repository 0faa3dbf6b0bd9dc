package triage

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/alertkit"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// twoAlertsOfTwoProjects picks the first unacknowledged alert rows of two
// different projects, and a third row of yet another project.
func twoAlertsOfTwoProjects(t *testing.T, p *Pane) (a, b, c Item) {
	t.Helper()
	var picked []Item
	seen := map[string]bool{}
	for _, it := range p.Items() {
		if it.Kind == KindAlert && !seen[it.GroupID] {
			seen[it.GroupID] = true
			picked = append(picked, it)
		}
	}
	require.GreaterOrEqual(t, len(picked), 3, "the demo world has open alerts in three projects")
	return picked[0], picked[1], picked[2]
}

func TestAckDialogListsTargetsAndSendsOnePatchPerAlert(t *testing.T) {
	e := newEnv(t, "org-owner", 120, 40)
	a, b, c := twoAlertsOfTwoProjects(t, e.P)
	_ = c
	for _, it := range []Item{a, b} {
		e.P.table.ToggleMark(it.Key())
	}
	require.Len(t, e.P.table.MarkedVisible(), 2)

	mark := e.Sim.Mark()
	e.ActionKey("a")
	require.NotEmpty(t, e.Forms)
	f := e.Forms[len(e.Forms)-1]
	assert.Equal(t, "Acknowledge 2 alerts", f.Title)
	var targets string
	for _, fd := range f.Fields {
		if fd.Key == "targets" {
			targets = fd.Value
		}
	}
	for _, it := range []Item{a, b} {
		// Event first, the place cut from the left, the id under them.
		assert.Contains(t, targets, "• "+it.Event+" on ")
		assert.Contains(t, targets, it.Cluster+"\n  "+it.ItemID)
	}
	require.NoError(t, e.Submit(map[string]string{"comment": "board-ack"}))
	assert.Nil(t, e.LastFormDone().Err)

	writes := e.Sim.WritesSince(mark)
	require.Len(t, writes, 2, "exactly two PATCHes: %v", writes)
	assert.Contains(t, writes[0], "PATCH /api/atlas/v2/groups/"+a.GroupID+"/alerts/"+a.ItemID)
	assert.Contains(t, writes[1], "PATCH /api/atlas/v2/groups/"+b.GroupID+"/alerts/"+b.ItemID)
	c2 := e.Sim.ClientAs("org-owner", viewstest.NoGate)
	for _, it := range []Item{a, b} {
		got, err := c2.Alerts().Get(context.Background(), it.GroupID, it.ItemID)
		require.NoError(t, err)
		assert.Equal(t, "board-ack", got.AcknowledgementComment)
		assert.True(t, got.Acknowledged(e.Sim.Clock.Now()))
	}
	// Each row's outcome over the board; the rows left it on the re-read.
	screen := e.Screen()
	assert.Contains(t, screen, "acknowledged 2 of 2 alerts")
	assert.Equal(t, 2, strings.Count(screen, "✓ "), screen)
	for _, it := range e.P.Items() {
		assert.NotEqual(t, a.Key(), it.Key(), "the acknowledged alert left the board")
	}
	assert.True(t, e.P.CanGoBack())
	e.Press("esc")
	assert.False(t, e.P.CanGoBack())
	assert.NotContains(t, e.Screen(), "acknowledged 2 of 2")
}

func TestAckDialogLeavesHiddenMarksOutUnlessIncluded(t *testing.T) {
	for _, include := range []bool{false, true} {
		e := newEnv(t, "org-owner", 120, 40)
		a, _, c := twoAlertsOfTwoProjects(t, e.P)
		e.P.table.ToggleMark(a.Key())
		e.P.table.ToggleMark(c.Key())
		e.Send(views.FilterMsg{Text: a.Project})
		require.Equal(t, []string{c.Key()}, e.P.table.MarkedHidden(), "the filter hides c")
		mark := e.Sim.Mark()
		e.ActionKey("a")
		f := e.Forms[len(e.Forms)-1]
		var hiddenList string
		for _, fd := range f.Fields {
			if fd.Key == "hiddenList" {
				hiddenList = fd.Label + fd.Value
			}
		}
		assert.Contains(t, hiddenList, "1 marked row is hidden by the filter")
		assert.Contains(t, hiddenList, c.Event+" on ")
		assert.Contains(t, hiddenList, c.Cluster+"\n  "+c.ItemID)
		v := map[string]string{"comment": "x"}
		if include {
			v["hidden"] = "true"
		}
		require.NoError(t, e.Submit(v))
		writes := e.Sim.WritesSince(mark)
		if include {
			assert.Len(t, writes, 2, "%v", writes)
		} else {
			require.Len(t, writes, 1, "%v", writes)
			assert.Contains(t, writes[0], "/groups/"+a.GroupID+"/alerts/"+a.ItemID)
		}
	}
}

func TestAckDialogRefusesBadInputAndNonAlertRows(t *testing.T) {
	e := newEnv(t, "org-owner", 120, 40)
	for _, it := range e.P.Items() {
		if !alertRow(it) {
			require.True(t, e.P.table.SetCursorID(it.Key()))
			break
		}
	}
	e.ActionKey("a")
	assert.Empty(t, e.Forms)
	assert.Contains(t, e.LastToast().Text, "not an alert")

	a, _, _ := twoAlertsOfTwoProjects(t, e.P)
	require.True(t, e.P.table.SetCursorID(a.Key()))
	e.ActionKey("a")
	mark := e.Sim.Mark()
	err := e.Submit(map[string]string{"until": alertkit.UntilCustom, "at": "yesterday"})
	require.Error(t, err, "the field's own rule refuses a date that is not one")
	assert.Empty(t, e.Sim.WritesSince(mark))
}

func TestBoardSeverityEqualsTheAlertsPane(t *testing.T) {
	e := newEnv(t, "org-owner", 120, 40)
	c := e.Sim.ClientAs("org-owner", viewstest.NoGate)
	configs := map[string]map[string]apiclient.AlertConfig{}
	overridden := 0
	for _, it := range e.P.Items() {
		if !alertRow(it) {
			continue
		}
		if configs[it.GroupID] == nil {
			cs, err := c.AlertConfigs().ListAll(context.Background(), it.GroupID)
			require.NoError(t, err)
			configs[it.GroupID] = map[string]apiclient.AlertConfig{}
			for _, cfg := range cs {
				configs[it.GroupID][cfg.ID] = cfg
			}
		}
		a, err := c.Alerts().Get(context.Background(), it.GroupID, it.ItemID)
		require.NoError(t, err)
		assert.Equal(t, alertkit.Severity(*a, configs[it.GroupID]), it.Severity, "%s", it.Key())
		if cfg, ok := configs[it.GroupID][a.AlertConfigID]; ok && cfg.SeverityOverride != "" && alertkit.EventSeverity(a.EventTypeName) != it.Severity {
			overridden++
		}
	}
	assert.Positive(t, overridden, "the demo world has alerts whose configuration overrides the severity")
}

// The board matches ActionMsg.Name against its act… constants: each must
// name a registered action, or its key would silently do nothing.
func TestEveryActionConstantNamesARegisteredAction(t *testing.T) {
	assert.Empty(t, viewstest.UnregisteredActionConsts(t, Registration))
}

// At 80 columns the one-alert title puts the event type first, whole, and
// the place cut from the left (the organization gives way first), and the
// dialog names the alert by id and created time: several alerts may share
// the event and place.
func TestOneAlertAckDialogNamesEventFirstAndTheID(t *testing.T) {
	e := newEnv(t, "org-owner", 80, 24)
	var it Item
	for _, x := range e.P.Items() {
		if x.Kind == KindAlert && len(x.Where()) > 40 && len(x.Event) > 10 {
			it = x
			break
		}
	}
	require.NotEmpty(t, it.ItemID, "the demo world has an alert with a long place")
	require.True(t, e.P.table.SetCursorID(it.Key()))
	e.ActionKey("a")
	require.NotEmpty(t, e.Forms)
	f := e.Forms[len(e.Forms)-1]
	inner := components.DialogInner(80)
	assert.LessOrEqual(t, components.Width(f.Title), inner, "the title fits the dialog at 80 columns: %q", f.Title)
	assert.True(t, strings.HasPrefix(f.Title, "Acknowledge "+it.Event+" on …"), "event first, the place cut from the left: %q", f.Title)
	assert.True(t, strings.HasSuffix(f.Title, " › "+it.Cluster), "the cluster survives: %q", f.Title)
	var one string
	for _, fd := range f.Fields {
		if fd.Key == "targets" {
			one = fd.Label + " " + fd.Value
		}
	}
	assert.Equal(t, "Acts on: "+it.ItemID+"  created "+it.Since.UTC().Format("2006-01-02 15:04")+" UTC", one)
}

// Every alert row's one-alert title fits the dialog at 80 columns with the
// event type whole and is never cut at its end: the longest event types
// (REPLICATION_OPLOG_WINDOW_RUNNING_OUT) keep the end of their cluster.
func TestOneAlertAckTitleKeepsTheEventWholeForEveryRow(t *testing.T) {
	e := newEnv(t, "org-owner", 80, 24)
	inner := components.DialogInner(80)
	checked := 0
	for _, it := range e.P.Items() {
		if it.Kind != KindAlert || it.Event == "" {
			continue
		}
		title := e.P.ackTitle(it)
		checked++
		assert.LessOrEqual(t, components.Width(title), inner, "%q", title)
		assert.True(t, strings.HasPrefix(title, "Acknowledge "+it.Event), "%q", title)
		assert.False(t, strings.HasSuffix(title, "…"), "the title is not cut at its end: %q", title)
	}
	require.NotZero(t, checked)
}

// A submitted ack without the payload its dialog gave it is refused in
// the dialog; nothing is sent.
func TestAckWithoutItsPayloadIsRefused(t *testing.T) {
	e := newEnv(t, "org-owner", 120, 40)
	mark := e.Sim.Mark()
	e.Send(views.ActionMsg{Name: actAck, Confirmed: true, Form: formAck, Values: map[string]string{"until": "1h", "comment": "x"}})
	require.Error(t, e.LastFormDone().Err)
	assert.Contains(t, e.LastFormDone().Err.Error(), "nothing sent")
	assert.Empty(t, e.Sim.WritesSince(mark))
}
