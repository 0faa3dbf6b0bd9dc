package triage

import (
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// ID names the pane.
const ID views.ID = "triage"

// Action names: the keymap's, spelled here once.
const (
	actOpen = "triage.open"
	actAck  = "triage.ack"
)

// Registration is the pane as the root's list names it.
var Registration = views.Registration{
	ID:      ID,
	Title:   "Triage",
	Aliases: []string{"tri", "board"},
	Jump:    "triage board",
	Table:   true,
	Board:   true,
	Poll:    30 * time.Second,
	Reads: []views.Read{
		{Desc: "list organizations", Op: "listOrganizations"},
		{Desc: "list projects of each organization", Op: "listOrganizationProjects"},
		{Desc: "list open alerts of each project", Op: "listAlerts"},
		{Desc: "list clusters of each project", Op: "listClusters"},
		{Desc: "list alert configurations (severity overrides)", Op: "listAlertConfigurations"},
		{Desc: "list snapshots of each dedicated cluster", Op: "listReplicaSetBackups"},
		{Desc: "list restore jobs of each dedicated cluster", Op: "listBackupRestoreJobs"},
		{Desc: "list export jobs of each dedicated cluster", Op: "listBackupExportJobs"},
		{Desc: "list search indexes of each dedicated cluster (4.2 and later)", Op: "listAtlasSearchIndexesCluster"},
		{Desc: "read the live migrations this session knows", Op: "getPushMigration"},
		{Desc: "read each cluster's failed authentications (profile's triage_auth_bursts)", Op: "listAccessLogsByClusterName"},
	},
	Actions: []keymap.Action{
		keymap.NewAction(actOpen, "enter", "open in its pane", "enter"),
		keymap.NewAction(actAck, "a", "acknowledge", "a").Calls("acknowledgeAlert"),
	},
	New: New,
}
