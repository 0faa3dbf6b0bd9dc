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
		a(actLinkToken, "l", "link token", "l").Calls("createLinkToken"),
		a(actValidate, "v", "validate", "v").Calls("validateMigration"),
		// Starting may drop the destination's collections.
		a(actStart, "m", "start migration", "m").Calls("createPushMigration").AsDangerous(),
		// After a start whose answer was lost: a deliberate second start,
		// with the destination's name typed.
		a(actStartAnother, "M", "start another migration", "M").Calls("createPushMigration").AsDangerous(),
		a(actCutover, "C", "cut over", "C").Calls("cutoverMigration").AsDangerous(),
		a(actPresentation, "P", "presentation", "P"),
		// Dropping the destination's collections happens when the
		// migration starts, so the toggle is judged like Start.
		a(actDrop, "D", "drop destination data on/off", "D").Calls("createPushMigration").AsDangerous().InHelpOnly(),
	}
}
