package views

import (
	"errors"
	"strings"

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

// NotVisible says, for a read refused for the caller's roles, what a pane
// shows in place of that part: "not visible with your role (needs Project
// Backup Manager)". A refusal is the gate's (nothing was sent) or the
// server's 403; its role is the catalog's for the operation. ok is false
// for any other error (an outage stays an outage: stale, retried).
func NotVisible(err error) (string, bool) {
	var denied *apiclient.DeniedError
	op := ""
	switch {
	case errors.As(err, &denied):
		if !strings.HasPrefix(denied.Reason, "needs ") {
			return "", false // read-only mode, a sunset version: not a role
		}
		return "not visible with your role (" + denied.Reason + ")", true
	case apiclient.IsForbidden(err):
		if e, ok := apiclient.AsError(err); ok {
			op = e.Op
		}
	default:
		return "", false
	}
	if o, ok := catalog.Get(op); ok && len(o.Roles) > 0 {
		return "not visible with your role (needs " + o.RolesText() + ")", true
	}
	return "not visible with your role (the server refused it: 403)", true
}
