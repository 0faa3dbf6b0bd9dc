package backups

import (
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// ID names the pane.
const ID views.ID = "backups"

// Registration is the pane as the root's list names it: its keys with their
// catalog operations, its poll interval and its factory.
var Registration = views.Registration{
	ID:      ID,
	Title:   "Backups",
	Aliases: []string{"bk"},
	Table:   true,
	Poll:    10 * time.Second,
	Reads: []views.Read{
		{Desc: "list snapshots", Op: "listReplicaSetBackups"},
	},
	Actions: defaultActions(),
	New:     New,
}

// The actions that ask first, as the keymap names them (here only).
const (
	actSnapshot      = "backups.snapshot"
	actRestore       = "backups.restore"
	actCancelRestore = "backups.cancelRestore"
	actExpiration    = "backups.expiration"
	actDelete        = "backups.delete"
	actExport        = "backups.export"
	actNewBucket     = "backups.newBucket"
	actEditSchedule  = "backups.editSchedule"
)

func defaultActions() []keymap.Action {
	a := keymap.NewAction
	return []keymap.Action{
		a(actSnapshot, "n", "take snapshot", "n").Calls("takeSnapshot"),
		a(actRestore, "R", "restore", "R").Calls("createBackupRestoreJob"),
		a(actCancelRestore, "x", "cancel restore", "x").Calls("cancelBackupRestoreJob").AsDangerous(),
		a(actExpiration, "e", "change expiration", "e").Calls("updateSnapshotRetention"),
		a(actDelete, "d", "delete snapshot", "d").Calls("deleteReplicaSetBackup").AsDangerous(),
		a(actExport, "E", "export snapshot", "E").Calls("createBackupExportJob"),
		// Tab cycles snapshots/restores/exports here; shift+tab and 1-6
		// still switch panes.
		a("backups.cycleViews", "tab", "cycle views", "tab").Replacing("global.nextPane"),
		// shift+tab mirrors tab here; the number keys still switch panes.
		a("backups.prevView", "shift+tab", "previous view", "shift+tab").Replacing("global.prevPane").InHelpOnly(),
		// A direct key for each view.
		a("backups.viewSnapshots", "S", "snapshots view", "S").InHelpOnly(),
		a("backups.viewRestores", "J", "restore jobs view", "J").InHelpOnly(),
		a("backups.viewExports", "X", "exports view", "X").InHelpOnly(),
		a("backups.viewBuckets", "K", "buckets view", "K").InHelpOnly(),
		a("backups.viewSchedule", "H", "schedule view", "H").InHelpOnly(),
		a("backups.viewCompliance", "C", "compliance view", "C").InHelpOnly(),
		// Offered in every view of a cluster, refused outside their own with
		// the reason (as x is), so help lists them and the key says why.
		a(actNewBucket, "b", "new export bucket", "b").Calls("createExportBucket"),
		a(actEditSchedule, "s", "edit schedule", "s").Calls("updateBackupSchedule"),
	}
}

// keys are the pane's actions as the keymap holds them now (the user's
// overrides and the gate applied), by field.
type keys struct {
	Snapshot, Restore, CancelRestore, Expiration, Delete, Export, CycleViews, NewBucket, EditSchedule keymap.Action
	PrevView                                                                                          keymap.Action
	// ViewKeys[v] jumps to view v.
	ViewKeys [viewCount]keymap.Action `keys:"viewSnapshots viewRestores viewExports viewBuckets viewSchedule viewCompliance"`
}

func keysOf(km *keymap.KeyMap) keys { return views.KeysOf[keys](km, ID) }
