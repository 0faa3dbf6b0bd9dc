package apisim

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

// backupEnv is a simulator on a manual clock driven through the shared
// client, as the dashboard drives it.
type backupEnv struct {
	*testEnv
	c *apiclient.Client
}

func newBackupEnv(t *testing.T) *backupEnv {
	t.Helper()
	e := newEnv(t, Options{})
	c, err := apiclient.New(apiclient.Options{BaseURL: e.ts.URL, Service: "atlas",
		Auth: apiclient.DigestAuth("org-owner", "org-owner-secret"), MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return &backupEnv{testEnv: e, c: c}
}

// raw sends a body as is, past the client's local checks, so the server's
// own validation answers.
func (e *backupEnv) raw(t *testing.T, op string, params map[string]string, body any) error {
	t.Helper()
	var out any
	_, err := e.c.Do(context.Background(), op, apiclient.Request{Params: params, Body: body}, &out)
	return err
}

// wantAPIError checks status, errorCode and, for validation errors, that the
// detail names the field.
func wantAPIError(t *testing.T, err error, status int, code, field string) {
	t.Helper()
	ae, ok := apiclient.AsError(err)
	if !ok {
		t.Fatalf("want %d %s, got %v", status, code, err)
	}
	if ae.Status != status || (code != "" && ae.ErrorCode != code) {
		t.Fatalf("want %d %s, got %d %s: %s", status, code, ae.Status, ae.ErrorCode, ae.Detail)
	}
	if field != "" && !strings.Contains(ae.Detail, field) {
		t.Fatalf("detail %q does not name %s", ae.Detail, field)
	}
}

func cp(group, cluster string, more ...string) map[string]string {
	m := map[string]string{"groupId": group, "clusterName": cluster}
	for i := 0; i+1 < len(more); i += 2 {
		m[more[i]] = more[i+1]
	}
	return m
}

var bg = context.Background()

func TestOnDemandSnapshotLifecycleAndLimit(t *testing.T) {
	e := newBackupEnv(t)
	b := e.c.Backups()
	s, err := b.TakeSnapshot(bg, DemoPaymentsID, "payments-rs", apiclient.TakeSnapshotRequest{Description: "before upgrade", RetentionInDays: 3})
	if err != nil {
		t.Fatal(err)
	}
	if s.Status != apiclient.SnapshotQueued || s.SnapshotType != apiclient.SnapshotOnDemand {
		t.Fatalf("new snapshot: %s %s", s.Status, s.SnapshotType)
	}
	if want := testStart.AddDate(0, 0, 3); s.ExpiresAt == nil || !s.ExpiresAt.Equal(want) {
		t.Errorf("expiresAt %v, want %v", s.ExpiresAt, want)
	}
	// Only one on-demand snapshot may be queued or in progress per cluster.
	_, err = b.TakeSnapshot(bg, DemoPaymentsID, "payments-rs", apiclient.TakeSnapshotRequest{RetentionInDays: 3})
	wantAPIError(t, err, http.StatusConflict, "ON_DEMAND_SNAPSHOT_IN_PROGRESS", "")
	// Another cluster is not affected.
	if _, err := b.TakeSnapshot(bg, DemoPaymentsID, "payments-legacy", apiclient.TakeSnapshotRequest{RetentionInDays: 3}); err != nil {
		t.Fatalf("other cluster: %v", err)
	}

	e.clock.Advance(15 * time.Second)
	got, err := b.Snapshot(bg, DemoPaymentsID, "payments-rs", s.ID)
	if err != nil || got.Status != apiclient.SnapshotInProgress {
		t.Fatalf("after 15s: %v %v", got, err)
	}
	_, err = b.TakeSnapshot(bg, DemoPaymentsID, "payments-rs", apiclient.TakeSnapshotRequest{RetentionInDays: 3})
	wantAPIError(t, err, http.StatusConflict, "ON_DEMAND_SNAPSHOT_IN_PROGRESS", "")
	// A running snapshot cannot be deleted.
	wantAPIError(t, b.DeleteSnapshot(bg, DemoPaymentsID, "payments-rs", s.ID), http.StatusConflict, "SNAPSHOT_IN_PROGRESS", "")

	e.clock.Advance(time.Minute)
	got, _ = b.Snapshot(bg, DemoPaymentsID, "payments-rs", s.ID)
	if got.Status != apiclient.SnapshotCompleted {
		t.Fatalf("after 75s: %s", got.Status)
	}
	if _, err := b.TakeSnapshot(bg, DemoPaymentsID, "payments-rs", apiclient.TakeSnapshotRequest{RetentionInDays: 3}); err != nil {
		t.Fatalf("after completion a new one may start: %v", err)
	}

	// Expiration change: the new expiry counts from now.
	up, err := b.UpdateRetention(bg, DemoPaymentsID, "payments-rs", s.ID, apiclient.SnapshotRetention{RetentionUnit: apiclient.SnapshotRetentionWeeks, RetentionValue: 2})
	if err != nil || !up.ExpiresAt.Equal(e.clock.Now().AddDate(0, 0, 14)) {
		t.Fatalf("retention: %v %v", up, err)
	}
	// The project's compliance policy keeps on-demand snapshots 3 days.
	wantAPIError(t, b.DeleteSnapshot(bg, DemoPaymentsID, "payments-rs", s.ID), http.StatusBadRequest, "VALIDATION_ERROR", "Backup Compliance Policy")
	e.clock.Advance(3 * 24 * time.Hour)
	if err := b.DeleteSnapshot(bg, DemoPaymentsID, "payments-rs", s.ID); err != nil {
		t.Fatalf("delete: %v", err)
	}
	_, err = b.Snapshot(bg, DemoPaymentsID, "payments-rs", s.ID)
	wantAPIError(t, err, http.StatusNotFound, "SNAPSHOT_NOT_FOUND", "")
}

// The Backup Compliance Policy of payments (on-demand snapshots at least 3
// days, daily ones at least 7) is the floor: a snapshot it still keeps is
// not deleted and its expiration is not set before the floor, with a
// spec-shaped 400 VALIDATION_ERROR that says until when and why (the facts
// name no code for this refusal; VALIDATION_ERROR is the 400 the spec
// documents). Snapshots no item covers, or past their floor, go as before.
func TestCompliancePolicyKeepsSnapshots(t *testing.T) {
	e := newBackupEnv(t)
	b := e.c.Backups()
	od, err := b.TakeSnapshot(bg, DemoPaymentsID, "payments-rs", apiclient.TakeSnapshotRequest{RetentionInDays: 3})
	if err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(5 * time.Minute) // completed, a few minutes old
	err = b.DeleteSnapshot(bg, DemoPaymentsID, "payments-rs", od.ID)
	wantAPIError(t, err, http.StatusBadRequest, "VALIDATION_ERROR", "2025-06-04T12:00:00Z")
	ae, _ := apiclient.AsError(err)
	if ae.Reason != "Bad Request" || !strings.Contains(ae.Detail, "on-demand snapshots at least 3 days") ||
		len(ae.Parameters) != 2 || ae.Parameters[0] != od.ID || ae.Parameters[1] != "2025-06-04T12:00:00Z" {
		t.Errorf("error body: %+v", ae)
	}
	if _, err := b.Snapshot(bg, DemoPaymentsID, "payments-rs", od.ID); err != nil {
		t.Fatalf("the refused snapshot is gone: %v", err)
	}

	all, err := b.AllSnapshots(bg, DemoPaymentsID, "payments-rs")
	if err != nil {
		t.Fatal(err)
	}
	var daily, oldDaily, weekly *apiclient.Snapshot
	for i := range all {
		s := &all[i]
		age := e.clock.Now().Sub(s.CreatedAt)
		switch {
		case s.Status != apiclient.SnapshotCompleted:
		case s.FrequencyType == apiclient.FrequencyDaily && age < 3*24*time.Hour && daily == nil:
			daily = s
		case s.FrequencyType == apiclient.FrequencyDaily && age > 8*24*time.Hour && oldDaily == nil:
			oldDaily = s
		case s.FrequencyType == apiclient.FrequencyWeekly && weekly == nil:
			weekly = s
		}
	}
	if daily == nil || oldDaily == nil || weekly == nil {
		t.Fatalf("seeded snapshots: %v %v %v", daily, oldDaily, weekly)
	}
	// A daily snapshot under 3 days old kept 1 day from now would end
	// before its 7 days: refused, naming the field; it keeps its date.
	sp := cp(DemoPaymentsID, "payments-rs", "snapshotId", daily.ID)
	wantAPIError(t, e.raw(t, "updateSnapshotRetention", sp, map[string]any{"retentionUnit": "DAYS", "retentionValue": 1}), 400, "VALIDATION_ERROR", "retentionValue")
	err = e.raw(t, "updateSnapshotRetention", sp, map[string]any{"retentionUnit": "DAYS", "retentionValue": 1})
	if ae, _ := apiclient.AsError(err); !strings.Contains(ae.Detail, "daily snapshots at least 7 days") || ae.BadRequestDetail == nil || len(ae.BadRequestDetail.Fields) != 1 {
		t.Errorf("error body: %+v", ae)
	}
	if got, _ := b.Snapshot(bg, DemoPaymentsID, "payments-rs", daily.ID); !got.ExpiresAt.Equal(*daily.ExpiresAt) {
		t.Errorf("expiresAt changed to %v", got.ExpiresAt)
	}
	wantAPIError(t, b.DeleteSnapshot(bg, DemoPaymentsID, "payments-rs", daily.ID), 400, "VALIDATION_ERROR", "daily snapshots at least 7 days")
	// Long enough: 7 days from now passes the floor.
	if _, err := b.UpdateRetention(bg, DemoPaymentsID, "payments-rs", daily.ID, apiclient.SnapshotRetention{RetentionUnit: apiclient.SnapshotRetentionDays, RetentionValue: 7}); err != nil {
		t.Errorf("7 days: %v", err)
	}
	// Past its floor, or covered by no item: deleted as before.
	for _, s := range []*apiclient.Snapshot{oldDaily, weekly} {
		if err := b.DeleteSnapshot(bg, DemoPaymentsID, "payments-rs", s.ID); err != nil {
			t.Errorf("delete %s %s: %v", s.FrequencyType, s.ID, err)
		}
	}
	// Without a policy nothing holds the on-demand snapshot.
	if err := b.DisableCompliancePolicy(bg, DemoPaymentsID); err != nil {
		t.Fatal(err)
	}
	if err := b.DeleteSnapshot(bg, DemoPaymentsID, "payments-rs", od.ID); err != nil {
		t.Errorf("without a policy: %v", err)
	}
}

// An on-demand snapshot is not taken with a retention below the policy's
// on-demand minimum (3 days for payments): it would expire while the policy
// still keeps it. The refusal is the spec-shaped 400 VALIDATION_ERROR of
// the other policy refusals, naming the field, until when and why; nothing
// is taken. At the minimum it goes; without a policy 1 day goes.
func TestCompliancePolicyFloorsOnDemandRetention(t *testing.T) {
	e := newBackupEnv(t)
	b := e.c.Backups()
	before, err := b.AllSnapshots(bg, DemoPaymentsID, "payments-rs")
	if err != nil {
		t.Fatal(err)
	}
	for _, body := range []map[string]any{{"retentionInDays": 2}, {"description": "no retention: 1 day"}} {
		err = e.raw(t, "takeSnapshot", cp(DemoPaymentsID, "payments-rs"), body)
		wantAPIError(t, err, http.StatusBadRequest, "VALIDATION_ERROR", "retentionInDays")
		ae, _ := apiclient.AsError(err)
		if !strings.Contains(ae.Detail, "before 2025-06-04T12:00:00Z: the project's Backup Compliance Policy keeps on-demand snapshots at least 3 days") ||
			ae.BadRequestDetail == nil || len(ae.BadRequestDetail.Fields) != 1 || ae.BadRequestDetail.Fields[0].Field != "retentionInDays" {
			t.Errorf("error body: %+v", ae)
		}
	}
	if after, _ := b.AllSnapshots(bg, DemoPaymentsID, "payments-rs"); len(after) != len(before) {
		t.Fatalf("a refused snapshot was taken: %d, were %d", len(after), len(before))
	}
	s, err := b.TakeSnapshot(bg, DemoPaymentsID, "payments-rs", apiclient.TakeSnapshotRequest{RetentionInDays: 3})
	if err != nil || !s.ExpiresAt.Equal(testStart.AddDate(0, 0, 3)) {
		t.Fatalf("at the minimum: %v %v", s, err)
	}
	if err := b.DisableCompliancePolicy(bg, DemoPaymentsID); err != nil {
		t.Fatal(err)
	}
	if _, err := b.TakeSnapshot(bg, DemoPaymentsID, "payments-legacy", apiclient.TakeSnapshotRequest{RetentionInDays: 1}); err != nil {
		t.Errorf("without a policy: %v", err)
	}
}

func TestSnapshotsSeededWithAFailureAndShardedMembers(t *testing.T) {
	e := newBackupEnv(t)
	b := e.c.Backups()
	all, err := b.AllSnapshots(bg, DemoPaymentsID, "payments-rs")
	if err != nil {
		t.Fatal(err)
	}
	failed := 0
	for _, s := range all {
		if s.Status == apiclient.SnapshotFailed {
			failed++
		}
	}
	if failed == 0 {
		t.Error("no failed snapshot in the seeded history")
	}
	sh, err := b.ShardedSnapshots(bg, DemoPaymentsID, "payments-prod")
	if err != nil || len(sh.Results) == 0 {
		t.Fatalf("sharded: %v", err)
	}
	if m := sh.Results[0].Members; len(m) != 2 || m[0].ReplicaSetName == "" {
		t.Errorf("members: %+v", m)
	}
}

func TestSnapshotValidation(t *testing.T) {
	e := newBackupEnv(t)
	p := cp(DemoPaymentsID, "payments-rs")
	wantAPIError(t, e.raw(t, "takeSnapshot", p, map[string]any{"retentionInDays": 0}), 400, "VALIDATION_ERROR", "retentionInDays")
	snaps, _ := e.c.Backups().AllSnapshots(bg, DemoPaymentsID, "payments-rs")
	sp := cp(DemoPaymentsID, "payments-rs", "snapshotId", snaps[1].ID)
	wantAPIError(t, e.raw(t, "updateSnapshotRetention", sp, map[string]any{"retentionUnit": "FORTNIGHTS", "retentionValue": 1}), 400, "VALIDATION_ERROR", "retentionUnit")
	wantAPIError(t, e.raw(t, "updateSnapshotRetention", sp, map[string]any{"retentionUnit": "DAYS"}), 400, "MISSING_ATTRIBUTE", "retentionValue")
	wantAPIError(t, e.raw(t, "updateSnapshotRetention", sp, map[string]any{"retentionUnit": "DAYS", "retentionValue": 0}), 400, "VALIDATION_ERROR", "retentionValue")
}

func TestRestoreJobsRunFinishAndExpire(t *testing.T) {
	e := newBackupEnv(t)
	b := e.c.Backups()
	snap := completedSnapshot(t, e, "payments-rs")

	auto := restoreToStaging(t, e, snap)
	if auto.State() != apiclient.RestoreRunning || auto.FinishedAt != nil {
		t.Fatalf("new restore: %s", auto.State())
	}
	dl, err := b.CreateRestoreJob(bg, DemoPaymentsID, "payments-rs", apiclient.RestoreRequest{DeliveryType: apiclient.DeliveryDownload, SnapshotID: snap})
	if err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(60 * time.Second)
	if j, _ := b.RestoreJob(bg, DemoPaymentsID, "payments-rs", dl.ID); j.State() != apiclient.RestoreRunning || len(j.DeliveryURL) != 0 {
		t.Fatalf("download at 60s: %s %v", j.State(), j.DeliveryURL)
	}
	e.clock.Advance(61 * time.Second)
	j, _ := b.RestoreJob(bg, DemoPaymentsID, "payments-rs", auto.ID)
	if j.State() != apiclient.RestoreFinished || !j.FinishedAt.Equal(testStart.Add(120*time.Second)) {
		t.Fatalf("automated at 121s: %s %v", j.State(), j.FinishedAt)
	}
	j, _ = b.RestoreJob(bg, DemoPaymentsID, "payments-rs", dl.ID)
	if len(j.DeliveryURL) != 1 || j.ExpiresAt == nil || !j.ExpiresAt.Equal(j.FinishedAt.Add(4*time.Hour)) || j.Expired {
		t.Fatalf("download at 121s: urls %v expiresAt %v expired %v", j.DeliveryURL, j.ExpiresAt, j.Expired)
	}
	e.clock.Advance(4 * time.Hour)
	if j, _ = b.RestoreJob(bg, DemoPaymentsID, "payments-rs", dl.ID); j.State() != apiclient.RestoreExpired {
		t.Fatalf("download after 4h: %s", j.State())
	}
	// A finished job cannot be cancelled.
	wantAPIError(t, b.CancelRestoreJob(bg, DemoPaymentsID, "payments-rs", auto.ID), 400, "CANNOT_CANCEL_FINISHED_RESTORE_JOB", "")
}

func TestRestoreCancelWhileRunning(t *testing.T) {
	e := newBackupEnv(t)
	b := e.c.Backups()
	snap := completedSnapshot(t, e, "payments-rs")
	j := restoreToStaging(t, e, snap)
	e.clock.Advance(30 * time.Second)
	if err := b.CancelRestoreJob(bg, DemoPaymentsID, "payments-rs", j.ID); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(5 * time.Minute)
	got, _ := b.RestoreJob(bg, DemoPaymentsID, "payments-rs", j.ID)
	if got.State() != apiclient.RestoreCancelled || got.FinishedAt != nil {
		t.Fatalf("cancelled job later: %s %v", got.State(), got.FinishedAt)
	}
	wantAPIError(t, b.CancelRestoreJob(bg, DemoPaymentsID, "payments-rs", j.ID), 400, "CANNOT_CANCEL_FINISHED_RESTORE_JOB", "")
}

func TestShardedRestoreOntoAnotherTopologyFails(t *testing.T) {
	e := newBackupEnv(t)
	b := e.c.Backups()
	sh, _ := b.ShardedSnapshots(bg, DemoPaymentsID, "payments-prod")
	var snap string
	for _, s := range sh.Results {
		if s.Status == apiclient.SnapshotCompleted {
			snap = s.ID
			break
		}
	}
	j, err := b.CreateRestoreJob(bg, DemoPaymentsID, "payments-prod", apiclient.RestoreRequest{
		DeliveryType: apiclient.DeliveryAutomated, SnapshotID: snap, TargetClusterName: "payments-rs", TargetGroupID: DemoPaymentsID})
	if err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(30 * time.Second)
	got, _ := b.RestoreJob(bg, DemoPaymentsID, "payments-prod", j.ID)
	if got.State() != apiclient.RestoreRunning {
		t.Fatalf("at 30s: %s", got.State())
	}
	// Sharded restores cannot be cancelled (the spec's 405 example).
	wantAPIError(t, b.CancelRestoreJob(bg, DemoPaymentsID, "payments-prod", j.ID), 405, "ATLAS_BACKUP_CANCEL_SHARD_RESTORE_JOB_NOT_ALLOWED", "")
	e.clock.Advance(2 * time.Minute)
	got, _ = b.RestoreJob(bg, DemoPaymentsID, "payments-prod", j.ID)
	if got.State() != apiclient.RestoreFailed || got.FinishedAt != nil {
		t.Fatalf("after the run: %s %v", got.State(), got.FinishedAt)
	}
}

func TestRestoreValidationNamesTheField(t *testing.T) {
	e := newBackupEnv(t)
	snap := completedSnapshot(t, e, "payments-rs")
	p := cp(DemoPaymentsID, "payments-rs")
	target := map[string]any{"targetClusterName": "staging-rs", "targetGroupId": DemoStagingID}
	with := func(m map[string]any, kv ...any) map[string]any {
		out := map[string]any{}
		for k, v := range m {
			out[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			out[kv[i].(string)] = kv[i+1]
		}
		return out
	}
	cases := []struct {
		name  string
		body  map[string]any
		code  string
		field string
	}{
		{"no delivery type", with(target, "snapshotId", snap), "MISSING_ATTRIBUTE", "deliveryType"},
		{"bad delivery type", with(target, "snapshotId", snap, "deliveryType", "teleport"), "VALIDATION_ERROR", "deliveryType"},
		{"automated without target cluster", map[string]any{"deliveryType": "automated", "snapshotId": snap, "targetGroupId": DemoStagingID}, "MISSING_ATTRIBUTE", "targetClusterName"},
		{"automated without target group", map[string]any{"deliveryType": "automated", "snapshotId": snap, "targetClusterName": "staging-rs"}, "MISSING_ATTRIBUTE", "targetGroupId"},
		{"pointInTime without target", map[string]any{"deliveryType": "pointInTime", "pointInTimeUTCSeconds": testStart.Unix() - 60}, "MISSING_ATTRIBUTE", "targetClusterName"},
		{"pointInTime too early", with(target, "deliveryType", "pointInTime", "pointInTimeUTCSeconds", 1199145599), "VALIDATION_ERROR", "pointInTimeUTCSeconds"},
		{"oplogTs too early", with(target, "deliveryType", "pointInTime", "oplogTs", 1199145599, "oplogInc", 1), "VALIDATION_ERROR", "oplogTs"},
		{"oplogInc zero", with(target, "deliveryType", "pointInTime", "oplogTs", testStart.Unix()-60, "oplogInc", 0), "VALIDATION_ERROR", "oplogInc"},
		{"pointInTime with no time", with(target, "deliveryType", "pointInTime"), "MISSING_ATTRIBUTE", "pointInTimeUTCSeconds"},
		{"download without snapshot", map[string]any{"deliveryType": "download"}, "MISSING_ATTRIBUTE", "snapshotId"},
		{"unknown target", map[string]any{"deliveryType": "automated", "snapshotId": snap, "targetClusterName": "nope", "targetGroupId": DemoStagingID}, "CLUSTER_NOT_FOUND", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			status := 400
			if tc.code == "CLUSTER_NOT_FOUND" {
				status = 404
			}
			wantAPIError(t, e.raw(t, "createBackupRestoreJob", p, tc.body), status, tc.code, tc.field)
		})
	}
	// The limits themselves are accepted.
	ok := with(target, "deliveryType", "pointInTime", "oplogTs", 1199145600, "oplogInc", 1)
	if err := e.raw(t, "createBackupRestoreJob", p, ok); err != nil {
		t.Errorf("oplogTs at the limit: %v", err)
	}
	// Serverless restores always need the target, even downloads.
	wantAPIError(t, e.raw(t, "createServerlessBackupRestoreJob", cp(DemoPaymentsID, "payments-serverless"),
		map[string]any{"deliveryType": "download", "snapshotId": snap}), 400, "MISSING_ATTRIBUTE", "targetClusterName")
}

func TestExportJobProgressAndBuckets(t *testing.T) {
	e := newBackupEnv(t)
	b := e.c.Backups()
	snap := completedSnapshot(t, e, "payments-rs")
	buckets, err := b.ExportBuckets(bg, DemoPaymentsID, apiclient.ListOptions{})
	if err != nil || len(buckets.Results) == 0 {
		t.Fatalf("buckets: %v", err)
	}
	j, err := b.CreateExportJob(bg, DemoPaymentsID, "payments-rs", apiclient.ExportJobRequest{SnapshotID: snap, ExportBucketID: buckets.Results[0].ID})
	if err != nil {
		t.Fatal(err)
	}
	if j.State != apiclient.ExportQueued || j.ExportStatus == nil || j.ExportStatus.ExportedCollections != 0 {
		t.Fatalf("new export: %+v", j)
	}
	e.clock.Advance(45 * time.Second)
	j, _ = b.ExportJob(bg, DemoPaymentsID, "payments-rs", j.ID)
	if j.State != apiclient.ExportInProgress || j.ExportStatus.ExportedCollections != 3 || j.ExportStatus.TotalCollections != 12 || j.FinishedAt != nil {
		t.Fatalf("export at 45s: %s %+v", j.State, j.ExportStatus)
	}
	e.clock.Advance(80 * time.Second)
	j, _ = b.ExportJob(bg, DemoPaymentsID, "payments-rs", j.ID)
	if j.State != apiclient.ExportSuccessful || j.ExportStatus.ExportedCollections != 12 || j.FinishedAt == nil {
		t.Fatalf("export at 125s: %s %+v", j.State, j.ExportStatus)
	}
	// bucketName is 3..63 characters.
	role := e.srv.world.ExportBuckets[0].IamRoleID
	for _, name := range []string{"ab", strings.Repeat("b", 64)} {
		wantAPIError(t, e.raw(t, "createExportBucket", map[string]string{"groupId": DemoPaymentsID},
			map[string]any{"bucketName": name, "cloudProvider": "AWS", "iamRoleId": role}), 400, "VALIDATION_ERROR", "bucketName")
	}
	nb, err := b.CreateExportBucket(bg, DemoPaymentsID, apiclient.ExportBucket{BucketName: "abc", CloudProvider: apiclient.ProviderAWS, IAMRoleID: role})
	if err != nil {
		t.Fatalf("3-character bucket: %v", err)
	}
	if err := b.DeleteExportBucket(bg, DemoPaymentsID, nb.ID); err != nil {
		t.Fatal(err)
	}
}

func TestCompliancePolicyStates(t *testing.T) {
	e := newBackupEnv(t)
	b := e.c.Backups()
	// Staging has no policy yet: a first one is ENABLING, then ACTIVE.
	pol := apiclient.CompliancePolicy{AuthorizedEmail: "sec@example.com", AuthorizedUserFirstName: "A", AuthorizedUserLastName: "B",
		ScheduledPolicyItems: []apiclient.PolicyItem{{FrequencyType: "daily", FrequencyInterval: 1, RetentionUnit: "days", RetentionValue: 7}}}
	got, err := b.UpdateCompliancePolicy(bg, DemoStagingID, pol, true)
	if err != nil || got.State != apiclient.ComplianceEnabling {
		t.Fatalf("enable: %v %v", got, err)
	}
	_, err = b.UpdateCompliancePolicy(bg, DemoStagingID, pol, true)
	wantAPIError(t, err, 400, "CANNOT_UPDATE_BACKUP_COMPLIANCE_POLICY_SETTINGS_WITH_PENDING_ACTION", "")
	e.clock.Advance(61 * time.Second)
	if got, _ = b.CompliancePolicy(bg, DemoStagingID); got.State != apiclient.ComplianceActive {
		t.Fatalf("after a minute: %s", got.State)
	}
	// A change to an existing policy is UPDATING, then ACTIVE.
	pol.PitEnabled = true
	if got, err = b.UpdateCompliancePolicy(bg, DemoStagingID, pol, false); err != nil || got.State != apiclient.ComplianceUpdating {
		t.Fatalf("update: %v %v", got, err)
	}
	e.clock.Advance(61 * time.Second)
	if got, _ = b.CompliancePolicy(bg, DemoStagingID); got.State != apiclient.ComplianceActive || !got.PitEnabled {
		t.Fatalf("after the update: %+v", got)
	}
	// Less frequent items keep snapshots at least as long as more frequent ones.
	bad := pol
	bad.ScheduledPolicyItems = []apiclient.PolicyItem{
		{FrequencyType: "daily", FrequencyInterval: 1, RetentionUnit: "days", RetentionValue: 14},
		{FrequencyType: "weekly", FrequencyInterval: 1, RetentionUnit: "weeks", RetentionValue: 1},
	}
	wantAPIError(t, e.raw(t, "updateDataProtectionSettings", map[string]string{"groupId": DemoStagingID}, bad),
		400, "VALIDATION_ERROR", "scheduledPolicyItems[1].retentionValue")
}

func TestScheduleUpdateRules(t *testing.T) {
	e := newBackupEnv(t)
	b := e.c.Backups()
	sch, err := b.Schedule(bg, DemoPaymentsID, "payments-rs")
	if err != nil || len(sch.Policies) != 1 || sch.NextSnapshot == nil {
		t.Fatalf("schedule: %+v %v", sch, err)
	}
	p := cp(DemoPaymentsID, "payments-rs")
	items := func(weeklyWeeks int) []map[string]any {
		return []map[string]any{
			{"frequencyType": "daily", "frequencyInterval": 1, "retentionUnit": "days", "retentionValue": 14},
			{"frequencyType": "weekly", "frequencyInterval": 6, "retentionUnit": "weeks", "retentionValue": weeklyWeeks},
		}
	}
	wantAPIError(t, e.raw(t, "updateBackupSchedule", p, map[string]any{"policies": []any{
		map[string]any{"policyItems": items(1)}}}), 400, "VALIDATION_ERROR", "policies[0].policyItems[1].retentionValue")
	wantAPIError(t, e.raw(t, "updateBackupSchedule", p, map[string]any{"policies": []any{
		map[string]any{"policyItems": items(2)}, map[string]any{"policyItems": items(2)}}}), 400, "VALIDATION_ERROR", "policies")
	// A partial update changes only what it names.
	hour := 5
	up, err := b.UpdateSchedule(bg, DemoPaymentsID, "payments-rs", apiclient.BackupSchedule{ReferenceHourOfDay: &hour})
	if err != nil || *up.ReferenceHourOfDay != 5 || len(up.Policies[0].PolicyItems) != len(sch.Policies[0].PolicyItems) {
		t.Fatalf("partial update: %+v %v", up, err)
	}
}

func TestTenantFlexAndServerlessAnswers(t *testing.T) {
	e := newBackupEnv(t)
	b := e.c.Backups()
	_, err := b.Snapshots(bg, DemoAnalyticsID, "reports-m2", apiclient.SnapshotListOptions{})
	wantAPIError(t, err, 400, "TENANT_CLUSTER_UNSUPPORTED", "")
	_, err = b.Snapshots(bg, DemoPaymentsID, "payments-flex", apiclient.SnapshotListOptions{})
	wantAPIError(t, err, 400, "CANNOT_USE_FLEX_CLUSTER_IN_CLUSTER_API", "")
	_, err = b.Snapshots(bg, DemoPaymentsID, "payments-serverless", apiclient.SnapshotListOptions{})
	wantAPIError(t, err, 400, "CANNOT_USE_SERVERLESS_INSTANCE_IN_CLUSTER_API", "")
	if fl, err := b.FlexSnapshots(bg, DemoPaymentsID, "payments-flex", apiclient.ListOptions{}); err != nil || len(fl.Results) == 0 {
		t.Fatalf("flex snapshots: %v", err)
	}

	// Before the sunset the serverless calls work and the flex ones refuse the instance.
	sl, err := b.ServerlessSnapshots(bg, DemoPaymentsID, "payments-serverless", apiclient.ListOptions{})
	if err != nil || len(sl.Results) == 0 {
		t.Fatalf("serverless before the sunset: %v", err)
	}
	_, err = b.FlexSnapshots(bg, DemoPaymentsID, "payments-serverless", apiclient.ListOptions{})
	wantAPIError(t, err, 400, "CANNOT_USE_NON_FLEX_CLUSTER_IN_FLEX_API", "")

	// From 2026-01-22 the serverless calls are gone and the instance, now
	// migrated, answers on the flex routes with its history.
	e.clock.Set(time.Date(2026, 1, 22, 0, 0, 0, 0, time.UTC))
	_, err = b.ServerlessSnapshots(bg, DemoPaymentsID, "payments-serverless", apiclient.ListOptions{})
	wantAPIError(t, err, http.StatusGone, "VERSION_GONE", "")
	fl, err := b.FlexSnapshots(bg, DemoPaymentsID, "payments-serverless", apiclient.ListOptions{})
	if err != nil || len(fl.Results) != len(sl.Results) {
		t.Fatalf("flex route for the migrated instance: %v", err)
	}
	jobs, err := b.FlexRestoreJobs(bg, DemoPaymentsID, "payments-serverless", apiclient.ListOptions{})
	if err != nil || len(jobs.Results) == 0 || jobs.Results[0].DeliveryType != apiclient.FlexDeliveryRestore {
		t.Fatalf("flex restore jobs of the migrated instance: %+v %v", jobs, err)
	}
	j, err := b.CreateFlexRestoreJob(bg, DemoPaymentsID, "payments-serverless", apiclient.FlexRestoreRequest{
		SnapshotID: fl.Results[0].ID, TargetDeploymentItemName: "payments-flex"})
	if err != nil {
		t.Fatalf("flex restore of the migrated instance: %v", err)
	}
	e.clock.Advance(2 * time.Minute)
	if got, err := b.FlexRestoreJob(bg, DemoPaymentsID, "payments-serverless", j.ID); err != nil || got.Status != apiclient.FlexCompleted {
		t.Fatalf("flex restore later: %+v %v", got, err)
	}
}

// restoreToStaging starts an automated restore of payments-rs's snapshot
// snap onto staging-rs in the staging project.
func restoreToStaging(t *testing.T, e *backupEnv, snap string) *apiclient.RestoreJob {
	t.Helper()
	j, err := e.c.Backups().CreateRestoreJob(bg, DemoPaymentsID, "payments-rs", apiclient.RestoreRequest{
		DeliveryType: apiclient.DeliveryAutomated, SnapshotID: snap, TargetClusterName: "staging-rs", TargetGroupID: DemoStagingID})
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// completedSnapshot is the newest completed snapshot of a replica set.
func completedSnapshot(t *testing.T, e *backupEnv, cluster string) string {
	t.Helper()
	all, err := e.c.Backups().AllSnapshots(bg, DemoPaymentsID, cluster)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		if s.Status == apiclient.SnapshotCompleted {
			return s.ID
		}
	}
	t.Fatal("no completed snapshot")
	return ""
}

// Under a backup compliance policy the schedules of a cluster cannot be
// removed (the policy cannot be weakened through the API): 400 with the
// service's code, and the schedule keeps every item. Without a policy the
// same call empties it.
func TestDeleteAllSchedulesUnderACompliancePolicy(t *testing.T) {
	e := newBackupEnv(t)
	b := e.c.Backups()
	before, err := b.Schedule(bg, DemoPaymentsID, "payments-rs")
	if err != nil || len(before.Policies) != 1 || len(before.Policies[0].PolicyItems) == 0 {
		t.Fatalf("schedule: %+v %v", before, err)
	}
	_, err = b.DeleteSchedules(bg, DemoPaymentsID, "payments-rs")
	wantAPIError(t, err, 400, "BACKUP_POLICIES_NOT_MEETING_BACKUP_COMPLIANCE_POLICY_REQUIREMENTS", "")
	if ae, _ := apiclient.AsError(err); !strings.Contains(ae.Detail, "payments-rs") {
		t.Errorf("the refusal does not name the cluster: %q", ae.Detail)
	}
	after, err := b.Schedule(bg, DemoPaymentsID, "payments-rs")
	if err != nil || len(after.Policies[0].PolicyItems) != len(before.Policies[0].PolicyItems) {
		t.Fatalf("the refused delete changed the schedule: %+v %v", after, err)
	}

	// Staging has no policy: its schedule goes.
	got, err := b.DeleteSchedules(bg, DemoStagingID, "staging-rs")
	if err != nil || len(got.Policies) == 0 || len(got.Policies[0].PolicyItems) != 0 {
		t.Fatalf("delete without a policy: %+v %v", got, err)
	}
}

// A snapshot restores onto its own cluster (rolling it back in place), as
// the service allows: automated and point in time, the job runs and ends
// finished like any other.
func TestRestoreOntoItsOwnClusterIsAccepted(t *testing.T) {
	e := newBackupEnv(t)
	b := e.c.Backups()
	snap := completedSnapshot(t, e, "payments-rs")
	j, err := b.CreateRestoreJob(bg, DemoPaymentsID, "payments-rs", apiclient.RestoreRequest{
		DeliveryType: apiclient.DeliveryAutomated, SnapshotID: snap, TargetClusterName: "payments-rs", TargetGroupID: DemoPaymentsID})
	if err != nil {
		t.Fatalf("in place: %v", err)
	}
	pit, err := b.CreateRestoreJob(bg, DemoPaymentsID, "payments-rs", apiclient.RestoreRequest{
		DeliveryType: apiclient.DeliveryPointInTime, PointInTimeUTCSeconds: testStart.Add(-time.Hour).Unix(),
		TargetClusterName: "payments-rs", TargetGroupID: DemoPaymentsID})
	if err != nil {
		t.Fatalf("point in time in place: %v", err)
	}
	e.clock.Advance(3 * time.Minute)
	for _, id := range []string{j.ID, pit.ID} {
		got, err := b.RestoreJob(bg, DemoPaymentsID, "payments-rs", id)
		if err != nil || got.State() != apiclient.RestoreFinished || got.TargetClusterName != "payments-rs" {
			t.Fatalf("in-place job %s: %+v %v", id, got, err)
		}
	}
}

// The next snapshot follows the most frequent hourly policy item from the
// reference time; with none, the reference time of the next day.
func TestNextSnapshotFollowsAnHourlyPolicy(t *testing.T) {
	now := time.Date(2025, 6, 1, 10, 20, 0, 0, time.UTC)
	daily := &Schedule{ReferenceHourOfDay: 3}
	if got := nextSnapshot(daily, now); !got.Equal(time.Date(2025, 6, 2, 3, 0, 0, 0, time.UTC)) {
		t.Fatalf("daily: %v", got)
	}
	hourly := &Schedule{ReferenceHourOfDay: 3, ReferenceMinuteOfHour: 15, Policies: []Policy{{PolicyItems: []PolicyItem{
		{FrequencyType: "daily", FrequencyInterval: 1}, {FrequencyType: "hourly", FrequencyInterval: 6}}}}}
	if got := nextSnapshot(hourly, now); !got.Equal(time.Date(2025, 6, 1, 15, 15, 0, 0, time.UTC)) {
		t.Fatalf("every 6 h from 03:15: %v", got)
	}
	early := time.Date(2025, 6, 1, 1, 0, 0, 0, time.UTC)
	if got := nextSnapshot(hourly, early); !got.Equal(time.Date(2025, 6, 1, 3, 15, 0, 0, time.UTC)) {
		t.Fatalf("before the reference time: %v", got)
	}
}
