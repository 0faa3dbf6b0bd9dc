package backups_test

import (
	"strings"
	"testing"
	"time"

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

// openPaymentsRS is the dashboard on the backups pane alone, payments-rs
// open in the Snapshots view with the cursor on a completed daily snapshot
// old enough that the compliance policy no longer keeps it.
func openPaymentsRS(t *testing.T) *viewstest.ModelDriver {
	t.Helper()
	w := viewstest.NewSim(t, viewstest.SimOptions{})
	m, err := ui.New(ui.Options{Client: w.ClientAs("org-owner", viewstest.GateUnknownRoles), Profile: "test", Theme: "mono",
		Clock: w.Clock.Now, Project: "payments", Panes: views.Registry{backups.Registration}})
	require.NoError(t, err)
	d := viewstest.NewLiveModelDriver(t, m, 160, 40)
	d.Settle()
	d.Press("down", "down", "down", "enter") // payments-rs
	d.Settle()
	for range 8 {
		d.Press("down")
	}
	require.Contains(t, d.Screen(), "R restore")
	return d
}

// hintLine is the pane's own last line: what the cursor is on and the keys
// that act on it (the line above the root's footer).
func hintLine(t *testing.T, d *viewstest.ModelDriver) string {
	t.Helper()
	lines := strings.Split(strings.TrimRight(d.Screen(), "\n"), "\n")
	require.Greater(t, len(lines), 3)
	return lines[len(lines)-3]
}

// After :ro the pane's hint line offers no key that only answers
// "read-only mode", in any view, as the root's footer does not; the keys
// still say why.
func TestReadOnlyHintLineOffersNoWrite(t *testing.T) {
	d := openPaymentsRS(t)
	assert.Contains(t, hintLine(t, d), "n snapshot  R restore  e expiration  d delete snapshot  E export")
	d.Press(":")
	d.Type("ro")
	d.Press("enter")
	d.Settle()
	require.Contains(t, d.Screen(), "READ-ONLY")
	line := hintLine(t, d)
	assert.Contains(t, line, "snapshot d671e", "what the cursor is on stays")
	for _, k := range []string{"n snapshot", "R restore", "e expiration", "d delete", "E export"} {
		assert.NotContains(t, line, k)
	}
	d.Press("K") // buckets
	d.Settle()
	assert.NotContains(t, hintLine(t, d), "b new bucket")
	assert.NotContains(t, hintLine(t, d), "d delete bucket")
	d.Press("H") // schedule
	d.Settle()
	assert.NotContains(t, hintLine(t, d), "s edit schedule")
	d.Press("s")
	d.Settle()
	assert.Contains(t, d.Screen(), "edit schedule: read-only mode")
}

// Help lists b and s in every view of a cluster, greyed with the view they
// work in, and the keys answer with that reason instead of nothing.
func TestBucketAndScheduleKeysListedAndExplainedEverywhere(t *testing.T) {
	d := openPaymentsRS(t)
	assert.NotContains(t, hintLine(t, d), "new bucket")
	d.Press("?")
	d.Settle()
	s := d.Screen()
	assert.Contains(t, s, "new export bucket — only in the Buckets view (K)")
	assert.Contains(t, s, "edit schedule — only in the Schedule view (H)")
	d.Press("esc")
	d.Settle()
	d.Press("s")
	d.Settle()
	assert.Contains(t, d.Screen(), "edit schedule: only in the Schedule view (H)")
	d.Press("b")
	d.Settle()
	assert.Contains(t, d.Screen(), "new export bucket: only in the Buckets view (K)")
	d.Press("H")
	d.Settle()
	assert.Contains(t, hintLine(t, d), "s edit schedule")
	assert.Contains(t, d.Screen(), "s edit schedule •", "the root's footer offers it in its view")
}

// Issue 24 case 5: a read-only caller may list snapshots but not restore
// jobs (Project Backup Manager). The Restores view says so in place, the
// pane is never stale nor retrying for it (the header and the pane stay
// live), and no key that needs another role is offered.
func TestReadOnlyRoleSaysWhatItMayNotSeeInPlace(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 40}} {
		w := viewstest.NewSim(t, viewstest.SimOptions{})
		m, err := ui.New(ui.Options{Client: w.ClientAs("read-only", viewstest.GateWithRoles), Profile: "test", Theme: "mono",
			Clock: w.Clock.Now, Project: "payments", Cluster: "payments-rs", Panes: views.Registry{backups.Registration}})
		require.NoError(t, err)
		d := viewstest.NewLiveModelDriver(t, m, size[0], size[1])
		d.Settle()
		require.Contains(t, d.Screen(), "Backups · payments-rs")
		d.Press("J")
		d.Settle()
		screen := d.Screen()
		flat := strings.Join(strings.Fields(screen), " ")
		assert.Contains(t, flat, "Restore jobs: not visible with your role (needs Project Backup Manager", "%dx%d:\n%s", size[0], size[1], screen)
		assert.NotContains(t, screen, "stale")
		assert.NotContains(t, screen, "retrying")
		assert.NotContains(t, screen, "(r retries)")
		if size[0] == 80 {
			viewstest.Golden(t, "backups/read_only_restores_80x24", screen)
		}
		// A few polls later: still not stale.
		for range 3 {
			w.Clock.Advance(15 * time.Second)
			d.Settle()
		}
		assert.NotContains(t, d.Screen(), "stale")
		assert.Zero(t, w.Count("/restoreJobs"), "the gate knows the role: nothing is asked that it refuses")
	}
}

// Issue 24 case 9: the restore wizard goes back a step: shift+tab on step
// 2's first field reopens step 1 with what was chosen there; nothing is
// sent; esc still cancels.
func TestRestoreWizardGoesBackAStep(t *testing.T) {
	w := viewstest.NewSim(t, viewstest.SimOptions{})
	m, err := ui.New(ui.Options{Client: w.ClientAs("org-owner", viewstest.GateUnknownRoles), Profile: "test", Theme: "mono",
		Clock: w.Clock.Now, Project: "payments", Cluster: "payments-rs", Panes: views.Registry{backups.Registration}})
	require.NoError(t, err)
	d := viewstest.NewLiveModelDriver(t, m, 80, 24)
	d.Settle()
	d.Press("G", "R")
	d.Settle()
	require.Contains(t, d.Screen(), "(1/3)")
	d.Press("tab", "right", "right", "enter") // automated, staging
	d.Settle()
	require.Contains(t, d.Screen(), "Target cluster in staging")
	require.Contains(t, d.Screen(), "shift+tab back to 1/3")
	d.Press("shift+tab")
	d.Settle()
	screen := d.Screen()
	assert.Contains(t, screen, "(1/3)")
	assert.NotContains(t, screen, "(2/3)")
	assert.Contains(t, screen, "staging", "the project chosen is kept")
	d.Press("tab", "left", "left", "enter") // now payments
	d.Settle()
	assert.Contains(t, d.Screen(), "Target cluster in payments")
	// Step 3 goes back to step 2, the target kept.
	d.Press("down", "enter")
	d.Settle()
	require.Contains(t, d.Screen(), "Roll payments-rs back in place? (3/3)")
	d.Type("paym")
	d.Press("shift+tab")
	d.Settle()
	screen = d.Screen()
	assert.Contains(t, screen, "(2/3)")
	assert.NotContains(t, screen, "(3/3)")
	assert.Contains(t, screen, "(•) payments-rs", "the target chosen is kept")
	d.Press("esc")
	d.Settle()
	assert.NotContains(t, d.Screen(), "(2/3)")
	assert.Empty(t, w.Writes(), "going back sends nothing")
}
