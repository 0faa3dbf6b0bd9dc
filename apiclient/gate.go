package apiclient

import (
	"sync"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
)

// Gate answers whether the caller may run an operation, before it is sent,
// so the dashboard shows an action disabled with the role it needs instead
// of letting the server refuse it. Its rule is catalog.Authorize, the one
// apisim enforces. It is safe for concurrent use.
type Gate struct {
	mu       sync.RWMutex
	roles    []catalog.Assignment
	known    bool // false: the server did not say; allow and learn from 403s
	readOnly bool
	orgOf    map[string]string // groupId -> orgId
	denied   map[deniedKey]string
	now      func() time.Time
}

type deniedKey struct{ op, group string }

// NewGate builds a gate from the caller's role assignments. nil roles mean
// "unknown" (a service account whose roles the server does not report and
// the profile does not list): everything is allowed until a 403 says no.
func NewGate(roles []catalog.Assignment) *Gate {
	g := &Gate{orgOf: map[string]string{}, denied: map[deniedKey]string{}, now: time.Now}
	g.SetRoles(roles)
	return g
}

// SetRoles replaces the caller's roles and forgets what 403s taught: a
// refresh of who-am-I starts over.
func (g *Gate) SetRoles(roles []catalog.Assignment) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.roles = append([]catalog.Assignment(nil), roles...)
	g.known = roles != nil
	g.denied = map[deniedKey]string{}
}

// Roles returns the caller's role assignments (nil when unknown).
func (g *Gate) Roles() []catalog.Assignment {
	g.mu.RLock()
	defer g.mu.RUnlock()
	if !g.known {
		return nil
	}
	return append([]catalog.Assignment(nil), g.roles...)
}

// SetClock sets the clock used to tell sunset API versions (tests, and a
// simulator whose clock runs ahead).
func (g *Gate) SetClock(now func() time.Time) {
	g.mu.Lock()
	g.now = now
	g.mu.Unlock()
}

// SetReadOnly turns read-only mode on or off: every mutating op is refused.
func (g *Gate) SetReadOnly(on bool) {
	g.mu.Lock()
	g.readOnly = on
	g.mu.Unlock()
}

// ReadOnly reports whether read-only mode is on.
func (g *Gate) ReadOnly() bool {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.readOnly
}

// SetProjectOrg records which organization a project belongs to, so org roles
// count on the org's projects.
func (g *Gate) SetProjectOrg(groupID, orgID string) {
	g.mu.Lock()
	g.orgOf[groupID] = orgID
	g.mu.Unlock()
}

// Allowed answers for an operation on a project (groupID may be empty for
// operations without one). The reason names the role needed when denied.
func (g *Gate) Allowed(opID, groupID string) (bool, string) {
	op, ok := catalog.Get(opID)
	if !ok {
		return false, "unknown operation " + opID
	}
	return g.AllowedIn(op, g.target(map[string]string{"groupId": groupID}))
}

// AllowedIn answers for an operation on an explicit target.
func (g *Gate) AllowedIn(op catalog.Op, t catalog.Target) (bool, string) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	if g.readOnly && op.Mutates() {
		return false, "read-only mode"
	}
	if op.Gone(g.now()) {
		v, _ := op.Current()
		return false, "API version " + v.Date + " of " + op.ID + " was sunset on " + v.Sunset
	}
	if why, ok := g.denied[deniedKey{op.ID, t.GroupID}]; ok {
		return false, why
	}
	if !g.known || catalog.Authorize(g.roles, op, t) {
		return true, ""
	}
	if t.GroupID != "" && t.OrgID == "" {
		// The project's organization is not known yet (a start by project
		// id reads the organizations later): if a role of one of the
		// caller's organizations would allow it, the server decides.
		for _, r := range g.roles {
			if r.OrgID != "" && catalog.Authorize(g.roles, op, catalog.Target{GroupID: t.GroupID, OrgID: r.OrgID}) {
				return true, ""
			}
		}
	}
	return false, "needs " + op.RolesText()
}

// Learn records a 403 for op on the project: it stays denied until the next
// SetRoles.
func (g *Gate) Learn(opID, groupID string, err error) {
	if !IsForbidden(err) {
		return
	}
	why := "the server refused it (403)"
	if e, ok := AsError(err); ok && e.Detail != "" {
		why = "the server refused it (403): " + e.Detail
	}
	g.mu.Lock()
	g.denied[deniedKey{opID, groupID}] = why
	g.mu.Unlock()
}

// target completes path parameters into a Target using the known project orgs.
func (g *Gate) target(params map[string]string) catalog.Target {
	t := catalog.Target{GroupID: params["groupId"], OrgID: params["orgId"]}
	if t.OrgID == "" && t.GroupID != "" {
		g.mu.RLock()
		t.OrgID = g.orgOf[t.GroupID]
		g.mu.RUnlock()
	}
	return t
}
