package ui

import "github.com/dbadmin-tui/dbadmin-tui/views"

// ActivePane is the id of the pane on screen, for tests outside the
// package.
func ActivePane(m *Model) views.ID { return m.panes[m.active].ID() }
