package apiclient

import (
	"context"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func backupCases() map[string]wireCase {
	g := "/groups/" + wGroup
	cl := g + "/clusters/Cluster0/backup"
	sl := g + "/serverless/serverless-1/backup"
	fl := g + "/flexClusters/flex-dev/backup"
	checkSnapshot := func(t *testing.T, s Snapshot) {
		assert.Equal(t, wSnapshot, s.ID)
		assert.Equal(t, "AWS", s.CloudProvider)
		assert.Equal(t, []string{"US_WEST_2"}, s.CopyRegions)
		assert.Equal(t, ts("2025-03-01T06:00:00Z"), s.CreatedAt)
		assert.Equal(t, FrequencyHourly, s.FrequencyType)
		assert.Equal(t, SnapshotOnDemand, s.SnapshotType)
		assert.EqualValues(t, 1073741824, s.StorageSizeBytes)
		assert.Equal(t, "replicaSet", s.Type)
		assert.Equal(t, "72659f08-8b3c-4913-bb4e-a8a68e036502", s.MasterKeyUUID)
	}
	checkSharded := func(t *testing.T, s ShardedSnapshot) {
		assert.Equal(t, "EMBEDDED", s.ConfigServerType)
		require.Len(t, s.Members, 2)
		assert.Equal(t, "atlas-xyz-shard-1", s.Members[1].ReplicaSetName)
		assert.Len(t, s.SnapshotIDs, 2)
		assert.Equal(t, SnapshotInProgress, s.Status)
		assert.False(t, s.Done())
	}
	checkServerlessSnap := func(t *testing.T, s ServerlessSnapshot) {
		assert.Equal(t, "serverless-1", s.ServerlessInstanceName)
		assert.Equal(t, SnapshotCompleted, s.Status)
		assert.True(t, s.Done())
		assert.EqualValues(t, 52428800, s.StorageSizeBytes)
	}
	checkRestore := func(t *testing.T, j RestoreJob) {
		assert.Equal(t, wRestore, j.ID)
		assert.Equal(t, DeliveryAutomated, j.DeliveryType)
		assert.Equal(t, "Cluster1", j.TargetClusterName)
		assert.Equal(t, wGroup, j.TargetGroupID)
		require.NotNil(t, j.DesiredTimestamp)
		assert.EqualValues(t, 1, j.DesiredTimestamp.Increment)
	}
	checkFlexRestore := func(t *testing.T, j FlexRestoreJob) {
		assert.Equal(t, wRestore, j.ID)
		assert.Equal(t, wSnapshot, j.SnapshotID)
		assert.Equal(t, "flex-dev", j.InstanceName)
		require.NotNil(t, j.RestoreScheduledDate)
	}
	checkSchedule := func(t *testing.T, s BackupSchedule) {
		assert.Equal(t, "Cluster0", s.ClusterName)
		require.NotNil(t, s.NextSnapshot)
		assert.Equal(t, 30, *s.ReferenceMinuteOfHour)
		assert.Equal(t, 7, *s.RestoreWindowDays)
		require.NotNil(t, s.Export)
		assert.Equal(t, wBucket, s.Export.ExportBucketID)
		require.Len(t, s.CopySettings, 1)
		assert.Equal(t, []string{"DAILY", "ON_DEMAND"}, s.CopySettings[0].Frequencies)
		assert.Equal(t, []ExtraRetention{{FrequencyType: "YEARLY", RetentionDays: 730}}, s.ExtraRetentionSettings)
	}
	checkBucket := func(t *testing.T, b ExportBucket) {
		assert.Equal(t, wBucket, b.ID)
		assert.Equal(t, "acme-exports", b.BucketName)
		assert.Equal(t, ProviderAWS, b.CloudProvider)
		assert.Equal(t, wRole, b.IAMRoleID)
		assert.Equal(t, "US_EAST_1", b.Region)
		require.NotNil(t, b.RequirePrivateNetworking)
	}
	checkJob := func(t *testing.T, j ExportJob) {
		assert.Equal(t, wExport, j.ID)
		assert.Equal(t, wBucket, j.ExportBucketID)
		require.Len(t, j.Components, 1)
		assert.Equal(t, []Label{{Key: "ticket", Value: "OPS-42"}}, j.CustomData)
		assert.Contains(t, j.Prefix, "/exported_snapshots/")
	}
	checkPolicy := func(t *testing.T, p CompliancePolicy) {
		assert.Equal(t, "security@example.com", p.AuthorizedEmail)
		assert.True(t, p.CopyProtectionEnabled)
		assert.True(t, p.PitEnabled)
		require.NotNil(t, p.OnDemandPolicyItem)
		assert.Equal(t, FrequencyOnDemand, p.OnDemandPolicyItem.FrequencyType)
		require.Len(t, p.ScheduledPolicyItems, 1)
		assert.Equal(t, RetentionDays, p.ScheduledPolicyItems[0].RetentionUnit)
	}
	restoreBody := `{"deliveryType":"automated","snapshotId":"` + wSnapshot + `","targetClusterName":"Cluster1","targetGroupId":"` + wGroup + `"}`
	pitBody := `{"deliveryType":"pointInTime","targetClusterName":"serverless-2","targetGroupId":"` + wGroup + `","pointInTimeUTCSeconds":1740808800}`
	policy := CompliancePolicy{
		AuthorizedEmail: "security@example.com", AuthorizedUserFirstName: "Ada", AuthorizedUserLastName: "Lovelace",
		CopyProtectionEnabled: true, PitEnabled: true, RestoreWindowDays: 7, State: ComplianceActive, UpdatedUser: "read-only",
		ScheduledPolicyItems: []PolicyItem{{FrequencyType: FrequencyDaily, FrequencyInterval: 1, RetentionUnit: RetentionDays, RetentionValue: 7}},
	}
	return map[string]wireCase{
		"listReplicaSetBackups": {
			path: cl + "/snapshots", query: pagedQuery("pointInTimeUtcSeconds", "1740808800"),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().Snapshots(ctx, wGroup, "Cluster0", SnapshotListOptions{PointInTimeUTCSeconds: 1740808800, ListOptions: wirePage})
			},
			check: func(t *testing.T, v any) {
				p := as[*Page[Snapshot]](t, v)
				require.Len(t, p.Results, 2)
				checkSnapshot(t, p.Results[0])
				assert.True(t, p.Results[0].Done())
				assert.Equal(t, SnapshotQueued, p.Results[1].Status)
				assert.False(t, p.Results[1].Done())
				assert.Equal(t, 2, p.TotalCount)
			},
		},
		"getReplicaSetBackup": {
			path: cl + "/snapshots/" + wSnapshot,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().Snapshot(ctx, wGroup, "Cluster0", wSnapshot)
			},
			check: func(t *testing.T, v any) { checkSnapshot(t, *as[*Snapshot](t, v)) },
		},
		"takeSnapshot": {
			path: cl + "/snapshots", body: `{"description":"pre-deploy","retentionInDays":3}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().TakeSnapshot(ctx, wGroup, "Cluster0", TakeSnapshotRequest{Description: "pre-deploy", RetentionInDays: 3})
			},
			check: func(t *testing.T, v any) {
				s := as[*Snapshot](t, v)
				assert.Equal(t, SnapshotQueued, s.Status)
				assert.Equal(t, "pre-deploy", s.Description)
			},
		},
		"updateSnapshotRetention": {
			path: cl + "/snapshots/" + wSnapshot, body: `{"retentionUnit":"WEEKS","retentionValue":4}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().UpdateRetention(ctx, wGroup, "Cluster0", wSnapshot, SnapshotRetention{RetentionUnit: SnapshotRetentionWeeks, RetentionValue: 4})
			},
			check: func(t *testing.T, v any) {
				assert.Equal(t, ts("2025-04-01T06:00:00Z"), *as[*Snapshot](t, v).ExpiresAt)
			},
		},
		"deleteReplicaSetBackup": {
			path: cl + "/snapshots/" + wSnapshot,
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.Backups().DeleteSnapshot(ctx, wGroup, "Cluster0", wSnapshot)
			},
		},
		"listShardedClusterBackups": {
			path: cl + "/snapshots/shardedClusters",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().ShardedSnapshots(ctx, wGroup, "Cluster0")
			},
			check: func(t *testing.T, v any) { checkSharded(t, results[ShardedSnapshot](t, v, 1)[0]) },
		},
		"getShardedClusterBackup": {
			path: cl + "/snapshots/shardedCluster/" + wSnapshot,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().ShardedSnapshot(ctx, wGroup, "Cluster0", wSnapshot)
			},
			check: func(t *testing.T, v any) { checkSharded(t, *as[*ShardedSnapshot](t, v)) },
		},
		"deleteShardedClusterBackup": {
			path: cl + "/snapshots/shardedCluster/" + wSnapshot,
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.Backups().DeleteShardedSnapshot(ctx, wGroup, "Cluster0", wSnapshot)
			},
		},
		"getSharedClusterBackup": {
			path: cl + "/tenant/snapshots/" + wSnapshot,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().TenantSnapshot(ctx, wGroup, "Cluster0", wSnapshot)
			},
			check: func(t *testing.T, v any) {
				s := as[*TenantSnapshot](t, v)
				assert.Equal(t, FlexCompleted, s.Status)
				assert.True(t, s.Done())
				assert.Equal(t, ts("2025-03-01T06:02:00Z"), *s.FinishTime)
			},
		},
		"listServerlessBackups": {
			path: sl + "/snapshots", query: pagedQuery(),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().ServerlessSnapshots(ctx, wGroup, "serverless-1", wirePage)
			},
			check: func(t *testing.T, v any) { checkServerlessSnap(t, results[ServerlessSnapshot](t, v, 1)[0]) },
		},
		"getServerlessBackup": {
			path: sl + "/snapshots/" + wSnapshot,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().ServerlessSnapshot(ctx, wGroup, "serverless-1", wSnapshot)
			},
			check: func(t *testing.T, v any) { checkServerlessSnap(t, *as[*ServerlessSnapshot](t, v)) },
		},
		"listFlexBackups": {
			path: fl + "/snapshots", query: pagedQuery(),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().FlexSnapshots(ctx, wGroup, "flex-dev", wirePage)
			},
			check: func(t *testing.T, v any) {
				r := results[FlexSnapshot](t, v, 1)
				assert.Equal(t, FlexRunning, r[0].Status)
				assert.False(t, r[0].Done())
				assert.Equal(t, "8.0.4", r[0].MongoDBVersion)
			},
		},
		"getFlexBackup": {
			path: fl + "/snapshots/" + wSnapshot,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().FlexSnapshot(ctx, wGroup, "flex-dev", wSnapshot)
			},
			check: func(t *testing.T, v any) {
				s := as[*FlexSnapshot](t, v)
				assert.True(t, s.Done())
				require.NotNil(t, s.FinishTime)
			},
		},
		"downloadFlexBackup": {
			path: fl + "/download", body: `{"snapshotId":"` + wSnapshot + `"}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().FlexDownload(ctx, wGroup, "flex-dev", wSnapshot)
			},
			check: func(t *testing.T, v any) {
				j := as[*FlexRestoreJob](t, v)
				assert.Equal(t, FlexDeliveryDownload, j.DeliveryType)
				assert.Contains(t, j.SnapshotURL, "https://restore.example/")
				assert.True(t, j.Done())
			},
		},
		"listFlexBackupRestoreJobs": {
			path: fl + "/restoreJobs", query: pagedQuery(),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().FlexRestoreJobs(ctx, wGroup, "flex-dev", wirePage)
			},
			check: func(t *testing.T, v any) {
				r := results[FlexRestoreJob](t, v, 1)
				checkFlexRestore(t, r[0])
				assert.Equal(t, FlexQueued, r[0].Status)
			},
		},
		"createFlexBackupRestoreJob": {
			path: fl + "/restoreJobs",
			body: `{"snapshotId":"` + wSnapshot + `","targetDeploymentItemName":"flex-restore","targetProjectId":"` + wGroup + `"}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().CreateFlexRestoreJob(ctx, wGroup, "flex-dev", FlexRestoreRequest{SnapshotID: wSnapshot, TargetDeploymentItemName: "flex-restore", TargetProjectID: wGroup})
			},
			check: func(t *testing.T, v any) {
				j := as[*FlexRestoreJob](t, v)
				checkFlexRestore(t, *j)
				assert.Equal(t, FlexDeliveryRestore, j.DeliveryType)
			},
		},
		"getFlexBackupRestoreJob": {
			path: fl + "/restoreJobs/" + wRestore,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().FlexRestoreJob(ctx, wGroup, "flex-dev", wRestore)
			},
			check: func(t *testing.T, v any) {
				j := as[*FlexRestoreJob](t, v)
				checkFlexRestore(t, *j)
				assert.True(t, j.Done())
				require.NotNil(t, j.RestoreFinishedDate)
			},
		},
		"listBackupRestoreJobs": {
			path: cl + "/restoreJobs", query: pagedQuery(),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().RestoreJobs(ctx, wGroup, "Cluster0", wirePage)
			},
			check: func(t *testing.T, v any) {
				r := results[RestoreJob](t, v, 2)
				checkRestore(t, r[0])
				assert.Equal(t, RestoreRunning, r[0].State())
				dl := r[1]
				assert.Equal(t, RestoreDownloadReady, dl.State())
				assert.Equal(t, "vpce-0abc123", dl.PrivateDownloadDeliveryURLs[0].EndpointID)
				assert.Equal(t, "atlas-xyz-shard-0", dl.Components[0].ReplicaSetName)
				assert.Contains(t, dl.Components[0].DownloadURL, "shard-0.tar.gz")
			},
		},
		"createBackupRestoreJob": {
			path: cl + "/restoreJobs", body: restoreBody,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().CreateRestoreJob(ctx, wGroup, "Cluster0", RestoreRequest{DeliveryType: DeliveryAutomated, SnapshotID: wSnapshot, TargetClusterName: "Cluster1", TargetGroupID: wGroup})
			},
			check: func(t *testing.T, v any) { checkRestore(t, *as[*RestoreJob](t, v)) },
		},
		"getBackupRestoreJob": {
			path: cl + "/restoreJobs/" + wRestore,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().RestoreJob(ctx, wGroup, "Cluster0", wRestore)
			},
			check: func(t *testing.T, v any) {
				j := as[*RestoreJob](t, v)
				checkRestore(t, *j)
				assert.Equal(t, RestoreFinished, j.State())
				assert.True(t, j.Done())
			},
		},
		"cancelBackupRestoreJob": {
			path: cl + "/restoreJobs/" + wRestore,
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.Backups().CancelRestoreJob(ctx, wGroup, "Cluster0", wRestore)
			},
		},
		"listServerlessBackupRestoreJobs": {
			path: sl + "/restoreJobs", query: pagedQuery(),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().ServerlessRestoreJobs(ctx, wGroup, "serverless-1", wirePage)
			},
			check: func(t *testing.T, v any) {
				r := results[RestoreJob](t, v, 1)
				assert.Equal(t, RestoreFailed, r[0].State())
				assert.EqualValues(t, 1740808800, r[0].PointInTimeUTCSeconds)
			},
		},
		"createServerlessBackupRestoreJob": {
			path: sl + "/restoreJobs", body: pitBody,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().CreateServerlessRestoreJob(ctx, wGroup, "serverless-1", RestoreRequest{DeliveryType: DeliveryPointInTime, PointInTimeUTCSeconds: 1740808800, TargetClusterName: "serverless-2", TargetGroupID: wGroup})
			},
			check: func(t *testing.T, v any) {
				j := as[*RestoreJob](t, v)
				assert.Equal(t, DeliveryPointInTime, j.DeliveryType)
				assert.Equal(t, RestoreRunning, j.State())
			},
		},
		"getServerlessBackupRestoreJob": {
			path: sl + "/restoreJobs/" + wRestore,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().ServerlessRestoreJob(ctx, wGroup, "serverless-1", wRestore)
			},
			check: func(t *testing.T, v any) {
				j := as[*RestoreJob](t, v)
				assert.True(t, j.Failed)
				assert.Equal(t, "serverless-2", j.TargetClusterName)
			},
		},
		"getBackupSchedule": {
			path: cl + "/schedule",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().Schedule(ctx, wGroup, "Cluster0")
			},
			check: func(t *testing.T, v any) {
				s := as[*BackupSchedule](t, v)
				checkSchedule(t, *s)
				require.Len(t, s.Policies, 1)
				items := s.Policies[0].PolicyItems
				require.Len(t, items, 3)
				assert.Equal(t, PolicyItem{ID: "5f0b1c2d3e4f5a6b7c8d9e11", FrequencyType: FrequencyMonthly, FrequencyInterval: 40, RetentionUnit: RetentionMonths, RetentionValue: 12}, items[2])
			},
		},
		"updateBackupSchedule": {
			path: cl + "/schedule", body: `{"referenceHourOfDay":3,"updateSnapshots":true,
				"policies":[{"id":"5f0b1c2d3e4f5a6b7c8d9e00","policyItems":[{"frequencyType":"daily","frequencyInterval":1,"retentionUnit":"days","retentionValue":14}]}]}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().UpdateSchedule(ctx, wGroup, "Cluster0", BackupSchedule{
					ClusterName: "read-only, not sent", ReferenceHourOfDay: ptr(3), UpdateSnapshots: ptr(true),
					Policies: []BackupPolicy{{ID: "5f0b1c2d3e4f5a6b7c8d9e00", PolicyItems: []PolicyItem{{FrequencyType: FrequencyDaily, FrequencyInterval: 1, RetentionUnit: RetentionDays, RetentionValue: 14}}}},
				})
			},
			check: func(t *testing.T, v any) {
				s := as[*BackupSchedule](t, v)
				checkSchedule(t, *s)
				assert.Equal(t, 3, *s.ReferenceHourOfDay)
			},
		},
		"deleteAllBackupSchedules": {
			path: cl + "/schedule",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().DeleteSchedules(ctx, wGroup, "Cluster0")
			},
			check: func(t *testing.T, v any) {
				s := as[*BackupSchedule](t, v)
				require.Len(t, s.Policies, 1)
				assert.Empty(t, s.Policies[0].PolicyItems)
			},
		},
		"listExportBuckets": {
			path: g + "/backup/exportBuckets", query: pagedQuery(),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().ExportBuckets(ctx, wGroup, wirePage)
			},
			check: func(t *testing.T, v any) {
				r := results[ExportBucket](t, v, 2)
				checkBucket(t, r[0])
				az := r[1]
				assert.Equal(t, ProviderAzure, az.CloudProvider)
				assert.Equal(t, "https://acmeexports.blob.core.windows.net", az.ServiceURL)
				assert.Equal(t, wRole, az.RoleID)
			},
		},
		"getExportBucket": {
			path: g + "/backup/exportBuckets/" + wBucket,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().ExportBucket(ctx, wGroup, wBucket)
			},
			check: func(t *testing.T, v any) { checkBucket(t, *as[*ExportBucket](t, v)) },
		},
		"createExportBucket": {
			path: g + "/backup/exportBuckets", body: `{"bucketName":"acme-exports","cloudProvider":"AWS","iamRoleId":"` + wRole + `"}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().CreateExportBucket(ctx, wGroup, ExportBucket{BucketName: "acme-exports", CloudProvider: ProviderAWS, IAMRoleID: wRole})
			},
			check: func(t *testing.T, v any) { checkBucket(t, *as[*ExportBucket](t, v)) },
		},
		"deleteExportBucket": {
			path: g + "/backup/exportBuckets/" + wBucket,
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.Backups().DeleteExportBucket(ctx, wGroup, wBucket)
			},
		},
		"listBackupExportJobs": {
			path: cl + "/exports", query: pagedQuery(),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().ExportJobs(ctx, wGroup, "Cluster0", wirePage)
			},
			check: func(t *testing.T, v any) {
				j := results[ExportJob](t, v, 1)[0]
				checkJob(t, j)
				assert.Equal(t, ExportInProgress, j.State)
				assert.False(t, j.Done())
				assert.Equal(t, 3, j.ExportStatus.ExportedCollections)
			},
		},
		"createBackupExportJob": {
			path: cl + "/exports",
			body: `{"snapshotId":"` + wSnapshot + `","exportBucketId":"` + wBucket + `","customData":[{"key":"ticket","value":"OPS-42"}]}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().CreateExportJob(ctx, wGroup, "Cluster0", ExportJobRequest{SnapshotID: wSnapshot, ExportBucketID: wBucket, CustomData: []Label{{Key: "ticket", Value: "OPS-42"}}})
			},
			check: func(t *testing.T, v any) {
				j := as[*ExportJob](t, v)
				checkJob(t, *j)
				assert.Equal(t, ExportQueued, j.State)
			},
		},
		"getBackupExportJob": {
			path: cl + "/exports/" + wExport,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().ExportJob(ctx, wGroup, "Cluster0", wExport)
			},
			check: func(t *testing.T, v any) {
				j := as[*ExportJob](t, v)
				checkJob(t, *j)
				assert.True(t, j.Done())
				require.NotNil(t, j.StateReason)
				assert.Equal(t, "EXPORT_BUCKET_ACCESS_DENIED", j.StateReason.ErrorCode)
			},
		},
		"getDataProtectionSettings": {
			path: g + "/backupCompliancePolicy",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().CompliancePolicy(ctx, wGroup)
			},
			check: func(t *testing.T, v any) {
				p := as[*CompliancePolicy](t, v)
				checkPolicy(t, *p)
				assert.Equal(t, ComplianceActive, p.State)
			},
		},
		"updateDataProtectionSettings": {
			path: g + "/backupCompliancePolicy", query: url.Values{"overwriteBackupPolicies": {"false"}},
			body: `{"authorizedEmail":"security@example.com","authorizedUserFirstName":"Ada","authorizedUserLastName":"Lovelace",
				"copyProtectionEnabled":true,"encryptionAtRestEnabled":false,"pitEnabled":true,"restoreWindowDays":7,
				"scheduledPolicyItems":[{"frequencyType":"daily","frequencyInterval":1,"retentionUnit":"days","retentionValue":7}]}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().UpdateCompliancePolicy(ctx, wGroup, policy, false)
			},
			check: func(t *testing.T, v any) {
				p := as[*CompliancePolicy](t, v)
				checkPolicy(t, *p)
				assert.Equal(t, ComplianceUpdating, p.State)
			},
		},
		"disableDataProtectionSettings": {
			path: g + "/backupCompliancePolicy",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.Backups().DisableCompliancePolicy(ctx, wGroup)
			},
		},
	}
}
