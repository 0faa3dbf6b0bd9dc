package catalog

import "strings"

// The legacy v1.0 surface. Every operation named here also exists under
// /api/{service}/v1.0 with the same method, path, roles, paging and success
// status, answers application/json and carries links. The v1.0 copies are
// derived from the v2 entries, so the two surfaces cannot drift.
var v1IDs = []string{
	// Orgs, projects, clusters, hosts.
	"getSystemStatus", "listOrganizations", "getOrganization", "listProjects", "getProject",
	"listOrganizationProjects", "listClusters", "getCluster", "listClustersForAllProjects",
	"listServerlessInstances", "listAtlasProcesses",
	// 4.1 Access tracking.
	"listAccessLogsByClusterName", "listAccessLogsByHostname",
	// 4.2 Alert configurations.
	"listAlertConfigurationMatchersFieldNames", "listAlertConfigurations", "createAlertConfiguration",
	"deleteAlertConfiguration", "getAlertConfiguration", "toggleAlertConfiguration",
	"updateAlertConfiguration", "listAlertConfigurationsByAlertId",
	// 4.3 Alerts.
	"listAlertsByAlertConfigurationId", "listAlerts", "getAlert", "acknowledgeAlert",
	// 4.4 Search: the /fts routes (the analyzers are v1.0-only entries).
	"listAtlasSearchIndexesDeprecated", "createAtlasSearchIndexDeprecated", "getAtlasSearchIndexDeprecated",
	"updateAtlasSearchIndexDeprecated", "deleteAtlasSearchIndexDeprecated",
	// 4.5 Auditing and custom DNS.
	"getAuditingConfiguration", "updateAuditingConfiguration", "getAwsCustomDns", "toggleAwsCustomDns",
	// 4.6 Cloud backups.
	"listExportBuckets", "createExportBucket", "deleteExportBucket", "getExportBucket",
	"listBackupExportJobs", "createBackupExportJob", "getBackupExportJob",
	"listBackupRestoreJobs", "createBackupRestoreJob", "cancelBackupRestoreJob", "getBackupRestoreJob",
	"deleteAllBackupSchedules", "getBackupSchedule", "updateBackupSchedule",
	"listReplicaSetBackups", "takeSnapshot", "getReplicaSetBackup", "deleteReplicaSetBackup",
	"updateSnapshotRetention", "listShardedClusterBackups", "getShardedClusterBackup",
	"deleteShardedClusterBackup", "getSharedClusterBackup",
	"listServerlessBackupRestoreJobs", "createServerlessBackupRestoreJob", "getServerlessBackupRestoreJob",
	"listServerlessBackups", "getServerlessBackup",
	// 4.7 Cloud migration.
	"createPushMigration", "validateMigration", "getValidationStatus", "getPushMigration",
	"cutoverMigration", "listSourceProjects", "deleteLinkToken", "createLinkToken",
	// 4.8 Cloud provider access.
	"listCloudProviderAccessRoles", "createCloudProviderAccessRole", "getCloudProviderAccessRole",
	"authorizeCloudProviderAccessRole", "deauthorizeCloudProviderAccessRole",
	// 4.9 Other paths.
	"listServerlessPrivateEndpoints", "createServerlessPrivateEndpoint", "getDatabaseMeasurements",
}

// LegacyID names the v1.0 copy of a v2 operation: listAlerts -> legacyListAlerts.
func LegacyID(id string) string {
	if id == "" {
		return "legacy"
	}
	return "legacy" + strings.ToUpper(id[:1]) + id[1:]
}

var v1Surface = func() []Op {
	var out []Op
	for _, id := range v1IDs {
		src, ok := byID[id]
		if !ok || src.Legacy {
			panic("catalog: v1.0 surface names unknown or legacy operation " + id)
		}
		d := src
		d.ID, d.Legacy, d.Source = LegacyID(id), true, id
		d.Summary = src.Summary + " (v1.0)"
		if x, ok := byID[d.ID]; ok {
			// Spelled out in ops because the client calls it; it must be the
			// derived copy exactly.
			if x.Method != d.Method || x.Path != d.Path || x.Paged != d.Paged || x.BareList != d.BareList ||
				x.OK != d.OK || x.RolesText() != d.RolesText() {
				panic("catalog: " + x.ID + " differs from the v1.0 copy of " + id)
			}
			continue
		}
		out = append(out, d)
	}
	return out
}()

// V1 returns the v1.0 copies of the v2 operations that exist under v1.0 and
// are not spelled out in the catalog (see LegacyID). Each keeps its v2
// versions so a sunset applies to the copy too; Source names the v2 operation.
func V1() []Op {
	out := make([]Op, len(v1Surface))
	copy(out, v1Surface)
	return out
}

// Served returns every operation a server registers: All plus V1.
func Served() []Op { return append(All(), V1()...) }
