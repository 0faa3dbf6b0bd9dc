package ui_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/views/alerts"
)

// A project switch costs requests only from the pane on screen: a hidden
// pane reads the new project when it is shown again, a pane never shown on
// its first show, each once and for the new project only.
func TestProjectSwitchLoadsOnlyThePaneOnScreen(t *testing.T) {
	for name, shownBefore := range map[string]bool{"hidden Settings": true, "Settings never shown": false} {
		t.Run(name, func(t *testing.T) {
			w := world(t)
			d := dashboard(t, w, "org-owner", alerts.ID, 120, 40)
			if shownBefore {
				d.Press("7", "2") // Settings, then back to Alerts
			}
			audit := func(group string) int { return w.Count("/groups/" + group + "/auditLog") }
			wantPayments := 0
			if shownBefore {
				wantPayments = 1
			}
			assert.Equal(t, wantPayments, audit(apisim.DemoPaymentsID))

			mark := w.Mark()
			d.Press(":")
			d.Type("project staging")
			d.Press("enter")
			assert.Contains(t, d.Screen(), "staging", "the switch took effect")
			assert.NotEmpty(t, w.RequestsSince(mark), "the Alerts pane on screen reloads")
			for _, r := range w.RequestsSince(mark) {
				assert.NotContains(t, r, "/auditLog", "nothing of Settings before it is shown")
				assert.NotContains(t, r, "/search/indexes", "nothing of Search, never shown")
			}

			d.Press("7")
			assert.Equal(t, 1, audit(apisim.DemoStagingID), "shown, Settings reads the new project once")
			assert.Equal(t, wantPayments, audit(apisim.DemoPaymentsID), "and not the old one again")
		})
	}
}
