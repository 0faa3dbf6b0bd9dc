package apiclient

import (
	"context"
	"time"
)

// Export jobs: a snapshot exported to a bucket.

// ExportState is an export job's state (mixed case, as the API writes it).
type ExportState string

const (
	ExportQueued     ExportState = "Queued"
	ExportInProgress ExportState = "InProgress"
	ExportSuccessful ExportState = "Successful"
	ExportFailed     ExportState = "Failed"
	ExportCancelled  ExportState = "Cancelled"
)

// Done reports a final state.
func (s ExportState) Done() bool {
	return s == ExportSuccessful || s == ExportFailed || s == ExportCancelled
}

// Label is a key-value pair attached to an export.
type Label struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// ExportJob is DiskBackupExportJob.
type ExportJob struct {
	ID             string            `json:"id"`
	SnapshotID     string            `json:"snapshotId,omitempty"`
	ExportBucketID string            `json:"exportBucketId"`
	State          ExportState       `json:"state"`
	StateReason    *ExportReason     `json:"stateReason,omitempty"`
	ExportStatus   *ExportProgress   `json:"exportStatus,omitempty"`
	CreatedAt      time.Time         `json:"createdAt,omitzero"`
	FinishedAt     *time.Time        `json:"finishedAt,omitempty"`
	Prefix         string            `json:"prefix,omitempty"`
	Components     []ExportComponent `json:"components,omitempty"`
	CustomData     []Label           `json:"customData,omitempty"`
	Links          []Link            `json:"links,omitempty"`
}

// Done reports that the export finished (successful, failed or cancelled).
func (j ExportJob) Done() bool { return j.State.Done() }

// ExportReason explains a failed export.
type ExportReason struct {
	ErrorCode string `json:"errorCode,omitempty"`
	Message   string `json:"message,omitempty"`
}

// ExportProgress counts exported collections.
type ExportProgress struct {
	ExportedCollections int `json:"exportedCollections"`
	TotalCollections    int `json:"totalCollections"`
}

// ExportComponent is one replica set's export.
type ExportComponent struct {
	ExportID       string `json:"exportId"`
	ReplicaSetName string `json:"replicaSetName"`
}

// ExportJobRequest is DiskBackupExportJobRequest.
type ExportJobRequest struct {
	SnapshotID     string  `json:"snapshotId"`
	ExportBucketID string  `json:"exportBucketId"`
	CustomData     []Label `json:"customData,omitempty"`
}

// Validate checks the request locally.
func (r ExportJobRequest) Validate() error {
	return firstError(required("snapshotId", r.SnapshotID), required("exportBucketId", r.ExportBucketID))
}

// ExportJobs fetches one page of a cluster's export jobs.
func (s BackupsService) ExportJobs(ctx context.Context, groupID, clusterName string, o ListOptions) (*Page[ExportJob], error) {
	return getPage[ExportJob](ctx, s.c, "listBackupExportJobs", Request{Params: clusterParams(groupID, clusterName)}, o)
}

// AllExportJobs fetches every export job of a cluster, up to MaxRows.
func (s BackupsService) AllExportJobs(ctx context.Context, groupID, clusterName string) ([]ExportJob, error) {
	return getAll[ExportJob](ctx, s.c, "listBackupExportJobs", Request{Params: clusterParams(groupID, clusterName)})
}

// ExportJob fetches one export job.
func (s BackupsService) ExportJob(ctx context.Context, groupID, clusterName, exportID string) (*ExportJob, error) {
	return getJSON[ExportJob](ctx, s.c, "getBackupExportJob", Request{Params: clusterParams(groupID, clusterName, "exportId", exportID)})
}

// CreateExportJob exports a snapshot to a bucket.
func (s BackupsService) CreateExportJob(ctx context.Context, groupID, clusterName string, req ExportJobRequest) (*ExportJob, error) {
	return sendChecked[ExportJob](ctx, s.c, "create export job", req.Validate(), "createBackupExportJob", Request{Params: clusterParams(groupID, clusterName), Body: req})
}
