package migration_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/ui"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/migration"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// Before any migration, ? shows cut over greyed with the reason the pane
// gives when the key is pressed, and the footer leaves it out.
func TestHelpBeforeAnyMigration(t *testing.T) {
	w := viewstest.NewSim(t, viewstest.SimOptions{})
	m, err := ui.New(ui.Options{Client: w.ClientAs("org-owner", viewstest.GateUnknownRoles), Profile: "test", Theme: "mono",
		Clock: w.Clock.Now, Project: "payments", Panes: views.Registry{migration.Registration}})
	require.NoError(t, err)
	d := viewstest.NewLiveModelDriver(t, m, 120, 40)
	d.Settle()
	s := d.Screen()
	assert.NotContains(t, s, "C cut over", "the footer lists what the keys do")
	for _, no := range []string{"v validate", "m start migration", "v check", "m start", "D drop"} {
		assert.NotContains(t, s, no, "no source is picked")
	}
	viewstest.Golden(t, "migration/root_before_120x40", s)

	d.Press("?")
	s = d.Screen()
	assert.Contains(t, s, "cut over (!) — no migration started in this session")
	assert.Contains(t, s, "validate — pick a source deployment first (step 2)")
	assert.Contains(t, s, "start migration (!) — pick a source deployment first (step 2)")
	viewstest.Golden(t, "migration/root_before_help_120x40", s)

	d.Press("esc", "C")
	assert.Contains(t, d.Screen(), "no migration started in this session", "the key says the same")
	assert.Empty(t, w.Writes())
}

// The refusal of v with no source picked goes when a source is picked.
func TestValidateRefusalGoesWhenASourceIsPicked(t *testing.T) {
	w := viewstest.NewSim(t, viewstest.SimOptions{})
	m, err := ui.New(ui.Options{Client: w.ClientAs("org-owner", viewstest.GateUnknownRoles), Profile: "test", Theme: "mono",
		Clock: w.Clock.Now, Project: "payments", Panes: views.Registry{migration.Registration}})
	require.NoError(t, err)
	d := viewstest.NewLiveModelDriver(t, m, 120, 40)
	d.Settle()
	d.Press("v")
	assert.Contains(t, d.Screen(), "validate: pick a source deployment first (step 2)")
	d.Press("enter") // to the source step: still no source
	assert.Contains(t, d.Screen(), "validate: pick a source deployment first (step 2)")
	d.Press("enter") // picks the first source
	d.Settle()
	s := d.Screen()
	assert.Contains(t, s, "3 Destination")
	assert.NotContains(t, s, "pick a source deployment first")
}
