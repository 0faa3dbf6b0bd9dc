package alerts

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// configTemplate is what `N` opens: a configuration to fill in.
const configTemplate = `{
  "eventTypeName": "HOST_DOWN",
  "enabled": true,
  "severityOverride": "CRITICAL",
  "matchers": [
    {"fieldName": "CLUSTER_NAME", "operator": "EQUALS", "value": "my-cluster"}
  ],
  "notifications": [
    {"typeName": "EMAIL", "emailAddress": "oncall@example.com", "delayMin": 0, "intervalMin": 60}
  ]
}`

// editJSON opens $EDITOR on the selected configuration (E) or a template
// (N); a draft left by a refused or failed save comes back first.
func (p *Pane) editJSON(edit bool) tea.Cmd {
	id, text := "", configTemplate
	if why := p.createBusy(); !edit && why != "" {
		return p.refuse("new alert configuration: " + why)
	}
	if edit {
		c, ok := p.selectedConfig("edit as JSON")
		if !ok {
			return nil
		}
		id = c.ID
		b, _ := json.MarshalIndent(c.Masked(), "", "  ")
		text = string(b)
	}
	if p.cfgDraft != "" && p.cfgEdit == id {
		text = p.cfgDraft
	}
	return views.Edit{Pane: ID, Key: id, File: "alert-config", Text: text, Header: []string{
		"Alert configuration as JSON. Lines starting with // are ignored; an empty document cancels.",
		"eventTypeName and notifications are required. Secrets show masked: type them again to keep them.",
	}}.Open()
}

// parseConfigJSON decodes and checks an edited configuration before
// anything is sent.
func parseConfigJSON(text string) (apiclient.AlertConfig, error) {
	var c apiclient.AlertConfig
	if err := views.DecodeJSON(text, &c); err != nil {
		return c, err
	}
	if err := c.Validate(); err != nil {
		return c, err
	}
	for i, m := range c.Matchers {
		if _, err := parseMatchers(m.FieldName + " " + string(m.Operator) + " " + m.Value); err != nil {
			return c, fmt.Errorf("matchers[%d]: %w", i, err)
		}
	}
	if f := maskedSecret(c); f != "" {
		return c, fmt.Errorf("%s still holds a masked secret: type the real value (or remove the member)", f)
	}
	return c, nil
}

// editorDone checks what the editor left and asks to save it.
func (p *Pane) editorDone(msg views.EditedMsg) tea.Cmd {
	text := msg.Text
	if msg.Err != nil {
		if text != "" {
			p.cfgDraft, p.cfgEdit = text, msg.Key
		}
		return p.refuse("edit as JSON: " + msg.Err.Error())
	}
	if text == "" {
		return p.refuse("edit as JSON: empty document, nothing saved")
	}
	p.cfgDraft, p.cfgEdit = text, msg.Key
	src := msg.Source()
	c, err := parseConfigJSON(src)
	if err != nil {
		return p.refuse("alert configuration not saved: " + components.Sanitize(err.Error()) + "; your JSON is kept: press E or N to continue")
	}
	if old, ok := p.configs[msg.Key]; msg.Key != "" && ok && c.SameWrite(old) {
		p.cfgDraft, p.cfgEdit = "", ""
		p.Toast("alert configuration "+components.Sanitize(c.EventTypeName)+" unchanged: nothing sent", false)
		return nil
	}
	var compact bytes.Buffer
	_ = json.Compact(&compact, []byte(src))
	verb, name := "Create", actNewJSON
	if msg.Key != "" {
		verb, name = "Update", actEditJSON
	}
	body := fmt.Sprintf("%s the %s alert configuration (%d matcher(s), %d notification(s), enabled: %v)?",
		strings.ToLower(verb), components.Sanitize(c.EventTypeName), len(c.Matchers), len(c.Notifications), c.Enabled)
	p.Confirm(views.ConfirmMsg{Title: verb + " alert configuration", Body: body,
		Action: views.ActionMsg{Name: name, Payload: configDoc{id: msg.Key, json: compact.String()}}})
	return nil
}

// configDoc is what the confirmation of an edited configuration hands
// back: the configuration it updates ("" creates) and the JSON confirmed.
type configDoc struct{ id, json string }

// saveConfigJSON sends a confirmed JSON configuration.
func (p *Pane) saveConfigJSON(msg views.ActionMsg) tea.Cmd {
	doc, ok := msg.Payload.(configDoc)
	if !ok {
		return p.refuse("alert configuration not saved: the confirmation carried no document; nothing sent")
	}
	id := doc.id
	c, err := parseConfigJSON(doc.json)
	if err != nil {
		return p.refuse("alert configuration not saved: " + components.Sanitize(err.Error()))
	}
	return p.sendConfig("saveConfig", id, c)
}
