package catalog

// vs builds a version list from "DATE" or "DATE!SUNSET" strings, ascending.
func vs(dates ...string) []Version {
	out := make([]Version, len(dates))
	for i, d := range dates {
		out[i] = Version{Date: d}
		if len(d) > 10 && d[10] == '!' {
			out[i] = Version{Date: d[:10], Sunset: d[11:]}
		}
	}
	return out
}

func rs(r ...Role) []Role { return r }

const (
	d230101          = "2023-01-01"
	d230101s         = "2023-01-01!2027-07-01" // deprecated, sunset mid-2027
	d240530          = "2024-05-30"
	d240805          = "2024-08-05"
	d241113          = "2024-11-13"
	d250312          = "2025-03-12"
	serverlessSunset = "2023-01-01!2026-01-22"
)

var (
	readOnly       = rs(GroupReadOnly)
	alertWriters   = rs(OrgOwner, GroupOwner, GroupAlertsManager)
	searchReaders  = rs(GroupDataAccessReadWrite, GroupDataAccessReadOnly, GroupSearchIndexEditor, GroupStreamProcessingOwner)
	searchWriters  = rs(GroupDataAccessAdmin, GroupSearchIndexEditor)
	backupReaders  = rs(GroupReadOnly, GroupBackupManager)
	backupManager  = rs(GroupBackupManager)
	restoreWriters = rs(GroupBackupManager, GroupBackupExportOperator, GroupBackupRecoveryOperator)
	logReaders     = rs(GroupMonitoringAdmin, GroupDatabaseAccessAdmin, GroupClusterLogViewer)
	projectOwner   = rs(GroupOwner)
	orgOwner       = rs(OrgOwner)
)

// The operations. Methods, paths, success codes and versions are the real
// service's; roles are the spec's section 4 plus the newer fine-grained roles.
var ops = []Op{
	// Who am I, orgs, projects, clusters: the context picker and `check`.
	{ID: "getSystemStatus", Area: AreaProjects, Method: "GET", Path: "", Versions: vs(d230101), OK: 200, Summary: "who am I: the caller's key and roles"},
	{ID: "listOrganizations", Area: AreaProjects, Method: "GET", Path: "/orgs", Versions: vs(d230101), Paged: true, OK: 200, Summary: "list organizations"},
	{ID: "getOrganization", Area: AreaProjects, Method: "GET", Path: "/orgs/{orgId}", Versions: vs(d230101), Roles: rs(OrgMember), OK: 200, Summary: "get an organization"},
	{ID: "listProjects", Area: AreaProjects, Method: "GET", Path: "/groups", Versions: vs(d230101), Paged: true, OK: 200, Summary: "list projects"},
	{ID: "getProject", Area: AreaProjects, Method: "GET", Path: "/groups/{groupId}", Versions: vs(d230101), Roles: readOnly, OK: 200, Summary: "get a project"},
	{ID: "listOrganizationProjects", Area: AreaProjects, Method: "GET", Path: "/orgs/{orgId}/groups", Versions: vs(d230101), Paged: true, Roles: rs(OrgMember), OK: 200, Summary: "list an organization's projects"},
	{ID: "listClusters", Area: AreaClusters, Method: "GET", Path: "/groups/{groupId}/clusters", Versions: vs("2023-01-01!2027-07-01", "2023-02-01!2027-07-01", d240805), Paged: true, Roles: readOnly, OK: 200, Summary: "list clusters"},
	{ID: "getCluster", Area: AreaClusters, Method: "GET", Path: "/groups/{groupId}/clusters/{clusterName}", Versions: vs("2023-01-01!2027-07-01", "2023-02-01!2027-07-01", d240805), Roles: readOnly, OK: 200, Summary: "get a cluster"},
	{ID: "listClustersForAllProjects", Area: AreaClusters, Method: "GET", Path: "/clusters", Versions: vs(d230101), Paged: true, OK: 200, Summary: "list clusters of every project"},
	{ID: "listFlexClusters", Area: AreaClusters, Method: "GET", Path: "/groups/{groupId}/flexClusters", Versions: vs(d241113), Paged: true, Roles: readOnly, OK: 200, Summary: "list flex clusters"},
	{ID: "listServerlessInstances", Area: AreaClusters, Method: "GET", Path: "/groups/{groupId}/serverless", Versions: vs(d230101), Paged: true, Roles: readOnly, OK: 200, Summary: "list serverless instances"},
	{ID: "listAtlasProcesses", Area: AreaClusters, Method: "GET", Path: "/groups/{groupId}/processes", Versions: vs(d230101), Paged: true, Roles: readOnly, OK: 200, Summary: "list a project's hosts (processes)"},
	{ID: "getServiceAccount", Area: AreaProjects, Method: "GET", Path: "/orgs/{orgId}/serviceAccounts/{clientId}", Versions: vs(d240805), Roles: rs(OrgReadOnly), OK: 200, Summary: "get a service account's org roles"},
	{ID: "getProjectServiceAccount", Area: AreaProjects, Method: "GET", Path: "/groups/{groupId}/serviceAccounts/{clientId}", Versions: vs(d240805), Roles: readOnly, OK: 200, Summary: "get a service account's project roles"},

	// Rate limiting: the service's token buckets, per endpoint set and scope.
	{ID: "listRateLimits", Area: AreaRateLimits, Method: "GET", Path: "/rateLimits", Versions: vs(d250312), Paged: true, OK: 200, Summary: "list the rate-limit endpoint sets"},
	{ID: "getRateLimit", Area: AreaRateLimits, Method: "GET", Path: "/rateLimits/{endpointSetId}", Versions: vs(d250312), OK: 200, Summary: "get one rate-limit endpoint set"},

	// 4.1 Access tracking.
	{ID: "listAccessLogsByClusterName", Area: AreaAccessLogs, Method: "GET", Path: "/groups/{groupId}/dbAccessHistory/clusters/{clusterName}", Versions: vs(d230101), Roles: logReaders, OK: 200, Summary: "tail a cluster's access log"},
	{ID: "listAccessLogsByHostname", Area: AreaAccessLogs, Method: "GET", Path: "/groups/{groupId}/dbAccessHistory/processes/{hostname}", Versions: vs(d230101), Roles: logReaders, OK: 200, Summary: "tail a host's access log"},

	// 4.2 Alert configurations.
	{ID: "listAlertConfigurationMatchersFieldNames", Area: AreaAlerts, Method: "GET", Path: "/alertConfigs/matchers/fieldNames", Versions: vs(d230101), BareList: true, OK: 200, Summary: "list matcher field names"},
	{ID: "listAlertConfigurations", Area: AreaAlerts, Method: "GET", Path: "/groups/{groupId}/alertConfigs", Versions: vs(d230101), Paged: true, Roles: readOnly, OK: 200, Summary: "list alert configurations"},
	{ID: "createAlertConfiguration", Area: AreaAlerts, Method: "POST", Path: "/groups/{groupId}/alertConfigs", Versions: vs(d230101), Roles: alertWriters, OK: 200, Summary: "create an alert configuration"},
	{ID: "deleteAlertConfiguration", Area: AreaAlerts, Method: "DELETE", Path: "/groups/{groupId}/alertConfigs/{alertConfigId}", Versions: vs(d230101), Roles: alertWriters, OK: 204, Summary: "delete an alert configuration"},
	{ID: "getAlertConfiguration", Area: AreaAlerts, Method: "GET", Path: "/groups/{groupId}/alertConfigs/{alertConfigId}", Versions: vs(d230101), Roles: readOnly, OK: 200, Summary: "get an alert configuration"},
	{ID: "toggleAlertConfiguration", Area: AreaAlerts, Method: "PATCH", Path: "/groups/{groupId}/alertConfigs/{alertConfigId}", Versions: vs(d230101), Roles: alertWriters, OK: 200, Summary: "enable or disable an alert configuration"},
	{ID: "updateAlertConfiguration", Area: AreaAlerts, Method: "PUT", Path: "/groups/{groupId}/alertConfigs/{alertConfigId}", Versions: vs(d230101), Roles: alertWriters, OK: 200, Summary: "update an alert configuration"},
	{ID: "listAlertConfigurationsByAlertId", Area: AreaAlerts, Method: "GET", Path: "/groups/{groupId}/alerts/{alertId}/alertConfigs", Versions: vs(d230101), Paged: true, Roles: readOnly, OK: 200, Summary: "the configuration that raised an alert"},

	// 4.3 Alerts.
	{ID: "listAlertsByAlertConfigurationId", Area: AreaAlerts, Method: "GET", Path: "/groups/{groupId}/alertConfigs/{alertConfigId}/alerts", Versions: vs(d230101), Paged: true, Roles: readOnly, OK: 200, Summary: "open alerts of a configuration"},
	{ID: "listAlerts", Area: AreaAlerts, Method: "GET", Path: "/groups/{groupId}/alerts", Versions: vs(d230101), Paged: true, Roles: readOnly, OK: 200, Summary: "list alerts"},
	{ID: "getAlert", Area: AreaAlerts, Method: "GET", Path: "/groups/{groupId}/alerts/{alertId}", Versions: vs(d230101), Roles: readOnly, OK: 200, Summary: "get an alert"},
	{ID: "acknowledgeAlert", Area: AreaAlerts, Method: "PATCH", Path: "/groups/{groupId}/alerts/{alertId}", Versions: vs(d230101s, d240530), Roles: alertWriters, OK: 200, Summary: "acknowledge or unacknowledge an alert"},

	// 4.4 Search indexes (current routes) and the deprecated /fts routes.
	{ID: "createAtlasSearchIndex", Area: AreaSearch, Method: "POST", Path: "/groups/{groupId}/clusters/{clusterName}/search/indexes", Versions: vs(d240530), Roles: searchWriters, OK: 201, Summary: "create a search index"},
	{ID: "listAtlasSearchIndexes", Area: AreaSearch, Method: "GET", Path: "/groups/{groupId}/clusters/{clusterName}/search/indexes/{databaseName}/{collectionName}", Versions: vs(d240530), BareList: true, Roles: searchReaders, OK: 200, Summary: "list a collection's search indexes"},
	{ID: "listAtlasSearchIndexesCluster", Area: AreaSearch, Method: "GET", Path: "/groups/{groupId}/clusters/{clusterName}/search/indexes", Versions: vs(d240530), BareList: true, Roles: searchReaders, OK: 200, Summary: "list a cluster's search indexes"},
	{ID: "getAtlasSearchIndex", Area: AreaSearch, Method: "GET", Path: "/groups/{groupId}/clusters/{clusterName}/search/indexes/{indexId}", Versions: vs(d240530), Roles: searchReaders, OK: 200, Summary: "get a search index"},
	{ID: "getAtlasSearchIndexByName", Area: AreaSearch, Method: "GET", Path: "/groups/{groupId}/clusters/{clusterName}/search/indexes/{databaseName}/{collectionName}/{indexName}", Versions: vs(d240530), Roles: searchReaders, OK: 200, Summary: "get a search index by name"},
	{ID: "updateAtlasSearchIndex", Area: AreaSearch, Method: "PATCH", Path: "/groups/{groupId}/clusters/{clusterName}/search/indexes/{indexId}", Versions: vs(d240530), Roles: searchWriters, OK: 200, Summary: "update a search index"},
	{ID: "updateAtlasSearchIndexByName", Area: AreaSearch, Method: "PATCH", Path: "/groups/{groupId}/clusters/{clusterName}/search/indexes/{databaseName}/{collectionName}/{indexName}", Versions: vs(d240530), Roles: searchWriters, OK: 200, Summary: "update a search index by name"},
	{ID: "deleteAtlasSearchIndex", Area: AreaSearch, Method: "DELETE", Path: "/groups/{groupId}/clusters/{clusterName}/search/indexes/{indexId}", Versions: vs(d240530), Roles: searchWriters, OK: 204, Summary: "delete a search index"},
	{ID: "deleteAtlasSearchIndexByName", Area: AreaSearch, Method: "DELETE", Path: "/groups/{groupId}/clusters/{clusterName}/search/indexes/{databaseName}/{collectionName}/{indexName}", Versions: vs(d240530), Roles: searchWriters, OK: 204, Summary: "delete a search index by name"},
	{ID: "listAtlasSearchIndexesDeprecated", Area: AreaSearch, Method: "GET", Path: "/groups/{groupId}/clusters/{clusterName}/fts/indexes/{databaseName}/{collectionName}", Versions: vs(d230101s), BareList: true, Roles: searchReaders, OK: 200, Summary: "list search indexes (flat shape)"},
	{ID: "createAtlasSearchIndexDeprecated", Area: AreaSearch, Method: "POST", Path: "/groups/{groupId}/clusters/{clusterName}/fts/indexes", Versions: vs(d230101s), Roles: searchWriters, OK: 200, Summary: "create a search index (flat shape)"},
	{ID: "getAtlasSearchIndexDeprecated", Area: AreaSearch, Method: "GET", Path: "/groups/{groupId}/clusters/{clusterName}/fts/indexes/{indexId}", Versions: vs(d230101s), Roles: searchReaders, OK: 200, Summary: "get a search index (flat shape)"},
	{ID: "updateAtlasSearchIndexDeprecated", Area: AreaSearch, Method: "PATCH", Path: "/groups/{groupId}/clusters/{clusterName}/fts/indexes/{indexId}", Versions: vs(d230101s), Roles: searchWriters, OK: 200, Summary: "update a search index (flat shape)"},
	{ID: "deleteAtlasSearchIndexDeprecated", Area: AreaSearch, Method: "DELETE", Path: "/groups/{groupId}/clusters/{clusterName}/fts/indexes/{indexId}", Versions: vs(d230101s), Roles: searchWriters, OK: 204, Summary: "delete a search index (flat shape)"},
	{ID: "listAtlasSearchAnalyzers", Area: AreaSearch, Method: "GET", Path: "/groups/{groupId}/clusters/{clusterName}/fts/analyzers", Legacy: true, BareList: true, Roles: searchReaders, OK: 200, Summary: "list user-defined analyzers (v1.0)"},
	{ID: "updateAtlasSearchAnalyzers", Area: AreaSearch, Method: "PUT", Path: "/groups/{groupId}/clusters/{clusterName}/fts/analyzers", Legacy: true, BareList: true, Roles: searchWriters, OK: 200, Summary: "replace user-defined analyzers (v1.0)"},

	// 4.5 Auditing and custom DNS.
	{ID: "getAuditingConfiguration", Area: AreaSettings, Method: "GET", Path: "/groups/{groupId}/auditLog", Versions: vs(d230101), Roles: projectOwner, OK: 200, Summary: "get the auditing configuration"},
	{ID: "updateAuditingConfiguration", Area: AreaSettings, Method: "PATCH", Path: "/groups/{groupId}/auditLog", Versions: vs(d230101), Roles: projectOwner, OK: 200, Summary: "update the auditing configuration"},
	{ID: "getAwsCustomDns", Area: AreaSettings, Method: "GET", Path: "/groups/{groupId}/awsCustomDNS", Versions: vs(d230101), Roles: readOnly, OK: 200, Summary: "get custom DNS for AWS"},
	{ID: "toggleAwsCustomDns", Area: AreaSettings, Method: "PATCH", Path: "/groups/{groupId}/awsCustomDNS", Versions: vs(d230101), Roles: rs(GroupOwner, GroupServiceAdmin), OK: 200, Summary: "enable or disable custom DNS for AWS"},

	// 4.6 Cloud backups: export buckets and compliance policy.
	{ID: "listExportBuckets", Area: AreaBackups, Method: "GET", Path: "/groups/{groupId}/backup/exportBuckets", Versions: vs(d230101s, d240530), Paged: true, Roles: backupReaders, OK: 200, Summary: "list export buckets"},
	{ID: "createExportBucket", Area: AreaBackups, Method: "POST", Path: "/groups/{groupId}/backup/exportBuckets", Versions: vs(d230101s, d240530), Roles: backupManager, OK: 200, Summary: "create an export bucket"},
	{ID: "deleteExportBucket", Area: AreaBackups, Method: "DELETE", Path: "/groups/{groupId}/backup/exportBuckets/{exportBucketId}", Versions: vs(d230101), Roles: backupManager, OK: 204, Summary: "delete an export bucket"},
	{ID: "getExportBucket", Area: AreaBackups, Method: "GET", Path: "/groups/{groupId}/backup/exportBuckets/{exportBucketId}", Versions: vs(d230101s, d240530), Roles: backupReaders, OK: 200, Summary: "get an export bucket"},
	{ID: "getDataProtectionSettings", Area: AreaBackups, Method: "GET", Path: "/groups/{groupId}/backupCompliancePolicy", Versions: vs(d230101s, "2023-10-01"), Roles: projectOwner, OK: 200, Summary: "get the backup compliance policy"},
	{ID: "updateDataProtectionSettings", Area: AreaBackups, Method: "PUT", Path: "/groups/{groupId}/backupCompliancePolicy", Versions: vs(d230101s, "2023-10-01"), Roles: projectOwner, OK: 200, Summary: "update the backup compliance policy"},
	{ID: "disableDataProtectionSettings", Area: AreaBackups, Method: "DELETE", Path: "/groups/{groupId}/backupCompliancePolicy", Versions: vs(d241113), Roles: projectOwner, OK: 204, Summary: "disable the backup compliance policy"},

	// 4.6 Cloud backups: export jobs, restore jobs, schedule.
	{ID: "listBackupExportJobs", Area: AreaBackups, Method: "GET", Path: "/groups/{groupId}/clusters/{clusterName}/backup/exports", Versions: vs(d230101), Paged: true, Roles: rs(GroupServiceAdmin, GroupBackupManager), OK: 200, Summary: "list export jobs"},
	{ID: "createBackupExportJob", Area: AreaBackups, Method: "POST", Path: "/groups/{groupId}/clusters/{clusterName}/backup/exports", Versions: vs(d230101), Roles: rs(GroupServiceAdmin, GroupBackupManager, GroupBackupExportOperator), OK: 200, Summary: "export a snapshot to a bucket"},
	{ID: "getBackupExportJob", Area: AreaBackups, Method: "GET", Path: "/groups/{groupId}/clusters/{clusterName}/backup/exports/{exportId}", Versions: vs(d230101), Roles: rs(GroupServiceAdmin, GroupBackupManager), OK: 200, Summary: "get an export job"},
	{ID: "listBackupRestoreJobs", Area: AreaBackups, Method: "GET", Path: "/groups/{groupId}/clusters/{clusterName}/backup/restoreJobs", Versions: vs(d230101), Paged: true, Roles: backupManager, OK: 200, Summary: "list restore jobs"},
	{ID: "createBackupRestoreJob", Area: AreaBackups, Method: "POST", Path: "/groups/{groupId}/clusters/{clusterName}/backup/restoreJobs", Versions: vs(d230101), Roles: restoreWriters, OK: 200, Summary: "start a restore"},
	{ID: "cancelBackupRestoreJob", Area: AreaBackups, Method: "DELETE", Path: "/groups/{groupId}/clusters/{clusterName}/backup/restoreJobs/{restoreJobId}", Versions: vs(d230101), Roles: restoreWriters, OK: 204, Summary: "cancel a restore"},
	{ID: "getBackupRestoreJob", Area: AreaBackups, Method: "GET", Path: "/groups/{groupId}/clusters/{clusterName}/backup/restoreJobs/{restoreJobId}", Versions: vs(d230101), Roles: backupManager, OK: 200, Summary: "get a restore job"},
	{ID: "deleteAllBackupSchedules", Area: AreaBackups, Method: "DELETE", Path: "/groups/{groupId}/clusters/{clusterName}/backup/schedule", Versions: vs(d230101s, d240805), Roles: rs(GroupServiceAdmin, GroupBackupManager), OK: 200, Summary: "delete all backup schedules"},
	{ID: "getBackupSchedule", Area: AreaBackups, Method: "GET", Path: "/groups/{groupId}/clusters/{clusterName}/backup/schedule", Versions: vs(d230101s, d240805), Roles: readOnly, OK: 200, Summary: "get the backup schedule"},
	{ID: "updateBackupSchedule", Area: AreaBackups, Method: "PATCH", Path: "/groups/{groupId}/clusters/{clusterName}/backup/schedule", Versions: vs(d230101s, d240805), Roles: rs(GroupOwner, GroupBackupManager), OK: 200, Summary: "update the backup schedule"},

	// 4.6 Cloud backups: snapshots.
	{ID: "listReplicaSetBackups", Area: AreaBackups, Method: "GET", Path: "/groups/{groupId}/clusters/{clusterName}/backup/snapshots", Versions: vs(d230101), Paged: true, Roles: backupReaders, OK: 200, Summary: "list snapshots"},
	{ID: "takeSnapshot", Area: AreaBackups, Method: "POST", Path: "/groups/{groupId}/clusters/{clusterName}/backup/snapshots", Versions: vs(d230101), Roles: rs(GroupBackupManager, GroupBackupCreator), OK: 200, Summary: "take an on-demand snapshot"},
	{ID: "getReplicaSetBackup", Area: AreaBackups, Method: "GET", Path: "/groups/{groupId}/clusters/{clusterName}/backup/snapshots/{snapshotId}", Versions: vs(d230101), Roles: backupReaders, OK: 200, Summary: "get a snapshot"},
	{ID: "deleteReplicaSetBackup", Area: AreaBackups, Method: "DELETE", Path: "/groups/{groupId}/clusters/{clusterName}/backup/snapshots/{snapshotId}", Versions: vs(d230101), Roles: backupManager, OK: 204, Summary: "delete a snapshot"},
	{ID: "updateSnapshotRetention", Area: AreaBackups, Method: "PATCH", Path: "/groups/{groupId}/clusters/{clusterName}/backup/snapshots/{snapshotId}", Versions: vs(d230101), Roles: backupManager, OK: 200, Summary: "change a snapshot's expiration"},
	{ID: "listShardedClusterBackups", Area: AreaBackups, Method: "GET", Path: "/groups/{groupId}/clusters/{clusterName}/backup/snapshots/shardedClusters", Versions: vs(d230101), Paged: true, Roles: backupReaders, OK: 200, Summary: "list sharded-cluster snapshots"},
	{ID: "getShardedClusterBackup", Area: AreaBackups, Method: "GET", Path: "/groups/{groupId}/clusters/{clusterName}/backup/snapshots/shardedCluster/{snapshotId}", Versions: vs(d230101), Roles: backupReaders, OK: 200, Summary: "get a sharded-cluster snapshot"},
	{ID: "deleteShardedClusterBackup", Area: AreaBackups, Method: "DELETE", Path: "/groups/{groupId}/clusters/{clusterName}/backup/snapshots/shardedCluster/{snapshotId}", Versions: vs(d230101), Roles: backupManager, OK: 204, Summary: "delete a sharded-cluster snapshot"},
	{ID: "getSharedClusterBackup", Area: AreaBackups, Method: "GET", Path: "/groups/{groupId}/clusters/{clusterName}/backup/tenant/snapshots/{snapshotId}", Versions: vs(d230101), Roles: readOnly, OK: 200, Summary: "get a tenant-cluster snapshot"},

	// 4.6 Serverless backups (sunset) and their flex successors.
	{ID: "listServerlessBackupRestoreJobs", Area: AreaBackups, Method: "GET", Path: "/groups/{groupId}/serverless/{clusterName}/backup/restoreJobs", Versions: vs(serverlessSunset), Paged: true, Roles: projectOwner, OK: 200, Summary: "list serverless restore jobs"},
	{ID: "createServerlessBackupRestoreJob", Area: AreaBackups, Method: "POST", Path: "/groups/{groupId}/serverless/{clusterName}/backup/restoreJobs", Versions: vs(serverlessSunset), Roles: projectOwner, OK: 200, Summary: "start a serverless restore"},
	{ID: "getServerlessBackupRestoreJob", Area: AreaBackups, Method: "GET", Path: "/groups/{groupId}/serverless/{clusterName}/backup/restoreJobs/{restoreJobId}", Versions: vs(serverlessSunset), Roles: projectOwner, OK: 200, Summary: "get a serverless restore job"},
	{ID: "listServerlessBackups", Area: AreaBackups, Method: "GET", Path: "/groups/{groupId}/serverless/{clusterName}/backup/snapshots", Versions: vs(serverlessSunset), Paged: true, Roles: readOnly, OK: 200, Summary: "list serverless snapshots"},
	{ID: "getServerlessBackup", Area: AreaBackups, Method: "GET", Path: "/groups/{groupId}/serverless/{clusterName}/backup/snapshots/{snapshotId}", Versions: vs(serverlessSunset), Roles: readOnly, OK: 200, Summary: "get a serverless snapshot"},
	{ID: "listFlexBackupRestoreJobs", Area: AreaBackups, Method: "GET", Path: "/groups/{groupId}/flexClusters/{name}/backup/restoreJobs", Versions: vs(d241113), Paged: true, Roles: readOnly, OK: 200, Summary: "list flex restore jobs"},
	{ID: "createFlexBackupRestoreJob", Area: AreaBackups, Method: "POST", Path: "/groups/{groupId}/flexClusters/{name}/backup/restoreJobs", Versions: vs(d241113), Roles: rs(GroupBackupManager, GroupBackupRecoveryOperator), OK: 200, Summary: "start a flex restore"},
	{ID: "getFlexBackupRestoreJob", Area: AreaBackups, Method: "GET", Path: "/groups/{groupId}/flexClusters/{name}/backup/restoreJobs/{restoreJobId}", Versions: vs(d241113), Roles: readOnly, OK: 200, Summary: "get a flex restore job"},
	{ID: "listFlexBackups", Area: AreaBackups, Method: "GET", Path: "/groups/{groupId}/flexClusters/{name}/backup/snapshots", Versions: vs(d241113), Paged: true, Roles: readOnly, OK: 200, Summary: "list flex snapshots"},
	{ID: "getFlexBackup", Area: AreaBackups, Method: "GET", Path: "/groups/{groupId}/flexClusters/{name}/backup/snapshots/{snapshotId}", Versions: vs(d241113), Roles: readOnly, OK: 200, Summary: "get a flex snapshot"},
	{ID: "downloadFlexBackup", Area: AreaBackups, Method: "POST", Path: "/groups/{groupId}/flexClusters/{name}/backup/download", Versions: vs(d241113), Roles: rs(GroupBackupManager, GroupBackupExportOperator), OK: 200, Summary: "download a flex snapshot"},

	// 4.7 Cloud migration.
	{ID: "createPushMigration", Area: AreaMigration, Method: "POST", Path: "/groups/{groupId}/liveMigrations", Versions: vs(d230101s, d240530), Roles: orgOwner, OK: 201, Summary: "start a live migration"},
	{ID: "validateMigration", Area: AreaMigration, Method: "POST", Path: "/groups/{groupId}/liveMigrations/validate", Versions: vs(d230101s, d240530), Roles: orgOwner, OK: 200, Summary: "validate a migration request"},
	{ID: "getValidationStatus", Area: AreaMigration, Method: "GET", Path: "/groups/{groupId}/liveMigrations/validate/{validationId}", Versions: vs(d230101), Roles: orgOwner, OK: 200, Summary: "get a validation"},
	{ID: "getPushMigration", Area: AreaMigration, Method: "GET", Path: "/groups/{groupId}/liveMigrations/{liveMigrationId}", Versions: vs(d230101), Roles: rs(OrgMember), OK: 200, Summary: "get a live migration"},
	{ID: "cutoverMigration", Area: AreaMigration, Method: "PUT", Path: "/groups/{groupId}/liveMigrations/{liveMigrationId}/cutover", Versions: vs(d230101), Roles: orgOwner, OK: 202, Summary: "cut over a live migration"},
	{ID: "listSourceProjects", Area: AreaMigration, Method: "GET", Path: "/orgs/{orgId}/liveMigrations/availableProjects", Versions: vs(d230101), BareList: true, Roles: orgOwner, OK: 200, Summary: "list projects available for migration"},
	{ID: "deleteLinkToken", Area: AreaMigration, Method: "DELETE", Path: "/orgs/{orgId}/liveMigrations/linkTokens", Versions: vs(d230101), Roles: orgOwner, OK: 204, Summary: "delete the link token"},
	{ID: "createLinkToken", Area: AreaMigration, Method: "POST", Path: "/orgs/{orgId}/liveMigrations/linkTokens", Versions: vs(d230101), Roles: orgOwner, OK: 200, Summary: "create a link token"},

	// 4.8 Cloud provider access.
	{ID: "listCloudProviderAccessRoles", Area: AreaSettings, Method: "GET", Path: "/groups/{groupId}/cloudProviderAccess", Versions: vs(d230101), Roles: rs(GroupOwner, GroupReadOnly), OK: 200, Summary: "list cloud provider access roles"},
	{ID: "createCloudProviderAccessRole", Area: AreaSettings, Method: "POST", Path: "/groups/{groupId}/cloudProviderAccess", Versions: vs(d230101), Roles: projectOwner, OK: 200, Summary: "create a cloud provider access role"},
	{ID: "getCloudProviderAccessRole", Area: AreaSettings, Method: "GET", Path: "/groups/{groupId}/cloudProviderAccess/{roleId}", Versions: vs(d230101), Roles: rs(GroupOwner, GroupReadOnly), OK: 200, Summary: "get a cloud provider access role"},
	{ID: "authorizeCloudProviderAccessRole", Area: AreaSettings, Method: "PATCH", Path: "/groups/{groupId}/cloudProviderAccess/{roleId}", Versions: vs(d230101), Roles: projectOwner, OK: 200, Summary: "authorize a cloud provider access role"},
	{ID: "deauthorizeCloudProviderAccessRole", Area: AreaSettings, Method: "DELETE", Path: "/groups/{groupId}/cloudProviderAccess/{cloudProvider}/{roleId}", Versions: vs(d230101), Roles: projectOwner, OK: 204, Summary: "deauthorize a cloud provider access role"},

	// 4.9 Other paths known from the release history.
	{ID: "listDropIndexes", Area: AreaClusters, Method: "GET", Path: "/groups/{groupId}/clusters/{clusterName}/performanceAdvisor/dropIndexSuggestions", Versions: vs(d240805), Roles: rs(GroupReadOnly), OK: 200, Summary: "performance advisor: indexes to drop"},
	{ID: "listClusterSuggestedIndexes", Area: AreaClusters, Method: "GET", Path: "/groups/{groupId}/clusters/{clusterName}/performanceAdvisor/suggestedIndexes", Versions: vs(d240805), Roles: rs(GroupReadOnly), OK: 200, Summary: "performance advisor: suggested indexes"},
	{ID: "getEncryptionAtRestPrivateEndpoint", Area: AreaSettings, Method: "GET", Path: "/groups/{groupId}/encryptionAtRest/{cloudProvider}/privateEndpoints/{endpointId}", Versions: vs(d230101), Roles: projectOwner, OK: 200, Summary: "get an encryption-at-rest private endpoint"},
	{ID: "requestEncryptionAtRestPrivateEndpointDeletion", Area: AreaSettings, Method: "DELETE", Path: "/groups/{groupId}/encryptionAtRest/{cloudProvider}/privateEndpoints/{endpointId}", Versions: vs(d230101), Roles: projectOwner, OK: 204, Summary: "delete an encryption-at-rest private endpoint"},
	{ID: "listServerlessPrivateEndpoints", Area: AreaSettings, Method: "GET", Path: "/groups/{groupId}/privateEndpoint/serverless/instance/{instanceName}/endpoint", Versions: vs(serverlessSunset), BareList: true, Roles: readOnly, OK: 200, Summary: "list a serverless instance's private endpoints"},
	{ID: "createServerlessPrivateEndpoint", Area: AreaSettings, Method: "POST", Path: "/groups/{groupId}/privateEndpoint/serverless/instance/{instanceName}/endpoint", Versions: vs(serverlessSunset), Roles: projectOwner, OK: 201, Summary: "create a serverless private endpoint"},
	{ID: "getDatabaseMeasurements", Area: AreaClusters, Method: "GET", Path: "/groups/{groupId}/processes/{processId}/databases/{databaseName}/measurements", Versions: vs(d230101), Roles: readOnly, OK: 200, Summary: "a database's measurements"},

	// Legacy v1.0 routes the dashboard can fall back to; bodies carry links.
	{ID: "legacyListProjects", Area: AreaProjects, Method: "GET", Path: "/groups", Legacy: true, Paged: true, OK: 200, Summary: "list projects (v1.0)"},
	{ID: "legacyListClusters", Area: AreaClusters, Method: "GET", Path: "/groups/{groupId}/clusters", Legacy: true, Paged: true, Roles: readOnly, OK: 200, Summary: "list clusters (v1.0)"},
	{ID: "legacyGetCluster", Area: AreaClusters, Method: "GET", Path: "/groups/{groupId}/clusters/{clusterName}", Legacy: true, Roles: readOnly, OK: 200, Summary: "get a cluster (v1.0)"},
	{ID: "legacyListAlerts", Area: AreaAlerts, Method: "GET", Path: "/groups/{groupId}/alerts", Legacy: true, Paged: true, Roles: readOnly, OK: 200, Summary: "list alerts (v1.0)"},
	{ID: "legacyGetAlert", Area: AreaAlerts, Method: "GET", Path: "/groups/{groupId}/alerts/{alertId}", Legacy: true, Roles: readOnly, OK: 200, Summary: "get an alert (v1.0)"},
	{ID: "legacyAcknowledgeAlert", Area: AreaAlerts, Method: "PATCH", Path: "/groups/{groupId}/alerts/{alertId}", Legacy: true, Roles: alertWriters, OK: 200, Summary: "acknowledge an alert (v1.0; no acknowledgedUntil unacknowledges)"},
}
