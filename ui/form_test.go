package ui

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/alerts"
)

// ackFormOpen is a ready dashboard with the ack form open over Alerts.
func ackFormOpen(t *testing.T) (*driver, map[views.ID]*recPane) {
	t.Helper()
	d, panes, _ := readyModel(t, nil)
	d.Send(asked(ackForm()))
	d.Settle()
	return d, panes
}

func ackForm() views.FormMsg {
	return views.FormMsg{
		Pane: alerts.ID, ID: "ack", Title: "Acknowledge",
		Fields: []components.Field{
			{Key: "until", Label: "Until", Kind: components.FieldChoice, Choices: []string{"1h", "4h", "forever"}},
			{Key: "comment", Label: "Comment", Kind: components.FieldText, CharLimit: 200},
		},
		Action: views.ActionMsg{Name: "alerts.ack", Target: "alert-1"},
	}
}

func TestFormSubmitReachesThePaneAndAFailureKeepsTheDraft(t *testing.T) {
	d, panes := ackFormOpen(t)
	_, open := d.m.layers.top().(*formLayer)
	require.True(t, open)

	d.Press("tab")
	d.Type("disk full on shard 2")
	d.Press("enter")
	d.Settle()
	acts := panes[alerts.ID].actionsGot()
	require.Len(t, acts, 1)
	assert.Equal(t, "ack", acts[0].Form)
	assert.True(t, acts[0].Confirmed)
	assert.Equal(t, "alert-1", acts[0].Target)
	assert.Equal(t, "1h", acts[0].Values["until"])
	assert.Equal(t, "disk full on shard 2", acts[0].Values["comment"])

	// The request failed: the dialog stays, shows the API error, keeps the text.
	d.Send(asked(views.FormDoneMsg{Pane: alerts.ID, ID: "ack", Err: &apiclient.Error{Status: 400, ErrorCode: "VALIDATION_ERROR", Detail: "acknowledgementComment is too long"}}))
	d.Settle()
	f, open := d.m.layers.top().(*formLayer)
	require.True(t, open, "a failed submit leaves the dialog open")
	assert.Contains(t, f.form.SubmitError(), "VALIDATION_ERROR")
	assert.Equal(t, "disk full on shard 2", f.form.Values()["comment"])
	assert.Contains(t, d.Screen(), "disk full on shard 2")

	// Submitting again, and success, closes it.
	d.Press("enter")
	d.Settle()
	require.Len(t, panes[alerts.ID].actionsGot(), 2)
	d.Send(asked(views.FormDoneMsg{Pane: alerts.ID, ID: "ack"}))
	d.Settle()
	_, open = d.m.layers.top().(*formLayer)
	assert.False(t, open)
}

func TestFormIsRefusedInReadOnlyModeAndEscCancels(t *testing.T) {
	d, panes, _ := readyModel(t, func(o *Options) { o.ReadOnly = true })
	d.Send(asked(ackForm()))
	d.Settle()
	assert.Equal(t, 0, d.m.layers.len(), "no dialog for an action read-only mode refuses")
	assert.True(t, strings.Contains(d.Screen(), "read-only mode"), d.Screen())

	d2, panes2 := ackFormOpen(t)
	d2.Type("x")
	d2.Press("esc")
	d2.Settle()
	assert.Equal(t, 0, d2.m.layers.len())
	assert.Empty(t, panes2[alerts.ID].actionsGot())
	assert.Empty(t, panes[alerts.ID].actionsGot())
}

func TestFormDoneWithAPlainErrorShowsIt(t *testing.T) {
	d, _ := ackFormOpen(t)
	d.Press("enter")
	d.Settle()
	d.Send(asked(views.FormDoneMsg{Pane: alerts.ID, ID: "ack", Err: errors.New("connection refused")}))
	d.Settle()
	f, open := d.m.layers.top().(*formLayer)
	require.True(t, open)
	assert.Contains(t, f.form.SubmitError(), "connection refused")
}

// Keys typed while a form is sent are not lost: after a success they go to
// the next dialog the pane opens (a wizard's next step) or to the pane, in
// order; after a failure they are dropped and the form says how many, so
// nothing typed for the list edits or resends the draft.
func TestKeysTypedWhileAFormIsSentFollowItsOutcome(t *testing.T) {
	t.Run("success, then the pane", func(t *testing.T) {
		d, panes := ackFormOpen(t)
		d.Press("enter", "j", "k")
		d.Settle()
		require.Len(t, panes[alerts.ID].actionsGot(), 1, "sent once")
		assert.NotContains(t, panes[alerts.ID].keysGot(), "j", "held while the form is sent")
		d.Send(asked(views.FormDoneMsg{Pane: alerts.ID, ID: "ack"}))
		d.Send(asked(views.ToastMsg{Pane: alerts.ID, Text: "acknowledged"})) // the pane's answer releases them
		d.Settle()
		keys := panes[alerts.ID].keysGot()
		require.GreaterOrEqual(t, len(keys), 2)
		assert.Equal(t, []string{"j", "k"}, keys[len(keys)-2:], "the held keys reached the list, in order")
	})
	t.Run("success, then the next step", func(t *testing.T) {
		d, panes := ackFormOpen(t)
		d.Press("enter", "tab")
		d.Type("next step")
		d.Settle()
		d.Send(asked(views.FormDoneMsg{Pane: alerts.ID, ID: "ack"}))
		next := ackForm()
		next.ID = "ack-2"
		d.Send(asked(next))
		d.Settle()
		f, open := d.m.layers.top().(*formLayer)
		require.True(t, open)
		assert.Equal(t, "ack-2", f.id)
		assert.Equal(t, "next step", f.form.Values()["comment"], "typed on into the next step")
		assert.Empty(t, panes[alerts.ID].keysGot())
	})
	t.Run("failure drops them and says so", func(t *testing.T) {
		d, panes := ackFormOpen(t)
		d.Press("tab")
		d.Type("first")
		d.Press("enter")
		d.Type("xy")
		d.Press("enter")
		d.Settle()
		d.Send(asked(views.FormDoneMsg{Pane: alerts.ID, ID: "ack", Err: errors.New("503 SERVICE_UNAVAILABLE")}))
		d.Settle()
		f, open := d.m.layers.top().(*formLayer)
		require.True(t, open)
		assert.Equal(t, "first", f.form.Values()["comment"], "the draft is untouched")
		assert.Contains(t, f.form.SubmitError(), "3 keys typed while it was sent not applied")
		assert.Len(t, panes[alerts.ID].actionsGot(), 1, "the held enter sent nothing")
		assert.Empty(t, panes[alerts.ID].keysGot())
	})
	t.Run("esc closes it, the keys go on", func(t *testing.T) {
		d, panes := ackFormOpen(t)
		d.Press("enter", "j", "esc")
		d.Settle()
		assert.Equal(t, 0, d.m.layers.len())
		d.Send(asked(views.ToastMsg{Pane: alerts.ID, Text: "acknowledged"}))
		d.Settle()
		assert.Contains(t, panes[alerts.ID].keysGot(), "j")
	})
}

// An error that comes back after its form closed (the pane asked a
// question in between) is shown, named by the action, in the pane's
// notices: a failed write never looks like a success.
func TestAFormsErrorAfterItClosedIsShown(t *testing.T) {
	d, _ := ackFormOpen(t)
	d.Press("enter")
	d.Settle()
	d.Send(asked(views.FormDoneMsg{Pane: alerts.ID, ID: "ack"})) // closed: a question comes next
	d.Settle()
	require.Equal(t, 0, d.m.layers.len())
	d.Send(asked(views.FormDoneMsg{Pane: alerts.ID, ID: "ack", Err: &apiclient.Error{Status: 400, ErrorCode: "INVALID_ATTRIBUTE", Detail: "acknowledgedUntil must be in the future"}}))
	d.Settle()
	assert.Contains(t, d.Screen(), "✗ acknowledge: 400 INVALID_ATTRIBUTE")
}

// Keys typed while a form was sent may fill the next form, never answer a
// question the pane asks next ("Shorten the expiration?"): they were typed
// before it was seen. They are dropped, and the notice says how many.
func TestKeysTypedWhileAFormIsSentDoNotAnswerAQuestion(t *testing.T) {
	d, panes := ackFormOpen(t)
	d.Press("enter", "y")
	d.Settle()
	d.Send(asked(views.FormDoneMsg{Pane: alerts.ID, ID: "ack"}))
	d.Send(asked(views.ConfirmMsg{Pane: alerts.ID, Title: "Shorten an acknowledgement?", Body: "…",
		Action: views.ActionMsg{Name: "alerts.ack", Target: "shorten"}}))
	d.Settle()
	assert.Contains(t, d.Screen(), "Shorten an acknowledgement?", "the question waits for an answer seen")
	assert.Contains(t, d.Screen(), "1 key typed before this question not applied")
	for _, a := range panes[alerts.ID].actionsGot()[1:] {
		assert.False(t, a.Confirmed && a.Target == "shorten", "the blind y answered nothing")
	}
}
