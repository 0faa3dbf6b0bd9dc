package triage

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/alertkit"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// routes stands in for the root's task line: it records what the root
// reads of each result (views.Route) before the pane gets it.
type routes struct {
	views.Pane
	got []views.Route
}

func (r *routes) Update(msg tea.Msg) (views.Pane, tea.Cmd) {
	if m, ok := msg.(views.Routed); ok {
		r.got = append(r.got, m.Route())
	}
	p, cmd := r.Pane.Update(msg)
	r.Pane = p
	return r, cmd
}

// TakeAsks hands on what the pane asked, as the root takes it.
func (r *routes) TakeAsks() ([]views.Ask, tea.Cmd) { return r.Pane.(views.Asker).TakeAsks() }

// task is the last route of the task named text.
func (r *routes) task(t *testing.T, text string) views.Route {
	t.Helper()
	for i := len(r.got) - 1; i >= 0; i-- {
		if r.got[i].Task == text {
			return r.got[i]
		}
	}
	t.Fatalf("no task %q in %v", text, r.got)
	return views.Route{}
}

// A partly failed acknowledgement's task ends failed, saying how many;
// one that went through ends done.
func TestBoardAckTaskFailsWhenAWriteFailed(t *testing.T) {
	e := newEnv(t, "org-owner", 120, 40)
	rec := &routes{Pane: e.Pane}
	e.Pane = rec
	ackBothUnder(t, e, `{"failWrites": 1}`, "half")
	r := rec.task(t, "acknowledging 2 alerts")
	require.Error(t, r.Err, "not done: one failed")
	assert.Equal(t, "1 of 2 failed: 503 SERVICE_UNAVAILABLE", r.Err.Error())
	assert.False(t, r.Load, "a write: the pane's health is not its outcome")

	// The retry of the failed one (still marked) keeps the choices, on
	// the window the other one got (issue 14 case 3: one window for the
	// group); it goes through: done.
	e.ActionKey("a")
	kept := viewstest.FormDefaults(e.Forms[len(e.Forms)-1].Fields)
	assert.Equal(t, "half", kept["comment"], "the draft, for the failed one")
	assert.Equal(t, alertkit.UntilCustom, kept["until"], "pinned to the until sent")
	assert.NotEmpty(t, kept["at"])
	require.NoError(t, e.Submit(map[string]string{"comment": "half"}))
	assert.NoError(t, rec.task(t, "acknowledging 1 alert").Err)
}

// A failed acknowledgement's choices come back only for the same alert,
// as the user made them (the typed local time stays as typed, though
// "Shorten?"'s yes pins the time sent); another alert's dialog opens
// fresh.
func TestBoardFailedAckDraftStaysWithItsAlert(t *testing.T) {
	e := newEnv(t, "org-owner", 120, 40)
	rec := &routes{Pane: e.Pane}
	e.Pane = rec
	a, b, _ := twoAlertsOfTwoProjects(t, e.P)
	row := ackEnding(t, e, a, 45*time.Minute)
	require.True(t, e.P.table.SetCursorID(row.Key()))
	now := e.Sim.Clock.Now()
	at := now.Add(10 * time.Minute).In(now.Location()).Format(alertkit.CustomLayout)
	e.ActionKey("a")
	require.NoError(t, e.Submit(map[string]string{"until": alertkit.UntilCustom, "at": at, "comment": "shorten"}))
	require.Equal(t, alertkit.ShortenTitle, e.LastConfirm().Title)
	e.Sim.Control("PUT", "/faults", `{"failWrites": 1}`)
	e.Confirm("")
	require.Error(t, e.LastFormDone().Err, "the write failed")
	r := rec.task(t, "acknowledging 1 alert")
	require.Error(t, r.Err, "the task is not done")
	assert.Equal(t, "503 SERVICE_UNAVAILABLE", r.Err.Error())

	// Another alert: a fresh dialog.
	e.P.table.ClearMarks()
	require.True(t, e.P.table.SetCursorID(b.Key()))
	e.ActionKey("a")
	got := viewstest.FormDefaults(e.Forms[len(e.Forms)-1].Fields)
	assert.Empty(t, got["comment"], "not the other alert's comment")
	assert.Equal(t, alertkit.Until1h, got["until"])
	assert.Empty(t, got["at"])

	// The same alert again: its choices, as chosen.
	require.True(t, e.P.table.SetCursorID(row.Key()))
	e.ActionKey("a")
	got = viewstest.FormDefaults(e.Forms[len(e.Forms)-1].Fields)
	assert.Equal(t, "shorten", got["comment"])
	assert.Equal(t, alertkit.UntilCustom, got["until"])
	assert.Equal(t, at, got["at"], "as typed, not the time pinned for the yes")
}
