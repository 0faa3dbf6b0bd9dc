package ui

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/ui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/alerts"
)

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
	d, panes, _ := readyModel(t, nil)
	d.Send(ackForm())
	d.Settle()
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
	d.Send(views.FormDoneMsg{Pane: alerts.ID, ID: "ack", Err: &apiclient.Error{Status: 400, ErrorCode: "VALIDATION_ERROR", Detail: "acknowledgementComment is too long"}})
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
	d.Send(views.FormDoneMsg{Pane: alerts.ID, ID: "ack"})
	d.Settle()
	_, open = d.m.layers.top().(*formLayer)
	assert.False(t, open)
}

func TestFormIsRefusedInReadOnlyModeAndEscCancels(t *testing.T) {
	d, panes, _ := readyModel(t, func(o *Options) { o.ReadOnly = true })
	d.Send(ackForm())
	d.Settle()
	assert.Equal(t, 0, d.m.layers.len(), "no dialog for an action read-only mode refuses")
	assert.True(t, strings.Contains(d.Screen(), "read-only mode"), d.Screen())

	d2, panes2, _ := readyModel(t, nil)
	d2.Send(ackForm())
	d2.Settle()
	d2.Type("x")
	d2.Press("esc")
	d2.Settle()
	assert.Equal(t, 0, d2.m.layers.len())
	assert.Empty(t, panes2[alerts.ID].actionsGot())
	assert.Empty(t, panes[alerts.ID].actionsGot())
}

func TestFormDoneWithAPlainErrorShowsIt(t *testing.T) {
	d, _, _ := readyModel(t, nil)
	d.Send(ackForm())
	d.Settle()
	d.Press("enter")
	d.Settle()
	d.Send(views.FormDoneMsg{Pane: alerts.ID, ID: "ack", Err: errors.New("connection refused")})
	d.Settle()
	f, open := d.m.layers.top().(*formLayer)
	require.True(t, open)
	assert.Contains(t, f.form.SubmitError(), "connection refused")
}
