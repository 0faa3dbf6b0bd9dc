package views

import (
	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
)

// Allowed is the one gate every pane action passes: read-only mode refuses
// anything that mutates or is dangerous, then the caller's roles on project
// group (apiclient.Gate, including what 403s taught it) decide. Local
// actions (no Op) are allowed unless the pane disabled them itself. The
// root asks it before a pane hears of a key; a pane that draws its own key
// hints asks it too, so the two never disagree. A nil gate allows all.
func Allowed(g *apiclient.Gate, a keymap.Action, group string) (bool, string) {
	mutating := a.Dangerous
	if a.Op != "" {
		op, ok := catalog.Get(a.Op)
		if !ok {
			return false, "unknown operation " + a.Op
		}
		mutating = mutating || op.Mutates()
	}
	if g == nil {
		return true, ""
	}
	if mutating && g.ReadOnly() {
		return false, "read-only mode"
	}
	if a.Op == "" {
		return true, ""
	}
	return g.Allowed(a.Op, group)
}
