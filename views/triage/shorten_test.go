package triage

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/alertkit"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// ackEnding acknowledges it for d (behind the board's back) and reads the
// board again: it shows as an "ack ends" row.
func ackEnding(t *testing.T, e *env, it Item, d time.Duration) Item {
	t.Helper()
	until := e.Sim.Clock.Now().Add(d).Truncate(time.Second)
	c := e.Sim.ClientAs("org-owner", viewstest.NoGate)
	_, err := c.Alerts().Acknowledge(context.Background(), it.GroupID, it.ItemID, apiclient.AcknowledgeRequest{AcknowledgedUntil: &until, AcknowledgementComment: "earlier"})
	require.NoError(t, err)
	e.Send(views.RefreshMsg{})
	for _, row := range e.P.Items() {
		if row.Kind == KindAckEnds && row.ItemID == it.ItemID {
			return row
		}
	}
	t.Fatalf("no ack-ends row for %s", it.ItemID)
	return Item{}
}

func ackedUntil(t *testing.T, e *env, it Item) time.Time {
	t.Helper()
	got, err := e.Sim.ClientAs("org-owner", viewstest.NoGate).Alerts().Get(context.Background(), it.GroupID, it.ItemID)
	require.NoError(t, err)
	require.NotNil(t, got.AcknowledgedUntil)
	return *got.AcknowledgedUntil
}

// An acknowledgement that would end one the board shows running longer
// asks first (default No lives in the root), says by how much, and sends
// nothing until yes; the dialog's choices are kept for `a`.
func TestBoardAckAsksBeforeShorteningOne(t *testing.T) {
	e := newEnv(t, "org-owner", 120, 40)
	a, _, _ := twoAlertsOfTwoProjects(t, e.P)
	row := ackEnding(t, e, a, 45*time.Minute)
	require.True(t, e.P.table.SetCursorID(row.Key()))

	now := e.Sim.Clock.Now()
	at := now.Add(10 * time.Minute).UTC().Format(time.RFC3339)
	mark := e.Sim.Mark()
	e.ActionKey("a")
	require.NoError(t, e.Submit(map[string]string{"until": alertkit.UntilCustom, "at": at, "comment": "shorter"}))
	assert.Empty(t, e.Sim.WritesSince(mark), "nothing before yes")
	require.NotEmpty(t, e.Confirms)
	q := e.LastConfirm()
	assert.Equal(t, alertkit.ShortenTitle, q.Title)
	// It names the alert, not the row's label: "ack ends in 45m" was true
	// when the board was read, not when the question is asked.
	assert.True(t, strings.HasPrefix(q.Body, row.Event+" on "+row.Where()+" is acknowledged until "), q.Body)
	assert.NotContains(t, q.Body, "ack ends in")
	assert.Contains(t, q.Body, "this shortens it by 35m")
	assert.Contains(t, q.Body, "No keeps it as it is and sends nothing.")
	assert.NotContains(t, q.Body, "The other")

	// No: the root sends nothing back. `a` opens with every choice kept.
	e.ActionKey("a")
	f := e.Forms[len(e.Forms)-1]
	assert.Equal(t, "shorter", viewstest.FormDefaults(f.Fields)["comment"])
	assert.Equal(t, at, viewstest.FormDefaults(f.Fields)["at"])
	assert.Empty(t, e.Sim.WritesSince(mark))
	assert.WithinDuration(t, now.Add(45*time.Minute), ackedUntil(t, e, a), time.Second, "unchanged")

	// Yes sends exactly that until, once.
	e.Confirm("")
	assert.Equal(t, []string{"PATCH /api/atlas/v2/groups/" + a.GroupID + "/alerts/" + a.ItemID}, e.Sim.WritesSince(mark))
	assert.Equal(t, at, ackedUntil(t, e, a).UTC().Format(time.RFC3339))
}

// In bulk: the question names how many it shortens, by up to how much,
// and that the others are acknowledged as chosen.
func TestBoardBulkAckAsksBeforeShortening(t *testing.T) {
	e := newEnv(t, "org-owner", 120, 40)
	a, b, _ := twoAlertsOfTwoProjects(t, e.P)
	row := ackEnding(t, e, a, 50*time.Minute)
	e.P.table.ToggleMark(row.Key())
	e.P.table.ToggleMark(b.Key())
	now := e.Sim.Clock.Now()
	at := now.Add(20 * time.Minute).UTC().Format(time.RFC3339)
	mark := e.Sim.Mark()
	e.ActionKey("a")
	require.NoError(t, e.Submit(map[string]string{"until": alertkit.UntilCustom, "at": at, "comment": "bulk"}))
	assert.Empty(t, e.Sim.WritesSince(mark))
	q := e.LastConfirm()
	assert.Equal(t, alertkit.ShortenTitle, q.Title)
	assert.Contains(t, q.Body, "shortens it by 30m")
	assert.Contains(t, q.Body, "The other alert is acknowledged as chosen.")

	e.Confirm("")
	assert.Len(t, e.Sim.WritesSince(mark), 2, "one PATCH per alert, after yes")
	for _, it := range []Item{a, b} {
		assert.Equal(t, at, ackedUntil(t, e, it).UTC().Format(time.RFC3339))
	}

	// A longer acknowledgement asks nothing.
	c := ackEnding(t, e, b, 30*time.Minute)
	require.True(t, e.P.table.SetCursorID(c.Key()))
	before := len(e.Confirms)
	e.ActionKey("a")
	require.NoError(t, e.Submit(map[string]string{"until": alertkit.Until4h, "at": "", "comment": "longer"}))
	assert.Len(t, e.Confirms, before, "lengthening asks nothing")
	assert.NoError(t, e.LastFormDone().Err)
}
