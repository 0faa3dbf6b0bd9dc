package apiclient

import (
	"context"
	"testing"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// projectCases are the Projects area: who am I, organizations, projects, service accounts.
func projectCases() map[string]wireCase {
	g := "/groups/" + wGroup
	checkProject := func(t *testing.T, p Project) {
		assert.Equal(t, wGroup, p.ID)
		assert.Equal(t, "payments-prod", p.Name)
		assert.Equal(t, wOrg, p.OrgID)
		assert.EqualValues(t, 3, p.ClusterCount)
		assert.Equal(t, ts("2023-06-12T14:03:11Z"), p.Created)
		assert.Equal(t, []Tag{{Key: "env", Value: "prod"}}, p.Tags)
	}
	listProjects := wireCase{
		path: "/groups", query: pagedQuery(),
		call:  func(ctx context.Context, c *Client) (any, error) { return c.Projects().List(ctx, wirePage) },
		check: func(t *testing.T, v any) { checkProject(t, results[Project](t, v, 1)[0]) },
	}
	return map[string]wireCase{
		"getSystemStatus": {
			path: "",
			call: func(ctx context.Context, c *Client) (any, error) { return c.WhoAmI(ctx) },
			check: func(t *testing.T, v any) {
				s := as[*SystemStatus](t, v)
				require.NotNil(t, s.APIKey)
				assert.Equal(t, "zmmrboas", s.APIKey.PublicKey)
				assert.Len(t, s.APIKey.Roles, 2)
			},
		},
		"getOrganization": {
			path: "/orgs/" + wOrg,
			call: func(ctx context.Context, c *Client) (any, error) { return c.Projects().Org(ctx, wOrg) },
			check: func(t *testing.T, v any) {
				o := as[*Organization](t, v)
				assert.Equal(t, wOrg, o.ID)
				assert.Equal(t, "Acme-Ops", o.Name)
				assert.False(t, o.IsDeleted)
			},
		},
		"listOrganizations": {
			path: "/orgs", query: pagedQuery("name", "Acme"),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Projects().Orgs(ctx, NameListOptions{Name: "Acme", ListOptions: wirePage})
			},
			check: func(t *testing.T, v any) {
				r := results[Organization](t, v, 2)
				assert.Equal(t, wOrg, r[0].ID)
				assert.Equal(t, "Acme Sandbox", r[1].Name)
				assert.False(t, r[0].IsDeleted)
			},
		},
		"listProjects": listProjects,
		"legacyListProjects": listProjects.via(func(ctx context.Context, c *Client) (any, error) {
			return c.Projects().LegacyList(ctx, wirePage)
		}),
		"getProject": {
			path: g,
			call: func(ctx context.Context, c *Client) (any, error) { return c.Projects().Get(ctx, wGroup) },
			check: func(t *testing.T, v any) {
				p := as[*Project](t, v)
				checkProject(t, *p)
				assert.True(t, *p.WithDefaultAlertsSettings)
			},
		},
		"listOrganizationProjects": {
			path: "/orgs/" + wOrg + "/groups", query: pagedQuery("name", "payments"),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Projects().OrgProjects(ctx, wOrg, NameListOptions{Name: "payments", ListOptions: wirePage})
			},
			check: func(t *testing.T, v any) {
				r := results[Project](t, v, 2)
				checkProject(t, r[0])
				assert.Equal(t, "payments-staging", r[1].Name)
			},
		},
		"getServiceAccount": {
			path: "/orgs/" + wOrg + "/serviceAccounts/" + wClient,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Projects().ServiceAccount(ctx, wOrg, wClient)
			},
			check: func(t *testing.T, v any) {
				sa := as[*ServiceAccount](t, v)
				assert.Equal(t, []string{"ORG_MEMBER", "ORG_READ_ONLY"}, sa.Roles)
				require.Len(t, sa.Secrets, 1)
				assert.Equal(t, "mdb_sa_sk_****abcd", sa.Secrets[0].MaskedSecretValue)
				roles := sa.OrgAssignments(wOrg)
				assert.Equal(t, catalog.Assignment{RoleName: catalog.OrgMember, OrgID: wOrg}, roles[0])
			},
		},
		"getProjectServiceAccount": {
			path: g + "/serviceAccounts/" + wClient,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Projects().ProjectServiceAccount(ctx, wGroup, wClient)
			},
			check: func(t *testing.T, v any) {
				sa := as[*ServiceAccount](t, v)
				roles := sa.GroupAssignments(wGroup)
				require.Len(t, roles, 2)
				assert.Equal(t, catalog.Assignment{RoleName: catalog.GroupBackupManager, GroupID: wGroup}, roles[1])
			},
		},
	}
}
