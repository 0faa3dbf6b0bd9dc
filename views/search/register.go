package search

import (
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// ID names the pane.
const ID views.ID = "search"

// Registration is the pane as the root's list names it: its keys with their
// catalog operations, its poll interval and its factory.
var Registration = views.Registration{
	ID:      ID,
	Title:   "Search",
	Aliases: []string{"ix", "indexes"},
	Jump:    "search indexes",
	Table:   true,
	Poll:    10 * time.Second,
	Reads: []views.Read{
		{Desc: "list indexes", Op: "listAtlasSearchIndexesCluster"},
	},
	Actions: defaultActions(),
	New:     New,
}

// The pane's action names.
const (
	actNew       = "search.new"
	actEdit      = "search.edit"
	actDelete    = "search.delete"
	actAnalyzers = "search.analyzers"
	actDetail    = "search.detail"
)

func defaultActions() []keymap.Action {
	a := keymap.NewAction
	return []keymap.Action{
		a(actNew, "n", "new index", "n").Calls("createAtlasSearchIndex"),
		a(actEdit, "e", "edit index", "e").Calls("updateAtlasSearchIndex"),
		a(actDelete, "d", "delete index", "d").Calls("deleteAtlasSearchIndex").AsDangerous(),
		a(actAnalyzers, "A", "analyzers", "A").Calls("listAtlasSearchAnalyzers"),
		a(actDetail, "enter", "details", "enter").Calls("getAtlasSearchIndex"),
	}
}

// keys are the pane's actions as the keymap holds them now (the user's
// overrides and the gate applied), by field.
type keys struct {
	New, Edit, Delete, Analyzers, Detail keymap.Action
}

func keysOf(km *keymap.KeyMap) keys { return views.KeysOf[keys](km, ID) }
