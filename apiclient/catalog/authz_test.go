package catalog

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

const (
	org   = "aaaaaaaaaaaaaaaaaaaaaaaa"
	other = "bbbbbbbbbbbbbbbbbbbbbbbb"
	proj  = "cccccccccccccccccccccccc"
	proj2 = "dddddddddddddddddddddddd"
)

func TestRoleHierarchy(t *testing.T) {
	cases := []struct {
		held, need Role
		want       bool
	}{
		{GroupOwner, GroupBackupManager, true},
		{GroupOwner, GroupDataAccessReadOnly, true},
		{GroupDataAccessAdmin, GroupDataAccessReadWrite, true},
		{GroupDataAccessAdmin, GroupDataAccessReadOnly, true},
		{GroupDataAccessReadWrite, GroupDataAccessReadOnly, true},
		{GroupDataAccessReadOnly, GroupDataAccessReadWrite, false},
		{GroupBackupManager, GroupReadOnly, true},
		{GroupMonitoringAdmin, GroupReadOnly, true},
		{GroupReadOnly, GroupBackupManager, false},
		{GroupReadOnly, GroupOwner, false},
		{OrgOwner, OrgMember, true},
		{OrgMember, OrgOwner, false},
		{OrgOwner, GroupReadOnly, false}, // cross-scope is the gate's rule, not Covers'
	}
	for _, c := range cases {
		assert.Equal(t, c.want, c.held.Covers(c.need), "%s covers %s", c.held, c.need)
	}
}

func TestAuthorize(t *testing.T) {
	orgOwner := []Assignment{{RoleName: OrgOwner, OrgID: org}}
	readOnly := []Assignment{{RoleName: GroupReadOnly, GroupID: proj}, {RoleName: OrgMember, OrgID: org}}
	backup := []Assignment{{RoleName: GroupBackupManager, GroupID: proj}}
	inProj := Target{GroupID: proj, OrgID: org}
	cases := []struct {
		name string
		as   []Assignment
		op   string
		t    Target
		want bool
	}{
		{"org owner acks in its org's project", orgOwner, "acknowledgeAlert", inProj, true},
		{"org owner reads in its org's project", orgOwner, "listAlerts", inProj, true},
		{"org owner of another org", orgOwner, "listAlerts", Target{GroupID: proj, OrgID: other}, false},
		{"org owner cuts over", orgOwner, "cutoverMigration", inProj, true},
		{"read-only lists alerts", readOnly, "listAlerts", inProj, true},
		{"read-only cannot ack", readOnly, "acknowledgeAlert", inProj, false},
		{"read-only other project", readOnly, "listAlerts", Target{GroupID: proj2, OrgID: org}, false},
		{"org member reads a migration", readOnly, "getPushMigration", inProj, true},
		{"read-only cannot cut over", readOnly, "cutoverMigration", inProj, false},
		{"backup manager takes a snapshot", backup, "takeSnapshot", inProj, true},
		{"backup manager lists alerts (any project role covers read only)", backup, "listAlerts", inProj, true},
		{"backup manager cannot ack", backup, "acknowledgeAlert", inProj, false},
		{"anyone: who am I", nil, "getSystemStatus", Target{}, true},
		{"org op needs the org", readOnly, "createLinkToken", Target{OrgID: org}, false},
		{"org op for owner", orgOwner, "createLinkToken", Target{OrgID: org}, true},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, Authorize(c.as, MustGet(c.op), c.t), c.name)
	}
}
