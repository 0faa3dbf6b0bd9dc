package alerts

import (
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// ID names the pane.
const ID views.ID = "alerts"

// Registration is the pane as the root's list names it: its keys with their
// catalog operations, its poll interval and its factory.
var Registration = views.Registration{
	ID:      ID,
	Title:   "Alerts",
	Aliases: []string{"al"},
	Table:   true,
	Poll:    15 * time.Second,
	Reads: []views.Read{
		{Desc: "list", Op: "listAlerts"},
	},
	Actions: defaultActions(),
	New:     New,
}

func defaultActions() []keymap.Action {
	a := keymap.NewAction
	return []keymap.Action{
		a("alerts.detail", "enter", "details", "enter").Calls("getAlert"),
		a("alerts.ack", "a", "acknowledge", "a").Calls("acknowledgeAlert"),
		a("alerts.unack", "u", "unacknowledge", "u").Calls("acknowledgeAlert"),
		a("alerts.statusFilter", "s", "status filter", "s"),
		a("alerts.configs", "c", "alert configs", "c").Calls("listAlertConfigurations"),
		// Tab and shift+tab switch between the two views here (list and
		// configurations); the number keys still switch panes.
		a("alerts.nextView", "tab", "next view (alerts/configs)", "tab").Replacing("global.nextPane").InHelpOnly(),
		a("alerts.prevView", "shift+tab", "previous view", "shift+tab").Replacing("global.prevPane").InHelpOnly(),
		a("alerts.viewList", "L", "alerts list view", "L").InHelpOnly(),
		a("alerts.viewConfigs", "C", "alert configs view", "C").Calls("listAlertConfigurations").InHelpOnly(),
		a("alerts.toggle", "t", "enable/disable config", "t").Calls("toggleAlertConfiguration"),
		a("alerts.delete", "d", "delete config", "d").Calls("deleteAlertConfiguration"),
		a("alerts.newConfig", "n", "new config (form)", "n").Calls("createAlertConfiguration").InHelpOnly(),
		a("alerts.newConfigJSON", "N", "new config ($EDITOR)", "N").Calls("createAlertConfiguration").InHelpOnly(),
		a("alerts.editConfig", "e", "edit config (form)", "e").Calls("updateAlertConfiguration").InHelpOnly(),
		a("alerts.editConfigJSON", "E", "edit config ($EDITOR)", "E").Calls("updateAlertConfiguration").InHelpOnly(),
	}
}
