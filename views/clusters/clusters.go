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
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/listpane"
)

// ID names the pane.
const ID views.ID = "clusters"

// Registration is the pane as the root's list names it.
var Registration = views.Registration{
	ID: ID, Title: "Clusters", Aliases: []string{"cl"}, Table: true, Poll: time.Minute,
	Reads: []views.Read{{Desc: "list clusters", Op: "listClusters"}, {Desc: "list flex clusters", Op: "listFlexClusters"},
		{Desc: "list serverless instances", Op: "listServerlessInstances"}},
	Actions: spec.Keys(),
	New:     listpane.New(spec),
}

var spec = listpane.Spec[apiclient.Cluster]{
	ID: ID, Noun: "clusters", Key: func(c apiclient.Cluster) string { return c.Name }, Class: class, Detail: detail,
	Off: func(ctx views.Context) string {
		return map[bool]string{true: "pick a project (ctrl+g)"}[ctx.GroupID == ""]
	},
	Load: load,
	Columns: []listpane.Column[apiclient.Cluster]{
		{Column: components.Column{Title: "NAME", MinWidth: 16, Flex: 2}, Cell: func(c apiclient.Cluster) string { return c.Name }},
		{Column: components.Column{Title: "STATE", Width: 9}, Cell: func(c apiclient.Cluster) string { return string(c.StateName) }},
		{Column: components.Column{Title: "TYPE", Width: 10, Priority: 1}, Cell: func(c apiclient.Cluster) string { return string(c.ClusterType) }},
		{Column: components.Column{Title: "TIER", Width: 5}, Cell: tier},
		{Column: components.Column{Title: "VERSION", Width: 7}, Cell: func(c apiclient.Cluster) string { return c.MongoDBVersion }},
		{Column: components.Column{Title: "EOL", Width: 10, Priority: 2}, Cell: eol, Sort: eolKey},
		{Column: components.Column{Title: "PAUSED", Width: 6, Priority: 3}, Cell: func(c apiclient.Cluster) string { return yes(c.Paused) }},
		{Column: components.Column{Title: "BACKUP", Width: 6}, Cell: func(c apiclient.Cluster) string { return onOff(c.BackupEnabled) }},
	},
	Actions: []listpane.Action[apiclient.Cluster]{
		{Key: keymap.NewAction("clusters.alerts", "A", "its alerts", "A"), Do: jump("alerts", "")},
		{Key: keymap.NewAction("clusters.backups", "B", "its backups", "B"), Do: jump("backups", "snapshots"), Disabled: tenant("no cloud backup snapshots")},
		{Key: keymap.NewAction("clusters.search", "I", "its search indexes", "I"), Do: jump("search", "")},
		{Key: keymap.NewAction("clusters.logs", "L", "its access logs", "L"), Do: jump("accesslogs", ""), Disabled: tenant("no access logs")},
	},
}

// load reads the project's dedicated and shared clusters, then its flex
// clusters and serverless instances, as rows of one kind.
func load(ctx context.Context, v views.Context) ([]apiclient.Cluster, error) {
	cs := v.Client.Clusters()
	out, err := cs.All(ctx, v.GroupID)
	if err != nil {
		return nil, err
	}
	flex, err := cs.AllFlex(ctx, v.GroupID)
	if err != nil {
		return nil, listpane.PartError{Part: "flex clusters", Err: err}
	}
	for _, f := range flex {
		c := apiclient.Cluster{Name: f.Name, GroupID: f.GroupID, ClusterType: "FLEX", StateName: f.StateName, MongoDBVersion: f.MongoDBVersion,
			CreateDate: f.CreateDate, BackupEnabled: f.BackupSettings != nil && f.BackupSettings.Enabled, ConnectionStrings: f.ConnectionStrings,
			TerminationProtectionEnabled: f.TerminationProtectionEnabled, VersionReleaseSystem: f.VersionReleaseSystem}
		out = append(out, withTier(c, "FLEX", f.ProviderSettings.BackingProviderName, f.ProviderSettings.RegionName))
	}
	sl, err := cs.AllServerless(ctx, v.GroupID)
	if err != nil {
		return nil, listpane.PartError{Part: "serverless instances", Err: err}
	}
	for _, i := range sl {
		c := apiclient.Cluster{Name: i.Name, GroupID: i.GroupID, ClusterType: "SERVERLESS", StateName: i.StateName, MongoDBVersion: i.MongoDBVersion,
			CreateDate: i.CreateDate, TerminationProtectionEnabled: i.TerminationProtectionEnabled,
			BackupEnabled: i.ServerlessBackupOptions != nil && i.ServerlessBackupOptions.ServerlessContinuousBackupEnabled}
		if i.ConnectionStrings != nil {
			c.ConnectionStrings = &apiclient.ConnectionStrings{StandardSrv: i.ConnectionStrings.StandardSrv}
		}
		out = append(out, withTier(c, "SERVERLESS", i.ProviderSettings.BackingProviderName, i.ProviderSettings.RegionName))
	}
	return out, nil
}

// withTier gives a flex cluster or serverless instance its kind as its tier.
func withTier(c apiclient.Cluster, tier, provider, region string) apiclient.Cluster {
	c.ReplicationSpecs = []apiclient.ReplicationSpec{{RegionConfigs: []apiclient.RegionConfig{{ProviderName: provider, RegionName: region,
		ElectableSpecs: &apiclient.HardwareSpec{InstanceSize: tier}}}}}
	return c
}

func jump(pane views.ID, view string) func(*views.Base, apiclient.Cluster) tea.Cmd {
	return listpane.Jump(pane, view, func(c apiclient.Cluster) string { return c.Name })
}

func tenant(why string) func(apiclient.Cluster) string {
	return func(c apiclient.Cluster) string { return map[bool]string{true: "shared tier: " + why}[c.Tenant()] }
}

// tier is the instance size; a flex cluster or serverless instance has
// none (TYPE names it).
func tier(c apiclient.Cluster) string {
	if c.ClusterType == "FLEX" || c.ClusterType == "SERVERLESS" {
		return "-"
	}
	return c.InstanceSize()
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
