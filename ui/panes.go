package ui

import (
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/accesslogs"
	"github.com/dbadmin-tui/dbadmin-tui/views/alerts"
	"github.com/dbadmin-tui/dbadmin-tui/views/backups"
	"github.com/dbadmin-tui/dbadmin-tui/views/clusters"
	"github.com/dbadmin-tui/dbadmin-tui/views/migration"
	"github.com/dbadmin-tui/dbadmin-tui/views/search"
	"github.com/dbadmin-tui/dbadmin-tui/views/settings"
	"github.com/dbadmin-tui/dbadmin-tui/views/triage"
)

// Panes is the one list that names the dashboard's panes, in tab order (the
// number keys). The jump keys, the palette, --pane, the [poll] settings,
// the keymap's conflict checking and `check`'s action list all come from
// it: adding a pane is its package and one line here.
func Panes() views.Registry {
	return views.Registry{
		triage.Registration,
		alerts.Registration,
		backups.Registration,
		search.Registration,
		accesslogs.Registration,
		migration.Registration,
		settings.Registration,
		clusters.Registration,
	}
}
