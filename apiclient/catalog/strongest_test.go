package catalog

import "testing"

func TestStrongestFollowsTheHierarchyNotListOrder(t *testing.T) {
	const org, proj, other = "o1", "p1", "p2"
	on := Target{GroupID: proj, OrgID: org}
	cases := []struct {
		name string
		as   []Assignment
		want Role
	}{
		{"org owner beats project owner", []Assignment{{RoleName: GroupOwner, GroupID: proj}, {RoleName: OrgOwner, OrgID: org}}, OrgOwner},
		{"project owner beats org member", []Assignment{{RoleName: OrgMember, OrgID: org}, {RoleName: GroupOwner, GroupID: proj}}, GroupOwner},
		{"project read only beats org member (a tie, the project role says more)", []Assignment{{RoleName: OrgMember, OrgID: org}, {RoleName: GroupReadOnly, GroupID: proj}}, GroupReadOnly},
		{"backup manager beats read only", []Assignment{{RoleName: GroupReadOnly, GroupID: proj}, {RoleName: GroupBackupManager, GroupID: proj}}, GroupBackupManager},
		{"data access admin beats read write", []Assignment{{RoleName: GroupDataAccessReadWrite, GroupID: proj}, {RoleName: GroupDataAccessAdmin, GroupID: proj}}, GroupDataAccessAdmin},
		{"roles on another project do not count", []Assignment{{RoleName: GroupOwner, GroupID: other}, {RoleName: GroupReadOnly, GroupID: proj}}, GroupReadOnly},
		{"roles on another org do not count", []Assignment{{RoleName: OrgOwner, OrgID: "o2"}, {RoleName: OrgMember, OrgID: org}}, OrgMember},
	}
	for _, c := range cases {
		got, ok := Strongest(c.as, on)
		if !ok || got != c.want {
			t.Errorf("%s: got %q (%v), want %q", c.name, got, ok, c.want)
		}
	}
	if _, ok := Strongest([]Assignment{{RoleName: GroupOwner, GroupID: other}}, on); ok {
		t.Error("no role applies: ok must be false")
	}
	// The strongest role allows at least what each other project role
	// allows on the project, by the one rule Authorize applies. (An org
	// role's own org-level grants are not a project role's to match.)
	for _, c := range cases {
		best, _ := Strongest(c.as, on)
		bestAs := []Assignment{{RoleName: best, GroupID: proj}}
		if best.IsOrgRole() {
			bestAs = []Assignment{{RoleName: best, OrgID: org}}
		}
		for _, a := range c.as {
			if a.GroupID != proj {
				continue
			}
			for _, op := range All() {
				if op.Scope() == ScopeGroup && Authorize([]Assignment{a}, op, on) && !Authorize(bestAs, op, on) {
					t.Errorf("%s: %s allows %s but the strongest, %s, does not", c.name, a.RoleName, op.ID, best)
				}
			}
		}
	}
}
