package backups

import (
	"context"
	"fmt"
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

// loadClusters lists every deployment of the project: the cluster API's,
// then flex clusters and serverless instances (which it does not list).
func loadClusters(ctx context.Context, c *apiclient.Client, gid string) ([]clusterRef, error) {
	cls, err := c.Clusters().All(ctx, gid)
	if err != nil {
		return nil, fmt.Errorf("list clusters: %w", err)
	}
	var out []clusterRef
	for _, cl := range cls {
		k := kindReplicaSet
		switch {
		case cl.Tenant():
			k = kindTenant
		case cl.ClusterType == "SHARDED" || cl.ClusterType == "GEOSHARDED":
			k = kindSharded
		}
		out = append(out, clusterRef{Name: cl.Name, Kind: k, Tier: cl.InstanceSize(), Version: cl.MongoDBVersion, Backup: cl.BackupEnabled})
	}
	// Flex and serverless lists are best effort: a project may have none,
	// and an older server may not know the route.
	if fl, err := c.Clusters().AllFlex(ctx, gid); err == nil {
		for _, f := range fl {
			out = append(out, clusterRef{Name: f.Name, Kind: kindFlex, Tier: "FLEX", Version: f.MongoDBVersion, Backup: true})
		}
	}
	if sl, err := c.Clusters().AllServerless(ctx, gid); err == nil {
		for _, s := range sl {
			out = append(out, clusterRef{Name: s.Name, Kind: kindServerless, Tier: "SERVERLESS", Version: s.MongoDBVersion, Backup: true})
		}
	}
	slices.SortStableFunc(out, func(a, b clusterRef) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// parts says which parts of a cluster's data a load fetches.
type parts struct{ snaps, restores, exports, rest bool }

var allParts = parts{true, true, true, true}

// list reads one list of a cluster and makes its rows; it runs on a Cmd's
// goroutine.
type list[R any] func(ctx context.Context, b apiclient.BackupsService, gid, name string) ([]R, error)

// rowsOf is the list read by read (a BackupsService method), each item
// made a row by row.
func rowsOf[T, R any](read func(apiclient.BackupsService, context.Context, string, string) ([]T, error), row func(T) R) list[R] {
	return func(ctx context.Context, b apiclient.BackupsService, gid, name string) ([]R, error) {
		items, err := read(b, ctx, gid, name)
		if err != nil {
			return nil, err
		}
		var rows []R
		for _, it := range items {
			rows = append(rows, row(it))
		}
		return rows, nil
	}
}

// lists is what a route reads of a cluster: its snapshots (a sharded
// cluster's its own way) and restore jobs, each nil where the route has
// none; a dedicated cluster's route also has export jobs, export buckets,
// its schedule and the project's compliance policy.
type lists struct {
	snaps, sharded list[snapRow]
	restores       list[restoreRow]
	dedicated      bool
}

// routes are the lists each route reads.
var routes = map[route]lists{
	routeNone: {},
	routeFlex: {
		snaps:    rowsOf(apiclient.BackupsService.AllFlexSnapshots, flexSnapRow),
		restores: rowsOf(apiclient.BackupsService.AllFlexRestoreJobs, flexRestoreRow),
	},
	routeServerless: {
		snaps:    rowsOf(apiclient.BackupsService.AllServerlessSnapshots, serverlessSnapRow),
		restores: rowsOf(apiclient.BackupsService.AllServerlessRestoreJobs, restoreRowOf),
	},
	routeCluster: {
		snaps:     rowsOf(apiclient.BackupsService.AllSnapshots, snapRowOf),
		sharded:   rowsOf(shardedSnapshots, shardedSnapRow),
		restores:  rowsOf(apiclient.BackupsService.AllRestoreJobs, restoreRowOf),
		dedicated: true,
	},
}

// shardedSnapshots is a sharded cluster's snapshots, as a list.
func shardedSnapshots(b apiclient.BackupsService, ctx context.Context, gid, name string) ([]apiclient.ShardedSnapshot, error) {
	p, err := b.ShardedSnapshots(ctx, gid, name)
	if err != nil {
		return nil, err
	}
	return p.Results, nil
}

// loadCluster fetches the parts asked for, as its route reads them; it
// runs on a Cmd's goroutine and uses only its arguments.
func loadCluster(ctx context.Context, c *apiclient.Client, gid string, cl clusterRef, now time.Time, want parts) clusterData {
	d := clusterData{Cluster: cl}
	d.Route, d.Note = routeFor(cl.Kind, now)
	b, rt := c.Backups(), routes[d.Route]
	snaps := rt.snaps
	if cl.Kind == kindSharded && rt.sharded != nil {
		snaps = rt.sharded
	}
	if want.snaps && snaps != nil {
		d.Snaps, d.SnapErr = snaps(ctx, b, gid, cl.Name)
	}
	if want.restores && rt.restores != nil {
		d.Restores, d.RestErr = rt.restores(ctx, b, gid, cl.Name)
	}
	if !rt.dedicated {
		return d
	}
	if want.exports {
		d.Exports, d.ExpErr = b.AllExportJobs(ctx, gid, cl.Name)
	}
	if want.rest {
		d.Buckets, d.BuckErr = b.AllExportBuckets(ctx, gid)
		d.Schedule, d.SchedErr = b.Schedule(ctx, gid, cl.Name)
		d.Policy, d.PolErr = b.CompliancePolicy(ctx, gid)
	}
	return d
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

// watch is a job this session started; the pane follows it until it ends,
// even while another pane is on screen.
type watch struct {
	Kind    string // "restore", "snapshot", "export"
	ID      string
	Cluster clusterRef
	Label   string // "restore of snapshot …0021 to staging-rs"
}

// watchResult is one hidden-pane check of a watched job.
type watchResult struct {
	W       watch
	Done    bool
	Outcome string // the toast when Done
	Failed  bool
}

// checkWatch fetches one watched job; it runs on a Cmd's goroutine.
func checkWatch(ctx context.Context, c *apiclient.Client, gid string, w watch, now time.Time) (watchResult, error) {
	b := c.Backups()
	rt, _ := routeFor(w.Cluster.Kind, now)
	res := watchResult{W: w}
	switch w.Kind {
	case "restore":
		var r restoreRow
		switch rt {
		case routeFlex:
			j, err := b.FlexRestoreJob(ctx, gid, w.Cluster.Name, w.ID)
			if err != nil {
				return res, err
			}
			r = flexRestoreRow(*j)
		default:
			get := b.RestoreJob
			if rt == routeServerless {
				get = b.ServerlessRestoreJob
			}
			j, err := get(ctx, gid, w.Cluster.Name, w.ID)
			if err != nil {
				return res, err
			}
			r = restoreRowOf(*j)
		}
		res.Done = !r.running()
		res.Outcome, res.Failed = restoreOutcome(w.Label, r)
	case "snapshot":
		var st string
		var done bool
		switch {
		case rt == routeFlex:
			s, err := b.FlexSnapshot(ctx, gid, w.Cluster.Name, w.ID)
			if err != nil {
				return res, err
			}
			st, done = strings.ToLower(string(s.Status)), s.Done()
		case w.Cluster.Kind == kindSharded:
			s, err := b.ShardedSnapshot(ctx, gid, w.Cluster.Name, w.ID)
			if err != nil {
				return res, err
			}
			st, done = string(s.Status), s.Done()
		default:
			s, err := b.Snapshot(ctx, gid, w.Cluster.Name, w.ID)
			if err != nil {
				return res, err
			}
			st, done = string(s.Status), s.Done()
		}
		res.Done = done
		res.Outcome, res.Failed = w.Label+" "+st, st == string(apiclient.SnapshotFailed)
	case "export":
		j, err := b.ExportJob(ctx, gid, w.Cluster.Name, w.ID)
		if err != nil {
			return res, err
		}
		res.Done = j.Done()
		res.Outcome, res.Failed = w.Label+" "+strings.ToLower(string(j.State)), j.State != apiclient.ExportSuccessful
	}
	return res, nil
}

// restoreOutcome is the toast for a restore that ended.
func restoreOutcome(label string, r restoreRow) (string, bool) {
	switch r.State {
	case apiclient.RestoreFinished:
		return label + " finished", false
	case apiclient.RestoreDownloadReady:
		return label + ": download ready", false
	}
	return label + " " + string(r.State), true
}
