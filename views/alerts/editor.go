package alerts

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/ui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// editorDoneMsg comes back when $EDITOR exits.
type editorDoneMsg struct {
	editID string // the configuration updated; "" creates
	text   string
	err    error
}

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
	if edit {
		c, bad := p.selectedConfig("edit as JSON")
		if bad != nil {
			return bad
		}
		id = c.ID
		b, _ := json.MarshalIndent(c.Masked(), "", "  ")
		text = string(b)
	}
	if p.cfgDraft != "" && p.cfgEdit == id {
		text = p.cfgDraft
	}
	f, err := os.CreateTemp("", "dbadmin-alert-config-*.json")
	if err != nil {
		return refuse("edit as JSON: temporary file: " + err.Error())
	}
	header := "// Alert configuration as JSON. Lines starting with // are ignored; an empty document cancels.\n" +
		"// eventTypeName and notifications are required. Secrets show masked: type them again to keep them.\n"
	_, werr := f.WriteString(header + text + "\n")
	cerr := f.Close()
	if werr != nil || cerr != nil {
		_ = os.Remove(f.Name())
		return refuse("edit as JSON: could not write the temporary file")
	}
	cmd, err := editorCommand(f.Name())
	if err != nil {
		_ = os.Remove(f.Name())
		return refuse("edit as JSON: " + err.Error())
	}
	path := f.Name()
	return tea.ExecProcess(cmd, func(runErr error) tea.Msg {
		b, rerr := os.ReadFile(path)
		_ = os.Remove(path)
		msg := editorDoneMsg{editID: id, text: string(b)}
		switch {
		case runErr != nil:
			msg.err = fmt.Errorf("the editor failed: %w", runErr)
		case rerr != nil:
			msg.err = fmt.Errorf("reading the edited file: %w", rerr)
		}
		return views.PaneMsg{Pane: views.Alerts, Msg: msg}
	})
}

// editorCommand is $VISUAL, else $EDITOR, else vi, on path; the variable
// may carry arguments ("code --wait").
func editorCommand(path string) (*exec.Cmd, error) {
	ed := strings.TrimSpace(os.Getenv("VISUAL"))
	if ed == "" {
		ed = strings.TrimSpace(os.Getenv("EDITOR"))
	}
	if ed == "" {
		ed = "vi"
	}
	args := strings.Fields(ed)
	bin, err := exec.LookPath(args[0])
	if err != nil {
		return nil, fmt.Errorf("no editor %q (set EDITOR): %w", args[0], err)
	}
	return exec.Command(bin, append(args[1:], path)...), nil
}

func stripComments(text string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "//") {
			out = append(out, l)
		}
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}

// parseConfigJSON decodes and checks an edited configuration before
// anything is sent.
func parseConfigJSON(text string) (apiclient.AlertConfig, error) {
	var c apiclient.AlertConfig
	dec := json.NewDecoder(strings.NewReader(text))
	if err := dec.Decode(&c); err != nil {
		return c, fmt.Errorf("not valid JSON: %w", err)
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
func (p *Pane) editorDone(msg editorDoneMsg) tea.Cmd {
	text := stripComments(msg.text)
	if msg.err != nil {
		if text != "" {
			p.cfgDraft, p.cfgEdit = text, msg.editID
		}
		return refuse("edit as JSON: " + msg.err.Error())
	}
	if text == "" {
		return refuse("edit as JSON: empty document, nothing saved")
	}
	p.cfgDraft, p.cfgEdit = text, msg.editID
	c, err := parseConfigJSON(text)
	if err != nil {
		return refuse("alert configuration not saved: " + components.Sanitize(err.Error()) + "; your JSON is kept: press E or N to continue")
	}
	var compact bytes.Buffer
	_ = json.Compact(&compact, []byte(text))
	verb, name := "Create", actNewJSON
	if msg.editID != "" {
		verb, name = "Update", actEditJSON
	}
	body := fmt.Sprintf("%s the %s alert configuration (%d matcher(s), %d notification(s), enabled: %v)?",
		strings.ToLower(verb), components.Sanitize(c.EventTypeName), len(c.Matchers), len(c.Notifications), c.Enabled)
	confirm := views.ConfirmMsg{Pane: views.Alerts, Title: verb + " alert configuration", Body: body,
		Action: views.ActionMsg{Name: name, Target: msg.editID + "\n" + compact.String()}}
	return func() tea.Msg { return confirm }
}

// saveConfigJSON sends a confirmed JSON configuration.
func (p *Pane) saveConfigJSON(msg views.ActionMsg) tea.Cmd {
	id, text, _ := strings.Cut(msg.Target, "\n")
	c, err := parseConfigJSON(text)
	if err != nil {
		return refuse("alert configuration not saved: " + components.Sanitize(err.Error()))
	}
	client, gid := p.ctx.Client, p.ctx.GroupID
	return views.Fetch(views.Alerts, "saveConfig", p.writeSeq.Next(), "saving alert configuration", func(ctx context.Context) (any, error) {
		if id == "" {
			return client.AlertConfigs().Create(ctx, gid, c)
		}
		return client.AlertConfigs().Update(ctx, gid, id, c)
	})
}
