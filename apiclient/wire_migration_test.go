package apiclient

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func migrationCases() map[string]wireCase {
	g := "/groups/" + wGroup
	o := "/orgs/" + wOrg
	req := MigrationRequest{
		Source:              MigrationSource{ClusterName: "legacy-rs", GroupID: "5f1a2b3c4d5e6f7a8b9c0d20", ManagedAuthentication: false, SSL: true, Username: "migrator", Password: "s3cret"},
		Destination:         MigrationDestination{ClusterName: "Cluster0", GroupID: wGroup, HostnameSchemaType: HostnamePublic},
		MigrationHosts:      []string{"mig-1.example.com"},
		DropDestinationData: true,
		Sharding: &MigrationSharding{CreateSupportingIndexes: true, ShardingEntries: []ShardEntry{
			{Database: "shop", Collection: "orders", ShardCollection: ShardKey{Key: []map[string]any{{"customerId": 1}}}},
		}},
	}
	reqJSON := `{"source":{"clusterName":"legacy-rs","groupId":"5f1a2b3c4d5e6f7a8b9c0d20","managedAuthentication":false,"ssl":true,"username":"migrator","password":"s3cret"},
		"destination":{"clusterName":"Cluster0","groupId":"` + wGroup + `","hostnameSchemaType":"PUBLIC"},
		"migrationHosts":["mig-1.example.com"],"dropDestinationData":true,
		"sharding":{"createSupportingIndexes":true,"shardingEntries":[{"database":"shop","collection":"orders","shardCollection":{"key":[{"customerId":1}]}}]}}`
	return map[string]wireCase{
		"createPushMigration": {
			path: g + "/liveMigrations", body: reqJSON,
			call: func(ctx context.Context, c *Client) (any, error) { return c.Migration().Create(ctx, wGroup, req) },
			check: func(t *testing.T, v any) {
				m := as[*LiveMigration](t, v)
				assert.Equal(t, wMig, m.ID)
				assert.Equal(t, MigrationNew, m.Status)
				assert.False(t, m.Done())
			},
		},
		"validateMigration": {
			path: g + "/liveMigrations/validate", body: reqJSON,
			call: func(ctx context.Context, c *Client) (any, error) { return c.Migration().Validate(ctx, wGroup, req) },
			check: func(t *testing.T, v any) {
				val := as[*MigrationValidation](t, v)
				assert.Equal(t, wValid, val.ID)
				assert.Equal(t, ValidationPending, val.Status)
				assert.False(t, val.Done())
			},
		},
		"getValidationStatus": {
			path: g + "/liveMigrations/validate/" + wValid,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Migration().ValidationStatus(ctx, wGroup, wValid)
			},
			check: func(t *testing.T, v any) {
				val := as[*MigrationValidation](t, v)
				assert.Equal(t, ValidationFailed, val.Status)
				assert.Contains(t, val.ErrorMessage, "not supported")
				assert.True(t, val.Done())
			},
		},
		"getPushMigration": {
			path: g + "/liveMigrations/" + wMig,
			call: func(ctx context.Context, c *Client) (any, error) { return c.Migration().Get(ctx, wGroup, wMig) },
			check: func(t *testing.T, v any) {
				m := as[*LiveMigration](t, v)
				assert.Equal(t, MigrationWorking, m.Status)
				assert.True(t, m.ReadyForCutover)
				assert.EqualValues(t, 12, *m.LagTimeSeconds)
			},
		},
		"cutoverMigration": {
			path: g + "/liveMigrations/" + wMig + "/cutover",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.Migration().Cutover(ctx, wGroup, wMig)
			},
		},
		"listSourceProjects": {
			path: o + "/liveMigrations/availableProjects",
			call: func(ctx context.Context, c *Client) (any, error) { return c.Migration().SourceProjects(ctx, wOrg) },
			check: func(t *testing.T, v any) {
				l := as[[]AvailableProject](t, v)
				require.Len(t, l, 1)
				require.Len(t, l[0].Deployments, 1)
				d := l[0].Deployments[0]
				assert.Equal(t, "6.0.15", d.MongoDBVersion)
				assert.True(t, d.Managed)
				assert.True(t, d.TLSEnabled)
				assert.EqualValues(t, 53687091200, d.DBSizeBytes)
			},
		},
		"createLinkToken": {
			path: o + "/liveMigrations/linkTokens", body: `{"accessListIps":["203.0.113.10"]}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Migration().CreateLinkToken(ctx, wOrg, []string{"203.0.113.10"})
			},
			check: func(t *testing.T, v any) {
				assert.Equal(t, "eyJhbGciOiJIUzI1NiJ9.bGlua3Rva2Vu.c2lnbmF0dXJl", as[*LinkToken](t, v).LinkToken)
			},
		},
		"deleteLinkToken": {
			path: o + "/liveMigrations/linkTokens",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.Migration().DeleteLinkToken(ctx, wOrg)
			},
		},
	}
}
