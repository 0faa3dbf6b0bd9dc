package ui

import (
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/accesslogs"
	"github.com/dbadmin-tui/dbadmin-tui/views/alerts"
	"github.com/dbadmin-tui/dbadmin-tui/views/backups"
	"github.com/dbadmin-tui/dbadmin-tui/views/migration"
	"github.com/dbadmin-tui/dbadmin-tui/views/search"
	"github.com/dbadmin-tui/dbadmin-tui/views/settings"
)

// DefaultPanes builds the six panes in tab order (the number keys 1-6).
func DefaultPanes() []views.Factory {
	return []views.Factory{
		alerts.New,
		backups.New,
		search.New,
		accesslogs.New,
		migration.New,
		settings.New,
	}
}
