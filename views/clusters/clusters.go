// Package clusters is the Clusters pane: every cluster of the project with
// its state, topology, tier, MongoDB version and that version's end of
// life, whether it is paused and whether it is backed up; enter opens its
// detail, and keys jump to its alerts, backups, search indexes and access
// logs. It is read-only, and declared with views/listpane.
package clusters

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/ui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/listpane"
)

// ID names the pane.
const ID views.ID = "clusters"

// Registration is the pane as the root's list names it.
var Registration = views.Registration{
	ID: ID, Title: "Clusters", Aliases: []string{"cl"}, Table: true, Poll: time.Minute,
	Reads: []views.Read{{Desc: "list clusters", Op: "listClusters"}},
	Actions: []keymap.Action{
		keymap.NewAction("clusters.detail", "enter", "detail", "enter"),
		keymap.NewAction("clusters.alerts", "A", "its alerts", "A"),
		keymap.NewAction("clusters.backups", "B", "its backups", "B"),
		keymap.NewAction("clusters.search", "I", "its search indexes", "I"),
		keymap.NewAction("clusters.logs", "L", "its access logs", "L"),
	},
	New: listpane.New(spec),
}

var spec = listpane.Spec[apiclient.Cluster]{
	ID: ID, Noun: "clusters", Key: func(c apiclient.Cluster) string { return c.Name }, Class: class, Detail: detail,
	Off: func(ctx views.Context) string {
		return map[bool]string{true: "pick a project (ctrl+g)"}[ctx.GroupID == ""]
	},
	Load: func(ctx context.Context, v views.Context) ([]apiclient.Cluster, error) {
		return v.Client.Clusters().All(ctx, v.GroupID)
	},
	Columns: []listpane.Column[apiclient.Cluster]{
		{Column: components.Column{Title: "NAME", MinWidth: 16, Flex: 2}, Cell: func(c apiclient.Cluster) string { return c.Name }},
		{Column: components.Column{Title: "STATE", Width: 10}, Cell: func(c apiclient.Cluster) string { return string(c.StateName) }},
		{Column: components.Column{Title: "TYPE", Width: 10, Priority: 1}, Cell: func(c apiclient.Cluster) string { return string(c.ClusterType) }},
		{Column: components.Column{Title: "TIER", Width: 5}, Cell: apiclient.Cluster.InstanceSize},
		{Column: components.Column{Title: "VERSION", Width: 8}, Cell: func(c apiclient.Cluster) string { return c.MongoDBVersion }},
		{Column: components.Column{Title: "END OF LIFE", Width: 11, Priority: 2}, Cell: eol, Sort: eolKey},
		{Column: components.Column{Title: "PAUSED", Width: 6, Priority: 3}, Cell: func(c apiclient.Cluster) string { return yes(c.Paused) }},
		{Column: components.Column{Title: "BACKUP", Width: 6}, Cell: func(c apiclient.Cluster) string { return onOff(c.BackupEnabled) }},
	},
	Actions: []listpane.Action[apiclient.Cluster]{
		{Name: "clusters.alerts", Do: jump("alerts", "")},
		{Name: "clusters.backups", Do: jump("backups", "snapshots"), Disabled: tenant("no cloud backup snapshots")},
		{Name: "clusters.search", Do: jump("search", "")},
		{Name: "clusters.logs", Do: jump("accesslogs", ""), Disabled: tenant("no access logs")},
	},
}

func jump(pane views.ID, view string) func(views.Context, apiclient.Cluster) tea.Cmd {
	return func(ctx views.Context, c apiclient.Cluster) tea.Cmd {
		return func() tea.Msg {
			return views.JumpMsg{From: ID, Pane: pane, GroupID: ctx.GroupID, Cluster: c.Name, View: view, Name: c.Name}
		}
	}
}

func tenant(why string) func(apiclient.Cluster) string {
	return func(c apiclient.Cluster) string { return map[bool]string{true: "shared tier: " + why}[c.Tenant()] }
}

// eol is the version's end of life, "-" when the series has none known.
func eol(c apiclient.Cluster) string {
	if t, ok := views.EndOfLife(c.MongoDBVersion); ok {
		return t.Format("2006-01-02")
	}
	return "-"
}

func eolKey(c apiclient.Cluster) string {
	if t, ok := views.EndOfLife(c.MongoDBVersion); ok {
		return t.Format("2006-01-02")
	}
	return "9999" // none known: last
}

func class(c apiclient.Cluster) string {
	switch {
	case c.Paused:
		return "muted"
	case c.StateName == apiclient.ClusterIdle:
		return "ok"
	case c.StateName == apiclient.ClusterDeleting || c.StateName == apiclient.ClusterRepairing:
		return "failed"
	}
	return "running"
}

func detail(c apiclient.Cluster) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", components.EscapeMarkdown(c.Name))
	row := func(k, v string) { fmt.Fprintf(&b, "- **%s:** %s\n", k, components.EscapeMarkdown(v)) }
	row("State", string(c.StateName))
	row("Type", string(c.ClusterType))
	row("Tier", c.InstanceSize())
	row("MongoDB", c.MongoDBVersion+" ("+c.VersionReleaseSystem+")")
	row("End of life", eol(c))
	row("Paused", yes(c.Paused))
	row("Backup", onOff(c.BackupEnabled)+", point in time "+onOff(c.PitEnabled))
	row("Termination protection", onOff(c.TerminationProtectionEnabled))
	if c.CreateDate != nil {
		row("Created", c.CreateDate.UTC().Format("2006-01-02 15:04 UTC"))
	}
	if cs := c.ConnectionStrings; cs != nil && cs.StandardSrv != "" {
		row("Connection", cs.StandardSrv)
	}
	for _, rs := range c.ReplicationSpecs {
		for _, rc := range rs.RegionConfigs {
			if rc.ElectableSpecs != nil {
				row("Region", fmt.Sprintf("%s %s, %d × %s", rc.ProviderName, rc.RegionName, rc.ElectableSpecs.NodeCount, rc.ElectableSpecs.InstanceSize))
			}
		}
	}
	return b.String()
}

func yes(b bool) string   { return map[bool]string{true: "yes", false: "no"}[b] }
func onOff(b bool) string { return map[bool]string{true: "on", false: "off"}[b] }
