package migration

import (
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// ID names the pane.
const ID views.ID = "migration"

// Registration is the pane as the root's list names it: its keys with their
// catalog operations, its poll interval and its factory.
var Registration = views.Registration{
	ID:      ID,
	Title:   "Migration",
	Aliases: []string{"mig"},
	Poll:    5 * time.Second,
	Reads: []views.Read{
		{Desc: "watch", Op: "getPushMigration"},
	},
	Actions: defaultActions(),
	New:     New,
}

func defaultActions() []keymap.Action {
	a := keymap.NewAction
	return []keymap.Action{
		a("migration.linkToken", "l", "link token", "l").Calls("createLinkToken"),
		a("migration.validate", "v", "validate", "v").Calls("validateMigration"),
		// Starting may drop the destination's collections.
		a("migration.start", "m", "start migration", "m").Calls("createPushMigration").AsDangerous(),
		// After a start whose answer was lost: a deliberate second start,
		// with the destination's name typed.
		a("migration.startAnother", "M", "start another migration", "M").Calls("createPushMigration").AsDangerous(),
		a("migration.cutover", "C", "cut over", "C").Calls("cutoverMigration").AsDangerous(),
		a("migration.presentation", "P", "presentation", "P"),
		// Dropping the destination's collections happens when the
		// migration starts, so the toggle is judged like Start.
		a("migration.dropDestination", "D", "drop destination data on/off", "D").Calls("createPushMigration").AsDangerous().InHelpOnly(),
	}
}
