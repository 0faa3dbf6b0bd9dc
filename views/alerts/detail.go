package alerts

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// detailAnswer is a fresh read of the alert and the configuration(s) that
// raised it.
type detailAnswer struct {
	alert      *apiclient.Alert
	configs    []apiclient.AlertConfig
	configsErr error
}

// openDetail shows the alert (or, in the configurations view, the
// configuration) under the cursor.
func (p *Pane) openDetail() tea.Cmd {
	switch p.mode {
	case modeConfigs:
		id := p.cfgTable.SelectedID()
		if id == "" {
			return p.refuse("details: no alert configuration selected")
		}
		p.cfgDetailID = id
		p.mode = modeConfigDetail
		p.renderConfigDetail()
		return nil
	case modeConfigDetail, modeDetail:
		return nil
	}
	id := p.table.SelectedID()
	if id == "" {
		return p.refuse("details: no alert selected")
	}
	p.detailID, p.detailConfigs, p.detailErr, p.detailLoading = id, nil, nil, true
	p.fullID = id // the store keeps this one whole
	p.mode = modeDetail
	p.renderDetail()
	return p.loadDetail(id)
}

func (p *Pane) loadDetail(id string) tea.Cmd {
	client, gid := p.Ctx.Client, p.Ctx.GroupID
	if client == nil {
		return nil
	}
	return views.Get(&p.Base, "detail", p.detailSeq.Next(), "", func(ctx context.Context) (detailAnswer, error) {
		a, err := client.Alerts().Get(ctx, gid, id)
		if err != nil {
			return detailAnswer{}, fmt.Errorf("get alert: %w", err)
		}
		cs, cerr := client.AlertConfigs().ListAllByAlert(ctx, gid, id)
		return detailAnswer{alert: a, configs: cs, configsErr: cerr}, nil
	})
}

func (p *Pane) detailLoaded(msg views.Result[detailAnswer]) tea.Cmd {
	p.detailLoading = false
	p.detailErr = msg.Err
	if msg.Err == nil {
		d := msg.Value
		if d.alert != nil && d.alert.ID == p.detailID {
			p.replaceAlert(*d.alert)
			p.detailConfigs = d.configs
			p.detailErr = d.configsErr
		}
	}
	if p.mode == modeDetail {
		p.renderDetail()
	}
	return nil
}

// renderDetail writes every field of the alert, its acknowledgement and
// the configuration that raised it as markdown. Server strings are
// sanitized and set in code spans or escaped table cells.
func (p *Pane) renderDetail() {
	a, ok := p.alert(p.detailID)
	if !ok {
		p.detail.SetMarkdown("# Alert " + mdCell(p.detailID) + "\n\nThis alert is no longer in the list.")
		return
	}
	now := p.Ctx.Now()
	sev := severityOf(a, p.configs)
	var b strings.Builder
	fmt.Fprintf(&b, "# %s · %s · %s\n\n", mdCell(a.EventTypeName), a.Status, sev)
	b.WriteString("| field | value |\n|---|---|\n")
	row := func(k, v string) {
		if v != "" {
			fmt.Fprintf(&b, "| %s | %s |\n", k, mdCell(v))
		}
	}
	ts := func(t *time.Time) string {
		if t == nil || t.IsZero() { // not sent, or not read yet (the store's record)
			return ""
		}
		return p.when(*t) + " (" + components.Age(now.Sub(*t)) + " ago)"
	}
	row("id", a.ID)
	row("status", string(a.Status))
	row("severity", string(sev)+severitySource(a, p.configs))
	row("event type", a.EventTypeName)
	row("cluster", a.ClusterName)
	row("host", a.HostnameAndPort)
	row("replica set", a.ReplicaSetName)
	row("metric", a.MetricName)
	if a.CurrentValue != nil {
		row("current value", fmt.Sprintf("%g %s", a.CurrentValue.Number, a.CurrentValue.Units))
	}
	row("created", ts(&a.Created))
	row("updated", ts(&a.Updated))
	row("last notified", ts(a.LastNotified))
	row("resolved", ts(a.Resolved))
	row("alert config", a.AlertConfigID)
	row("project", a.GroupID)
	row("organization", a.OrgID)

	b.WriteString("\n## Acknowledgement\n\n")
	switch {
	case a.Acknowledged(now):
		fmt.Fprintf(&b, "Acknowledged until **%s** by **%s**.\n\n", p.untilText(*a.AcknowledgedUntil, now), mdCell(orDash(a.AcknowledgingUsername)))
	case a.AcknowledgedUntil != nil:
		fmt.Fprintf(&b, "The acknowledgement by %s ran out at %s.\n\n", mdCell(orDash(a.AcknowledgingUsername)), p.when(*a.AcknowledgedUntil))
	default:
		b.WriteString("Not acknowledged.\n\n")
	}
	if a.AcknowledgementComment != "" {
		fmt.Fprintf(&b, "> %s\n\n", mdCell(a.AcknowledgementComment))
	}

	b.WriteString("## Raised by\n\n")
	switch {
	case p.detailLoading:
		b.WriteString("loading the alert configuration…\n")
	case p.detailErr != nil:
		fmt.Fprintf(&b, "Could not read the alert configuration: %s\n", mdCell(views.ErrText(p.detailErr)))
	case len(p.detailConfigs) == 0:
		b.WriteString("No configuration (it may have been deleted).\n")
	}
	for _, c := range p.detailConfigs {
		writeConfig(&b, c, p)
	}
	if more := apiclient.ShowingFirst(len(p.detailConfigs)); more != "" {
		fmt.Fprintf(&b, "Configurations: %s (there may be more on the server).\n", more)
	}
	p.detail.SetMarkdown(b.String())
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// severitySource says where the severity came from.
func severitySource(a apiclient.Alert, configs map[string]apiclient.AlertConfig) string {
	if c, ok := configs[a.AlertConfigID]; ok && c.SeverityOverride != "" {
		return " (the configuration's severityOverride)"
	}
	return " (by event type)"
}

// writeConfig writes a configuration: state, matchers and notifications
// with their secrets masked.
// maxListed bounds the matchers and notifications a detail lists: a
// server's configuration may carry thousands.
const maxListed = 50

func writeConfig(b *strings.Builder, c apiclient.AlertConfig, p *Pane) {
	c = c.Masked()
	state := "disabled"
	if c.Enabled {
		state = "enabled"
	}
	fmt.Fprintf(b, "### %s · %s\n\n", mdCell(c.EventTypeName), state)
	b.WriteString("| field | value |\n|---|---|\n")
	fmt.Fprintf(b, "| id | %s |\n", mdCell(c.ID))
	fmt.Fprintf(b, "| severity override | %s |\n", mdCell(orDash(string(c.SeverityOverride))))
	if c.Created != nil {
		fmt.Fprintf(b, "| created | %s |\n", p.when(*c.Created))
	}
	if c.Updated != nil {
		fmt.Fprintf(b, "| updated | %s |\n", p.when(*c.Updated))
	}
	if m := c.MetricThreshold; m != nil {
		th := ""
		if m.Threshold != nil {
			th = fmt.Sprintf("%g", *m.Threshold)
		}
		fmt.Fprintf(b, "| metric threshold | %s |\n", mdCell(strings.TrimSpace(fmt.Sprintf("%s %s %s %s %s", m.MetricName, m.Mode, m.Operator, th, m.Units))))
	}
	b.WriteString("\n**Matchers**\n\n")
	if len(c.Matchers) == 0 {
		b.WriteString("none: every resource of the event type\n")
	}
	for i, m := range c.Matchers {
		if i == maxListed {
			fmt.Fprintf(b, "- … %d more (y copies the configuration)\n", len(c.Matchers)-i)
			break
		}
		fmt.Fprintf(b, "- %s %s %s\n", mdCell(m.FieldName), mdCell(string(m.Operator)), mdCell(m.Value))
	}
	b.WriteString("\n**Notifications**\n\n")
	if len(c.Notifications) == 0 {
		b.WriteString("none\n")
	} else {
		b.WriteString("| type | target | delay | interval |\n|---|---|---|---|\n")
	}
	for i, n := range c.Notifications {
		if i == maxListed {
			fmt.Fprintf(b, "\n… %d more notifications (y copies the configuration)\n", len(c.Notifications)-i)
			break
		}
		delay := "0 min"
		if n.DelayMin != nil {
			delay = fmt.Sprintf("%d min", *n.DelayMin)
		}
		interval := "—"
		if n.IntervalMin > 0 {
			interval = fmt.Sprintf("every %d min", n.IntervalMin)
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", mdCell(string(n.TypeName)), mdCell(orDash(n.Target())), delay, interval)
	}
	b.WriteString("\n")
}
