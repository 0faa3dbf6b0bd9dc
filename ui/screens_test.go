package ui_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/ui"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// world is the seeded simulator with no incidents firing, so screens are
// stable.
func world(t *testing.T) *viewstest.Sim {
	t.Helper()
	w := viewstest.NewSim(t, viewstest.SimOptions{})
	w.Control("PUT", "/incidents/schedule", `{"enabled": false}`)
	return w
}

// dashboard is the real root with every pane, as identity, on pane.
func dashboard(t *testing.T, w *viewstest.Sim, identity string, pane views.ID, width, height int) *viewstest.ModelDriver {
	t.Helper()
	m, err := ui.New(ui.Options{Client: w.ClientAs(identity, viewstest.GateUnknownRoles), Profile: "test", Theme: "mono",
		Clock: w.Clock.Now, Project: "payments", Pane: pane, Panes: ui.Panes()})
	require.NoError(t, err)
	d := viewstest.NewModelDriver(t, m, width, height)
	d.Settle()
	return d
}

// Every pane at 80x24, and a few at 100x30 and 200x60.
func TestPaneScreensGolden(t *testing.T) {
	w := world(t)
	sizes := map[views.ID][][2]int{"alerts": {{100, 30}, {200, 60}}, "backups": {{100, 30}, {200, 60}}, "accesslogs": {{100, 30}}, "triage": {{200, 60}}}
	for _, r := range ui.Panes() {
		for _, size := range append([][2]int{{80, 24}}, sizes[r.ID]...) {
			name := fmt.Sprintf("%s_%dx%d", r.ID, size[0], size[1])
			t.Run(name, func(t *testing.T) {
				d := dashboard(t, w, "org-owner", r.ID, size[0], size[1])
				screen := viewstest.Screen(d.Screen())
				lines := strings.Split(strings.TrimSuffix(screen, "\n"), "\n")
				require.Len(t, lines, size[1], "fills the height")
				require.Contains(t, lines[0], "Demo-Org › payments › all clusters", "the context is whole")
				viewstest.Golden(t, "screens/"+name, screen)
			})
		}
	}
}

// The header in each demo role at 80 columns: the context whole, the
// badge (short if need be) present.
func TestHeaderPerRoleGolden(t *testing.T) {
	w := world(t)
	for _, id := range apisim.DemoIdentities() {
		if id.Kind != apisim.KindAPIKey {
			continue
		}
		t.Run(id.PublicKey, func(t *testing.T) {
			d := dashboard(t, w, id.PublicKey, "settings", 80, 24)
			screen := viewstest.Screen(d.Screen())
			header := strings.SplitN(screen, "\n", 2)[0]
			assert.Contains(t, header, "› payments › all clusters")
			viewstest.Golden(t, "screens/header_"+id.PublicKey+"_80x24", header+"\n")
		})
	}
}

// `:cluster X` narrows every pane; every deployment the pickers list can be
// named, flex and serverless included.
func TestClusterNarrowsEveryPane(t *testing.T) {
	w := world(t)
	// What each pane shows of the cluster it is narrowed to, and what it
	// shows no more.
	want := map[views.ID]func(t *testing.T, screen string){
		"alerts": func(t *testing.T, s string) {
			assert.Regexp(t, `\d+ of 172 alerts on payments-rs`, s)
			assert.NotContains(t, s, "payments-prod")
			assert.NotContains(t, s, "payments-legacy")
		},
		"backups":    func(t *testing.T, s string) { assert.Contains(t, s, "Backups · payments-rs") },
		"search":     func(t *testing.T, s string) { assert.NotContains(t, s, "payments-prod") },
		"accesslogs": func(t *testing.T, s string) { assert.Contains(t, s, "Access log · cluster payments-rs") },
		"migration":  func(t *testing.T, s string) { assert.Contains(t, s, "payments-rs") },
		"settings":   func(t *testing.T, s string) { assert.Contains(t, s, "project-wide") },
		// The list of the project's clusters: narrowing keeps it whole.
		"clusters": func(t *testing.T, s string) { assert.Contains(t, s, "payments-prod") },
		// The board spans every project of every organization: a cluster of
		// one project does not narrow it (the header still names it).
		"triage": func(t *testing.T, s string) {
			assert.Contains(t, s, "› payments › payments-rs")
			assert.Contains(t, s, "Acme-Retail ›")
		},
	}
	for _, r := range ui.Panes() {
		t.Run(string(r.ID), func(t *testing.T) {
			// A pane without a check of its own is held to the header.
			check, ok := want[r.ID]
			if !ok {
				check = func(*testing.T, string) {}
			}
			d := dashboard(t, w, "org-owner", r.ID, 120, 40)
			d.Press(":")
			d.Type("cluster payments-rs")
			d.Press("enter")
			d.Settle()
			s := d.Screen()
			require.Contains(t, strings.SplitN(s, "\n", 2)[0], "payments › payments-rs", "the header names the cluster")
			check(t, s)
		})
	}
	for _, name := range []string{"payments-flex", "payments-serverless"} {
		t.Run(name, func(t *testing.T) {
			d := dashboard(t, w, "org-owner", "backups", 120, 40)
			d.Press(":")
			d.Type("cluster " + name)
			d.Press("enter")
			d.Settle()
			s := d.Screen()
			assert.NotContains(t, s, "no cluster of payments matches")
			assert.Contains(t, strings.SplitN(s, "\n", 2)[0], "payments › "+name)
		})
	}
}

// esc closes the top visible thing: from a detail opened on a filtered
// list, the first esc returns to the list with its filter and cursor, the
// second clears the filter.
func TestEscFromFilteredDetailKeepsTheFilter(t *testing.T) {
	w := world(t)
	d := dashboard(t, w, "org-owner", "alerts", 120, 40)
	d.Press("/")
	d.Type("CPS_SNAP")
	d.Press("enter", "down", "enter")
	d.Settle()
	require.Contains(t, d.Screen(), "# CPS_SNAPSHOT_FAILED", "the detail is open")
	d.Press("esc")
	s := d.Screen()
	require.NotContains(t, s, "# CPS_SNAPSHOT_FAILED", "esc closed the detail")
	require.Contains(t, s, "filter: CPS_SNAP", "and kept the filter")
	require.NotContains(t, s, "OUTSIDE_METRIC_THRESHOLD", "the list is still filtered")
	require.Regexp(t, `▸ +OPEN +\S+ +CPS_SNAPSHOT_FAILED`, s)
	lines := strings.Split(s, "\n")
	cursor := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "▸") {
			cursor = i
		}
	}
	require.Greater(t, cursor, 4, "the cursor stayed on the second row")
	d.Press("esc")
	s = d.Screen()
	assert.NotContains(t, s, "filter: CPS_SNAP")
	assert.Contains(t, s, "OUTSIDE_METRIC_THRESHOLD")
}

// "pick a cluster first" goes once a cluster is picked; shift+tab mirrors
// tab inside Backups and the views have keys of their own.
func TestBackupsErrorGoesWithItsCauseAndViewKeys(t *testing.T) {
	w := world(t)
	d := dashboard(t, w, "org-owner", "backups", 120, 40)
	d.Press("tab")
	require.Contains(t, d.Screen(), "pick a cluster first")
	d.Press("down", "enter")
	d.Settle()
	s := d.Screen()
	require.Contains(t, s, "Backups · payments-legacy")
	assert.NotContains(t, s, "pick a cluster first", "the error went with its cause")
	d.Press("shift+tab")
	assert.Contains(t, d.Screen(), "[Compliance]", "shift+tab goes back a view, not a pane")
	d.Press("tab")
	assert.Contains(t, d.Screen(), "[Snapshots]")
	d.Press("X")
	assert.Contains(t, d.Screen(), "[Exports]")
}

// Alerts and Settings: tab and shift+tab move between their sub-views (not
// panes), each sub-view has a key of its own, and help lists them.
func TestAlertsAndSettingsSubViewKeys(t *testing.T) {
	w := world(t)
	d := dashboard(t, w, "org-owner", "alerts", 120, 40)
	d.Press("tab")
	d.Settle()
	s := d.Screen()
	require.Equal(t, views.ID("alerts"), ui.ActivePane(d.Model.(*ui.Model)), "tab stayed in the pane")
	require.NotContains(t, s, "ACK UNTIL", "tab opened the configurations")
	d.Press("shift+tab")
	require.Contains(t, d.Screen(), "ACK UNTIL", "shift+tab back to the list")
	d.Press("shift+tab")
	require.NotContains(t, d.Screen(), "ACK UNTIL", "shift+tab mirrors tab")
	d.Press("L")
	require.Contains(t, d.Screen(), "ACK UNTIL", "L is the list")
	d.Press("C")
	require.NotContains(t, d.Screen(), "ACK UNTIL", "C the configurations")
	d.Press("?")
	s = d.Screen()
	for _, h := range []string{"next view (alerts/configs)", "previous view", "alerts list view", "alert configs view"} {
		assert.Contains(t, s, h, "help lists the sub-view keys")
	}
	d.Press("esc")

	d.Press("7")
	d.Settle()
	cursorOn := func(text string) {
		t.Helper()
		for _, l := range strings.Split(d.Screen(), "\n") {
			if strings.HasPrefix(l, "▸") {
				assert.Contains(t, l, text)
				return
			}
		}
		t.Fatalf("no cursor on screen:\n%s", d.Screen())
	}
	cursorOn("Auditing")
	d.Press("tab")
	cursorOn("Custom DNS")
	d.Press("tab")
	cursorOn("AWS")
	d.Press("tab")
	cursorOn("Auditing")
	d.Press("shift+tab")
	cursorOn("AWS")
	d.Press("D")
	cursorOn("Custom DNS")
	d.Press("A")
	cursorOn("Auditing")
	d.Press("R")
	cursorOn("AWS")
	assert.Equal(t, views.ID("settings"), ui.ActivePane(d.Model.(*ui.Model)), "still on Settings")
	d.Press("?")
	s = d.Screen()
	for _, h := range []string{"next section", "previous section", "auditing section", "custom DNS section", "access roles section"} {
		assert.Contains(t, s, h, "help lists the section keys")
	}
}

// Help and the footer list what the keys do in the view on screen: on the
// alert list the configuration keys are greyed with the reason, the footer
// leaves them out, and the key answers that same reason without a write;
// among the configurations it is the acknowledgement keys' turn.
func TestHelpAndFooterFollowTheAlertsView(t *testing.T) {
	w := world(t)
	d := dashboard(t, w, "org-owner", "alerts", 120, 40)
	footer := func() string { l := strings.Split(d.Screen(), "\n"); return l[len(l)-2] }
	assert.NotContains(t, footer(), "enable/disable config")
	assert.Contains(t, footer(), "a acknowledge")
	d.Press("?")
	assert.Contains(t, d.Screen(), "enable/disable config — on configurations: c lists them")
	d.Press("esc")
	mark := w.Mark()
	d.Press("t")
	assert.Contains(t, d.Screen(), "enable/disable config: on configurations: c lists them")
	assert.Empty(t, w.WritesSince(mark))

	d.Press("c")
	d.Settle()
	assert.Contains(t, footer(), "t enable/disable config")
	assert.NotContains(t, footer(), "a acknowledge")
	assert.Contains(t, footer(), "c alert list", "c goes back to the alerts from here")
	assert.NotContains(t, footer(), "c alert configs")
	assert.NotContains(t, d.Screen(), "c lists them", "the refusal went with its cause")
	d.Press("?")
	assert.Contains(t, d.Screen(), "acknowledge — on alerts: c leaves the configurations")
}
