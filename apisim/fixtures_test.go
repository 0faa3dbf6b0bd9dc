package apisim

import (
	"net/url"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
)

// fixture is a valid request for one operation against the seeded world:
// an authorized caller must get the operation's success status.
type fixture struct {
	params  map[string]string
	query   url.Values
	body    any
	prepare func(w *World, now time.Time)
}

// fixtures builds a valid request for every catalog operation, reading the
// seeded ids from the world.
func fixtures(s *Server) map[string]fixture {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.world
	now := s.clock.Now()
	P := DemoPaymentsID
	snap := func(cluster, kind string) string {
		for _, x := range w.Snapshots {
			if x.ClusterName == cluster && x.Kind == kind && x.finished(now) != nil {
				return x.ID
			}
		}
		panic("no snapshot for " + cluster)
	}
	job := func(cluster, kind string, running bool) string {
		for _, j := range w.RestoreJobs {
			if j.ClusterName == cluster && j.Kind == kind && (!running || j.finishedAt(now) == nil) {
				return j.ID
			}
		}
		panic("no restore job for " + cluster)
	}
	var openAlert, awsRole, awsUnauth, awsBucket, indexID, earAWS, host, migID, valID string
	for _, a := range w.Alerts {
		if a.GroupID == P && a.Status == "OPEN" {
			openAlert = a.ID
			break
		}
	}
	for _, r := range w.AccessRoles {
		if r.GroupID == P && r.ProviderName == "AWS" {
			if r.AuthorizedDate != nil {
				awsRole = r.ID
			} else {
				awsUnauth = r.ID
			}
		}
	}
	for _, b := range w.ExportBuckets {
		if b.GroupID == P && b.CloudProvider == "AWS" {
			awsBucket = b.ID
		}
	}
	for _, ix := range w.SearchIndexes {
		if ix.ClusterName == "payments-rs" && ix.Name == "default" {
			indexID = ix.ID
		}
	}
	for _, ep := range w.EARPrivateEndpoints {
		if ep.CloudProvider == "AWS" {
			earAWS = ep.ID
		}
	}
	for _, h := range w.Hosts {
		if h.ClusterName == "payments-rs" {
			host = h.Hostname
			break
		}
	}
	for _, m := range w.Migrations {
		if m.GroupID == P {
			migID = m.ID
		}
	}
	valID = w.Validations[0].ID
	cfgID := w.AlertConfigs[0].ID
	g := func(kv ...string) map[string]string {
		m := map[string]string{"groupId": P}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	rs := "payments-rs"
	future := now.Add(time.Hour).UTC().Format(time.RFC3339)
	notif := []any{map[string]any{"typeName": "GROUP", "intervalMin": 5, "delayMin": 0, "roles": []string{"GROUP_OWNER"}}}
	cfgBody := map[string]any{"eventTypeName": "HOST_DOWN", "enabled": true, "notifications": notif}
	migBody := map[string]any{
		"source":         map[string]any{"clusterName": "billing-rs", "groupId": w.SourceProjects[0].ProjectID, "managedAuthentication": true, "ssl": true},
		"destination":    map[string]any{"clusterName": rs, "groupId": P, "hostnameSchemaType": "PUBLIC"},
		"migrationHosts": []string{"mig-host-1.billing.internal:27000"}, "dropDestinationData": false,
	}
	ix := func(kv ...string) map[string]string {
		return g(append([]string{"clusterName", rs, "databaseName", "shop", "collectionName", "orders", "indexName", "default"}, kv...)...)
	}
	return map[string]fixture{
		"getSystemStatus":            {},
		"listRateLimits":             {},
		"getRateLimit":               {params: map[string]string{"endpointSetId": "alertsRead_group"}},
		"listOrganizations":          {},
		"getOrganization":            {params: map[string]string{"orgId": DemoOrgID}},
		"listProjects":               {},
		"getProject":                 {params: g()},
		"listOrganizationProjects":   {params: map[string]string{"orgId": DemoOrgID}},
		"listClusters":               {params: g()},
		"getCluster":                 {params: g("clusterName", rs)},
		"listClustersForAllProjects": {},
		"listFlexClusters":           {params: g()},
		"listServerlessInstances":    {params: g()},
		"listAtlasProcesses":         {params: g()},
		"getServiceAccount":          {params: map[string]string{"orgId": DemoOrgID, "clientId": "demo-sa"}},
		"getProjectServiceAccount":   {params: g("clientId", "demo-sa")},

		"listAccessLogsByClusterName": {params: g("clusterName", rs), query: url.Values{"nLogs": {"10"}}},
		"listAccessLogsByHostname":    {params: g("hostname", host), query: url.Values{"nLogs": {"10"}}},

		"listAlertConfigurationMatchersFieldNames": {},
		"listAlertConfigurations":                  {params: g()},
		"createAlertConfiguration":                 {params: g(), body: cfgBody},
		"deleteAlertConfiguration":                 {params: g("alertConfigId", cfgID)},
		"getAlertConfiguration":                    {params: g("alertConfigId", cfgID)},
		"toggleAlertConfiguration":                 {params: g("alertConfigId", cfgID), body: map[string]any{"enabled": false}},
		"updateAlertConfiguration":                 {params: g("alertConfigId", cfgID), body: cfgBody},
		"listAlertConfigurationsByAlertId":         {params: g("alertId", openAlert)},
		"listAlertsByAlertConfigurationId":         {params: g("alertConfigId", cfgID)},
		"listAlerts":                               {params: g(), query: url.Values{"status": {"OPEN"}}},
		"getAlert":                                 {params: g("alertId", openAlert)},
		"acknowledgeAlert":                         {params: g("alertId", openAlert), body: map[string]any{"acknowledgedUntil": future, "acknowledgementComment": "on it"}},

		"createAtlasSearchIndex": {params: g("clusterName", rs), body: map[string]any{"name": "new-idx", "database": "shop", "collectionName": "orders",
			"type": "search", "definition": map[string]any{"mappings": map[string]any{"dynamic": true}}}},
		"listAtlasSearchIndexes":           {params: ix()},
		"listAtlasSearchIndexesCluster":    {params: g("clusterName", rs)},
		"getAtlasSearchIndex":              {params: g("clusterName", rs, "indexId", indexID)},
		"getAtlasSearchIndexByName":        {params: ix()},
		"updateAtlasSearchIndex":           {params: g("clusterName", rs, "indexId", indexID), body: map[string]any{"definition": map[string]any{"mappings": map[string]any{"dynamic": false}}}},
		"updateAtlasSearchIndexByName":     {params: ix(), body: map[string]any{"definition": map[string]any{"mappings": map[string]any{"dynamic": false}}}},
		"deleteAtlasSearchIndex":           {params: g("clusterName", rs, "indexId", indexID)},
		"deleteAtlasSearchIndexByName":     {params: ix()},
		"listAtlasSearchIndexesDeprecated": {params: ix()},
		"createAtlasSearchIndexDeprecated": {params: g("clusterName", rs), body: map[string]any{"name": "flat-idx", "database": "shop", "collectionName": "orders", "mappings": map[string]any{"dynamic": true}}},
		"getAtlasSearchIndexDeprecated":    {params: g("clusterName", rs, "indexId", indexID)},
		"updateAtlasSearchIndexDeprecated": {params: g("clusterName", rs, "indexId", indexID), body: map[string]any{"mappings": map[string]any{"dynamic": false}}},
		"deleteAtlasSearchIndexDeprecated": {params: g("clusterName", rs, "indexId", indexID)},
		"listAtlasSearchAnalyzers":         {params: g("clusterName", rs)},
		"updateAtlasSearchAnalyzers":       {params: g("clusterName", rs), body: []any{map[string]any{"name": "a1", "tokenizer": map[string]any{"type": "standard"}}}},

		"getAuditingConfiguration":    {params: g()},
		"updateAuditingConfiguration": {params: g(), body: map[string]any{"enabled": true, "auditFilter": "{}"}},
		"getAwsCustomDns":             {params: g()},
		"toggleAwsCustomDns":          {params: g(), body: map[string]any{"enabled": false}},

		"listExportBuckets":             {params: g()},
		"createExportBucket":            {params: g(), body: map[string]any{"bucketName": "new-bucket", "cloudProvider": "AWS", "iamRoleId": awsRole}},
		"deleteExportBucket":            {params: g("exportBucketId", awsBucket)},
		"getExportBucket":               {params: g("exportBucketId", awsBucket)},
		"getDataProtectionSettings":     {params: g()},
		"updateDataProtectionSettings":  {params: g(), body: map[string]any{"authorizedEmail": "a@example.com", "authorizedUserFirstName": "A", "authorizedUserLastName": "B"}},
		"disableDataProtectionSettings": {params: g()},

		"listBackupExportJobs":   {params: g("clusterName", rs)},
		"createBackupExportJob":  {params: g("clusterName", rs), body: map[string]any{"snapshotId": snap(rs, KindReplicaSet), "exportBucketId": awsBucket}},
		"getBackupExportJob":     {params: g("clusterName", rs, "exportId", w.ExportJobs[0].ID)},
		"listBackupRestoreJobs":  {params: g("clusterName", rs)},
		"createBackupRestoreJob": {params: g("clusterName", rs), body: map[string]any{"deliveryType": "download", "snapshotId": snap(rs, KindReplicaSet)}},
		"cancelBackupRestoreJob": {params: g("clusterName", rs, "restoreJobId", job(rs, "cluster", true))},
		"getBackupRestoreJob":    {params: g("clusterName", rs, "restoreJobId", job(rs, "cluster", false))},
		// Payments has a compliance policy, which keeps its schedules.
		"deleteAllBackupSchedules": {params: map[string]string{"groupId": DemoStagingID, "clusterName": "staging-rs"}},
		"getBackupSchedule":        {params: g("clusterName", rs)},
		"updateBackupSchedule":     {params: g("clusterName", rs), body: map[string]any{"referenceHourOfDay": 5}},

		"listReplicaSetBackups":      {params: g("clusterName", rs)},
		"takeSnapshot":               {params: g("clusterName", rs), body: map[string]any{"description": "before upgrade", "retentionInDays": 3}},
		"getReplicaSetBackup":        {params: g("clusterName", rs, "snapshotId", snap(rs, KindReplicaSet))},
		"deleteReplicaSetBackup":     {params: g("clusterName", rs, "snapshotId", snap(rs, KindReplicaSet))},
		"updateSnapshotRetention":    {params: g("clusterName", rs, "snapshotId", snap(rs, KindReplicaSet)), body: map[string]any{"retentionUnit": "DAYS", "retentionValue": 10}},
		"listShardedClusterBackups":  {params: g("clusterName", "payments-prod")},
		"getShardedClusterBackup":    {params: g("clusterName", "payments-prod", "snapshotId", snap("payments-prod", KindSharded))},
		"deleteShardedClusterBackup": {params: g("clusterName", "payments-prod", "snapshotId", snap("payments-prod", KindSharded))},
		"getSharedClusterBackup":     {params: map[string]string{"groupId": DemoAnalyticsID, "clusterName": "reports-m2", "snapshotId": snap("reports-m2", KindTenant)}},

		"listServerlessBackupRestoreJobs": {params: g("clusterName", "payments-serverless")},
		"createServerlessBackupRestoreJob": {params: g("clusterName", "payments-serverless"), body: map[string]any{"deliveryType": "automated",
			"snapshotId": snap("payments-serverless", KindServerless), "targetClusterName": rs, "targetGroupId": P}},
		"getServerlessBackupRestoreJob": {params: g("clusterName", "payments-serverless", "restoreJobId", job("payments-serverless", "serverless", false))},
		"listServerlessBackups":         {params: g("clusterName", "payments-serverless")},
		"getServerlessBackup":           {params: g("clusterName", "payments-serverless", "snapshotId", snap("payments-serverless", KindServerless))},
		"listFlexBackupRestoreJobs":     {params: g("name", "payments-flex")},
		"createFlexBackupRestoreJob":    {params: g("name", "payments-flex"), body: map[string]any{"snapshotId": snap("payments-flex", KindFlex), "targetDeploymentItemName": "payments-flex"}},
		"getFlexBackupRestoreJob":       {params: g("name", "payments-flex", "restoreJobId", job("payments-flex", "flex", false))},
		"listFlexBackups":               {params: g("name", "payments-flex")},
		"getFlexBackup":                 {params: g("name", "payments-flex", "snapshotId", snap("payments-flex", KindFlex))},
		"downloadFlexBackup":            {params: g("name", "payments-flex"), body: map[string]any{"snapshotId": snap("payments-flex", KindFlex)}},

		"createPushMigration": {params: g(), body: migBody},
		"validateMigration":   {params: g(), body: migBody},
		"getValidationStatus": {params: g("validationId", valID)},
		"getPushMigration":    {params: g("liveMigrationId", migID)},
		"cutoverMigration":    {params: g("liveMigrationId", migID)},
		"listSourceProjects":  {params: map[string]string{"orgId": DemoOrgID}},
		"deleteLinkToken": {params: map[string]string{"orgId": DemoOrgID}, prepare: func(w *World, now time.Time) {
			for _, m := range w.Migrations {
				t := now.Add(-time.Hour)
				m.CutoverAt = &t
			}
		}},
		"createLinkToken": {params: map[string]string{"orgId": DemoOrgID}, body: map[string]any{"accessListIps": []string{"10.0.0.1"}}},

		"listCloudProviderAccessRoles":       {params: g()},
		"createCloudProviderAccessRole":      {params: g(), body: map[string]any{"providerName": "AWS"}},
		"getCloudProviderAccessRole":         {params: g("roleId", awsRole)},
		"authorizeCloudProviderAccessRole":   {params: g("roleId", awsUnauth), body: map[string]any{"providerName": "AWS", "iamAssumedRoleArn": "arn:aws:iam::123456789012:role/test"}},
		"deauthorizeCloudProviderAccessRole": {params: g("cloudProvider", "AWS", "roleId", awsUnauth)},

		"listDropIndexes":                                {params: g("clusterName", rs)},
		"listClusterSuggestedIndexes":                    {params: g("clusterName", rs)},
		"getEncryptionAtRestPrivateEndpoint":             {params: g("cloudProvider", "AWS", "endpointId", earAWS)},
		"requestEncryptionAtRestPrivateEndpointDeletion": {params: g("cloudProvider", "AWS", "endpointId", earAWS)},
		"listServerlessPrivateEndpoints":                 {params: g("instanceName", "payments-serverless")},
		"createServerlessPrivateEndpoint":                {params: g("instanceName", "payments-serverless"), body: map[string]any{"comment": "vpc-a"}},
		"getDatabaseMeasurements":                        {params: g("processId", host+":27017", "databaseName", "shop"), query: url.Values{"granularity": {"PT1M"}, "period": {"PT1H"}}},

		"legacyListProjects":     {},
		"legacyListClusters":     {params: g()},
		"legacyGetCluster":       {params: g("clusterName", rs)},
		"legacyListAlerts":       {params: g()},
		"legacyGetAlert":         {params: g("alertId", openAlert)},
		"legacyAcknowledgeAlert": {params: g("alertId", openAlert), body: map[string]any{"acknowledgedUntil": future}},
	}
}

// fixtureFor finds the fixture of an operation; a v1.0 copy uses its v2
// operation's.
func fixtureFor(s *Server, op catalog.Op) (fixture, bool) {
	fx := fixtures(s)
	if f, ok := fx[op.ID]; ok {
		return f, true
	}
	f, ok := fx[op.Source]
	return f, ok && op.Source != ""
}

// preparedFixture is op's fixture (fixtureFor) with its prepare step run on
// s's world; an operation without a fixture fails the test.
func preparedFixture(t *testing.T, s *Server, op catalog.Op) fixture {
	t.Helper()
	fx, ok := fixtureFor(s, op)
	if !ok {
		t.Fatalf("no fixture for %s", op.ID)
	}
	fx.prepareOn(s)
	return fx
}

// prepareOn runs the fixture's prepare step, if it has one, on s's world.
func (f fixture) prepareOn(s *Server) {
	if f.prepare != nil {
		s.mu.Lock()
		f.prepare(s.world, s.clock.Now())
		s.mu.Unlock()
	}
}

// target is what catalog.Authorize is asked about for a fixture.
func (f fixture) target() catalog.Target {
	t := catalog.Target{GroupID: f.params["groupId"], OrgID: f.params["orgId"]}
	if t.GroupID != "" {
		t.OrgID = DemoOrgID
	}
	return t
}
