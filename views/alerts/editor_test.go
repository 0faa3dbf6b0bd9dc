package alerts

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// jsonFile is a saved editor file: the two header lines of editJSON, then
// text.
func jsonFile(text string) string {
	return "// Alert configuration as JSON.\n// eventTypeName and notifications are required.\n" + text + "\n"
}

func TestJSONEditRefusesSyntaxErrorsAtTheirLineAndKeepsTheText(t *testing.T) {
	e := newPaneEnv(t)
	bad := strings.Replace(configTemplate, `"enabled": true,`, `"enabled": true`, 1) // noticed at the next member: line 4 of the text, 6 of the file
	e.Send(views.EditedFile(configTemplate, jsonFile(bad)))
	toasts := e.ToastTexts()
	require.NotEmpty(t, toasts)
	assert.Contains(t, toasts[len(toasts)-1], "alert configuration not saved: line 6, column 3: JSON syntax error")
	assert.Contains(t, toasts[len(toasts)-1], "your JSON is kept")
	assert.Equal(t, bad, e.P.cfgDraft, "the text is kept, header dropped")
	assert.Empty(t, e.P.cfgEdit)
	assert.Empty(t, e.Sim.Writes())

	// The editor failing keeps what it left too, and says so.
	e.Send(views.EditedMsg{Key: "cfg-1", Text: "{\"eventTypeName\":", Err: assert.AnError})
	toasts = e.ToastTexts()
	assert.Contains(t, toasts[len(toasts)-1], "edit as JSON: ")
	assert.Equal(t, "{\"eventTypeName\":", e.P.cfgDraft)
	assert.Equal(t, "cfg-1", e.P.cfgEdit)

	e.Send(views.EditedFile(configTemplate, jsonFile("// nothing but comments")))
	toasts = e.ToastTexts()
	assert.Contains(t, toasts[len(toasts)-1], "empty document, nothing saved")
	assert.Empty(t, e.Sim.Writes())
}

func TestJSONEditIgnoresCommentsAndAsksBeforeSending(t *testing.T) {
	e := newPaneEnv(t)
	text := strings.Replace(configTemplate, "  \"matchers\"", "  // only payments clusters\n  \"matchers\"", 1)
	e.Send(views.EditedFile(configTemplate, jsonFile(text)))
	confirm := e.LastConfirm()
	require.Equal(t, actNewJSON, confirm.Action.Name)
	assert.Equal(t, "Create alert configuration", confirm.Title)
	doc, ok := confirm.Action.Payload.(configDoc)
	require.True(t, ok, "the document rides the payload")
	id, body := doc.id, doc.json
	assert.Empty(t, id, "a create")
	assert.True(t, strings.HasPrefix(body, `{"eventTypeName":"HOST_DOWN","enabled":true`), body)
	assert.NotContains(t, body, "payments clusters")
	assert.Empty(t, e.Sim.Writes(), "nothing before yes")

	a := confirm.Action
	a.Confirmed = true
	e.Send(a)
	require.Len(t, e.Sim.Writes(), 1)
	assert.Contains(t, e.Sim.Writes()[0], "POST ")
}

// The pane matches ActionMsg.Name against its act… constants: each must
// name a registered action, or its key would silently do nothing.
func TestEveryActionConstantNamesARegisteredAction(t *testing.T) {
	assert.Empty(t, viewstest.UnregisteredActionConsts(t, Registration))
}

// A configuration saved from the editor as it was: no question, nothing
// sent, and the screen says so; one changed is asked about as usual.
func TestJSONEditUnchangedSendsNothing(t *testing.T) {
	e := newPaneEnv(t)
	var id string
	for cid, c := range e.P.configs {
		if maskedSecret(c.Masked()) == "" {
			id = cid
			break
		}
	}
	require.NotEmpty(t, id, "a configuration without secrets")
	b, err := json.MarshalIndent(e.P.configs[id].Masked(), "", "  ")
	require.NoError(t, err)
	confirms := len(e.Confirms)
	e.Send(views.EditedMsg{Key: id, Text: string(b)})
	toasts := e.ToastTexts()
	require.NotEmpty(t, toasts)
	assert.Contains(t, toasts[len(toasts)-1], "unchanged: nothing sent")
	assert.Len(t, e.Confirms, confirms, "no question")
	assert.Empty(t, e.Sim.Writes())

	changed := strings.Replace(string(b), `"enabled": true`, `"enabled": false`, 1)
	if changed == string(b) {
		changed = strings.Replace(string(b), `"enabled": false`, `"enabled": true`, 1)
	}
	e.Send(views.EditedMsg{Key: id, Text: changed})
	assert.Equal(t, actEditJSON, e.LastConfirm().Action.Name)
}

// An action that comes back without the payload its dialog gave it (an
// acknowledgement without its alerts, a save without its document) is
// refused on screen; nothing is sent.
func TestActionWithoutItsPayloadIsRefused(t *testing.T) {
	e := newPaneEnv(t)
	for _, a := range []views.ActionMsg{
		{Name: actAck, Confirmed: true, Form: formAck, Values: map[string]string{"until": "1h", "comment": "x"}},
		{Name: actUnack, Confirmed: true, Form: formUnack, Values: map[string]string{"comment": "x"}},
	} {
		e.Send(a)
		done := e.LastFormDone()
		assert.Equal(t, a.Form, done.ID)
		require.Error(t, done.Err, a.Name)
		assert.Contains(t, done.Err.Error(), "nothing sent", a.Name)
	}
	e.Send(views.ActionMsg{Name: actNewJSON, Confirmed: true})
	toast := e.LastToast()
	assert.True(t, toast.Err)
	assert.Contains(t, toast.Text, "nothing sent")
	assert.Empty(t, e.Sim.Writes())
}
