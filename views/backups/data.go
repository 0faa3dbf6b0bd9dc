package backups

import (
	"slices"
	"strings"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

// kind is what sort of deployment a cluster is; it decides which backup
// routes serve it.
type kind int

const (
	kindReplicaSet kind = iota
	kindSharded
	kindTenant
	kindServerless
	kindFlex
)

func (k kind) String() string {
	return [...]string{"replica set", "sharded", "shared tier", "serverless", "flex"}[k]
}

// clusterRef is one deployment of the project, as the cluster picker shows it.
type clusterRef struct {
	Name    string
	Kind    kind
	Tier    string
	Version string
	Backup  bool
}

// route is how the pane reaches a cluster's backups right now.
type route int

const (
	routeCluster    route = iota // /clusters/{name}/backup
	routeServerless              // /serverless/{name}/backup (until the sunset)
	routeFlex                    // /flexClusters/{name}/backup
	routeNone                    // shared tier: nothing listable
)

// routeFor picks the routes for a cluster: serverless instances move to the
// flex routes once the serverless calls are past their sunset.
func routeFor(k kind, now time.Time) (route, string) {
	switch k {
	case kindTenant:
		return routeNone, ""
	case kindFlex:
		return routeFlex, ""
	case kindServerless:
		if apiclient.ServerlessGone(now) {
			return routeFlex, "the serverless backup API was sunset on 2026-01-22 (410 VERSION_GONE): this instance is shown and restored through the flex API"
		}
		return routeServerless, ""
	}
	return routeCluster, ""
}

// snapRow is a snapshot of any kind, as the table shows it.
type snapRow struct {
	ID          string
	Type        string // onDemand, scheduled, fallback
	Status      string
	Created     *time.Time
	Expires     *time.Time
	Size        int64
	Frequency   string
	Description string
	Version     string
	Members     []apiclient.SnapshotMember
	Sharded     bool
	Done        bool
	Completed   bool
	// The rest of the answer, for the detail view.
	CloudProvider  string
	CopyRegions    []string
	MasterKeyUUID  string
	PolicyItems    []string
	ReplicaSetName string
	Topology       string // replicaSet, shardedCluster
	ConfigServer   string // a sharded snapshot's config server type
	Finished       *time.Time
	Scheduled      *time.Time // a flex snapshot's scheduled time
}

// restoreRow is a restore job of any kind.
type restoreRow struct {
	ID         string
	SnapshotID string
	Delivery   string
	Target     string // project/cluster, or "" for downloads
	TargetName string
	State      apiclient.RestoreState
	Started    *time.Time
	Finished   *time.Time
	ExpiresAt  *time.Time
	URLs       []string
	// The rest of the answer, for the detail view.
	TargetGroup string
	PointInTime int64 // pointInTimeUTCSeconds
	OplogTs     int64
	OplogInc    int64
	Cancelled   bool
	Failed      bool
	Expired     bool
	// Parts are a sharded download's URLs by replica set.
	Parts []apiclient.RestoreComponent
	// Private are the URLs reachable through a private endpoint.
	Private []apiclient.PrivateDownloadURL
	Status  string // a flex job's own status
}

func (r restoreRow) running() bool { return r.State == apiclient.RestoreRunning }

// clusterData is everything one load found for a cluster; each part keeps
// its own error so one refusal does not hide the rest.
type clusterData struct {
	Cluster  clusterRef
	Route    route
	Note     string
	Snaps    []snapRow
	SnapErr  error
	Restores []restoreRow
	RestErr  error
	Exports  []apiclient.ExportJob
	ExpErr   error
	Buckets  []apiclient.ExportBucket
	BuckErr  error
	Schedule *apiclient.BackupSchedule
	SchedErr error
	Policy   *apiclient.CompliancePolicy
	PolErr   error
}

// snap is the listed snapshot id.
func (d *clusterData) snap(id string) (snapRow, bool) {
	i := slices.IndexFunc(d.Snaps, func(s snapRow) bool { return s.ID == id })
	if i < 0 {
		return snapRow{}, false
	}
	return d.Snaps[i], true
}

// restore is the listed restore job id.
func (d *clusterData) restore(id string) (restoreRow, bool) {
	i := slices.IndexFunc(d.Restores, func(r restoreRow) bool { return r.ID == id })
	if i < 0 {
		return restoreRow{}, false
	}
	return d.Restores[i], true
}

func snapRowOf(s apiclient.Snapshot) snapRow {
	return snapRow{ID: s.ID, Type: string(s.SnapshotType), Status: string(s.Status),
		Created: timePtr(s.CreatedAt), Expires: s.ExpiresAt, Size: s.StorageSizeBytes, Frequency: string(s.FrequencyType),
		Description: s.Description, Version: s.MongodVersion, Done: s.Done(), Completed: s.Status == apiclient.SnapshotCompleted,
		CloudProvider: s.CloudProvider, CopyRegions: s.CopyRegions, MasterKeyUUID: s.MasterKeyUUID, PolicyItems: s.PolicyItems,
		ReplicaSetName: s.ReplicaSetName, Topology: s.Type}
}

func shardedSnapRow(s apiclient.ShardedSnapshot) snapRow {
	return snapRow{ID: s.ID, Type: string(s.SnapshotType), Status: string(s.Status),
		Created: timePtr(s.CreatedAt), Expires: s.ExpiresAt, Size: s.StorageSizeBytes, Frequency: string(s.FrequencyType),
		Description: s.Description, Version: s.MongodVersion, Members: s.Members, Sharded: true,
		Done: s.Done(), Completed: s.Status == apiclient.SnapshotCompleted,
		MasterKeyUUID: s.MasterKeyUUID, PolicyItems: s.PolicyItems, Topology: "shardedCluster", ConfigServer: s.ConfigServerType}
}

func serverlessSnapRow(s apiclient.ServerlessSnapshot) snapRow {
	return snapRow{ID: s.ID, Type: string(s.SnapshotType), Status: string(s.Status),
		Created: timePtr(s.CreatedAt), Expires: s.ExpiresAt, Size: s.StorageSizeBytes, Frequency: string(s.FrequencyType),
		Version: s.MongodVersion, Done: s.Done(), Completed: s.Status == apiclient.SnapshotCompleted}
}

func timePtr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

func restoreRowOf(j apiclient.RestoreJob) restoreRow {
	r := restoreRow{ID: j.ID, SnapshotID: j.SnapshotID, Delivery: string(j.DeliveryType), State: j.State(),
		Started: j.Timestamp, Finished: j.FinishedAt, ExpiresAt: j.ExpiresAt, URLs: slices.Clone(j.DeliveryURL), TargetName: j.TargetClusterName,
		TargetGroup: j.TargetGroupID, PointInTime: j.PointInTimeUTCSeconds, OplogTs: j.OplogTs, OplogInc: j.OplogInc,
		Cancelled: j.Cancelled, Failed: j.Failed, Expired: j.Expired, Parts: j.Components, Private: j.PrivateDownloadDeliveryURLs}
	if j.TargetClusterName != "" {
		r.Target = j.TargetClusterName
	}
	for _, c := range j.Components {
		if c.DownloadURL != "" {
			r.URLs = append(r.URLs, c.DownloadURL)
		}
	}
	return r
}

func flexSnapRow(s apiclient.FlexSnapshot) snapRow {
	created := s.ScheduledTime
	if s.StartTime != nil {
		created = s.StartTime
	}
	return snapRow{ID: s.ID, Type: "scheduled", Status: strings.ToLower(string(s.Status)), Created: created, Expires: s.Expiration,
		Frequency: "daily", Version: s.MongoDBVersion, Done: s.Done(), Completed: s.Status == apiclient.FlexCompleted,
		Finished: s.FinishTime, Scheduled: s.ScheduledTime}
}

// flexRestoreRow maps the flex status onto the derived restore states.
func flexRestoreRow(j apiclient.FlexRestoreJob) restoreRow {
	r := restoreRow{ID: j.ID, SnapshotID: j.SnapshotID, Delivery: strings.ToLower(string(j.DeliveryType)),
		Started: j.RestoreScheduledDate, Finished: j.RestoreFinishedDate, ExpiresAt: j.ExpirationDate, TargetName: j.TargetDeploymentItemName,
		TargetGroup: j.TargetProjectID, Status: string(j.Status), Failed: j.Status == apiclient.FlexFailed}
	r.Target = j.TargetDeploymentItemName
	if j.SnapshotURL != "" {
		r.URLs = []string{j.SnapshotURL}
	}
	switch {
	case j.Status == apiclient.FlexFailed:
		r.State = apiclient.RestoreFailed
	case j.Status != apiclient.FlexCompleted:
		r.State = apiclient.RestoreRunning
	case j.DeliveryType == apiclient.FlexDeliveryDownload && j.SnapshotURL != "":
		r.State = apiclient.RestoreDownloadReady
	default:
		r.State = apiclient.RestoreFinished
	}
	return r
}
