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
		a(actAuditing, "a", "auditing on/off", "a").Calls("updateAuditingConfiguration"),
		a(actEditFilter, "e", "edit audit filter", "e").Calls("updateAuditingConfiguration"),
		a(actCustomDNS, "d", "custom DNS on/off", "d").Calls("toggleAwsCustomDns"),
		a(actNewRole, "n", "new access role", "n").Calls("createCloudProviderAccessRole"),
		a(actAuthorize, "z", "authorize role", "z").Calls("authorizeCloudProviderAccessRole"),
		a(actDeauthorize, "x", "deauthorize role", "x").Calls("deauthorizeCloudProviderAccessRole"),
		// Tab and shift+tab move between the sections here (auditing, custom
		// DNS, access roles); the number keys still switch panes.
		a(actNextSection, "tab", "next section", "tab").Replacing("global.nextPane").InHelpOnly(),
		a(actPrevSection, "shift+tab", "previous section", "shift+tab").Replacing("global.prevPane").InHelpOnly(),
		a(actViewAudit, "A", "auditing section", "A").InHelpOnly(),
		a(actViewDNS, "D", "custom DNS section", "D").InHelpOnly(),
		a(actViewRoles, "R", "access roles section", "R").InHelpOnly(),
	}
}
