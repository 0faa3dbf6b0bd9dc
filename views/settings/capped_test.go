package settings

import (
	"fmt"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// A provider's role list that reached the client's row cap holds the cap's
// rows, and the section heading says "showing the first N". The cap is
// lowered so the seeded lists reach it.
func TestCappedAccessRolesSaySo(t *testing.T) {
	e := newEnv(t, "project-owner", views.LayoutWide, 130, 24)
	require.NotNil(t, e.P.snap.Roles)
	r := e.P.snap.Roles
	require.Greater(t, len(r.AWSIAMRoles), 1, "the seed holds more AWS roles than the lowered cap")
	assert.NotContains(t, ansi.Strip(e.P.View()), "showing the first")
	want := 0
	for _, l := range [][]apiclient.AccessRole{r.AWSIAMRoles, r.AzureServicePrincipals, r.GCPServiceAccounts} {
		want += min(len(l), 1)
	}

	viewstest.LowerRowCap(t, 1)
	e = newEnv(t, "project-owner", views.LayoutWide, 130, 24)
	require.NotNil(t, e.P.snap.Roles)
	assert.Len(t, e.P.snap.Roles.AWSIAMRoles, 1)
	assert.Len(t, e.P.roles(), want)
	assert.Contains(t, ansi.Strip(e.P.View()), fmt.Sprintf("CLOUD PROVIDER ACCESS ROLES (%d, showing the first 1)", want))
}
