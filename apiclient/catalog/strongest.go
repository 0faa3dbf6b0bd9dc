package catalog

// Strongest is the strongest role the assignments give on target's project
// (or, with no project, on its organization), ranked by the hierarchy
// Covers and Authorize use, never by list order: a role is stronger the more
// roles it covers there. An org role counts on the org's projects, an Org
// Owner as Project Owner too. On a tie a project role wins (it says more
// about this project), then the order of AllRoles. ok is false when no
// assignment applies.
func Strongest(as []Assignment, t Target) (best Role, ok bool) {
	bestRank := -1
	bestProject := false
	for _, a := range as {
		var applies bool
		switch {
		case a.GroupID != "":
			applies = t.GroupID != "" && a.GroupID == t.GroupID
		case a.OrgID != "":
			applies = t.OrgID != "" && a.OrgID == t.OrgID
		}
		if !applies || !a.RoleName.Known() {
			continue
		}
		rank, project := strength(a.RoleName, t.GroupID != ""), a.GroupID != ""
		better := rank > bestRank ||
			(rank == bestRank && project && !bestProject) ||
			(rank == bestRank && project == bestProject && listIndex(a.RoleName) < listIndex(best))
		if better {
			best, bestRank, bestProject = a.RoleName, rank, project
		}
	}
	return best, bestRank >= 0
}

// strength counts the roles r grants where it applies: an Org Owner on a
// project also holds everything a Project Owner does.
func strength(r Role, onProject bool) int {
	n := 0
	for _, other := range AllRoles() {
		if r.Covers(other) || (onProject && r == OrgOwner && GroupOwner.Covers(other)) {
			n++
		}
	}
	return n
}

func listIndex(r Role) int {
	for i, x := range AllRoles() {
		if x == r {
			return i
		}
	}
	return len(AllRoles())
}
