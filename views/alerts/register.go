package alerts

import (
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// ID names the pane.
const ID views.ID = "alerts"

// Action names: the keymap's, spelled here once.
const (
	actDetail      = "alerts.detail"
	actAck         = "alerts.ack"
	actUnack       = "alerts.unack"
	actStatus      = "alerts.statusFilter"
	actConfigs     = "alerts.configs"
	actNextView    = "alerts.nextView"
	actPrevView    = "alerts.prevView"
	actViewList    = "alerts.viewList"
	actViewConfigs = "alerts.viewConfigs"
	actToggle      = "alerts.toggle"
	actDelete      = "alerts.delete"
	actNewConfig   = "alerts.newConfig"
	actEditConfig  = "alerts.editConfig"
	actNewJSON     = "alerts.newConfigJSON"
	actEditJSON    = "alerts.editConfigJSON"
)

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
	FirstReads: firstReads,
	Actions:    defaultActions(),
	New:        New,
}

// firstReads is the first page of the first full pass (store.go), which a
// start in the project sends ahead.
func firstReads(groupID string) []views.FirstRead {
	return []views.FirstRead{{Op: "listAlerts", Request: pageRequest(groupID, 1)}}
}

func defaultActions() []keymap.Action {
	a := keymap.NewAction
	return []keymap.Action{
		a(actDetail, "enter", "details", "enter").Calls("getAlert"),
		a(actAck, "a", "acknowledge", "a").Calls("acknowledgeAlert"),
		a(actUnack, "u", "unacknowledge", "u").Calls("acknowledgeAlert"),
		a(actStatus, "s", "status filter", "s"),
		a(actConfigs, "c", "alert configs", "c").Calls("listAlertConfigurations"),
		// Tab and shift+tab switch between the two views here (list and
		// configurations); the number keys still switch panes.
		a(actNextView, "tab", "next view (alerts/configs)", "tab").Replacing("global.nextPane").InHelpOnly(),
		a(actPrevView, "shift+tab", "previous view", "shift+tab").Replacing("global.prevPane").InHelpOnly(),
		a(actViewList, "L", "alerts list view", "L").InHelpOnly(),
		a(actViewConfigs, "C", "alert configs view", "C").Calls("listAlertConfigurations").InHelpOnly(),
		a(actToggle, "t", "enable/disable config", "t").Calls("toggleAlertConfiguration"),
		a(actDelete, "d", "delete config", "d").Calls("deleteAlertConfiguration"),
		a(actNewConfig, "n", "new config (form)", "n").Calls("createAlertConfiguration").InHelpOnly(),
		a(actNewJSON, "N", "new config ($EDITOR)", "N").Calls("createAlertConfiguration").InHelpOnly(),
		a(actEditConfig, "e", "edit config (form)", "e").Calls("updateAlertConfiguration").InHelpOnly(),
		a(actEditJSON, "E", "edit config ($EDITOR)", "E").Calls("updateAlertConfiguration").InHelpOnly(),
	}
}
