package triage

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// alertOf reads an alert back as org-owner, apart from the board.
func alertOf(t *testing.T, e *env, it Item) *apiclient.Alert {
	t.Helper()
	got, err := e.Sim.ClientAs("org-owner", viewstest.NoGate).Alerts().Get(context.Background(), it.GroupID, it.ItemID)
	require.NoError(t, err)
	return got
}

func markAll(e *env, items ...Item) {
	for _, it := range items {
		e.P.table.ToggleMark(it.Key())
	}
}

// When every marked row fails, the dialog stays with the error and the
// board stays as it was: no outcomes list, exactly H lines.
func TestAckAllFailedLeavesTheBoardAsItWas(t *testing.T) {
	const h = 30
	e := newEnv(t, "org-owner", 120, h)
	a, b, mark := ackBothUnder(t, e, `{"failWrites": 2}`, "refused")

	assert.Len(t, e.Sim.WritesSince(mark), 2, "one PATCH each, not retried")
	require.Error(t, e.LastFormDone().Err)
	assert.Contains(t, e.LastFormDone().Err.Error(), "none acknowledged")
	view := ansi.Strip(e.P.View())
	assert.Len(t, strings.Split(view, "\n"), h, "%s", view)
	assert.NotContains(t, view, "✗")
	assert.False(t, e.P.CanGoBack(), "no outcomes list to close")
	assert.ElementsMatch(t, []string{a.Key(), b.Key()}, e.P.table.Marked(), "both stay marked")
	for _, it := range []Item{a, b} {
		assert.False(t, alertOf(t, e, it).Acknowledged(e.Sim.Clock.Now()))
	}
}

// A row that left the board while the dialog was open (someone else
// acknowledged it for a day) is not sent, so its longer acknowledgement is
// not cut; the outcome names it. When it was the only one, nothing is sent.
func TestAckDoesNotSendARowThatLeftTheBoard(t *testing.T) {
	e := newEnv(t, "org-owner", 120, 40)
	a, b, _ := twoAlertsOfTwoProjects(t, e.P)
	markAll(e, a, b)
	e.ActionKey("a")
	bName := e.P.line(b.Key())

	until := e.Sim.Clock.Now().Add(24 * time.Hour).Truncate(time.Second)
	_, err := e.Sim.ClientAs("org-owner", viewstest.NoGate).Alerts().Acknowledge(context.Background(), b.GroupID, b.ItemID,
		apiclient.AcknowledgeRequest{AcknowledgedUntil: &until, AcknowledgementComment: "someone else"})
	require.NoError(t, err)
	e.Run(e.P.poll())
	_, onBoard := e.P.itemByKey(b.Key())
	require.False(t, onBoard, "a day's acknowledgement takes the row off the board")

	mark := e.Sim.Mark()
	require.NoError(t, e.Submit(map[string]string{"comment": "mine"}))
	assert.Equal(t, []string{"PATCH /api/atlas/v2/groups/" + a.GroupID + "/alerts/" + a.ItemID}, e.Sim.WritesSince(mark))
	got := alertOf(t, e, b)
	assert.Equal(t, "someone else", got.AcknowledgementComment)
	assert.WithinDuration(t, until, *got.AcknowledgedUntil, time.Second, "not shortened")
	assert.Equal(t, "mine", alertOf(t, e, a).AcknowledgementComment)
	screen := e.Screen()
	assert.Contains(t, screen, "acknowledged 1 of 1 alert; 1 not sent")
	assert.Contains(t, screen, "✗ "+bName+": "+goneText)

	// Alone: nothing is sent, the dialog says why.
	e.Press("esc")
	c := twoAlertsOfTwoProjectsAfter(t, e)
	require.True(t, e.P.table.SetCursorID(c.Key()))
	e.ActionKey("a")
	_, err = e.Sim.ClientAs("org-owner", viewstest.NoGate).Alerts().Acknowledge(context.Background(), c.GroupID, c.ItemID,
		apiclient.AcknowledgeRequest{AcknowledgedUntil: &until, AcknowledgementComment: "someone else"})
	require.NoError(t, err)
	e.Run(e.P.poll())
	mark = e.Sim.Mark()
	require.NoError(t, e.Submit(map[string]string{"comment": "mine"}))
	assert.Empty(t, e.Sim.WritesSince(mark))
	require.Error(t, e.LastFormDone().Err)
	assert.Contains(t, e.LastFormDone().Err.Error(), "not sent: ")
	assert.Equal(t, "someone else", alertOf(t, e, c).AcknowledgementComment)
}

// twoAlertsOfTwoProjectsAfter is an unacknowledged alert row still on the
// board.
func twoAlertsOfTwoProjectsAfter(t *testing.T, e *env) Item {
	t.Helper()
	for _, it := range e.P.Items() {
		if it.Kind == KindAlert {
			return it
		}
	}
	t.Fatal("no alert row left")
	return Item{}
}

// A lost answer is read back, never sent again: one PATCH each, the
// outcome says it was verified, and nothing stays marked.
func TestBoardLostAckAnswerIsVerifiedNotResent(t *testing.T) {
	e := newEnv(t, "org-owner", 120, 40)
	a, b, mark := ackBothUnder(t, e, `{"malformedWrites": 1}`, "lost")

	writes := e.Sim.WritesSince(mark)
	require.Len(t, writes, 2, "one PATCH each, the lost one not resent: %v", writes)
	assert.Contains(t, writes[0], a.ItemID)
	assert.Contains(t, writes[1], b.ItemID)
	for _, it := range []Item{a, b} {
		got := alertOf(t, e, it)
		assert.Equal(t, "lost", got.AcknowledgementComment)
		assert.True(t, got.Acknowledged(e.Sim.Clock.Now()))
	}
	assert.Contains(t, e.Screen(), "acknowledged 2 of 2 alerts")
	require.Len(t, e.P.results, 2)
	assert.Contains(t, e.P.results[0], "(sent - verified)", "the lost one, read back")
	assert.NotContains(t, e.P.results[1], "verified")
	assert.Empty(t, e.P.table.Marked())
}

// A refused row, among others that went through, stays marked (alone) and
// `a` sends it again; the others are not sent twice.
func TestBoardPartialFailureKeepsTheFailedMarked(t *testing.T) {
	e := newEnv(t, "org-owner", 120, 40)
	a, b, mark := ackBothUnder(t, e, `{"failWrites": 1}`, "half")

	require.Len(t, e.Sim.WritesSince(mark), 2)
	assert.False(t, alertOf(t, e, a).Acknowledged(e.Sim.Clock.Now()), "the refused one was not applied")
	assert.Equal(t, "half", alertOf(t, e, b).AcknowledgementComment)
	assert.Equal(t, []string{a.Key()}, e.P.table.Marked(), "the failed row alone stays marked")
	assert.Contains(t, e.Screen(), "acknowledged 1 of 2 alerts; 1 failed (still marked: a retries)")

	mark = e.Sim.Mark()
	e.ActionKey("a")
	require.NoError(t, e.Submit(map[string]string{"comment": "half"}))
	assert.Equal(t, []string{"PATCH /api/atlas/v2/groups/" + a.GroupID + "/alerts/" + a.ItemID}, e.Sim.WritesSince(mark))
	assert.Equal(t, "half", alertOf(t, e, a).AcknowledgementComment)
}

// A lost answer whose read-back fails too leaves the alert unsettled: it
// stays marked, and `a` refuses to send it again (as the Alerts pane does)
// until r has read what the server holds.
func TestBoardUnsettledAckIsNotResent(t *testing.T) {
	sim := viewstest.NewSim(t, viewstest.SimOptions{})
	// The read-back retries (apiclient.VerifyRetries): quickly here.
	fast, err := apiclient.New(apiclient.Options{BaseURL: sim.URL, Service: "atlas",
		Auth: apiclient.DigestAuth("org-owner", "org-owner-secret"), MaxRetries: -1, Backoff: time.Millisecond})
	require.NoError(t, err)
	e := &env{viewstest.Open[*Pane](t, Registration, viewstest.Setup{Sim: sim, Width: 120, Height: 40,
		Context: func(c *views.Context) { c.Client, c.Gate = fast, nil }})}
	a, _, _ := twoAlertsOfTwoProjects(t, e.P)
	markAll(e, a)

	e.Sim.Control("PUT", "/faults", `{"malformedRate": 1}`)
	mark := e.Sim.Mark()
	e.ActionKey("a")
	require.NoError(t, e.Submit(map[string]string{"comment": "unsettled"}))
	e.Sim.Control("PUT", "/faults", `{"malformedRate": 0}`)
	assert.Len(t, e.Sim.WritesSince(mark), 1)
	require.Error(t, e.LastFormDone().Err)
	assert.Contains(t, e.LastFormDone().Err.Error(), "unknown")
	assert.Equal(t, "unsettled", alertOf(t, e, a).AcknowledgementComment, "the PATCH was applied; its answer lost")
	assert.Equal(t, []string{a.Key()}, e.P.table.Marked(), "it stays marked")

	// Enter again, or `a` again: refused, nothing sent.
	mark = e.Sim.Mark()
	require.NoError(t, e.Submit(map[string]string{"comment": "again"}))
	assert.Empty(t, e.Sim.WritesSince(mark))
	require.Error(t, e.LastFormDone().Err)
	assert.Contains(t, e.LastFormDone().Err.Error(), "not sent again")
	e.ActionKey("a")
	require.NoError(t, e.Submit(map[string]string{"comment": "again"}))
	assert.Empty(t, e.Sim.WritesSince(mark))
	assert.Contains(t, e.LastFormDone().Err.Error(), "not sent again")
	assert.Equal(t, "unsettled", alertOf(t, e, a).AcknowledgementComment)

	// r reads what the server holds; the alert may be sent again.
	e.Refresh()
	assert.Empty(t, e.P.unsettled)
}

// ackBothUnder marks an alert of each of two projects, sets the
// simulator's faults and acknowledges both with comment; mark is the
// request log before the PATCHes.
func ackBothUnder(t *testing.T, e *env, faults, comment string) (a, b Item, mark int) {
	t.Helper()
	a, b, _ = twoAlertsOfTwoProjects(t, e.P)
	markAll(e, a, b)
	e.Sim.Control("PUT", "/faults", faults)
	mark = e.Sim.Mark()
	e.ActionKey("a")
	require.NoError(t, e.Submit(map[string]string{"comment": comment}))
	return a, b, mark
}
