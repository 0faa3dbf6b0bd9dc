package alerts

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

const configsPath = "POST /api/atlas/v2/groups/" + apisim.DemoPaymentsID + "/alertConfigs"

func newConfigValues(event string) map[string]string {
	return map[string]string{"event": event, "enabled": "true", "severity": "CRITICAL",
		"matchers": "CLUSTER_NAME EQUALS payments-rs", "kind": "EMAIL", "target": "oncall@example.com",
		"secret": "", "delay": "0", "interval": "5"}
}

// configsLike counts the listed configurations with event's name.
func configsLike(e *paneEnv, event string) int {
	e.T.Helper()
	all, err := e.Sim.Client.AlertConfigs().ListAll(context.Background(), apisim.DemoPaymentsID)
	require.NoError(e.T, err)
	n := 0
	for _, c := range all {
		if c.EventTypeName == event {
			n++
		}
	}
	return n
}

// The form's create answered with a truncated body: one POST, the form says
// it is checking, the list is read back and the configuration found by what
// was sent: created (verified), the form closed.
func TestLostConfigCreateFromTheFormIsVerifiedNotResent(t *testing.T) {
	e := newPaneEnv(t)
	e.Send(views.ActionMsg{Name: actConfigs})
	e.Send(views.ActionMsg{Name: actNewConfig})
	e.Sim.Control("PUT", "/faults", `{"malformedWrites": 1}`)
	mark := e.Sim.Mark()
	require.NoError(t, e.Submit(newConfigValues("HOST_HAS_INDEX_SUGGESTIONS")))
	assert.Equal(t, []string{configsPath}, e.Sim.WritesSince(mark), "sent once, never again")
	require.Len(t, e.FormStatuses, 1)
	assert.Equal(t, views.OutcomeChecking, e.FormStatuses[0].Text)
	require.Len(t, e.FormsDone, 1)
	assert.NoError(t, e.FormsDone[0].Err, "verified: created")
	assert.Equal(t, "alert configuration HOST_HAS_INDEX_SUGGESTIONS "+views.VerifiedCreated+" (enabled)", e.LastToast().Text)
	assert.Equal(t, 1, configsLike(e, "HOST_HAS_INDEX_SUGGESTIONS"))
	assert.Contains(t, e.Screen(), "HOST_HAS_INDEX_SUGGESTIONS", "listed at once")
	assert.Zero(t, e.P.cfgCreating)
}

// The JSON editor's create, its answer lost: checking, then created
// (verified), one POST.
func TestLostConfigCreateFromJSONIsVerifiedNotResent(t *testing.T) {
	e := newPaneEnv(t)
	e.Send(views.EditedFile(configTemplate, jsonFile(configTemplate)))
	confirm := e.LastConfirm()
	e.Sim.Control("PUT", "/faults", `{"malformedWrites": 1}`)
	mark := e.Sim.Mark()
	e.Confirm("")
	assert.Equal(t, []string{configsPath}, e.Sim.WritesSince(mark))
	assert.Equal(t, actNewJSON, confirm.Action.Name)
	assert.Contains(t, e.ToastTexts(), "alert configuration HOST_DOWN: "+views.OutcomeChecking)
	assert.Equal(t, "alert configuration HOST_DOWN "+views.VerifiedCreated+" (enabled)", e.LastToast().Text)
	assert.Empty(t, e.P.cfgDraft, "the draft went with the create")
}

// While the read-back runs, new configurations are disabled and a second
// submit of the form sends nothing; a read-back that finds nothing says
// "unknown: not found on the server yet", and the next submit sends once.
func TestLostConfigCreateNotFoundMaySubmitAgain(t *testing.T) {
	e := newPaneEnv(t)
	e.Send(views.ActionMsg{Name: actConfigs})
	e.Send(views.ActionMsg{Name: actNewConfig})
	values := newConfigValues("HOST_SSL_CERTIFICATE_STALE")
	c, err := e.P.configFromForm(views.ActionMsg{Name: actNewConfig, Values: values})
	require.NoError(t, err)
	mark := e.Sim.Mark()
	e.P.cfgCreating = cfgSending
	_, check := e.P.Update(views.Result[configWritten]{Pane: ID, Key: "configForm",
		Value: configWritten{create: true, lost: &lostConfig{groupID: apisim.DemoPaymentsID, sent: e.Sim.Client.Now(), cfg: c}}})
	require.NotNil(t, check)
	for _, a := range e.P.Actions() {
		if a.Name == actNewConfig || a.Name == actNewJSON {
			assert.Equal(t, "a new alert configuration was "+views.OutcomeChecking, a.DisabledReason, a.Name)
		}
	}
	require.NoError(t, e.Submit(values))
	assert.EqualError(t, e.LastFormDone().Err, "a new alert configuration was "+views.OutcomeChecking+"; nothing sent")
	e.Send(views.ActionMsg{Name: actNewJSON})
	assert.Equal(t, "new alert configuration: a new alert configuration was "+views.OutcomeChecking, e.LastToast().Text)

	e.Run(check)
	assert.Empty(t, e.Sim.WritesSince(mark), "the check only reads")
	assert.EqualError(t, e.LastFormDone().Err, views.NotCreated)
	assert.Zero(t, e.P.cfgCreating)

	require.NoError(t, e.Submit(values))
	assert.Equal(t, []string{configsPath}, e.Sim.WritesSince(mark))
	assert.NoError(t, e.LastFormDone().Err)
	assert.Equal(t, 1, configsLike(e, "HOST_SSL_CERTIFICATE_STALE"))
}
