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
)

func ackForm() views.FormMsg {
	return views.FormMsg{
		Pane: views.Alerts, ID: "ack", Title: "Acknowledge",
		Fields: []components.Field{
			{Key: "until", Label: "Until", Kind: components.FieldChoice, Choices: []string{"1h", "4h", "forever"}},
			{Key: "comment", Label: "Comment", Kind: components.FieldText, CharLimit: 200},
		},
		Action: views.ActionMsg{Name: "alerts.ack", Target: "alert-1"},
	}
}

func TestFormSubmitReachesThePaneAndAFailureKeepsTheDraft(t *testing.T) {
	d, panes, _ := readyModel(t, nil)
	d.send(ackForm())
	d.settle()
	_, open := d.m.layers.top().(*formLayer)
	require.True(t, open)

	d.key(press("tab"))
	d.key(typeText("disk full on shard 2")...)
	d.key(press("enter"))
	d.settle()
	acts := panes[views.Alerts].actionsGot()
	require.Len(t, acts, 1)
	assert.Equal(t, "ack", acts[0].Form)
	assert.True(t, acts[0].Confirmed)
	assert.Equal(t, "alert-1", acts[0].Target)
	assert.Equal(t, "1h", acts[0].Values["until"])
	assert.Equal(t, "disk full on shard 2", acts[0].Values["comment"])

	// The request failed: the dialog stays, shows the API error, keeps the text.
	d.send(views.FormDoneMsg{Pane: views.Alerts, ID: "ack", Err: &apiclient.Error{Status: 400, ErrorCode: "VALIDATION_ERROR", Detail: "acknowledgementComment is too long"}})
	d.settle()
	f, open := d.m.layers.top().(*formLayer)
	require.True(t, open, "a failed submit leaves the dialog open")
	assert.Contains(t, f.form.SubmitError(), "VALIDATION_ERROR")
	assert.Equal(t, "disk full on shard 2", f.form.Values()["comment"])
	assert.Contains(t, d.screen(), "disk full on shard 2")

	// Submitting again, and success, closes it.
	d.key(press("enter"))
	d.settle()
	require.Len(t, panes[views.Alerts].actionsGot(), 2)
	d.send(views.FormDoneMsg{Pane: views.Alerts, ID: "ack"})
	d.settle()
	_, open = d.m.layers.top().(*formLayer)
	assert.False(t, open)
}

func TestFormIsRefusedInReadOnlyModeAndEscCancels(t *testing.T) {
	d, panes, _ := readyModel(t, func(o *Options) { o.ReadOnly = true })
	d.send(ackForm())
	d.settle()
	assert.Equal(t, 0, d.m.layers.len(), "no dialog for an action read-only mode refuses")
	assert.True(t, strings.Contains(d.screen(), "read-only mode"), d.screen())

	d2, panes2, _ := readyModel(t, nil)
	d2.send(ackForm())
	d2.settle()
	d2.key(typeText("x")...)
	d2.key(press("esc"))
	d2.settle()
	assert.Equal(t, 0, d2.m.layers.len())
	assert.Empty(t, panes2[views.Alerts].actionsGot())
	assert.Empty(t, panes[views.Alerts].actionsGot())
}

func TestFormDoneWithAPlainErrorShowsIt(t *testing.T) {
	d, _, _ := readyModel(t, nil)
	d.send(ackForm())
	d.settle()
	d.key(press("enter"))
	d.settle()
	d.send(views.FormDoneMsg{Pane: views.Alerts, ID: "ack", Err: errors.New("connection refused")})
	d.settle()
	f, open := d.m.layers.top().(*formLayer)
	require.True(t, open)
	assert.Contains(t, f.form.SubmitError(), "connection refused")
}
