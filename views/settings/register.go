package settings

import (
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// ID names the pane.
const ID views.ID = "settings"

// Registration is the pane as the root's list names it: its keys with their
// catalog operations, its poll interval and its factory.
var Registration = views.Registration{
	ID:      ID,
	Title:   "Settings",
	Aliases: []string{"set"},
	Poll:    10 * time.Second,
	Reads: []views.Read{
		{Desc: "view auditing", Op: "getAuditingConfiguration"},
	},
	Actions: defaultActions(),
	New:     New,
}

func defaultActions() []keymap.Action {
	a := keymap.NewAction
	return []keymap.Action{
		a("settings.auditing", "a", "auditing on/off", "a").Calls("updateAuditingConfiguration"),
		a("settings.editFilter", "e", "edit audit filter", "e").Calls("updateAuditingConfiguration"),
		a("settings.customDNS", "d", "custom DNS on/off", "d").Calls("toggleAwsCustomDns"),
		a("settings.newRole", "n", "new access role", "n").Calls("createCloudProviderAccessRole"),
		a("settings.authorize", "z", "authorize role", "z").Calls("authorizeCloudProviderAccessRole"),
		a("settings.deauthorize", "x", "deauthorize role", "x").Calls("deauthorizeCloudProviderAccessRole"),
		// Tab and shift+tab move between the sections here (auditing, custom
		// DNS, access roles); the number keys still switch panes.
		a("settings.nextSection", "tab", "next section", "tab").Replacing("global.nextPane").InHelpOnly(),
		a("settings.prevSection", "shift+tab", "previous section", "shift+tab").Replacing("global.prevPane").InHelpOnly(),
		a("settings.viewAuditing", "A", "auditing section", "A").InHelpOnly(),
		a("settings.viewDNS", "D", "custom DNS section", "D").InHelpOnly(),
		a("settings.viewRoles", "R", "access roles section", "R").InHelpOnly(),
	}
}
