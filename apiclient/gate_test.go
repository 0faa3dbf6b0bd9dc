package apiclient

import (
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
	"github.com/stretchr/testify/assert"
)

func TestGateExplainsEveryRefusal(t *testing.T) {
	const org = "aaaaaaaaaaaaaaaaaaaaaaaa"
	g := NewGate([]catalog.Assignment{{RoleName: catalog.OrgOwner, OrgID: org}})
	g.SetProjectOrg(testGroup, org)
	ok, why := g.Allowed("cutoverMigration", testGroup)
	assert.True(t, ok, why)

	g.SetReadOnly(true)
	ok, why = g.Allowed("cutoverMigration", testGroup)
	assert.False(t, ok)
	assert.Equal(t, "read-only mode", why)
	ok, _ = g.Allowed("listAlerts", testGroup)
	assert.True(t, ok, "reads stay allowed in read-only mode")
	g.SetReadOnly(false)

	g.SetClock(func() time.Time { return time.Date(2026, 1, 22, 0, 0, 0, 0, time.UTC) })
	ok, why = g.Allowed("listServerlessBackups", testGroup)
	assert.False(t, ok)
	assert.Contains(t, why, "sunset on 2026-01-22")
	g.SetClock(func() time.Time { return time.Date(2026, 1, 21, 12, 0, 0, 0, time.UTC) })
	ok, _ = g.Allowed("listServerlessBackups", testGroup)
	assert.True(t, ok)

	ok, why = NewGate(nil).Allowed("noSuchOp", testGroup)
	assert.False(t, ok)
	assert.Contains(t, why, "unknown operation")
}

// A project whose organization the gate does not know yet (a start by
// project id lists the organizations later) is not refused what an
// organization role of the caller's would allow: the server decides. A
// project role alone still decides for its own project only.
func TestGateLeavesAProjectOfUnknownOrgToTheServer(t *testing.T) {
	g := NewGate([]catalog.Assignment{{RoleName: catalog.OrgOwner, OrgID: "aaaaaaaaaaaaaaaaaaaaaaaa"}})
	ok, why := g.Allowed("listClusters", "bbbbbbbbbbbbbbbbbbbbbbbb")
	assert.True(t, ok, why)

	g = NewGate([]catalog.Assignment{{RoleName: catalog.GroupReadOnly, GroupID: testGroup}})
	ok, _ = g.Allowed("listClusters", "bbbbbbbbbbbbbbbbbbbbbbbb")
	assert.False(t, ok, "no organization role: a project role does not reach another project")
}
