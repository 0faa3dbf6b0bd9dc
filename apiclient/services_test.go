package apiclient

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// countingClient returns a client whose server counts requests and answers
// 200 {} to each: local validation must keep the count at zero.
func countingClient(t *testing.T) (*Client, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Write([]byte(`{}`))
	}))
	t.Cleanup(srv.Close)
	c, err := New(Options{BaseURL: srv.URL, MaxRetries: -1})
	require.NoError(t, err)
	return c, &n
}

// refused asserts a local validation error naming field, and nothing sent.
func refused(t *testing.T, sent *atomic.Int32, err error, field string) {
	t.Helper()
	require.Error(t, err)
	assert.True(t, IsValidation(err), "want a validation error, got %v", err)
	var v *ValidationError
	if assert.ErrorAs(t, err, &v) {
		assert.Equal(t, field, v.Field, err.Error())
	}
	assert.Contains(t, err.Error(), field)
	assert.Zero(t, sent.Load(), "nothing may be sent")
}

func TestAcknowledgeCommentLimitCountsCharactersAndSendsNothing(t *testing.T) {
	ctx := context.Background()
	c, sent := countingClient(t)
	until := AckForever(time.Now())

	_, err := c.Alerts().Acknowledge(ctx, wGroup, wAlert, AcknowledgeRequest{AcknowledgedUntil: until, AcknowledgementComment: strings.Repeat("x", 201)})
	refused(t, sent, err, "acknowledgementComment")
	assert.Contains(t, err.Error(), "200")

	_, err = c.Alerts().LegacyAcknowledge(ctx, wGroup, wAlert, until, strings.Repeat("é", 201))
	refused(t, sent, err, "acknowledgementComment")

	// 200 two-byte characters are 400 bytes but within the limit.
	_, err = c.Alerts().Acknowledge(ctx, wGroup, wAlert, AcknowledgeRequest{AcknowledgedUntil: until, AcknowledgementComment: strings.Repeat("é", 200)})
	require.NoError(t, err)
	assert.EqualValues(t, 1, sent.Load())
}

func TestAckForeverIsAHundredYearsAhead(t *testing.T) {
	now := time.Date(2025, 3, 1, 10, 0, 0, 500, time.FixedZone("CET", 3600))
	got := AckForever(now)
	assert.Equal(t, time.Date(2125, 3, 1, 9, 0, 0, 0, time.UTC), *got)
	data, err := json.Marshal(AcknowledgeRequest{AcknowledgedUntil: got})
	require.NoError(t, err)
	assert.JSONEq(t, `{"acknowledgedUntil":"2125-03-01T09:00:00Z"}`, string(data))
	data, err = json.Marshal(AcknowledgeRequest{UnacknowledgeAlert: true})
	require.NoError(t, err)
	assert.JSONEq(t, `{"unacknowledgeAlert":true}`, string(data))
}

func TestAlertStatusFilterRefusesCancelled(t *testing.T) {
	c, sent := countingClient(t)
	_, err := c.Alerts().List(context.Background(), wGroup, AlertListOptions{Status: AlertCancelled})
	refused(t, sent, err, "status")
}

func TestAlertConfigRequiresEventTypeAndNotifications(t *testing.T) {
	ctx := context.Background()
	c, sent := countingClient(t)
	email := []Notification{{TypeName: NotifyEmail, EmailAddress: "a@example.com"}}

	_, err := c.AlertConfigs().Create(ctx, wGroup, AlertConfig{Notifications: email})
	refused(t, sent, err, "eventTypeName")
	_, err = c.AlertConfigs().Update(ctx, wGroup, wConfig, AlertConfig{EventTypeName: "HOST_DOWN"})
	refused(t, sent, err, "notifications")
	_, err = c.AlertConfigs().Create(ctx, wGroup, AlertConfig{EventTypeName: "HOST_DOWN", Notifications: []Notification{{EmailAddress: "a@example.com"}}})
	refused(t, sent, err, "notifications[0].typeName")
	_, err = c.AlertConfigs().Create(ctx, wGroup, AlertConfig{EventTypeName: "HOST_DOWN", Notifications: email, SeverityOverride: "LOUD"})
	refused(t, sent, err, "severityOverride")
}

func TestRestoreValidation(t *testing.T) {
	ctx := context.Background()
	c, sent := countingClient(t)
	ok := RestoreRequest{DeliveryType: DeliveryPointInTime, TargetClusterName: "Cluster1", TargetGroupID: wGroup}
	for _, tc := range []struct {
		name  string
		req   RestoreRequest
		field string
	}{
		{"oplogTs before 2008", with(ok, func(r *RestoreRequest) { r.OplogTs, r.OplogInc = MinOplogTs-1, 1 }), "oplogTs"},
		{"oplogInc zero", with(ok, func(r *RestoreRequest) { r.OplogTs = MinOplogTs }), "oplogInc"},
		{"oplogInc without oplogTs", with(ok, func(r *RestoreRequest) { r.PointInTimeUTCSeconds, r.OplogInc = MinOplogTs, 3 }), "oplogTs"},
		{"point in time too early", with(ok, func(r *RestoreRequest) { r.PointInTimeUTCSeconds = 1000 }), "pointInTimeUTCSeconds"},
		{"point in time without a time", ok, "pointInTimeUTCSeconds"},
		{"automated without target cluster", RestoreRequest{DeliveryType: DeliveryAutomated, SnapshotID: wSnapshot, TargetGroupID: wGroup}, "targetClusterName"},
		{"pointInTime without target group", with(ok, func(r *RestoreRequest) { r.TargetGroupID, r.PointInTimeUTCSeconds = "", MinOplogTs }), "targetGroupId"},
		{"download without snapshot", RestoreRequest{DeliveryType: DeliveryDownload}, "snapshotId"},
		{"unknown delivery", RestoreRequest{DeliveryType: "teleport"}, "deliveryType"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Backups().CreateRestoreJob(ctx, wGroup, "Cluster0", tc.req)
			refused(t, sent, err, tc.field)
		})
	}
	// A download needs no target on a cluster, but a serverless restore always does.
	dl := RestoreRequest{DeliveryType: DeliveryDownload, SnapshotID: wSnapshot}
	require.NoError(t, dl.Validate())
	_, err := c.Backups().CreateServerlessRestoreJob(ctx, wGroup, "serverless-1", dl)
	refused(t, sent, err, "targetClusterName")
	// The boundary values are accepted.
	require.NoError(t, with(ok, func(r *RestoreRequest) { r.OplogTs, r.OplogInc = MinOplogTs, 1 }).Validate())
	require.NoError(t, with(ok, func(r *RestoreRequest) { r.PointInTimeUTCSeconds = MinOplogTs }).Validate())
}

func with[T any](v T, change func(*T)) T {
	change(&v)
	return v
}

func TestRestoreStateDerivation(t *testing.T) {
	done := ts("2025-03-01T07:00:00Z")
	for _, tc := range []struct {
		name string
		job  RestoreJob
		want RestoreState
	}{
		{"fresh automated", RestoreJob{DeliveryType: DeliveryAutomated}, RestoreRunning},
		{"finished", RestoreJob{DeliveryType: DeliveryAutomated, FinishedAt: &done}, RestoreFinished},
		{"expired wins over everything", RestoreJob{Expired: true, Cancelled: true, Failed: true, FinishedAt: &done}, RestoreExpired},
		{"cancelled wins over failed", RestoreJob{Cancelled: true, Failed: true}, RestoreCancelled},
		{"failed wins over finished", RestoreJob{Failed: true, FinishedAt: &done}, RestoreFailed},
		{"download with URL", RestoreJob{DeliveryType: DeliveryDownload, DeliveryURL: []string{"https://restore.example/x.tgz"}}, RestoreDownloadReady},
		{"download without URL yet", RestoreJob{DeliveryType: DeliveryDownload}, RestoreRunning},
		{"download with an empty URL", RestoreJob{DeliveryType: DeliveryDownload, DeliveryURL: []string{""}}, RestoreRunning},
		{"finished download", RestoreJob{DeliveryType: DeliveryDownload, DeliveryURL: []string{"u"}, FinishedAt: &done}, RestoreFinished},
		{"automated with URL is not a download", RestoreJob{DeliveryType: DeliveryAutomated, DeliveryURL: []string{"u"}}, RestoreRunning},
		{"point in time", RestoreJob{DeliveryType: DeliveryPointInTime, PointInTimeUTCSeconds: MinOplogTs}, RestoreRunning},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.job.State())
			assert.Equal(t, tc.want != RestoreRunning, tc.job.Done())
		})
	}
}

func TestDoneStates(t *testing.T) {
	for s, want := range map[SnapshotStatus]bool{SnapshotQueued: false, SnapshotInProgress: false, SnapshotCompleted: true, SnapshotFailed: true} {
		assert.Equal(t, want, Snapshot{Status: s}.Done(), s)
		assert.Equal(t, want, ShardedSnapshot{Status: s}.Done(), s)
		assert.Equal(t, want, ServerlessSnapshot{Status: s}.Done(), s)
	}
	for s, want := range map[ExportState]bool{ExportQueued: false, ExportInProgress: false, ExportSuccessful: true, ExportFailed: true, ExportCancelled: true} {
		assert.Equal(t, want, ExportJob{State: s}.Done(), s)
	}
	for s, want := range map[FlexStatus]bool{FlexPending: false, FlexQueued: false, FlexRunning: false, FlexFailed: true, FlexCompleted: true} {
		assert.Equal(t, want, FlexSnapshot{Status: s}.Done(), s)
		assert.Equal(t, want, FlexRestoreJob{Status: s}.Done(), s)
	}
	for s, want := range map[MigrationStatus]bool{MigrationNew: false, MigrationWorking: false, MigrationComplete: true, MigrationFailed: true, MigrationExpired: true} {
		assert.Equal(t, want, LiveMigration{Status: s}.Done(), s)
	}
}

func TestAccessLogOptionsValidation(t *testing.T) {
	ctx := context.Background()
	c, sent := countingClient(t)
	now := time.Now()
	earlier := now.Add(-time.Hour)

	_, err := c.AccessLogs().ByCluster(ctx, wGroup, "Cluster0", AccessLogsOptions{Start: &earlier})
	refused(t, sent, err, "end")
	assert.Contains(t, err.Error(), "start and end go together")
	_, err = c.AccessLogs().ByHost(ctx, wGroup, wHost, AccessLogsOptions{End: &now})
	refused(t, sent, err, "start")
	_, err = c.AccessLogs().ByCluster(ctx, wGroup, "Cluster0", AccessLogsOptions{Start: &now, End: &earlier})
	refused(t, sent, err, "end")
	for _, n := range []int{-1, MaxAccessLogs + 1} {
		_, err = c.AccessLogs().ByCluster(ctx, wGroup, "Cluster0", AccessLogsOptions{NLogs: ptr(n)})
		refused(t, sent, err, "nLogs")
	}
	for _, n := range []int{0, MaxAccessLogs} {
		require.NoError(t, AccessLogsOptions{NLogs: ptr(n)}.Validate())
	}
}

func TestExportBucketValidation(t *testing.T) {
	ctx := context.Background()
	c, sent := countingClient(t)
	for _, tc := range []struct {
		b     ExportBucket
		field string
	}{
		{ExportBucket{BucketName: "ab", CloudProvider: ProviderAWS, IAMRoleID: wRole}, "bucketName"},
		{ExportBucket{BucketName: strings.Repeat("b", 64), CloudProvider: ProviderAWS, IAMRoleID: wRole}, "bucketName"},
		{ExportBucket{BucketName: "acme-exports", CloudProvider: ProviderAWS}, "iamRoleId"},
		{ExportBucket{BucketName: "acme-exports", CloudProvider: "DIGITALOCEAN", IAMRoleID: wRole}, "cloudProvider"},
		{ExportBucket{BucketName: "acme-exports", CloudProvider: ProviderGCP}, "roleId"},
		{ExportBucket{CloudProvider: ProviderAzure, RoleID: wRole}, "serviceUrl"},
	} {
		_, err := c.Backups().CreateExportBucket(ctx, wGroup, tc.b)
		refused(t, sent, err, tc.field)
	}
	require.NoError(t, ExportBucket{BucketName: "abc", CloudProvider: ProviderAWS, IAMRoleID: wRole}.Validate())
	require.NoError(t, ExportBucket{BucketName: strings.Repeat("b", 63), CloudProvider: ProviderGCP, RoleID: wRole}.Validate())
	require.NoError(t, ExportBucket{CloudProvider: ProviderAzure, RoleID: wRole, ServiceURL: "https://x.blob.core.windows.net"}.Validate())
}

func TestBackupRequestValidation(t *testing.T) {
	ctx := context.Background()
	c, sent := countingClient(t)
	_, err := c.Backups().TakeSnapshot(ctx, wGroup, "Cluster0", TakeSnapshotRequest{Description: "x"})
	refused(t, sent, err, "retentionInDays")
	_, err = c.Backups().UpdateRetention(ctx, wGroup, "Cluster0", wSnapshot, SnapshotRetention{RetentionUnit: "days", RetentionValue: 3})
	refused(t, sent, err, "retentionUnit")
	_, err = c.Backups().UpdateSchedule(ctx, wGroup, "Cluster0", BackupSchedule{Policies: make([]BackupPolicy, 2)})
	refused(t, sent, err, "policies")
	_, err = c.Backups().UpdateSchedule(ctx, wGroup, "Cluster0", BackupSchedule{ReferenceHourOfDay: ptr(24)})
	refused(t, sent, err, "referenceHourOfDay")
	_, err = c.Backups().CreateExportJob(ctx, wGroup, "Cluster0", ExportJobRequest{SnapshotID: wSnapshot})
	refused(t, sent, err, "exportBucketId")
	_, err = c.Backups().UpdateCompliancePolicy(ctx, wGroup, CompliancePolicy{AuthorizedEmail: "a@example.com"}, true)
	refused(t, sent, err, "authorizedUserFirstName")
	_, err = c.Backups().CreateFlexRestoreJob(ctx, wGroup, "flex-dev", FlexRestoreRequest{SnapshotID: wSnapshot})
	refused(t, sent, err, "targetDeploymentItemName")
}

func TestOtherRequestValidation(t *testing.T) {
	ctx := context.Background()
	c, sent := countingClient(t)
	good := MigrationRequest{
		Source:         MigrationSource{ClusterName: "src", GroupID: wGroup},
		Destination:    MigrationDestination{ClusterName: "dst", GroupID: wGroup, HostnameSchemaType: HostnamePublic},
		MigrationHosts: []string{"mig-1.example.com"},
	}
	require.NoError(t, good.Validate())
	_, err := c.Migration().Create(ctx, wGroup, with(good, func(r *MigrationRequest) { r.MigrationHosts = append(r.MigrationHosts, "mig-2") }))
	refused(t, sent, err, "migrationHosts")
	_, err = c.Migration().Validate(ctx, wGroup, with(good, func(r *MigrationRequest) { r.Destination.HostnameSchemaType = "" }))
	refused(t, sent, err, "destination.hostnameSchemaType")
	_, err = c.Migration().Create(ctx, wGroup, with(good, func(r *MigrationRequest) { r.Source.GroupID = "" }))
	refused(t, sent, err, "source.groupId")

	_, err = c.Settings().UpdateAuditLog(ctx, wGroup, AuditLogUpdate{AuditFilter: ptr(`{"atype": `)})
	refused(t, sent, err, "auditFilter")
	_, err = c.Settings().CreateAccessRole(ctx, wGroup, AccessRoleRequest{ProviderName: ProviderAzure, AtlasAzureAppID: "app"})
	refused(t, sent, err, "servicePrincipalId")
	_, err = c.Settings().AuthorizeAccessRole(ctx, wGroup, wRole, AccessRoleRequest{ProviderName: ProviderAWS})
	refused(t, sent, err, "iamAssumedRoleArn")
	err = c.Settings().DeauthorizeAccessRole(ctx, wGroup, "aws", wRole)
	refused(t, sent, err, "cloudProvider")
	_, err = c.Clusters().DatabaseMeasurements(ctx, wGroup, wHost+":27017", "shop", MeasurementOptions{Period: "PT1H"})
	refused(t, sent, err, "granularity")
}

func TestSearchDefinitionValidation(t *testing.T) {
	ctx := context.Background()
	c, sent := countingClient(t)
	vector := func(f VectorField) SearchIndexCreateRequest {
		return SearchIndexCreateRequest{Name: "v", Database: "db", CollectionName: "c", Type: IndexVectorSearch,
			Definition: IndexDefinition{Fields: []VectorField{f}}}
	}
	for _, tc := range []struct {
		req   SearchIndexCreateRequest
		field string
	}{
		{vector(VectorField{Type: "vector", Path: "e", NumDimensions: 3, Similarity: "manhattan"}), "definition.fields[0].similarity"},
		{vector(VectorField{Type: "vector", Path: "e", Similarity: SimilarityDotProduct}), "definition.fields[0].numDimensions"},
		{vector(VectorField{Type: "knn", Path: "e"}), "definition.fields[0].type"},
		{SearchIndexCreateRequest{Name: "t", Database: "db", CollectionName: "c"}, "definition.mappings"},
		{SearchIndexCreateRequest{Name: "t", Database: "db", CollectionName: "c", Definition: IndexDefinition{Mappings: &Mappings{Dynamic: true}, Analyzer: "lucene.klingon"}}, "definition.analyzer"},
		{SearchIndexCreateRequest{Name: "t", Database: "db", CollectionName: "c", Definition: IndexDefinition{Mappings: &Mappings{Dynamic: true}, NumPartitions: 3}}, "numPartitions"},
		{SearchIndexCreateRequest{Database: "db", CollectionName: "c", Definition: IndexDefinition{Mappings: &Mappings{}}}, "name"},
		{SearchIndexCreateRequest{Name: "t", Database: "db", CollectionName: "c", Type: "fulltext"}, "type"},
	} {
		_, err := c.Search().Create(ctx, wGroup, "Cluster0", tc.req)
		refused(t, sent, err, tc.field)
	}
	_, err := c.Search().CreateFTS(ctx, wGroup, "Cluster0", FTSIndex{Name: "x", Database: "db", CollectionName: "c", SearchAnalyzer: "english"})
	refused(t, sent, err, "searchAnalyzer")
	_, err = c.Search().UpdateAnalyzers(ctx, wGroup, "Cluster0", []Analyzer{{Tokenizer: map[string]any{"type": "standard"}}})
	refused(t, sent, err, "[0].name")

	// A custom analyzer defined in the same definition may be named.
	custom := IndexDefinition{Mappings: &Mappings{Dynamic: true}, Analyzer: "mine", Analyzers: []Analyzer{{Name: "mine"}}}
	require.NoError(t, custom.Validate(IndexSearch))
}

func TestValidAnalyzer(t *testing.T) {
	for _, name := range []string{"lucene.standard", "lucene.keyword", "lucene.kuromoji", "lucene.ukrainian", "lucene.cjk"} {
		assert.True(t, ValidAnalyzer(name), name)
	}
	for _, name := range []string{"", "standard", "lucene.", "lucene.Standard", "lucene.klingon", "LUCENE.standard"} {
		assert.False(t, ValidAnalyzer(name), name)
	}
	all := BuiltInAnalyzers()
	assert.Len(t, all, 46)
	for _, a := range all {
		assert.True(t, ValidAnalyzer(a), a)
	}
}

func TestNotificationRoundTripKeepsUnknownMembers(t *testing.T) {
	in := `[
		{"typeName":"EMAIL","delayMin":0,"intervalMin":60,"emailAddress":"oncall@example.com","notifierId":"64b0c1d2e3f4a5b6c7d8e9f0"},
		{"typeName":"NEW_RELIC","delayMin":5,"intervalMin":30,"licenseKey":"0123456789abcdef","accountId":"12345",
		 "routing":{"tier":2,"teams":["db","sre"]},"insertKey":"ins-9876543210"},
		{"typeName":"DATADOG","datadogApiKey":"dd-secret-abcdefgh","datadogRegion":"EU","integrationId":"64b0c1d2e3f4a5b6c7d8e9f1"}
	]`
	var ns []Notification
	require.NoError(t, json.Unmarshal([]byte(in), &ns))
	require.Len(t, ns, 3)

	assert.Equal(t, 0, *ns[0].DelayMin, "delayMin 0 is kept as a set value")
	assert.Nil(t, ns[0].Extra)
	nr := ns[1]
	assert.Equal(t, NotificationType("NEW_RELIC"), nr.TypeName)
	assert.Equal(t, 30, nr.IntervalMin)
	assert.Len(t, nr.Extra, 4)
	assert.JSONEq(t, `{"tier":2,"teams":["db","sre"]}`, string(nr.Extra["routing"]))
	assert.Nil(t, ns[2].DelayMin, "absent delayMin stays unset")

	out, err := json.Marshal(ns)
	require.NoError(t, err)
	assert.JSONEq(t, in, string(out), "unknown members survive a round trip")

	// A known member set in code wins over a stale Extra entry of that name.
	nr.IntervalMin = 15
	nr.Extra["intervalMin"] = json.RawMessage(`99`)
	out, err = json.Marshal(nr)
	require.NoError(t, err)
	var back map[string]any
	require.NoError(t, json.Unmarshal(out, &back))
	assert.EqualValues(t, 15, back["intervalMin"])
}

func TestAlertConfigRoundTripKeepsVariantMembers(t *testing.T) {
	in := `{"id":"` + wConfig + `","groupId":"` + wGroup + `","enabled":true,"eventTypeName":"CPS_SNAPSHOT_BEHIND",
		"notifications":[{"typeName":"SLACK","channelName":"#db","apiToken":"xoxb-1234567890"}],
		"threshold":{"operator":"GREATER_THAN","threshold":12,"units":"HOURS"},
		"futureVariantMember":{"window":"PT1H"}}`
	var cfg AlertConfig
	require.NoError(t, json.Unmarshal([]byte(in), &cfg))
	assert.JSONEq(t, `{"window":"PT1H"}`, string(cfg.Extra["futureVariantMember"]))
	assert.Equal(t, 12.0, *cfg.Threshold.Threshold)
	out, err := json.Marshal(cfg)
	require.NoError(t, err)
	assert.JSONEq(t, in, string(out))

	// What an update sends: no read-only members, the variant member kept.
	body, err := json.Marshal(cfg.writable())
	require.NoError(t, err)
	assert.NotContains(t, string(body), wConfig)
	assert.Contains(t, string(body), "futureVariantMember")
}

func TestMaskSecret(t *testing.T) {
	for in, want := range map[string]string{
		"":                 "",
		"abc":              "***",
		"abcd":             "****",
		"abcde":            "*bcde",
		"0123456789abcdef": "************cdef",
		"ключ-секрет-1234": "************1234",
	} {
		assert.Equal(t, want, MaskSecret(in), in)
	}
}

func TestNotificationMasked(t *testing.T) {
	var n Notification
	require.NoError(t, json.Unmarshal([]byte(`{"typeName":"NEW_RELIC","datadogApiKey":"dd-secret-abcdefgh",
		"webhookSecret":"whsec_zyxw9876","serviceKey":"pd-123456789","emailAddress":"oncall@example.com",
		"licenseKey":"0123456789abcdef","accountId":"12345","intervalMin":5}`), &n))
	m := n.Masked()
	assert.Equal(t, "**************efgh", m.DatadogAPIKey)
	assert.Equal(t, "**********9876", m.WebhookSecret)
	assert.Equal(t, "********6789", m.ServiceKey)
	assert.Equal(t, "oncall@example.com", m.EmailAddress, "not a secret")
	assert.JSONEq(t, `"************cdef"`, string(m.Extra["licenseKey"]))
	assert.JSONEq(t, `"12345"`, string(m.Extra["accountId"]), "not a secret")
	// The original is untouched: masking for display must not change what is sent.
	assert.Equal(t, "dd-secret-abcdefgh", n.DatadogAPIKey)
	assert.JSONEq(t, `"0123456789abcdef"`, string(n.Extra["licenseKey"]))

	cfg := AlertConfig{EventTypeName: "HOST_DOWN", Notifications: []Notification{n}}
	assert.Equal(t, "**************efgh", cfg.Masked().Notifications[0].DatadogAPIKey)
	assert.Equal(t, "dd-secret-abcdefgh", cfg.Notifications[0].DatadogAPIKey)
}

func TestClusterTier(t *testing.T) {
	spec := func(provider, size string) Cluster {
		return Cluster{ReplicationSpecs: []ReplicationSpec{{RegionConfigs: []RegionConfig{{ProviderName: provider, ElectableSpecs: &HardwareSpec{InstanceSize: size}}}}}}
	}
	assert.True(t, spec("TENANT", "M2").Tenant())
	assert.True(t, spec("AWS", "M5").Tenant())
	assert.False(t, spec("AWS", "M10").Tenant())
	assert.Equal(t, "M10", spec("GCP", "M10").InstanceSize())
	assert.Equal(t, "", Cluster{}.InstanceSize())
	assert.False(t, Cluster{}.Tenant())
}

// TestListAllFollowsEveryPage checks that the ListAll helpers keep filters on
// every page and gather all of them.
func TestListAllFollowsEveryPage(t *testing.T) {
	const total = 1203
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		q := r.URL.Query()
		if q.Get("status") != "OPEN" {
			http.Error(w, `{"error":400,"errorCode":"MISSING_FILTER"}`, http.StatusBadRequest)
			return
		}
		pageNum, _ := strconv.Atoi(q.Get("pageNum"))
		per, _ := strconv.Atoi(q.Get("itemsPerPage"))
		var results []string
		for i := (pageNum - 1) * per; i < total && i < pageNum*per; i++ {
			results = append(results, fmt.Sprintf(`{"id":"a%04d","status":"OPEN"}`, i))
		}
		fmt.Fprintf(w, `{"results":[%s],"totalCount":%d}`, strings.Join(results, ","), total)
	}))
	defer srv.Close()
	c, err := New(Options{BaseURL: srv.URL, MaxRetries: -1})
	require.NoError(t, err)
	alerts, err := c.Alerts().ListAll(context.Background(), wGroup, AlertOpen)
	require.NoError(t, err)
	require.Len(t, alerts, total)
	assert.Equal(t, "a0000", alerts[0].ID)
	assert.Equal(t, "a1202", alerts[total-1].ID)
	assert.EqualValues(t, 3, calls.Load(), "pages of 500")
}

func TestServiceErrorsAreTyped(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"error":404,"errorCode":"ALERT_NOT_FOUND","reason":"Not Found","detail":"No alert with ID 6a1b."}`))
	}))
	defer srv.Close()
	c, err := New(Options{BaseURL: srv.URL, MaxRetries: -1})
	require.NoError(t, err)
	_, err = c.Alerts().Get(context.Background(), wGroup, wAlert)
	require.Error(t, err)
	assert.True(t, IsNotFound(err))
	apiErr, ok := AsError(err)
	require.True(t, ok)
	assert.Equal(t, "ALERT_NOT_FOUND", apiErr.ErrorCode)
	assert.Equal(t, "getAlert", apiErr.Op)
	assert.False(t, IsValidation(err))
}
