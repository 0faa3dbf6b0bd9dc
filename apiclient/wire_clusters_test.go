package apiclient

import (
	"context"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// clusterCases are the Clusters area: clusters of every kind and their processes.
func clusterCases() map[string]wireCase {
	g := "/groups/" + wGroup
	checkLegacyCluster := func(t *testing.T, lc LegacyCluster) {
		assert.Equal(t, "Cluster0", lc.Name)
		require.NotNil(t, lc.ProviderSettings)
		assert.Equal(t, "M2", lc.ProviderSettings.InstanceSizeName)
		assert.NotEmpty(t, lc.Links)
	}
	return map[string]wireCase{
		"listClusters": {
			path: g + "/clusters", query: pagedQuery("includeDeletedWithRetainedBackups", "true"),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Clusters().List(ctx, wGroup, ClusterListOptions{IncludeDeletedWithRetainedBackups: true, ListOptions: wirePage})
			},
			check: func(t *testing.T, v any) {
				r := results[Cluster](t, v, 2)
				dedicated, tenant := r[0], r[1]
				assert.Equal(t, "Cluster0", dedicated.Name)
				assert.Equal(t, "M30", dedicated.InstanceSize())
				assert.False(t, dedicated.Tenant())
				assert.Equal(t, ClusterIdle, dedicated.StateName)
				assert.Equal(t, "7.0.14", dedicated.MongoDBVersion)
				require.NotNil(t, dedicated.ConnectionStrings)
				assert.Equal(t, "mongodb+srv://cluster0.ab12c.mongodb.net", dedicated.ConnectionStrings.StandardSrv)
				assert.Equal(t, "M0", tenant.InstanceSize())
				assert.True(t, tenant.Tenant())
				assert.Equal(t, "AWS", tenant.ReplicationSpecs[0].RegionConfigs[0].BackingProviderName)
			},
		},
		"getCluster": {
			path: g + "/clusters/Cluster0",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Clusters().Get(ctx, wGroup, "Cluster0")
			},
			check: func(t *testing.T, v any) {
				cl := as[*Cluster](t, v)
				assert.Equal(t, ClusterSharded, cl.ClusterType)
				assert.True(t, cl.PitEnabled)
				assert.Equal(t, 3, cl.ReplicationSpecs[0].RegionConfigs[0].ElectableSpecs.NodeCount)
				assert.Equal(t, "Zone 1", cl.ReplicationSpecs[0].ZoneName)
			},
		},
		"listClustersForAllProjects": {
			path: "/clusters", query: pagedQuery(),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Clusters().ForAllProjects(ctx, wirePage)
			},
			check: func(t *testing.T, v any) {
				r := results[OrgGroupClusters](t, v, 1)
				assert.Equal(t, "Acme Ops", r[0].OrgName)
				require.Len(t, r[0].Clusters, 1)
				cs := r[0].Clusters[0]
				assert.Equal(t, "REPLICA_SET", cs.Type)
				assert.Equal(t, "available", cs.Availability)
				assert.Equal(t, 2, cs.AlertCount)
				assert.EqualValues(t, 734003200, cs.DataSizeBytes)
			},
		},
		"listFlexClusters": {
			path: g + "/flexClusters", query: pagedQuery(),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Clusters().Flex(ctx, wGroup, wirePage)
			},
			check: func(t *testing.T, v any) {
				f := results[FlexCluster](t, v, 1)[0]
				assert.Equal(t, "flex-dev", f.Name)
				assert.Equal(t, "FLEX", f.ProviderSettings.ProviderName)
				assert.Equal(t, "AWS", f.ProviderSettings.BackingProviderName)
				require.NotNil(t, f.BackupSettings)
				assert.True(t, f.BackupSettings.Enabled)
			},
		},
		"listServerlessInstances": {
			path: g + "/serverless", query: pagedQuery(),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Clusters().Serverless(ctx, wGroup, wirePage)
			},
			check: func(t *testing.T, v any) {
				s := results[ServerlessInstance](t, v, 1)[0]
				assert.Equal(t, "serverless-1", s.Name)
				assert.Equal(t, "SERVERLESS", s.ProviderSettings.ProviderName)
				assert.True(t, s.ServerlessBackupOptions.ServerlessContinuousBackupEnabled)
			},
		},
		"listAtlasProcesses": {
			path: g + "/processes", query: pagedQuery(),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Clusters().Processes(ctx, wGroup, wirePage)
			},
			check: func(t *testing.T, v any) {
				r := results[Process](t, v, 2)
				pr := r[0]
				assert.Equal(t, wHost+":27017", pr.ID)
				assert.Equal(t, wHost, pr.Hostname)
				assert.Equal(t, 27017, pr.Port)
				assert.Equal(t, ProcessPrimary, pr.TypeName)
				assert.Equal(t, "atlas-xyz-shard-0", pr.ReplicaSetName)
				assert.Equal(t, wHost, pr.UserAlias)
				assert.Equal(t, pr.ID, pr.HostPort())
				assert.Equal(t, ProcessSecondary, r[1].TypeName)
			},
		},
		"legacyListClusters": {
			path: g + "/clusters", query: pagedQuery(),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Clusters().LegacyList(ctx, wGroup, wirePage)
			},
			check: func(t *testing.T, v any) { checkLegacyCluster(t, results[LegacyCluster](t, v, 1)[0]) },
		},
		"legacyGetCluster": {
			path: g + "/clusters/Cluster0",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Clusters().LegacyGet(ctx, wGroup, "Cluster0")
			},
			check: func(t *testing.T, v any) { checkLegacyCluster(t, *as[*LegacyCluster](t, v)) },
		},
	}
}

// clusterInsightCases are the Clusters area's read-only insights: measurements and the performance advisor.
func clusterInsightCases() map[string]wireCase {
	g := "/groups/" + wGroup
	return map[string]wireCase{
		"getDatabaseMeasurements": {
			path:  g + "/processes/" + wHost + ":27017/databases/shop/measurements",
			query: url.Values{"granularity": {"PT1M"}, "period": {"PT1H"}, "m": {"DATABASE_DATA_SIZE", "DATABASE_INDEX_SIZE"}},
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Clusters().DatabaseMeasurements(ctx, wGroup, wHost+":27017", "shop", MeasurementOptions{
					Granularity: "PT1M", Period: "PT1H", Metrics: []string{"DATABASE_DATA_SIZE", "DATABASE_INDEX_SIZE"},
				})
			},
			check: func(t *testing.T, v any) {
				m := as[*Measurements](t, v)
				require.Len(t, m.Measurements, 1)
				pts := m.Measurements[0].DataPoints
				require.Len(t, pts, 2)
				assert.Equal(t, 1048576.0, *pts[0].Value)
				assert.Nil(t, pts[1].Value, "a missing reading stays nil, not 0")
			},
		},
		"listDropIndexes": {
			path: g + "/clusters/Cluster0/performanceAdvisor/dropIndexSuggestions",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Clusters().DropIndexSuggestions(ctx, wGroup, "Cluster0")
			},
			check: func(t *testing.T, v any) {
				d := as[*DropIndexSuggestions](t, v)
				require.Len(t, d.RedundantIndexes, 1)
				assert.Equal(t, "sku_1", d.RedundantIndexes[0].Name)
				assert.EqualValues(t, 1, d.RedundantIndexes[0].Index[0]["sku"])
				require.Len(t, d.UnusedIndexes, 1)
				assert.EqualValues(t, 0, d.UnusedIndexes[0].AccessCount)
			},
		},
		"listClusterSuggestedIndexes": {
			path: g + "/clusters/Cluster0/performanceAdvisor/suggestedIndexes",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Clusters().SuggestedIndexes(ctx, wGroup, "Cluster0")
			},
			check: func(t *testing.T, v any) {
				s := as[*SuggestedIndexes](t, v)
				require.Len(t, s.SuggestedIndexes, 1)
				assert.Equal(t, []string{s.Shapes[0].ID}, s.SuggestedIndexes[0].Impact)
				assert.EqualValues(t, 420, s.Shapes[0].AvgMs)
			},
		},
	}
}
