package backups_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/ui"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/backups"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// The footer and ? list what the keys do in the view on screen: on the
// buckets view `d` deletes a bucket (it used to say "delete snapshot"),
// and `b` is there.
func TestBucketsViewFooterAndHelp(t *testing.T) {
	w := viewstest.NewSim(t, viewstest.SimOptions{})
	m, err := ui.New(ui.Options{Client: w.ClientAs("org-owner", viewstest.GateUnknownRoles), Profile: "test", Theme: "mono",
		Clock: w.Clock.Now, Project: "payments", Panes: views.Registry{backups.Registration}})
	require.NoError(t, err)
	d := viewstest.NewLiveModelDriver(t, m, 120, 40)
	d.Settle()
	d.Press("down", "down", "down", "enter") // payments-rs
	d.Settle()
	d.Press("tab", "tab", "tab")
	s := d.Screen()
	require.Contains(t, s, "[Buckets]")
	assert.Contains(t, s, "d delete bucket")
	assert.NotContains(t, s, "delete snapshot")
	assert.NotContains(t, s, "x cancel restore", "the footer lists only what works in this view")
	viewstest.Golden(t, "backups/root_buckets_120x40", s)

	d.Press("?")
	s = d.Screen()
	assert.Contains(t, s, "delete bucket (!)")
	assert.Contains(t, s, "new export bucket")
	assert.NotContains(t, s, "delete snapshot")
	assert.Contains(t, s, "cancel restore (!) — only in the Restores view (J)", "help greys what this view refuses, with the reason")
	assert.Contains(t, s, "export snapshot — only in the Snapshots view (S)")
	viewstest.Golden(t, "backups/root_buckets_help_120x40", s)
}
