package apisim

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/limits"
)

// Cloud backups: snapshots (replica set, sharded, tenant, serverless, flex),
// restore jobs, export buckets and jobs, the schedule and the compliance
// policy. Snapshots and jobs move with the clock: their state is computed
// from when they were created.

type Snapshot struct {
	ID               string    `json:"id"`
	GroupID          string    `json:"groupId"`
	ClusterName      string    `json:"clusterName"`
	Kind             string    `json:"kind"` // the cluster kind
	SnapshotType     string    `json:"snapshotType"`
	FrequencyType    string    `json:"frequencyType"`
	Description      string    `json:"description"`
	CreatedAt        time.Time `json:"createdAt"`
	ExpiresAt        time.Time `json:"expiresAt"`
	QueueFor         int64     `json:"queueFor"`
	RunFor           int64     `json:"runFor"`
	Failed           bool      `json:"failed"`
	StorageSizeBytes int64     `json:"storageSizeBytes"`
	MongodVersion    string    `json:"mongodVersion"`
}

// Job durations are stored as whole seconds so the state file stays readable.
func secs(d int64) time.Duration { return time.Duration(d) * time.Second }

// phase says where a clocked job is: 0 queued, 1 running, 2 done.
func phase(now, start time.Time, queue, run int64) int {
	switch {
	case now.Before(start.Add(secs(queue))):
		return 0
	case now.Before(start.Add(secs(queue + run))):
		return 1
	}
	return 2
}

func (s *Snapshot) status(now time.Time) string {
	if s.Failed {
		return "failed"
	}
	return [...]string{"queued", "inProgress", "completed"}[phase(now, s.CreatedAt, s.QueueFor, s.RunFor)]
}

// upperStatus is the tenant and flex spelling.
func (s *Snapshot) upperStatus(now time.Time) string {
	if s.Failed {
		return "FAILED"
	}
	return [...]string{"QUEUED", "RUNNING", "COMPLETED"}[phase(now, s.CreatedAt, s.QueueFor, s.RunFor)]
}

func (s *Snapshot) finished(now time.Time) *time.Time {
	if s.Failed || phase(now, s.CreatedAt, s.QueueFor, s.RunFor) < 2 {
		return nil
	}
	t := s.CreatedAt.Add(secs(s.QueueFor + s.RunFor))
	return &t
}

// setFrequency tells a scheduled snapshot's frequency. An on-demand snapshot
// has none (its snapshotType says what it is): the member is absent, as the
// response enum is hourly..yearly (a state file of an older simulator may
// hold "ondemand").
func (s *Snapshot) setFrequency(v map[string]any) {
	if s.FrequencyType != "" && s.FrequencyType != "ondemand" {
		v["frequencyType"] = s.FrequencyType
	}
}

func (c *call) snapshotView(s *Snapshot, cl *Cluster) any {
	v := map[string]any{
		"id": s.ID, "createdAt": fmtTime(s.CreatedAt), "expiresAt": fmtTime(s.ExpiresAt), "description": s.Description,
		"status": s.status(c.now), "snapshotType": s.SnapshotType,
		"storageSizeBytes": s.StorageSizeBytes, "mongodVersion": s.MongodVersion, "cloudProvider": cl.Provider,
		"copyRegions": []any{}, "policyItems": []any{},
	}
	s.setFrequency(v)
	if s.Kind == KindSharded {
		v["type"] = "shardedCluster"
		v["configServerType"] = "EMBEDDED"
		var members, ids []any
		for i := range max(cl.Shards, 1) {
			mid := s.ID[:20] + string(rune('a'+i)) + "000"
			members = append(members, map[string]any{"cloudProvider": cl.Provider, "id": mid, "replicaSetName": shardName(cl, i)})
			ids = append(ids, mid)
		}
		v["members"], v["snapshotIds"] = members, ids
		return v
	}
	v["type"] = "replicaSet"
	v["replicaSetName"] = shardName(cl, 0)
	return v
}

func shardName(cl *Cluster, i int) string {
	return cl.Name + "-shard-" + string(rune('0'+i))
}

func (c *call) snapshot(cl *Cluster, kinds ...string) (*Snapshot, error) {
	id := c.param("snapshotId")
	s := find(c.w.Snapshots, func(x *Snapshot) bool {
		return x.ID == id && x.GroupID == cl.GroupID && x.ClusterName == cl.Name && slices.Contains(kinds, x.Kind)
	})
	if s == nil {
		return nil, errNotFound("SNAPSHOT_NOT_FOUND", "No snapshot with ID %s exists for cluster %s.", id, cl.Name)
	}
	return s, nil
}

// clusterSnapshot resolves {clusterName} among the cluster API's clusters
// and then {snapshotId} among its snapshots of the kinds.
func (c *call) clusterSnapshot(kinds ...string) (*Cluster, *Snapshot, error) {
	cl, err := c.clusterAPICluster("clusterName", true)
	if err != nil {
		return nil, nil, err
	}
	s, err := c.snapshot(cl, kinds...)
	if err != nil {
		return nil, nil, err
	}
	return cl, s, nil
}

func (c *call) snapshotsOf(cl *Cluster, kinds ...string) []*Snapshot {
	var out []*Snapshot
	for _, s := range c.w.snapshotsAt(cl.GroupID, cl.Name) {
		if slices.Contains(kinds, s.Kind) {
			out = append(out, s)
		}
	}
	// Newest first, as the backup pages show them.
	slices.SortStableFunc(out, func(a, b *Snapshot) int { return b.CreatedAt.Compare(a.CreatedAt) })
	return out
}

func init() {
	handle("listReplicaSetBackups", func(c *call) (any, error) {
		cl, err := c.clusterAPICluster("clusterName", true)
		if err != nil {
			return nil, err
		}
		return listOf(c.snapshotsOf(cl, KindReplicaSet), func(s *Snapshot) any { return c.snapshotView(s, cl) }), nil
	})
	handle("listShardedClusterBackups", func(c *call) (any, error) {
		cl, err := c.clusterAPICluster("clusterName", true)
		if err != nil {
			return nil, err
		}
		return listOf(c.snapshotsOf(cl, KindSharded), func(s *Snapshot) any { return c.snapshotView(s, cl) }), nil
	})
	handle("getReplicaSetBackup", getClusterSnapshot(KindReplicaSet))
	handle("getShardedClusterBackup", getClusterSnapshot(KindSharded))
	handle("takeSnapshot", takeSnapshot)
	handle("deleteReplicaSetBackup", deleteClusterSnapshot(KindReplicaSet))
	handle("deleteShardedClusterBackup", deleteClusterSnapshot(KindSharded))
	handle("updateSnapshotRetention", updateSnapshotRetention)
	handle("getSharedClusterBackup", getSharedClusterBackup)

	handle("listBackupRestoreJobs", func(c *call) (any, error) {
		cl, err := c.clusterAPICluster("clusterName", true)
		if err != nil {
			return nil, err
		}
		return listOf(c.restoreJobsOf(cl, "cluster"), c.restoreView), nil
	})
	handle("getBackupRestoreJob", func(c *call) (any, error) {
		_, j, err := c.clusterRestoreJob()
		if err != nil {
			return nil, err
		}
		return c.restoreView(j), nil
	})
	handle("createBackupRestoreJob", createBackupRestoreJob)
	handle("cancelBackupRestoreJob", cancelBackupRestoreJob)
}

func getClusterSnapshot(kind string) opHandler {
	return func(c *call) (any, error) {
		cl, s, err := c.clusterSnapshot(kind)
		if err != nil {
			return nil, err
		}
		return c.snapshotView(s, cl), nil
	}
}

func deleteClusterSnapshot(kind string) opHandler {
	return func(c *call) (any, error) {
		_, s, err := c.clusterSnapshot(kind)
		if err != nil {
			return nil, err
		}
		if st := s.status(c.now); st == "queued" || st == "inProgress" {
			return nil, errConflict("SNAPSHOT_IN_PROGRESS", "Snapshot %s is %s and cannot be deleted yet.", s.ID, st)
		}
		if keep, rule, ok := c.complianceKeeps(s); ok && c.now.Before(keep) {
			e := errBadRequest("VALIDATION_ERROR", "Snapshot %s cannot be deleted before %s: the project's Backup Compliance Policy keeps %s.",
				s.ID, fmtTime(keep), rule)
			e.Params = []any{s.ID, fmtTime(keep)}
			return nil, e
		}
		remove(&c.w.Snapshots, func(x *Snapshot) bool { return x == s })
		c.markChanged()
		return nil, nil
	}
}

func takeSnapshot(c *call) (any, error) {
	cl, err := c.clusterAPICluster("clusterName", true)
	if err != nil {
		return nil, err
	}
	var b struct {
		Description     string `json:"description"`
		RetentionInDays *int   `json:"retentionInDays"`
	}
	if len(c.body) > 0 {
		if e := c.decode(&b); e != nil {
			return nil, e
		}
	}
	days := 1
	if b.RetentionInDays != nil {
		if e := limitError("", limits.RetentionInDays(*b.RetentionInDays)); e != nil {
			return nil, e
		}
		if *b.RetentionInDays > 3650 { // the simulator's own bound: ten years
			return nil, errField("retentionInDays", "must be at most 3650, got %d", *b.RetentionInDays)
		}
		days = *b.RetentionInDays
	}
	if len(b.Description) > 1000 {
		return nil, errField("description", "must be at most 1000 characters")
	}
	for _, s := range c.snapshotsOf(cl, cl.Kind) {
		if st := s.status(c.now); s.SnapshotType == "onDemand" && (st == "queued" || st == "inProgress") {
			return nil, errConflict("ON_DEMAND_SNAPSHOT_IN_PROGRESS",
				"An on-demand snapshot (%s) of %s is already %s; only one may be queued or in progress.", s.ID, cl.Name, st)
		}
	}
	s := &Snapshot{
		GroupID: cl.GroupID, ClusterName: cl.Name, Kind: cl.Kind, SnapshotType: "onDemand",
		Description: b.Description, CreatedAt: c.now, ExpiresAt: c.now.AddDate(0, 0, days),
		QueueFor: 10, RunFor: 50, StorageSizeBytes: int64(cl.DiskSizeGB * 3e7), MongodVersion: cl.MongoDBVersion,
	}
	// The compliance policy's on-demand minimum is the floor of its retention
	// too: kept less, it would expire while the policy still keeps it.
	if keep, rule, ok := c.complianceKeeps(s); ok && s.ExpiresAt.Before(keep) {
		unit := "days"
		if days == 1 {
			unit = "day"
		}
		return nil, errField("retentionInDays", "%d %s from now ends %s, before %s: the project's Backup Compliance Policy keeps %s",
			days, unit, fmtTime(s.ExpiresAt), fmtTime(keep), rule)
	}
	s.ID = c.w.newID() // only once it is taken: a refusal uses no id
	c.w.Snapshots = append(c.w.Snapshots, s)
	c.markChanged()
	return c.snapshotView(s, cl), nil
}

var retentionUnits = map[string]int{"DAYS": 1, "WEEKS": 7, "MONTHS": 30, "YEARS": 365}

// complianceKeeps is until when the project's Backup Compliance Policy keeps
// the snapshot (its creation plus the minimum of the policy item for its
// kind: the on-demand item, or the scheduled item of its frequency), and
// that minimum in words ("daily snapshots at least 7 days"); ok is false
// when no policy or item covers it. Before then the service refuses to
// delete the snapshot or to set it to expire. The policy binds from the
// moment it is set, while it is still being applied too.
func (c *call) complianceKeeps(s *Snapshot) (keep time.Time, rule string, ok bool) {
	p := c.w.Compliance[s.GroupID]
	if p == nil {
		return time.Time{}, "", false
	}
	var it *PolicyItem
	what := "on-demand"
	if s.SnapshotType == "onDemand" {
		it = p.OnDemandPolicyItem
	} else {
		for i := range p.ScheduledPolicyItems {
			if p.ScheduledPolicyItems[i].FrequencyType == s.FrequencyType {
				it, what = &p.ScheduledPolicyItems[i], s.FrequencyType
			}
		}
	}
	if it == nil || it.RetentionValue < 1 {
		return time.Time{}, "", false
	}
	days := limits.RetentionDays(strings.ToLower(it.RetentionUnit), it.RetentionValue)
	return s.CreatedAt.AddDate(0, 0, days), fmt.Sprintf("%s snapshots at least %d %s", what, it.RetentionValue, strings.ToLower(it.RetentionUnit)), true
}

func updateSnapshotRetention(c *call) (any, error) {
	cl, s, err := c.clusterSnapshot(KindReplicaSet, KindSharded)
	if err != nil {
		return nil, err
	}
	var b struct {
		RetentionUnit  string `json:"retentionUnit"`
		RetentionValue *int   `json:"retentionValue"`
	}
	if e := c.decode(&b); e != nil {
		return nil, e
	}
	days, ok := retentionUnits[b.RetentionUnit]
	switch {
	case b.RetentionUnit == "":
		return nil, errMissing("retentionUnit")
	case !ok:
		return nil, errField("retentionUnit", "must be one of DAYS, WEEKS, MONTHS, YEARS")
	case b.RetentionValue == nil:
		return nil, errMissing("retentionValue")
	case *b.RetentionValue < 1 || *b.RetentionValue*days > 36500:
		return nil, errField("retentionValue", "must be at least 1 and at most 100 years")
	}
	expires := c.now.AddDate(0, 0, days**b.RetentionValue)
	if keep, rule, ok := c.complianceKeeps(s); ok && expires.Before(keep) {
		return nil, errField("retentionValue", "%d %s from now ends %s, before %s: the project's Backup Compliance Policy keeps %s",
			*b.RetentionValue, b.RetentionUnit, fmtTime(expires), fmtTime(keep), rule)
	}
	s.ExpiresAt = expires
	c.markChanged()
	return c.snapshotView(s, cl), nil
}

func getSharedClusterBackup(c *call) (any, error) {
	cl, err := c.clusterAPICluster("clusterName", false)
	if err != nil {
		return nil, err
	}
	if cl.Kind != KindTenant {
		return nil, errBadRequest("CLUSTER_NOT_TENANT", "Cluster %s is not a shared-tier cluster; use the snapshot routes.", cl.Name)
	}
	s, err := c.snapshot(cl, KindTenant)
	if err != nil {
		return nil, err
	}
	return c.tenantSnapshotView(s), nil
}

// tenantSnapshotView is both BackupTenantSnapshot and FlexBackupSnapshot.
func (c *call) tenantSnapshotView(s *Snapshot) any {
	v := map[string]any{
		"id": s.ID, "status": s.upperStatus(c.now), "mongoDBVersion": s.MongodVersion,
		"scheduledTime": fmtTime(s.CreatedAt), "expiration": fmtTime(s.ExpiresAt),
	}
	if phase(c.now, s.CreatedAt, s.QueueFor, s.RunFor) > 0 {
		v["startTime"] = fmtTime(s.CreatedAt.Add(secs(s.QueueFor)))
	}
	if f := s.finished(c.now); f != nil {
		v["finishTime"] = fmtTime(*f)
	}
	return v
}
