package catalog

// Assignment is one role held by a caller: on an organization (OrgID set) or
// on a project (GroupID set), as in apiKey.roles[] of GET /api/{service}/v2.
type Assignment struct {
	RoleName Role   `json:"roleName"`
	OrgID    string `json:"orgId,omitempty"`
	GroupID  string `json:"groupId,omitempty"`
}

// Target names what a call addresses: the project and the organization it
// belongs to (either may be empty when the path has no such segment).
type Target struct {
	GroupID string
	OrgID   string
}

// Authorize decides whether the assignments allow op on target. It is the one
// rule both apisim (to answer 403) and the dashboard's gate (to grey out an
// action) use, so they cannot disagree.
//
// An org role applies to the org; an Org Owner is also Project Owner on every
// project of that org. A project role applies to that project only.
func Authorize(as []Assignment, op Op, t Target) bool {
	switch op.Scope() {
	case ScopeNone:
		return true
	case ScopeOrg:
		for _, a := range as {
			if a.OrgID != "" && a.OrgID == t.OrgID && coversAny(a.RoleName, op.Roles) {
				return true
			}
		}
		return false
	}
	for _, a := range as {
		switch {
		case a.GroupID != "" && a.GroupID == t.GroupID:
			if coversAny(a.RoleName, op.Roles) {
				return true
			}
		case a.OrgID != "" && t.OrgID != "" && a.OrgID == t.OrgID:
			// An org role counts on the org's projects when the op accepts
			// it directly, or as Project Owner for an Org Owner.
			if coversAny(a.RoleName, op.Roles) || (a.RoleName == OrgOwner && coversAny(GroupOwner, op.Roles)) {
				return true
			}
		}
	}
	return false
}

func coversAny(held Role, need []Role) bool {
	for _, n := range need {
		if held.Covers(n) {
			return true
		}
	}
	return false
}
