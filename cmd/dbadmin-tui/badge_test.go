package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/ui"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// The header's role badge names, for every demo identity, the strongest
// role `check` prints for the same key and project.
func TestRoleBadgeEqualsChecksStrongestRole(t *testing.T) {
	base := startSim(t)
	checkRole := regexp.MustCompile(`(?m)^Strongest role in project payments: (.+)$`)
	badge := regexp.MustCompile(`all clusters +(.+?) +(?:READ-ONLY +)?(?:updated|not updated)`)
	seen := map[string]bool{}
	// What the hierarchy says (issue 15 saw "Organization Member" for the
	// first two and "Project Read Only" for the backup manager).
	expect := map[string]string{"org-owner": "Organization Owner", "project-owner": "Project Owner",
		"read-only": "Project Read Only", "backup-manager": "Project Backup Manager"}
	for _, id := range apisim.DemoIdentities() {
		if id.Kind != apisim.KindAPIKey {
			continue
		}
		t.Run(id.PublicKey, func(t *testing.T) {
			r := runCheckWith(t, map[string]string{
				"MONGODB_ATLAS_PUBLIC_API_KEY": id.PublicKey, "MONGODB_ATLAS_PRIVATE_API_KEY": id.PrivateKey,
				"MONGODB_ATLAS_OPS_MANAGER_URL": base, "MONGODB_ATLAS_PROJECT_ID": apisim.DemoPaymentsID,
			})
			require.Equal(t, 0, r.code, "stderr: %s", r.stderr)
			m := checkRole.FindStringSubmatch(r.stdout)
			require.NotNil(t, m, "check names the strongest role:\n%s", r.stdout)
			want := m[1]
			if e, ok := expect[id.PublicKey]; ok {
				assert.Equal(t, e, want)
			}

			f, err := parseFlags([]string{"--demo", "--demo-role", id.PublicKey, "--project", apisim.DemoPaymentsID})
			require.NoError(t, err)
			state := t.TempDir()
			a, err := setup(f, func(k string) string {
				return map[string]string{"XDG_STATE_HOME": state, "XDG_CONFIG_HOME": state, "HOME": state}[k]
			}, ui.Panes())
			require.NoError(t, err)
			t.Cleanup(a.close)
			d := viewstest.NewLiveModelDriver(t, a.model, 200, 60)
			d.Settle()
			header := strings.SplitN(viewstest.Screen(a.model.View().Content), "\n", 2)[0]
			got := badge.FindStringSubmatch(header)
			require.NotNil(t, got, "header: %q", header)
			assert.Equal(t, want, got[1], "header: %q", header)
			seen[want] = true
		})
	}
	// The demo identities cover owners, read-only and narrower roles: the
	// badge must tell them apart.
	assert.GreaterOrEqual(t, len(seen), 5, "%v", seen)
}
