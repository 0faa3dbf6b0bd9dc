package catalog

import (
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var dateRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

func TestEveryOperationIsWellFormed(t *testing.T) {
	methods := map[string]bool{"GET": true, "POST": true, "PUT": true, "PATCH": true, "DELETE": true}
	for _, op := range All() {
		assert.True(t, methods[op.Method], "%s: method %q", op.ID, op.Method)
		assert.True(t, op.Path == "" || op.Path[0] == '/', "%s: path %q", op.ID, op.Path)
		assert.NotZero(t, op.OK, "%s: success status", op.ID)
		assert.True(t, op.Area.Known(), "%s: area %s", op.ID, op.Area)
		assert.NotEmpty(t, op.Summary, op.ID)
		if op.Legacy {
			assert.Empty(t, op.Versions, "%s: legacy ops use application/json", op.ID)
			continue
		}
		require.NotEmpty(t, op.Versions, op.ID)
		for i, v := range op.Versions {
			assert.Regexp(t, dateRE, v.Date, op.ID)
			if v.Sunset != "" {
				assert.Regexp(t, dateRE, v.Sunset, op.ID)
			}
			if i > 0 {
				assert.Less(t, op.Versions[i-1].Date, v.Date, "%s: versions ascend", op.ID)
			}
		}
		_, ok := op.Current()
		assert.True(t, ok, "%s has a version on or before %s", op.ID, ResourceVersion)
		for _, r := range op.Roles {
			assert.True(t, r.Known(), "%s: role %s", op.ID, r)
		}
	}
}

func TestPerOperationVersionsMatchTheRealService(t *testing.T) {
	want := map[string]string{
		"acknowledgeAlert":              "2024-05-30",
		"listAlerts":                    "2023-01-01",
		"createAtlasSearchIndex":        "2024-05-30",
		"listAtlasSearchIndexes":        "2024-05-30",
		"listClusters":                  "2024-08-05",
		"getBackupSchedule":             "2024-08-05",
		"getDataProtectionSettings":     "2023-10-01",
		"disableDataProtectionSettings": "2024-11-13",
		"listFlexBackups":               "2024-11-13",
		"createPushMigration":           "2024-05-30",
		"getValidationStatus":           "2023-01-01",
		"listExportBuckets":             "2024-05-30",
		"getSystemStatus":               "2023-01-01",
	}
	for id, date := range want {
		v, ok := MustGet(id).Current()
		require.True(t, ok, id)
		assert.Equal(t, date, v.Date, id)
	}
	// The spec's own release date resolves to the same per-operation version.
	v, _ := MustGet("acknowledgeAlert").Resolve("2025-03-12")
	assert.Equal(t, "2024-05-30", v.Date)
	_, ok := MustGet("acknowledgeAlert").Resolve("2022-12-31")
	assert.False(t, ok, "no version before the first")
	old, _ := MustGet("acknowledgeAlert").Resolve("2023-06-01")
	assert.Equal(t, "2027-07-01", old.Sunset, "the 2023-01-01 acknowledge version is deprecated")
	sv, _ := MustGet("listServerlessBackups").Current()
	assert.Equal(t, "2026-01-22", sv.Sunset)
}

func TestEveryPatternRegistersWithoutConflict(t *testing.T) {
	mux := http.NewServeMux()
	for _, op := range All() {
		require.NotPanics(t, func() { mux.HandleFunc(op.Pattern("atlas"), func(http.ResponseWriter, *http.Request) {}) }, op.ID)
	}
	assert.Equal(t, "GET /api/atlas/v2", MustGet("getSystemStatus").Pattern("atlas"))
	assert.Equal(t, "GET /api/x/v1.0/groups/{groupId}/clusters/{clusterName}/fts/analyzers", MustGet("listAtlasSearchAnalyzers").Pattern("x"))
}

func TestExpandRequiresEveryParameterAndEscapes(t *testing.T) {
	op := MustGet("getAtlasSearchIndexByName")
	assert.Equal(t, []string{"groupId", "clusterName", "databaseName", "collectionName", "indexName"}, op.Params())
	_, err := op.Expand(map[string]string{"groupId": "g"})
	assert.ErrorContains(t, err, "missing path parameter clusterName")
	p, err := op.Expand(map[string]string{"groupId": "g", "clusterName": "c", "databaseName": "d", "collectionName": "a b", "indexName": "../x"})
	require.NoError(t, err)
	assert.Equal(t, "/groups/g/clusters/c/search/indexes/d/a%20b/..%2Fx", p)
}

func TestSpecOperationsArePresent(t *testing.T) {
	// One name per operation of spec section 4 (seed names), plus who-am-I.
	for _, id := range []string{
		"listAccessLogsByClusterName", "listAccessLogsByHostname",
		"listAlertConfigurationMatchersFieldNames", "listAlertConfigurations", "createAlertConfiguration",
		"deleteAlertConfiguration", "getAlertConfiguration", "toggleAlertConfiguration", "updateAlertConfiguration",
		"listAlertConfigurationsByAlertId", "listAlertsByAlertConfigurationId", "listAlerts", "getAlert", "acknowledgeAlert",
		"createAtlasSearchIndex", "createAtlasSearchIndexDeprecated", "listAtlasSearchIndexes", "getAtlasSearchIndexByName",
		"updateAtlasSearchIndexByName", "deleteAtlasSearchIndexByName", "getAtlasSearchIndex", "updateAtlasSearchIndex",
		"deleteAtlasSearchIndex", "listAtlasSearchAnalyzers", "updateAtlasSearchAnalyzers",
		"getAuditingConfiguration", "updateAuditingConfiguration", "getAwsCustomDns", "toggleAwsCustomDns",
		"listExportBuckets", "createExportBucket", "deleteExportBucket", "getExportBucket", "getDataProtectionSettings",
		"updateDataProtectionSettings", "listBackupExportJobs", "createBackupExportJob", "getBackupExportJob",
		"listBackupRestoreJobs", "createBackupRestoreJob", "cancelBackupRestoreJob", "getBackupRestoreJob",
		"deleteAllBackupSchedules", "getBackupSchedule", "updateBackupSchedule", "listReplicaSetBackups", "takeSnapshot",
		"getReplicaSetBackup", "deleteReplicaSetBackup", "updateSnapshotRetention", "listShardedClusterBackups",
		"getShardedClusterBackup", "deleteShardedClusterBackup", "listServerlessBackupRestoreJobs",
		"createServerlessBackupRestoreJob", "getServerlessBackupRestoreJob", "listServerlessBackups", "getServerlessBackup",
		"listFlexBackupRestoreJobs", "createFlexBackupRestoreJob", "getFlexBackupRestoreJob", "listFlexBackups", "getFlexBackup",
		"createPushMigration", "validateMigration", "getValidationStatus", "getPushMigration", "cutoverMigration",
		"listSourceProjects", "deleteLinkToken", "createLinkToken",
		"listCloudProviderAccessRoles", "createCloudProviderAccessRole", "deauthorizeCloudProviderAccessRole",
		"getCloudProviderAccessRole", "authorizeCloudProviderAccessRole",
		"getSharedClusterBackup", "listDropIndexes", "listClusterSuggestedIndexes", "getEncryptionAtRestPrivateEndpoint",
		"requestEncryptionAtRestPrivateEndpointDeletion", "listServerlessPrivateEndpoints", "createServerlessPrivateEndpoint",
		"getDatabaseMeasurements", "listOrganizations", "listProjects", "listClusters", "getSystemStatus",
	} {
		_, ok := Get(id)
		assert.True(t, ok, id)
	}
}

func TestSunsetVersionsAreGoneFromTheirDate(t *testing.T) {
	op := MustGet("listServerlessBackups")
	day := func(s string) time.Time { tm, _ := time.Parse(time.RFC3339, s); return tm }
	assert.False(t, op.Gone(day("2026-01-21T23:59:59Z")))
	assert.True(t, op.Gone(day("2026-01-22T00:00:00Z")))
	assert.False(t, MustGet("listFlexBackups").Gone(day("2030-01-01T00:00:00Z")))
}

// TestV1SurfaceIsDerived: each v1.0 copy has its v2 operation's method,
// path, roles, paging and status, and every served route is unique.
func TestV1SurfaceIsDerived(t *testing.T) {
	v1 := V1()
	if len(v1) < 60 {
		t.Fatalf("only %d v1.0 copies", len(v1))
	}
	for _, d := range v1 {
		src, ok := Get(d.Source)
		if !ok || src.Legacy || !d.Legacy || d.ID != LegacyID(src.ID) {
			t.Errorf("%s: bad copy of %q", d.ID, d.Source)
			continue
		}
		if d.Method != src.Method || d.Path != src.Path || d.RolesText() != src.RolesText() || d.Paged != src.Paged || d.OK != src.OK {
			t.Errorf("%s drifted from %s", d.ID, src.ID)
		}
		if _, dup := Get(d.ID); dup {
			t.Errorf("%s is both spelled out and derived", d.ID)
		}
	}
	seen := map[string]string{}
	for _, op := range Served() {
		p := op.Pattern("atlas")
		if other, dup := seen[p]; dup {
			t.Errorf("%s and %s share the route %s", op.ID, other, p)
		}
		seen[p] = op.ID
	}
}

// TestEveryOperationHasAnArea: every operation, the derived v1.0 copies
// included, names a known area; every area has operations; names are unique.
func TestEveryOperationHasAnArea(t *testing.T) {
	count := map[Area]int{}
	for _, op := range Served() {
		if assert.True(t, op.Area.Known(), "%s: area %s", op.ID, op.Area) {
			count[op.Area]++
		}
		if op.Source != "" {
			assert.Equal(t, MustGet(op.Source).Area, op.Area, "%s keeps its v2 operation's area", op.ID)
		}
	}
	names := map[string]Area{}
	for _, a := range Areas() {
		assert.NotZero(t, count[a], "area %s has no operation", a)
		_, dup := names[a.String()]
		assert.False(t, dup, "area name %s used twice", a)
		names[a.String()] = a
	}
	assert.False(t, AreaNone.Known())
	assert.Equal(t, "none", AreaNone.String())
	assert.Equal(t, "area(99)", Area(99).String())
	assert.Len(t, count, len(Areas()), "every area in use is listed in Areas")
}
