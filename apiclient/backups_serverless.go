package apiclient

import (
	"context"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
)

// Serverless backups (sunset) and their flex successors: snapshots,
// restores and the flex download.

// ServerlessSnapshot is ServerlessBackupSnapshot.
type ServerlessSnapshot struct {
	ID                     string         `json:"id"`
	CreatedAt              time.Time      `json:"createdAt,omitzero"`
	ExpiresAt              *time.Time     `json:"expiresAt,omitempty"`
	FrequencyType          Frequency      `json:"frequencyType,omitempty"`
	MongodVersion          string         `json:"mongodVersion,omitempty"`
	ServerlessInstanceName string         `json:"serverlessInstanceName"`
	SnapshotType           SnapshotType   `json:"snapshotType"`
	Status                 SnapshotStatus `json:"status"`
	StorageSizeBytes       int64          `json:"storageSizeBytes"`
	Links                  []Link         `json:"links,omitempty"`
}

// Done reports that the snapshot finished (completed or failed).
func (s ServerlessSnapshot) Done() bool { return s.Status.Done() }

// FlexStatus is the status of a flex (or tenant) snapshot or restore.
type FlexStatus string

const (
	FlexPending   FlexStatus = "PENDING"
	FlexQueued    FlexStatus = "QUEUED"
	FlexRunning   FlexStatus = "RUNNING"
	FlexFailed    FlexStatus = "FAILED"
	FlexCompleted FlexStatus = "COMPLETED"
)

// Done reports a final status.
func (s FlexStatus) Done() bool { return s == FlexCompleted || s == FlexFailed }

// FlexSnapshot is FlexBackupSnapshot20241113; tenant (M2/M5) snapshots have
// the same shape.
type FlexSnapshot struct {
	ID             string     `json:"id"`
	Status         FlexStatus `json:"status"`
	MongoDBVersion string     `json:"mongoDBVersion,omitempty"`
	ScheduledTime  *time.Time `json:"scheduledTime,omitempty"`
	StartTime      *time.Time `json:"startTime,omitempty"`
	FinishTime     *time.Time `json:"finishTime,omitempty"`
	Expiration     *time.Time `json:"expiration,omitempty"`
	Links          []Link     `json:"links,omitempty"`
}

// Done reports that the snapshot finished (completed or failed).
func (s FlexSnapshot) Done() bool { return s.Status.Done() }

// FlexDeliveryType is how a flex restore delivers the data.
type FlexDeliveryType string

const (
	FlexDeliveryRestore  FlexDeliveryType = "RESTORE"
	FlexDeliveryDownload FlexDeliveryType = "DOWNLOAD"
)

// FlexRestoreJob is FlexBackupRestoreJob20241113 (also the download answer).
type FlexRestoreJob struct {
	ID                       string           `json:"id"`
	DeliveryType             FlexDeliveryType `json:"deliveryType"`
	Status                   FlexStatus       `json:"status"`
	SnapshotID               string           `json:"snapshotId"`
	SnapshotURL              string           `json:"snapshotUrl,omitempty"`
	InstanceName             string           `json:"instanceName,omitempty"`
	ProjectID                string           `json:"projectId,omitempty"`
	TargetDeploymentItemName string           `json:"targetDeploymentItemName,omitempty"`
	TargetProjectID          string           `json:"targetProjectId,omitempty"`
	ExpirationDate           *time.Time       `json:"expirationDate,omitempty"`
	RestoreScheduledDate     *time.Time       `json:"restoreScheduledDate,omitempty"`
	RestoreFinishedDate      *time.Time       `json:"restoreFinishedDate,omitempty"`
	SnapshotFinishedDate     *time.Time       `json:"snapshotFinishedDate,omitempty"`
	Links                    []Link           `json:"links,omitempty"`
}

// Done reports that the job finished (completed or failed).
func (j FlexRestoreJob) Done() bool { return j.Status.Done() }

// FlexRestoreRequest is FlexBackupRestoreJobCreate20241113.
type FlexRestoreRequest struct {
	SnapshotID               string `json:"snapshotId"`
	TargetDeploymentItemName string `json:"targetDeploymentItemName"`
	TargetProjectID          string `json:"targetProjectId,omitempty"`
}

// Validate checks the request locally.
func (r FlexRestoreRequest) Validate() error {
	return firstError(required("snapshotId", r.SnapshotID), required("targetDeploymentItemName", r.TargetDeploymentItemName))
}

type flexDownloadRequest struct {
	SnapshotID string `json:"snapshotId"`
}

// ServerlessGone reports whether the serverless backup calls are past their
// sunset at now; from then on serverless instances are served by the flex
// routes.
func ServerlessGone(now time.Time) bool {
	for _, id := range []string{"listServerlessBackups", "listServerlessBackupRestoreJobs", "createServerlessBackupRestoreJob"} {
		if op, ok := catalog.Get(id); ok && op.Gone(now) {
			return true
		}
	}
	return false
}

func flexParams(groupID, name string, more ...string) map[string]string {
	return groupParams(groupID, append([]string{"name", name}, more...)...)
}

// ServerlessSnapshots fetches one page of a serverless instance's snapshots.
func (s BackupsService) ServerlessSnapshots(ctx context.Context, groupID, instanceName string, o ListOptions) (*Page[ServerlessSnapshot], error) {
	return getPage[ServerlessSnapshot](ctx, s.c, "listServerlessBackups", Request{Params: clusterParams(groupID, instanceName)}, o)
}

// AllServerlessSnapshots fetches every snapshot of a serverless instance, up
// to MaxRows.
func (s BackupsService) AllServerlessSnapshots(ctx context.Context, groupID, instanceName string) ([]ServerlessSnapshot, error) {
	return getAll[ServerlessSnapshot](ctx, s.c, "listServerlessBackups", Request{Params: clusterParams(groupID, instanceName)})
}

// ServerlessSnapshot fetches one serverless snapshot.
func (s BackupsService) ServerlessSnapshot(ctx context.Context, groupID, instanceName, snapshotID string) (*ServerlessSnapshot, error) {
	return getJSON[ServerlessSnapshot](ctx, s.c, "getServerlessBackup", Request{Params: clusterParams(groupID, instanceName, "snapshotId", snapshotID)})
}

// FlexSnapshots fetches one page of a flex cluster's snapshots.
func (s BackupsService) FlexSnapshots(ctx context.Context, groupID, name string, o ListOptions) (*Page[FlexSnapshot], error) {
	return getPage[FlexSnapshot](ctx, s.c, "listFlexBackups", Request{Params: flexParams(groupID, name)}, o)
}

// AllFlexSnapshots fetches every snapshot of a flex cluster, up to MaxRows.
func (s BackupsService) AllFlexSnapshots(ctx context.Context, groupID, name string) ([]FlexSnapshot, error) {
	return getAll[FlexSnapshot](ctx, s.c, "listFlexBackups", Request{Params: flexParams(groupID, name)})
}

// FlexSnapshot fetches one flex snapshot.
func (s BackupsService) FlexSnapshot(ctx context.Context, groupID, name, snapshotID string) (*FlexSnapshot, error) {
	return getJSON[FlexSnapshot](ctx, s.c, "getFlexBackup", Request{Params: flexParams(groupID, name, "snapshotId", snapshotID)})
}

// FlexDownload asks for a flex snapshot's download link (valid 4 hours).
func (s BackupsService) FlexDownload(ctx context.Context, groupID, name, snapshotID string) (*FlexRestoreJob, error) {
	return sendChecked[FlexRestoreJob](ctx, s.c, "download flex snapshot", required("snapshotId", snapshotID), "downloadFlexBackup", Request{Params: flexParams(groupID, name), Body: flexDownloadRequest{SnapshotID: snapshotID}})
}

// ServerlessRestoreJobs fetches one page of a serverless instance's restores.
func (s BackupsService) ServerlessRestoreJobs(ctx context.Context, groupID, instanceName string, o ListOptions) (*Page[RestoreJob], error) {
	return getPage[RestoreJob](ctx, s.c, "listServerlessBackupRestoreJobs", Request{Params: clusterParams(groupID, instanceName)}, o)
}

// AllServerlessRestoreJobs fetches every restore job of a serverless
// instance, up to MaxRows.
func (s BackupsService) AllServerlessRestoreJobs(ctx context.Context, groupID, instanceName string) ([]RestoreJob, error) {
	return getAll[RestoreJob](ctx, s.c, "listServerlessBackupRestoreJobs", Request{Params: clusterParams(groupID, instanceName)})
}

// CreateServerlessRestoreJob starts a serverless restore; the target is
// always required.
func (s BackupsService) CreateServerlessRestoreJob(ctx context.Context, groupID, instanceName string, req RestoreRequest) (*RestoreJob, error) {
	return sendChecked[RestoreJob](ctx, s.c, "create serverless restore job", req.validate(true), "createServerlessBackupRestoreJob", Request{Params: clusterParams(groupID, instanceName), Body: req})
}

// ServerlessRestoreJob fetches one serverless restore job.
func (s BackupsService) ServerlessRestoreJob(ctx context.Context, groupID, instanceName, jobID string) (*RestoreJob, error) {
	return getJSON[RestoreJob](ctx, s.c, "getServerlessBackupRestoreJob", Request{Params: clusterParams(groupID, instanceName, "restoreJobId", jobID)})
}

// FlexRestoreJobs fetches one page of a flex cluster's restore jobs.
func (s BackupsService) FlexRestoreJobs(ctx context.Context, groupID, name string, o ListOptions) (*Page[FlexRestoreJob], error) {
	return getPage[FlexRestoreJob](ctx, s.c, "listFlexBackupRestoreJobs", Request{Params: flexParams(groupID, name)}, o)
}

// AllFlexRestoreJobs fetches every restore job of a flex cluster, up to
// MaxRows.
func (s BackupsService) AllFlexRestoreJobs(ctx context.Context, groupID, name string) ([]FlexRestoreJob, error) {
	return getAll[FlexRestoreJob](ctx, s.c, "listFlexBackupRestoreJobs", Request{Params: flexParams(groupID, name)})
}

// CreateFlexRestoreJob restores a flex snapshot onto a target cluster.
func (s BackupsService) CreateFlexRestoreJob(ctx context.Context, groupID, name string, req FlexRestoreRequest) (*FlexRestoreJob, error) {
	return sendChecked[FlexRestoreJob](ctx, s.c, "create flex restore job", req.Validate(), "createFlexBackupRestoreJob", Request{Params: flexParams(groupID, name), Body: req})
}

// FlexRestoreJob fetches one flex restore job.
func (s BackupsService) FlexRestoreJob(ctx context.Context, groupID, name, jobID string) (*FlexRestoreJob, error) {
	return getJSON[FlexRestoreJob](ctx, s.c, "getFlexBackupRestoreJob", Request{Params: flexParams(groupID, name, "restoreJobId", jobID)})
}
