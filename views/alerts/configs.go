package alerts

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

func configColumns() []components.Column {
	return []components.Column{
		{Title: "ENABLED", Width: 8, Priority: 3, ShortWidth: 3, ShortTitle: "ON"},
		{Title: "EVENT TYPE", MinWidth: 24, Flex: 3},
		{Title: "SEVERITY", Width: 9, Priority: 2, ShortWidth: 4, ShortTitle: "SEV", ShortCell: severityShort},
		{Title: "MATCHERS", MinWidth: 10, Flex: 3, Priority: 5},
		{Title: "NOTIFICATIONS", MinWidth: 12, Flex: 3, Priority: 4},
		{Title: "UPDATED", Width: 17, Priority: 6},
	}
}

func (p *Pane) rebuildConfigRows() {
	rows := make([]components.Row, 0, len(p.cfgOrder))
	for _, id := range p.cfgOrder {
		c := p.configs[id]
		enabled, class := "yes", ""
		if !c.Enabled {
			enabled, class = "no", "muted"
		}
		var ms, ns []string
		for _, m := range c.Matchers {
			ms = append(ms, m.FieldName+" "+string(m.Operator)+" "+m.Value)
		}
		for _, n := range c.Notifications {
			ns = append(ns, string(n.TypeName))
		}
		updated := ""
		if c.Updated != nil {
			updated = p.when(*c.Updated)
		}
		rows = append(rows, components.Row{ID: c.ID, Class: class, Cells: []string{
			enabled, c.EventTypeName, orDash(string(c.SeverityOverride)), strings.Join(ms, "; "), strings.Join(ns, ", "), updated,
		}})
	}
	p.cfgTable.SetRows(rows)
}

func (p *Pane) renderConfigDetail() {
	p.cfgTooLarge = ""
	c, ok := p.configs[p.cfgDetailID]
	if !ok {
		p.detail.SetMarkdown("# Alert configuration " + mdCell(p.cfgDetailID) + "\n\nIt is no longer in the list.")
		return
	}
	var b strings.Builder
	b.WriteString("# Alert configuration\n\n")
	writeConfig(&b, c, p)
	n := 0
	for i := range p.alerts {
		if a := &p.alerts[i]; a.configID == c.ID && a.open() {
			n++
		}
	}
	fmt.Fprintf(&b, "**Open alerts raised by it:** %d\n\n", n)
	b.WriteString("t: enable/disable · d: delete · e: edit (form) · E: edit as JSON · esc: back\n")
	// The whole configuration as the server sent it (secrets masked),
	// through the bounded path: members this dashboard does not know are
	// kept as they came and may be as deep or large as a server makes them.
	doc := components.NewDocument(c.Masked())
	if doc.TooLarge {
		raw, _ := json.Marshal(c.Masked())
		p.cfgTooLarge = string(raw)
	}
	b.WriteString(doc.MarkdownKeys("As JSON", "configuration", "y copies it, E opens it in $EDITOR"))
	p.detail.SetMarkdown(b.String())
}

// selectedConfig is the configuration under the cursor or in the detail.
func (p *Pane) selectedConfig(verb string) (c apiclient.AlertConfig, ok bool) {
	var id string
	switch p.mode {
	case modeConfigs:
		id = p.cfgTable.SelectedID()
	case modeConfigDetail:
		id = p.cfgDetailID
	default:
		p.Refuse(verb + " acts on alert configurations: press c to list them")
		return c, false
	}
	c, ok = p.configs[id]
	switch {
	case !ok && p.cfgErr != nil && len(p.configs) == 0:
		p.Refuse(verb + ": the configurations could not be read (" + views.ErrText(p.cfgErr) + "); nothing done")
	case !ok && len(p.configs) == 0 && !p.firstDone:
		// Typed ahead of the list (c then e at once): said, not "none selected".
		p.Refuse(verb + ": the configurations are still loading; nothing done")
	case !ok:
		p.Refuse(verb + ": no alert configuration selected")
	}
	return c, ok
}

// toggleConfig flips enabled; only that changes on the server.
func (p *Pane) toggleConfig() tea.Cmd {
	c, ok := p.selectedConfig("enable/disable")
	if !ok {
		return nil
	}
	client, gid, want := p.Ctx.Client, p.Ctx.GroupID, !c.Enabled
	verb := "disabling"
	if want {
		verb = "enabling"
	}
	return views.Write(&p.Base, "toggle", p.writeSeq.Next(), verb+" "+components.Sanitize(c.EventTypeName), func(ctx context.Context) (configWritten, error) {
		saved, err := client.AlertConfigs().Toggle(ctx, gid, c.ID, want)
		return configWritten{cfg: saved}, err
	})
}

func (p *Pane) confirmDelete() tea.Cmd {
	c, ok := p.selectedConfig("delete")
	if !ok {
		return nil
	}
	open := 0
	for i := range p.alerts {
		if a := &p.alerts[i]; a.configID == c.ID && a.open() {
			open++
		}
	}
	body := fmt.Sprintf("Delete the %s configuration %s?\nIts %d open alert(s) will be cancelled and its notifications stop.",
		components.Sanitize(c.EventTypeName), c.ID, open)
	p.Confirm(views.ConfirmMsg{Title: "Delete alert configuration", Body: body,
		Action: views.ActionMsg{Name: actDelete, Target: c.ID}})
	return nil
}

func (p *Pane) deleteConfig(id string) tea.Cmd {
	if id == "" {
		return p.refuse("delete: no alert configuration selected")
	}
	client, gid := p.Ctx.Client, p.Ctx.GroupID
	return views.Write(&p.Base, "delete", p.writeSeq.Next(), "deleting alert configuration", func(ctx context.Context) (configWritten, error) {
		if err := client.AlertConfigs().Delete(ctx, gid, id); err != nil {
			return configWritten{}, err
		}
		return configWritten{deleted: id}, nil
	})
}

// configWritten is a configuration write's answer: the configuration as
// saved, or the id of the one deleted.
type configWritten struct {
	cfg     *apiclient.AlertConfig
	deleted string
	// create: the write was a create (id empty); lost: its answer was lost
	// and it is read back, never resent; verified: found by that read-back.
	create   bool
	lost     *lostConfig
	verified bool
}

// lostConfig is a create whose answer was lost, and once checked what the
// read-back found (the configuration, nothing, or err).
type lostConfig struct {
	groupID string
	sent    time.Time
	cfg     apiclient.AlertConfig
	checked bool
	found   *apiclient.AlertConfig
	err     error
}

// cfgCreate is where the pane's create of a configuration stands: while it
// is sent or checked, or its outcome stays unknown, no other create is sent.
type cfgCreate int

const (
	cfgSending   cfgCreate = iota + 1 // the POST is under way
	cfgChecking                       // its answer was lost; reading back
	cfgUnsettled                      // the read-back failed too; until the list is read again
)

// createBusy says why a new configuration cannot be sent now, or "".
func (p *Pane) createBusy() string {
	switch p.cfgCreating {
	case cfgSending:
		return "a new alert configuration is being sent"
	case cfgChecking:
		return "a new alert configuration was " + views.OutcomeChecking
	case cfgUnsettled:
		return "the outcome of the last new alert configuration is unknown: r shows what the server holds"
	}
	return ""
}

// saveConfig saves c: created when id is empty, else updated. A create
// whose answer was lost comes back as lost, to be read back.
func saveConfig(ctx context.Context, client *apiclient.Client, gid, id string, c apiclient.AlertConfig) (configWritten, error) {
	var saved *apiclient.AlertConfig
	var err error
	if id == "" {
		saved, err = client.AlertConfigs().Create(ctx, gid, c)
		if ou, ok := apiclient.AsOutcomeUnknown(err); ok {
			return configWritten{create: true, lost: &lostConfig{groupID: gid, sent: ou.Sent, cfg: c}}, nil
		}
	} else {
		saved, err = client.AlertConfigs().Update(ctx, gid, id, c)
	}
	return configWritten{cfg: saved, create: id == ""}, err
}

// sendConfig sends a configuration from the form (key configForm) or the
// JSON editor (saveConfig); a create is refused while another one's
// outcome is not known.
func (p *Pane) sendConfig(key, id string, c apiclient.AlertConfig) tea.Cmd {
	if id == "" {
		if why := p.createBusy(); why != "" {
			err := errors.New(why + "; nothing sent")
			if key == "configForm" {
				return p.formDone(formConfig, err)
			}
			return p.refuse("alert configuration not saved: " + err.Error())
		}
		p.cfgCreating = cfgSending
	}
	if old, ok := p.configs[id]; id != "" && ok && c.SameWrite(old) {
		// Nothing changed: nothing is sent, and the screen says so.
		p.cfgDraft, p.cfgEdit = "", ""
		text := "alert configuration " + components.Sanitize(c.EventTypeName) + " unchanged: nothing sent"
		if key == "configForm" {
			p.FormDone(formConfig, nil)
		}
		p.Toast(text, false)
		return nil
	}
	client, gid := p.Ctx.Client, p.Ctx.GroupID
	return views.Write(&p.Base, key, p.writeSeq.Next(), "saving alert configuration", func(ctx context.Context) (configWritten, error) {
		return saveConfig(ctx, client, gid, id, c)
	})
}

// verifyConfig reads the configurations back and looks for the lost one by
// what was sent (event type, matchers, notifications, enabled).
func (p *Pane) verifyConfig(key string, lost lostConfig) tea.Cmd {
	client := p.Ctx.Client
	return views.Get(&p.Base, key, p.writeSeq.Next(), "checking what the server holds", func(ctx context.Context) (configWritten, error) {
		found, ok, err := client.AlertConfigs().VerifyCreate(ctx, lost.groupID, lost.cfg, lost.sent)
		lost.checked, lost.err = true, err
		if ok && err == nil {
			lost.found = found
		}
		return configWritten{create: true, lost: &lost}, nil
	})
}

// lostConfigDone says a lost create is being checked, then what was found.
func (p *Pane) lostConfigDone(key string, lost *lostConfig) tea.Cmd {
	what := "alert configuration " + components.Sanitize(lost.cfg.EventTypeName)
	fail := func(err error) tea.Cmd {
		if key == "configForm" {
			return p.formDone(formConfig, err) // the form stays, its values kept
		}
		return p.refuse(what + ": " + err.Error() + "; your JSON is kept: press N to continue")
	}
	switch {
	case !lost.checked:
		p.cfgCreating = cfgChecking
		if key == "configForm" {
			p.FormStatus(formConfig, views.OutcomeChecking)
		}
		p.Toast(what+": "+views.OutcomeChecking, false)
		return p.verifyConfig(key, *lost)
	case lost.err != nil:
		p.cfgCreating = cfgUnsettled
		return fail(views.OutcomeStillUnknown(views.ErrText(lost.err)))
	case lost.found == nil:
		p.cfgCreating = 0
		return fail(errors.New(views.NotCreated))
	}
	p.cfgCreating = 0
	return p.configWriteDone(views.Result[configWritten]{Pane: ID, Key: key, Value: configWritten{cfg: lost.found, create: true, verified: true}})
}

// configWriteDone applies a toggle, delete or save and reloads the list.
func (p *Pane) configWriteDone(msg views.Result[configWritten]) tea.Cmd {
	if lost := msg.Value.lost; lost != nil && msg.Err == nil {
		return p.lostConfigDone(msg.Key, lost)
	}
	if msg.Value.create && !msg.Value.verified {
		p.cfgCreating = 0
	}
	if msg.Key == "configForm" {
		if msg.Err != nil {
			return p.formDone(formConfig, msg.Err)
		}
		msg.Key = "saveConfig"
		p.FormDone(formConfig, nil)
		return p.configWriteDone(msg)
	}
	if msg.Err != nil {
		if msg.Key == "saveConfig" {
			return p.refuse("alert configuration not saved: " + views.ErrText(msg.Err) + "; your JSON is kept: press E or N to continue")
		}
		return p.refuse(msg.Key + " failed: " + views.ErrText(msg.Err))
	}
	var text string
	switch v := msg.Value; {
	case v.cfg != nil:
		v := v.cfg
		p.configs[v.ID] = *v
		if !slices.Contains(p.cfgOrder, v.ID) {
			p.cfgOrder = append(p.cfgOrder, v.ID)
		}
		state := "disabled"
		if v.Enabled {
			state = "enabled"
		}
		text = fmt.Sprintf("alert configuration %s %s", components.Sanitize(v.EventTypeName), state)
		if msg.Key == "saveConfig" {
			text = "saved alert configuration " + components.Sanitize(v.EventTypeName) + " (" + state + ")"
			if msg.Value.verified {
				text = "alert configuration " + components.Sanitize(v.EventTypeName) + " " + views.VerifiedCreated + " (" + state + ")"
			}
			p.cfgDraft, p.cfgEdit = "", ""
		}
	case v.deleted != "":
		delete(p.configs, v.deleted)
		p.cfgOrder = slices.DeleteFunc(p.cfgOrder, func(id string) bool { return id == v.deleted })
		text = "deleted alert configuration " + v.deleted
		if p.mode == modeConfigDetail {
			p.mode = modeConfigs
		}
	}
	p.rebuildConfigRows()
	p.rebuildRows()
	if p.mode == modeConfigDetail {
		p.renderConfigDetail()
	}
	p.Toast(text, false)
	return p.load("")
}
