package apiclient

import (
	"context"
	"strconv"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/limits"
)

// Cluster snapshots: replica set, sharded and shared-tier (tenant), taken,
// listed, expired and deleted.

// SnapshotStatus is a cluster or serverless snapshot's status.
type SnapshotStatus string

const (
	SnapshotQueued     SnapshotStatus = "queued"
	SnapshotInProgress SnapshotStatus = "inProgress"
	SnapshotCompleted  SnapshotStatus = "completed"
	SnapshotFailed     SnapshotStatus = "failed"
)

// Done reports a final status.
func (s SnapshotStatus) Done() bool { return s == SnapshotCompleted || s == SnapshotFailed }

// SnapshotType says what started a snapshot.
type SnapshotType string

const (
	SnapshotOnDemand  SnapshotType = "onDemand"
	SnapshotScheduled SnapshotType = "scheduled"
	SnapshotFallback  SnapshotType = "fallback"
)

// SnapshotRetentionUnit is the snapshot expiration change's unit (upper case).
type SnapshotRetentionUnit string

const (
	SnapshotRetentionDays   SnapshotRetentionUnit = "DAYS"
	SnapshotRetentionWeeks  SnapshotRetentionUnit = "WEEKS"
	SnapshotRetentionMonths SnapshotRetentionUnit = "MONTHS"
	SnapshotRetentionYears  SnapshotRetentionUnit = "YEARS"
)

// Snapshot is DiskBackupReplicaSet: a replica-set cluster snapshot.
type Snapshot struct {
	ID               string         `json:"id"`
	CloudProvider    string         `json:"cloudProvider,omitempty"`
	CopyRegions      []string       `json:"copyRegions,omitempty"`
	CreatedAt        time.Time      `json:"createdAt,omitzero"`
	ExpiresAt        *time.Time     `json:"expiresAt,omitempty"`
	Description      string         `json:"description,omitempty"`
	FrequencyType    Frequency      `json:"frequencyType,omitempty"`
	MasterKeyUUID    string         `json:"masterKeyUUID,omitempty"`
	MongodVersion    string         `json:"mongodVersion,omitempty"`
	PolicyItems      []string       `json:"policyItems,omitempty"`
	ReplicaSetName   string         `json:"replicaSetName,omitempty"`
	SnapshotType     SnapshotType   `json:"snapshotType"`
	Status           SnapshotStatus `json:"status"`
	StorageSizeBytes int64          `json:"storageSizeBytes"`
	Type             string         `json:"type"` // replicaSet, shardedCluster
	Links            []Link         `json:"links,omitempty"`
}

// Done reports that the snapshot finished (completed or failed).
func (s Snapshot) Done() bool { return s.Status.Done() }

// ShardedSnapshot is DiskBackupShardedClusterSnapshot.
type ShardedSnapshot struct {
	ID               string           `json:"id"`
	ConfigServerType string           `json:"configServerType,omitempty"` // EMBEDDED, DEDICATED
	CreatedAt        time.Time        `json:"createdAt,omitzero"`
	ExpiresAt        *time.Time       `json:"expiresAt,omitempty"`
	Description      string           `json:"description,omitempty"`
	FrequencyType    Frequency        `json:"frequencyType,omitempty"`
	MasterKeyUUID    string           `json:"masterKeyUUID,omitempty"`
	Members          []SnapshotMember `json:"members,omitempty"`
	MongodVersion    string           `json:"mongodVersion,omitempty"`
	PolicyItems      []string         `json:"policyItems,omitempty"`
	SnapshotIDs      []string         `json:"snapshotIds,omitempty"`
	SnapshotType     SnapshotType     `json:"snapshotType"`
	Status           SnapshotStatus   `json:"status"`
	StorageSizeBytes int64            `json:"storageSizeBytes"`
	Type             string           `json:"type"`
	Links            []Link           `json:"links,omitempty"`
}

// Done reports that the snapshot finished (completed or failed).
func (s ShardedSnapshot) Done() bool { return s.Status.Done() }

// SnapshotMember is one shard's (or the config server's) part of a sharded snapshot.
type SnapshotMember struct {
	CloudProvider  string `json:"cloudProvider"`
	ID             string `json:"id"`
	ReplicaSetName string `json:"replicaSetName"`
}

// TenantSnapshot is a shared-tier cluster's snapshot.
type TenantSnapshot = FlexSnapshot

// SnapshotListOptions page listReplicaSetBackups; the point-in-time members
// (0: unset) narrow the list to snapshots usable for that restore point.
type SnapshotListOptions struct {
	PointInTimeUTCSeconds int64
	OplogTs               int64
	OplogInc              int64
	ListOptions
}

// TakeSnapshotRequest is DiskBackupOnDemandSnapshotRequest.
type TakeSnapshotRequest struct {
	Description     string `json:"description,omitempty"`
	RetentionInDays int    `json:"retentionInDays"`
}

// Validate checks the request locally.
func (r TakeSnapshotRequest) Validate() error {
	return limits.RetentionInDays(r.RetentionInDays)
}

// SnapshotRetention is BackupSnapshotRetention: a snapshot's new expiration.
type SnapshotRetention struct {
	RetentionUnit  SnapshotRetentionUnit `json:"retentionUnit"`
	RetentionValue int                   `json:"retentionValue"`
}

// Validate checks the request locally.
func (r SnapshotRetention) Validate() error {
	switch r.RetentionUnit {
	case SnapshotRetentionDays, SnapshotRetentionWeeks, SnapshotRetentionMonths, SnapshotRetentionYears:
	default:
		return invalidField("retentionUnit", "must be DAYS, WEEKS, MONTHS or YEARS, got %q", r.RetentionUnit)
	}
	if r.RetentionValue < 1 {
		return invalidField("retentionValue", "must be at least 1, got %d", r.RetentionValue)
	}
	return nil
}

// Snapshots fetches one page of a replica-set cluster's snapshots.
func (s BackupsService) Snapshots(ctx context.Context, groupID, clusterName string, o SnapshotListOptions) (*Page[Snapshot], error) {
	r := Request{Params: clusterParams(groupID, clusterName), Query: queryOf(
		"pointInTimeUtcSeconds", nonZero(o.PointInTimeUTCSeconds),
		"oplogTs", nonZero(o.OplogTs),
		"oplogInc", nonZero(o.OplogInc),
	)}
	return getPage[Snapshot](ctx, s.c, "listReplicaSetBackups", r, o.ListOptions)
}

func nonZero(n int64) string {
	if n == 0 {
		return ""
	}
	return strconv.FormatInt(n, 10)
}

// AllSnapshots fetches every snapshot of a replica-set cluster.
func (s BackupsService) AllSnapshots(ctx context.Context, groupID, clusterName string) ([]Snapshot, error) {
	return getAll[Snapshot](ctx, s.c, "listReplicaSetBackups", Request{Params: clusterParams(groupID, clusterName)})
}

// Snapshot fetches one replica-set snapshot.
func (s BackupsService) Snapshot(ctx context.Context, groupID, clusterName, snapshotID string) (*Snapshot, error) {
	return getJSON[Snapshot](ctx, s.c, "getReplicaSetBackup", Request{Params: clusterParams(groupID, clusterName, "snapshotId", snapshotID)})
}

// TakeSnapshot starts an on-demand snapshot.
func (s BackupsService) TakeSnapshot(ctx context.Context, groupID, clusterName string, req TakeSnapshotRequest) (*Snapshot, error) {
	return sendChecked[Snapshot](ctx, s.c, "take snapshot", req.Validate(), "takeSnapshot", Request{Params: clusterParams(groupID, clusterName), Body: req})
}

// UpdateRetention changes when a snapshot expires.
func (s BackupsService) UpdateRetention(ctx context.Context, groupID, clusterName, snapshotID string, req SnapshotRetention) (*Snapshot, error) {
	return sendChecked[Snapshot](ctx, s.c, "update snapshot retention", req.Validate(), "updateSnapshotRetention", Request{Params: clusterParams(groupID, clusterName, "snapshotId", snapshotID), Body: req})
}

// DeleteSnapshot deletes a replica-set snapshot.
func (s BackupsService) DeleteSnapshot(ctx context.Context, groupID, clusterName, snapshotID string) error {
	return callNoBody(ctx, s.c, "deleteReplicaSetBackup", Request{Params: clusterParams(groupID, clusterName, "snapshotId", snapshotID)})
}

// ShardedSnapshots lists a sharded cluster's snapshots (the route takes no
// paging parameters).
func (s BackupsService) ShardedSnapshots(ctx context.Context, groupID, clusterName string) (*Page[ShardedSnapshot], error) {
	p, _, err := ListPage[ShardedSnapshot](ctx, s.c, "listShardedClusterBackups", Request{Params: clusterParams(groupID, clusterName)})
	return p, err
}

// ShardedSnapshot fetches one sharded-cluster snapshot.
func (s BackupsService) ShardedSnapshot(ctx context.Context, groupID, clusterName, snapshotID string) (*ShardedSnapshot, error) {
	return getJSON[ShardedSnapshot](ctx, s.c, "getShardedClusterBackup", Request{Params: clusterParams(groupID, clusterName, "snapshotId", snapshotID)})
}

// DeleteShardedSnapshot deletes a sharded-cluster snapshot.
func (s BackupsService) DeleteShardedSnapshot(ctx context.Context, groupID, clusterName, snapshotID string) error {
	return callNoBody(ctx, s.c, "deleteShardedClusterBackup", Request{Params: clusterParams(groupID, clusterName, "snapshotId", snapshotID)})
}

// TenantSnapshot fetches one snapshot of a shared-tier cluster.
func (s BackupsService) TenantSnapshot(ctx context.Context, groupID, clusterName, snapshotID string) (*TenantSnapshot, error) {
	return getJSON[TenantSnapshot](ctx, s.c, "getSharedClusterBackup", Request{Params: clusterParams(groupID, clusterName, "snapshotId", snapshotID)})
}
