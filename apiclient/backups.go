package apiclient

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
	"github.com/dbadmin-tui/dbadmin-tui/apiclient/limits"
)

// BackupsService covers cloud backups: snapshots (replica set, sharded,
// tenant, serverless, flex), restore jobs, the schedule, export buckets and
// jobs, and the compliance policy.
type BackupsService struct{ c *Client }

// Backups is the cloud backup service.
func (c *Client) Backups() BackupsService { return BackupsService{c} }

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

// Frequency is a policy item's or snapshot's frequencyType (lower case).
type Frequency string

const (
	FrequencyHourly   Frequency = "hourly"
	FrequencyDaily    Frequency = "daily"
	FrequencyWeekly   Frequency = "weekly"
	FrequencyMonthly  Frequency = "monthly"
	FrequencyYearly   Frequency = "yearly"
	FrequencyOnDemand Frequency = "ondemand"
)

// RetentionUnit is a policy item's retentionUnit (lower case).
type RetentionUnit string

const (
	RetentionDays   RetentionUnit = "days"
	RetentionWeeks  RetentionUnit = "weeks"
	RetentionMonths RetentionUnit = "months"
	RetentionYears  RetentionUnit = "years"
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

// BackupSchedule is DiskBackupSnapshotSchedule20240805. It is both the answer
// and the PATCH body: on update only the members set are sent, so every
// optional member is a pointer or an omitted-when-empty list.
type BackupSchedule struct {
	ClusterID                         string             `json:"clusterId,omitempty"`
	ClusterName                       string             `json:"clusterName,omitempty"`
	NextSnapshot                      *time.Time         `json:"nextSnapshot,omitempty"`
	ReferenceHourOfDay                *int               `json:"referenceHourOfDay,omitempty"`
	ReferenceMinuteOfHour             *int               `json:"referenceMinuteOfHour,omitempty"`
	RestoreWindowDays                 *int               `json:"restoreWindowDays,omitempty"`
	AutoExportEnabled                 *bool              `json:"autoExportEnabled,omitempty"`
	Export                            *AutoExport        `json:"export,omitempty"`
	UseOrgAndGroupNamesInExportPrefix *bool              `json:"useOrgAndGroupNamesInExportPrefix,omitempty"`
	Policies                          []BackupPolicy     `json:"policies,omitempty"`
	CopySettings                      []CopySetting      `json:"copySettings,omitempty"`
	ExtraRetentionSettings            []ExtraRetention   `json:"extraRetentionSettings,omitempty"`
	AutoCopySettingsEnabled           *bool              `json:"autoCopySettingsEnabled,omitempty"`
	CopyPolicyItemsEnabled            *bool              `json:"copyPolicyItemsEnabled,omitempty"`
	UpdateSnapshots                   *bool              `json:"updateSnapshots,omitempty"`
	DeleteSnapshots                   *bool              `json:"deleteSnapshots,omitempty"`
	UpdateCopySnapshots               *bool              `json:"updateCopySnapshots,omitempty"`
	DeleteCopySnapshots               *bool              `json:"deleteCopySnapshots,omitempty"`
	DeleteCopiedBackups               []DeleteCopiedCopy `json:"deleteCopiedBackups,omitempty"`
	Links                             []Link             `json:"links,omitempty"`
}

// Validate checks an update body locally.
func (s BackupSchedule) Validate() error {
	if err := limits.SchedulePolicies(len(s.Policies)); err != nil {
		return err
	}
	if s.RestoreWindowDays != nil && *s.RestoreWindowDays < 1 {
		return invalidField("restoreWindowDays", "must be positive, got %d", *s.RestoreWindowDays)
	}
	if h := s.ReferenceHourOfDay; h != nil && (*h < 0 || *h > 23) {
		return invalidField("referenceHourOfDay", "must be 0..23, got %d", *h)
	}
	if m := s.ReferenceMinuteOfHour; m != nil && (*m < 0 || *m > 59) {
		return invalidField("referenceMinuteOfHour", "must be 0..59, got %d", *m)
	}
	for _, p := range s.Policies {
		for i, it := range p.PolicyItems {
			if err := it.validate(fmt.Sprintf("policies[0].policyItems[%d]", i)); err != nil {
				return err
			}
		}
		if err := RetentionOrder("policies[0].policyItems", p.PolicyItems); err != nil {
			return err
		}
	}
	return nil
}

// Days is roughly how long a retention keeps a snapshot, for comparisons.
func (u RetentionUnit) Days(n int) int { return limits.RetentionDays(string(u), n) }

// RetentionOrder checks the spec's rule across policy items: a less frequent
// item keeps its snapshots at least as long as every more frequent one.
// field names the list in the error ("policies[0].policyItems").
func RetentionOrder(field string, items []PolicyItem) error {
	retentions := make([]limits.PolicyRetention, len(items))
	for i, it := range items {
		retentions[i] = limits.PolicyRetention{Frequency: string(it.FrequencyType), Unit: string(it.RetentionUnit), Value: it.RetentionValue}
	}
	return limits.RetentionOrder(field, retentions)
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

// AutoExport is the schedule's automatic export to a bucket.
type AutoExport struct {
	ExportBucketID string    `json:"exportBucketId,omitempty"`
	FrequencyType  Frequency `json:"frequencyType,omitempty"` // monthly, yearly
}

// BackupPolicy is a schedule's policy and its items.
type BackupPolicy struct {
	ID          string       `json:"id,omitempty"`
	PolicyItems []PolicyItem `json:"policyItems"`
}

// PolicyItem is one frequency and how long its snapshots are kept.
type PolicyItem struct {
	ID                string        `json:"id,omitempty"`
	FrequencyType     Frequency     `json:"frequencyType"`
	FrequencyInterval int           `json:"frequencyInterval"`
	RetentionUnit     RetentionUnit `json:"retentionUnit"`
	RetentionValue    int           `json:"retentionValue"`
}

func (p PolicyItem) validate(field string) error {
	switch p.RetentionUnit {
	case RetentionDays, RetentionWeeks, RetentionMonths, RetentionYears:
	default:
		return invalidField(field+".retentionUnit", "must be days, weeks, months or years, got %q", p.RetentionUnit)
	}
	if p.RetentionValue < 1 {
		return invalidField(field+".retentionValue", "must be at least 1, got %d", p.RetentionValue)
	}
	return nil
}

// CopySetting copies snapshots to another region.
type CopySetting struct {
	CloudProvider    string          `json:"cloudProvider,omitempty"`
	RegionName       string          `json:"regionName,omitempty"`
	ZoneID           string          `json:"zoneId"`
	ShouldCopyOplogs *bool           `json:"shouldCopyOplogs,omitempty"`
	Frequencies      []string        `json:"frequencies,omitempty"` // deprecated: HOURLY, DAILY, ...
	CopyPolicyItems  json.RawMessage `json:"copyPolicyItems,omitempty"`
}

// ExtraRetention keeps snapshots of one frequency longer.
type ExtraRetention struct {
	FrequencyType string `json:"frequencyType"` // HOURLY, DAILY, WEEKLY, MONTHLY, YEARLY, ON_DEMAND
	RetentionDays int    `json:"retentionDays"`
}

// DeleteCopiedCopy names a region whose copied snapshots an update deletes.
type DeleteCopiedCopy struct {
	CloudProvider string `json:"cloudProvider,omitempty"`
	RegionName    string `json:"regionName,omitempty"`
	ZoneID        string `json:"zoneId,omitempty"`
}

// CloudProvider names a cloud.
type CloudProvider string

const (
	ProviderAWS   CloudProvider = "AWS"
	ProviderAzure CloudProvider = "AZURE"
	ProviderGCP   CloudProvider = "GCP"
)

func validProvider(field string, p CloudProvider) error {
	switch p {
	case ProviderAWS, ProviderAzure, ProviderGCP:
		return nil
	}
	return invalidField(field, "must be AWS, AZURE or GCP, got %q", p)
}

// ExportBucket is DiskBackupSnapshotExportBucketResponse (2024-05-30), one
// shape for the three providers; it is also the create body.
type ExportBucket struct {
	ID                       string        `json:"_id,omitempty"`
	BucketName               string        `json:"bucketName,omitempty"`
	CloudProvider            CloudProvider `json:"cloudProvider"`
	IAMRoleID                string        `json:"iamRoleId,omitempty"` // AWS
	RoleID                   string        `json:"roleId,omitempty"`    // AZURE, GCP
	ServiceURL               string        `json:"serviceUrl,omitempty"`
	TenantID                 string        `json:"tenantId,omitempty"`
	Region                   string        `json:"region,omitempty"`
	RequirePrivateNetworking *bool         `json:"requirePrivateNetworking,omitempty"`
	Links                    []Link        `json:"links,omitempty"`
}

// Validate checks a create body locally.
func (b ExportBucket) Validate() error {
	if err := validProvider("cloudProvider", b.CloudProvider); err != nil {
		return err
	}
	if b.BucketName != "" || b.CloudProvider != ProviderAzure {
		if err := limits.BucketName(b.BucketName); err != nil {
			return err
		}
	}
	switch b.CloudProvider {
	case ProviderAWS:
		if b.IAMRoleID == "" {
			return invalidField("iamRoleId", "required for AWS buckets")
		}
	case ProviderAzure:
		if b.ServiceURL == "" {
			return invalidField("serviceUrl", "required for AZURE buckets")
		}
		fallthrough
	case ProviderGCP:
		if b.RoleID == "" {
			return invalidField("roleId", "required for %s buckets", b.CloudProvider)
		}
	}
	return nil
}

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

// ComplianceState is the backup compliance policy's state.
type ComplianceState string

const (
	ComplianceActive    ComplianceState = "ACTIVE"
	ComplianceEnabling  ComplianceState = "ENABLING"
	ComplianceUpdating  ComplianceState = "UPDATING"
	ComplianceDisabling ComplianceState = "DISABLING"
)

// CompliancePolicy is DataProtectionSettings20231001.
type CompliancePolicy struct {
	ProjectID               string          `json:"projectId,omitempty"`
	AuthorizedEmail         string          `json:"authorizedEmail"`
	AuthorizedUserFirstName string          `json:"authorizedUserFirstName"`
	AuthorizedUserLastName  string          `json:"authorizedUserLastName"`
	CopyProtectionEnabled   bool            `json:"copyProtectionEnabled"`
	EncryptionAtRestEnabled bool            `json:"encryptionAtRestEnabled"`
	PitEnabled              bool            `json:"pitEnabled"`
	RestoreWindowDays       int             `json:"restoreWindowDays,omitempty"`
	OnDemandPolicyItem      *PolicyItem     `json:"onDemandPolicyItem,omitempty"`
	ScheduledPolicyItems    []PolicyItem    `json:"scheduledPolicyItems,omitempty"`
	State                   ComplianceState `json:"state,omitempty"`
	Deletable               bool            `json:"deletable,omitempty"`
	UpdatedDate             *time.Time      `json:"updatedDate,omitempty"`
	UpdatedUser             string          `json:"updatedUser,omitempty"`
}

// Validate checks an update body locally.
func (p CompliancePolicy) Validate() error {
	switch {
	case p.AuthorizedEmail == "":
		return invalidField("authorizedEmail", "required")
	case p.AuthorizedUserFirstName == "":
		return invalidField("authorizedUserFirstName", "required")
	case p.AuthorizedUserLastName == "":
		return invalidField("authorizedUserLastName", "required")
	case p.RestoreWindowDays < 0:
		return invalidField("restoreWindowDays", "must be positive, got %d", p.RestoreWindowDays)
	}
	return RetentionOrder("scheduledPolicyItems", p.ScheduledPolicyItems)
}

// writable drops the read-only members before an update.
func (p CompliancePolicy) writable() CompliancePolicy {
	p.State, p.Deletable, p.UpdatedDate, p.UpdatedUser = "", false, nil, ""
	return p
}

func flexParams(groupID, name string, more ...string) map[string]string {
	return groupParams(groupID, append([]string{"name", name}, more...)...)
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

// ServerlessSnapshots fetches one page of a serverless instance's snapshots.
func (s BackupsService) ServerlessSnapshots(ctx context.Context, groupID, instanceName string, o ListOptions) (*Page[ServerlessSnapshot], error) {
	return getPage[ServerlessSnapshot](ctx, s.c, "listServerlessBackups", Request{Params: clusterParams(groupID, instanceName)}, o)
}

// ServerlessSnapshot fetches one serverless snapshot.
func (s BackupsService) ServerlessSnapshot(ctx context.Context, groupID, instanceName, snapshotID string) (*ServerlessSnapshot, error) {
	return getJSON[ServerlessSnapshot](ctx, s.c, "getServerlessBackup", Request{Params: clusterParams(groupID, instanceName, "snapshotId", snapshotID)})
}

// FlexSnapshots fetches one page of a flex cluster's snapshots.
func (s BackupsService) FlexSnapshots(ctx context.Context, groupID, name string, o ListOptions) (*Page[FlexSnapshot], error) {
	return getPage[FlexSnapshot](ctx, s.c, "listFlexBackups", Request{Params: flexParams(groupID, name)}, o)
}

// FlexSnapshot fetches one flex snapshot.
func (s BackupsService) FlexSnapshot(ctx context.Context, groupID, name, snapshotID string) (*FlexSnapshot, error) {
	return getJSON[FlexSnapshot](ctx, s.c, "getFlexBackup", Request{Params: flexParams(groupID, name, "snapshotId", snapshotID)})
}

// FlexDownload asks for a flex snapshot's download link (valid 4 hours).
func (s BackupsService) FlexDownload(ctx context.Context, groupID, name, snapshotID string) (*FlexRestoreJob, error) {
	return sendChecked[FlexRestoreJob](ctx, s.c, "download flex snapshot", required("snapshotId", snapshotID), "downloadFlexBackup", Request{Params: flexParams(groupID, name), Body: flexDownloadRequest{SnapshotID: snapshotID}})
}

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

// ServerlessRestoreJobs fetches one page of a serverless instance's restores.
func (s BackupsService) ServerlessRestoreJobs(ctx context.Context, groupID, instanceName string, o ListOptions) (*Page[RestoreJob], error) {
	return getPage[RestoreJob](ctx, s.c, "listServerlessBackupRestoreJobs", Request{Params: clusterParams(groupID, instanceName)}, o)
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

// CreateFlexRestoreJob restores a flex snapshot onto a target cluster.
func (s BackupsService) CreateFlexRestoreJob(ctx context.Context, groupID, name string, req FlexRestoreRequest) (*FlexRestoreJob, error) {
	return sendChecked[FlexRestoreJob](ctx, s.c, "create flex restore job", req.Validate(), "createFlexBackupRestoreJob", Request{Params: flexParams(groupID, name), Body: req})
}

// FlexRestoreJob fetches one flex restore job.
func (s BackupsService) FlexRestoreJob(ctx context.Context, groupID, name, jobID string) (*FlexRestoreJob, error) {
	return getJSON[FlexRestoreJob](ctx, s.c, "getFlexBackupRestoreJob", Request{Params: flexParams(groupID, name, "restoreJobId", jobID)})
}

// Schedule fetches a cluster's backup schedule.
func (s BackupsService) Schedule(ctx context.Context, groupID, clusterName string) (*BackupSchedule, error) {
	return getJSON[BackupSchedule](ctx, s.c, "getBackupSchedule", Request{Params: clusterParams(groupID, clusterName)})
}

// UpdateSchedule changes the members set in update (read-only ones are dropped).
func (s BackupsService) UpdateSchedule(ctx context.Context, groupID, clusterName string, update BackupSchedule) (*BackupSchedule, error) {
	update.ClusterID, update.ClusterName, update.NextSnapshot, update.Links = "", "", nil, nil
	return sendChecked[BackupSchedule](ctx, s.c, "update backup schedule", update.Validate(), "updateBackupSchedule", Request{Params: clusterParams(groupID, clusterName), Body: update})
}

// DeleteSchedules removes every policy item of a cluster's schedule and
// answers the emptied schedule.
func (s BackupsService) DeleteSchedules(ctx context.Context, groupID, clusterName string) (*BackupSchedule, error) {
	return getJSON[BackupSchedule](ctx, s.c, "deleteAllBackupSchedules", Request{Params: clusterParams(groupID, clusterName)})
}

// ExportBuckets fetches one page of a project's export buckets.
func (s BackupsService) ExportBuckets(ctx context.Context, groupID string, o ListOptions) (*Page[ExportBucket], error) {
	return getPage[ExportBucket](ctx, s.c, "listExportBuckets", Request{Params: groupParams(groupID)}, o)
}

// ExportBucket fetches one export bucket.
func (s BackupsService) ExportBucket(ctx context.Context, groupID, bucketID string) (*ExportBucket, error) {
	return getJSON[ExportBucket](ctx, s.c, "getExportBucket", Request{Params: groupParams(groupID, "exportBucketId", bucketID)})
}

// CreateExportBucket registers a storage bucket for exports.
func (s BackupsService) CreateExportBucket(ctx context.Context, groupID string, b ExportBucket) (*ExportBucket, error) {
	b.ID, b.Region, b.Links = "", "", nil
	return sendChecked[ExportBucket](ctx, s.c, "create export bucket", b.Validate(), "createExportBucket", Request{Params: groupParams(groupID), Body: b})
}

// DeleteExportBucket removes an export bucket (auto export must be off on
// every cluster using it).
func (s BackupsService) DeleteExportBucket(ctx context.Context, groupID, bucketID string) error {
	return callNoBody(ctx, s.c, "deleteExportBucket", Request{Params: groupParams(groupID, "exportBucketId", bucketID)})
}

// ExportJobs fetches one page of a cluster's export jobs.
func (s BackupsService) ExportJobs(ctx context.Context, groupID, clusterName string, o ListOptions) (*Page[ExportJob], error) {
	return getPage[ExportJob](ctx, s.c, "listBackupExportJobs", Request{Params: clusterParams(groupID, clusterName)}, o)
}

// ExportJob fetches one export job.
func (s BackupsService) ExportJob(ctx context.Context, groupID, clusterName, exportID string) (*ExportJob, error) {
	return getJSON[ExportJob](ctx, s.c, "getBackupExportJob", Request{Params: clusterParams(groupID, clusterName, "exportId", exportID)})
}

// CreateExportJob exports a snapshot to a bucket.
func (s BackupsService) CreateExportJob(ctx context.Context, groupID, clusterName string, req ExportJobRequest) (*ExportJob, error) {
	return sendChecked[ExportJob](ctx, s.c, "create export job", req.Validate(), "createBackupExportJob", Request{Params: clusterParams(groupID, clusterName), Body: req})
}

// CompliancePolicy fetches the project's backup compliance policy.
func (s BackupsService) CompliancePolicy(ctx context.Context, groupID string) (*CompliancePolicy, error) {
	return getJSON[CompliancePolicy](ctx, s.c, "getDataProtectionSettings", Request{Params: groupParams(groupID)})
}

// UpdateCompliancePolicy replaces the policy. overwriteBackupPolicies says
// whether non-complying cluster policies are overwritten; it is always sent.
func (s BackupsService) UpdateCompliancePolicy(ctx context.Context, groupID string, p CompliancePolicy, overwriteBackupPolicies bool) (*CompliancePolicy, error) {
	r := Request{
		Params: groupParams(groupID),
		Query:  queryOf("overwriteBackupPolicies", strconv.FormatBool(overwriteBackupPolicies)),
		Body:   p.writable(),
	}
	return sendChecked[CompliancePolicy](ctx, s.c, "update compliance policy", p.Validate(), "updateDataProtectionSettings", r)
}

// DisableCompliancePolicy turns the policy off.
func (s BackupsService) DisableCompliancePolicy(ctx context.Context, groupID string) error {
	return callNoBody(ctx, s.c, "disableDataProtectionSettings", Request{Params: groupParams(groupID)})
}
