package accesslogs

import (
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// ID names the pane.
const ID views.ID = "accesslogs"

// Registration is the pane as the root's list names it: its keys with their
// catalog operations, its poll interval and its factory.
var Registration = views.Registration{
	ID:      ID,
	Title:   "Access logs",
	Command: "logs",
	Aliases: []string{"log", "access-logs"},
	Poll:    5 * time.Second,
	Reads: []views.Read{
		{Desc: "tail", Op: "listAccessLogsByClusterName"},
	},
	Actions: defaultActions(),
	New:     New,
}

func defaultActions() []keymap.Action {
	a := keymap.NewAction
	return []keymap.Action{
		a("accesslogs.follow", "f", "follow", "f").Calls("listAccessLogsByClusterName"),
		a("accesslogs.failuresOnly", "F", "failures only", "F"),
		a("accesslogs.end", "G", "end + resume", "G").Replacing("nav.end"),
		a("accesslogs.wrap", "w", "wrap", "w"),
		a("accesslogs.timezone", "t", "local/UTC", "t"),
		a("accesslogs.ipFilter", "i", "IP filter", "i"),
		a("accesslogs.search", "/", "search", "/").Replacing("global.filter"),
		a("accesslogs.nextMatch", "n", "next match", "n"),
		a("accesslogs.prevMatch", "N", "previous match", "N"),
		a("accesslogs.save", "s", "save to file", "s"),
		// Hosts lists the cluster's hosts (or, with no cluster chosen,
		// the project's clusters) to pick what is tailed.
		a("accesslogs.hosts", "h", "pick host", "h").Calls("listAtlasProcesses").InHelpOnly(),
		a("accesslogs.since", "S", "since 5m/15m/1h/24h", "S").Calls("listAccessLogsByClusterName").InHelpOnly(),
		a("accesslogs.userFilter", "u", "user filter", "u").InHelpOnly(),
		a("accesslogs.raw", "l", "raw logLine", "l").InHelpOnly(),
	}
}

// keys are the pane's actions as the keymap holds them now (the user's
// overrides and the gate applied), by field.
type keys struct {
	Follow, FailuresOnly, End, Wrap, Timezone, Search, NextMatch, PrevMatch, Save, Hosts, Since, UserFilter, Raw keymap.Action
	IPFilter                                                                                                     keymap.Action `keys:"ipFilter"`
}

func keysOf(km *keymap.KeyMap) keys { return views.KeysOf[keys](km, ID) }
