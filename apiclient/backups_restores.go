package apiclient

import (
	"context"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/limits"
)

// Cluster restore jobs: the request, its local checks and the job's state.

// DeliveryType is how a restore delivers the data.
type DeliveryType string

const (
	DeliveryAutomated   DeliveryType = "automated"
	DeliveryDownload    DeliveryType = "download"
	DeliveryPointInTime DeliveryType = "pointInTime"
)

// MinOplogTs is the earliest restore point the API accepts (2008-01-01), in
// seconds since the epoch, for oplogTs and pointInTimeUTCSeconds.
const MinOplogTs = limits.MinRestoreTime

// RestoreRequest is the writable part of DiskBackupSnapshotRestoreJob (and of
// ServerlessBackupRestoreJob).
type RestoreRequest struct {
	DeliveryType          DeliveryType `json:"deliveryType"`
	SnapshotID            string       `json:"snapshotId,omitempty"`
	TargetClusterName     string       `json:"targetClusterName,omitempty"`
	TargetGroupID         string       `json:"targetGroupId,omitempty"`
	OplogTs               int64        `json:"oplogTs,omitempty"`
	OplogInc              int64        `json:"oplogInc,omitempty"`
	PointInTimeUTCSeconds int64        `json:"pointInTimeUTCSeconds,omitempty"`
}

// Validate checks a cluster restore request locally.
func (r RestoreRequest) Validate() error { return r.validate(false) }

func (r RestoreRequest) validate(serverless bool) error {
	switch r.DeliveryType {
	case DeliveryAutomated, DeliveryDownload, DeliveryPointInTime:
	default:
		return invalidField("deliveryType", "must be automated, download or pointInTime, got %q", r.DeliveryType)
	}
	if serverless || r.DeliveryType != DeliveryDownload {
		if r.TargetClusterName == "" {
			return invalidField("targetClusterName", "required for %s restores", r.DeliveryType)
		}
		if r.TargetGroupID == "" {
			return invalidField("targetGroupId", "required for %s restores", r.DeliveryType)
		}
	}
	// Zero is unset: an oplog restore point is oplogTs and oplogInc together.
	if r.OplogTs != 0 {
		if err := firstError(limits.OplogTs(r.OplogTs), limits.OplogInc(r.OplogInc)); err != nil {
			return err
		}
	} else if r.OplogInc != 0 {
		return invalidField("oplogTs", "required when oplogInc is set")
	}
	if r.PointInTimeUTCSeconds != 0 {
		if err := limits.PointInTimeUTCSeconds(r.PointInTimeUTCSeconds); err != nil {
			return err
		}
	}
	if r.DeliveryType == DeliveryPointInTime {
		if r.OplogTs == 0 && r.PointInTimeUTCSeconds == 0 {
			return invalidField("pointInTimeUTCSeconds", "a pointInTime restore needs pointInTimeUTCSeconds or oplogTs and oplogInc")
		}
	} else if r.SnapshotID == "" {
		return invalidField("snapshotId", "required for %s restores", r.DeliveryType)
	}
	return nil
}

// RestoreJob is DiskBackupSnapshotRestoreJob as answered. The serverless
// restore job has the same members without components and private URLs.
type RestoreJob struct {
	ID                          string               `json:"id"`
	DeliveryType                DeliveryType         `json:"deliveryType"`
	SnapshotID                  string               `json:"snapshotId,omitempty"`
	TargetClusterName           string               `json:"targetClusterName,omitempty"`
	TargetGroupID               string               `json:"targetGroupId,omitempty"`
	OplogTs                     int64                `json:"oplogTs,omitempty"`
	OplogInc                    int64                `json:"oplogInc,omitempty"`
	PointInTimeUTCSeconds       int64                `json:"pointInTimeUTCSeconds,omitempty"`
	Cancelled                   bool                 `json:"cancelled"`
	Expired                     bool                 `json:"expired"`
	Failed                      bool                 `json:"failed"`
	FinishedAt                  *time.Time           `json:"finishedAt,omitempty"`
	ExpiresAt                   *time.Time           `json:"expiresAt,omitempty"`
	Timestamp                   *time.Time           `json:"timestamp,omitempty"`
	DeliveryURL                 []string             `json:"deliveryUrl,omitempty"`
	PrivateDownloadDeliveryURLs []PrivateDownloadURL `json:"privateDownloadDeliveryUrls,omitempty"`
	Components                  []RestoreComponent   `json:"components,omitempty"`
	DesiredTimestamp            *OplogTimestamp      `json:"desiredTimestamp,omitempty"`
	Links                       []Link               `json:"links,omitempty"`
}

// PrivateDownloadURL is a download URL reachable through a private endpoint.
type PrivateDownloadURL struct {
	DeliveryURL string `json:"deliveryUrl"`
	EndpointID  string `json:"endpointId"`
}

// RestoreComponent is one replica set's part of a sharded download restore.
type RestoreComponent struct {
	DownloadURL                 string               `json:"downloadUrl,omitempty"`
	PrivateDownloadDeliveryURLs []PrivateDownloadURL `json:"privateDownloadDeliveryUrls,omitempty"`
	ReplicaSetName              string               `json:"replicaSetName"`
}

// OplogTimestamp is a BSON timestamp: a time and an increment.
type OplogTimestamp struct {
	Date      time.Time `json:"date"`
	Increment int64     `json:"increment"`
}

// RestoreState is a restore job's state, derived: the API has no state member.
type RestoreState string

const (
	RestoreRunning       RestoreState = "running"
	RestoreExpired       RestoreState = "expired"
	RestoreCancelled     RestoreState = "cancelled"
	RestoreFailed        RestoreState = "failed"
	RestoreFinished      RestoreState = "finished"
	RestoreDownloadReady RestoreState = "download ready"
)

// State derives the job's state the way the cloud CLI's watch does: the
// terminal flags first, then finishedAt, then a download whose URL is ready.
func (j RestoreJob) State() RestoreState {
	switch {
	case j.Expired:
		return RestoreExpired
	case j.Cancelled:
		return RestoreCancelled
	case j.Failed:
		return RestoreFailed
	case j.FinishedAt != nil:
		return RestoreFinished
	case j.DeliveryType == DeliveryDownload && len(j.DeliveryURL) > 0 && j.DeliveryURL[0] != "":
		return RestoreDownloadReady
	}
	return RestoreRunning
}

// Done reports that watching the job can stop.
func (j RestoreJob) Done() bool { return j.State() != RestoreRunning }

// RestoreJobs fetches one page of a cluster's restore jobs.
func (s BackupsService) RestoreJobs(ctx context.Context, groupID, clusterName string, o ListOptions) (*Page[RestoreJob], error) {
	return getPage[RestoreJob](ctx, s.c, "listBackupRestoreJobs", Request{Params: clusterParams(groupID, clusterName)}, o)
}

// AllRestoreJobs fetches every restore job of a cluster.
func (s BackupsService) AllRestoreJobs(ctx context.Context, groupID, clusterName string) ([]RestoreJob, error) {
	return getAll[RestoreJob](ctx, s.c, "listBackupRestoreJobs", Request{Params: clusterParams(groupID, clusterName)})
}

// CreateRestoreJob starts a restore of a cluster's snapshot.
func (s BackupsService) CreateRestoreJob(ctx context.Context, groupID, clusterName string, req RestoreRequest) (*RestoreJob, error) {
	return sendChecked[RestoreJob](ctx, s.c, "create restore job", req.validate(false), "createBackupRestoreJob", Request{Params: clusterParams(groupID, clusterName), Body: req})
}

// RestoreJob fetches one restore job.
func (s BackupsService) RestoreJob(ctx context.Context, groupID, clusterName, jobID string) (*RestoreJob, error) {
	return getJSON[RestoreJob](ctx, s.c, "getBackupRestoreJob", Request{Params: clusterParams(groupID, clusterName, "restoreJobId", jobID)})
}

// CancelRestoreJob cancels a running restore.
func (s BackupsService) CancelRestoreJob(ctx context.Context, groupID, clusterName, jobID string) error {
	return callNoBody(ctx, s.c, "cancelBackupRestoreJob", Request{Params: clusterParams(groupID, clusterName, "restoreJobId", jobID)})
}
