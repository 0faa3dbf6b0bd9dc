package apisim

import (
	"net/http"
	"slices"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/limits"
)

type RestoreJob struct {
	ID                    string    `json:"id"`
	GroupID               string    `json:"groupId"`
	ClusterName           string    `json:"clusterName"`
	Kind                  string    `json:"kind"` // cluster, serverless or flex
	SnapshotID            string    `json:"snapshotId"`
	DeliveryType          string    `json:"deliveryType"`
	TargetClusterName     string    `json:"targetClusterName,omitempty"`
	TargetGroupID         string    `json:"targetGroupId,omitempty"`
	PointInTimeUTCSeconds int64     `json:"pointInTimeUTCSeconds,omitempty"`
	OplogTs               int64     `json:"oplogTs,omitempty"`
	OplogInc              int64     `json:"oplogInc,omitempty"`
	CreatedAt             time.Time `json:"createdAt"`
	QueueFor              int64     `json:"queueFor"`
	RunFor                int64     `json:"runFor"`
	Cancelled             bool      `json:"cancelled"`
	Failed                bool      `json:"failed"`
	// WillFail makes the job fail when its run ends instead of finishing
	// (a sharded snapshot restored onto a target of another topology).
	WillFail bool `json:"willFail,omitempty"`
}

// failed reports a job that failed by now: marked so, or doomed and its run over.
func (j *RestoreJob) failed(now time.Time) bool {
	return j.Failed || (j.WillFail && !j.Cancelled && phase(now, j.CreatedAt, j.QueueFor, j.RunFor) == 2)
}

func (j *RestoreJob) finishedAt(now time.Time) *time.Time {
	if j.Cancelled || j.failed(now) || phase(now, j.CreatedAt, j.QueueFor, j.RunFor) < 2 {
		return nil
	}
	t := j.CreatedAt.Add(secs(j.QueueFor + j.RunFor))
	return &t
}

func (c *call) restoreView(j *RestoreJob) any {
	fin := j.finishedAt(c.now)
	v := map[string]any{
		"id": j.ID, "snapshotId": j.SnapshotID, "deliveryType": j.DeliveryType, "cancelled": j.Cancelled,
		"failed": j.failed(c.now), "expired": false, "timestamp": fmtTime(j.CreatedAt),
		"deliveryUrl": []string{}, "components": []any{},
	}
	setTime(v, "finishedAt", fin)
	if j.TargetClusterName != "" {
		v["targetClusterName"], v["targetGroupId"] = j.TargetClusterName, j.TargetGroupID
	}
	if j.PointInTimeUTCSeconds != 0 {
		v["pointInTimeUTCSeconds"] = j.PointInTimeUTCSeconds
	}
	if j.OplogTs != 0 {
		v["oplogTs"], v["oplogInc"] = j.OplogTs, j.OplogInc
		v["desiredTimestamp"] = map[string]any{"date": fmtTime(time.Unix(j.OplogTs, 0)), "increment": j.OplogInc}
	}
	if j.DeliveryType == "download" && fin != nil {
		exp := fin.Add(4 * time.Hour)
		v["expiresAt"] = fmtTime(exp)
		v["expired"] = !c.now.Before(exp)
		v["deliveryUrl"] = []string{"https://restore.sim.invalid/" + j.ID + "/restore-" + j.SnapshotID + ".tar.gz"}
	}
	return v
}

func (c *call) restoreJob(cl *Cluster, kind string) (*RestoreJob, error) {
	id := c.param("restoreJobId")
	j := find(c.w.RestoreJobs, func(x *RestoreJob) bool {
		return x.ID == id && x.GroupID == cl.GroupID && x.ClusterName == cl.Name && x.Kind == kind
	})
	if j == nil {
		return nil, errNotFound("RESTORE_JOB_NOT_FOUND", "No restore job with ID %s exists for %s.", id, cl.Name)
	}
	return j, nil
}

// clusterRestoreJob resolves {clusterName} among the cluster API's clusters
// and then {restoreJobId} among its restore jobs.
func (c *call) clusterRestoreJob() (*Cluster, *RestoreJob, error) {
	cl, err := c.clusterAPICluster("clusterName", true)
	if err != nil {
		return nil, nil, err
	}
	j, err := c.restoreJob(cl, "cluster")
	if err != nil {
		return nil, nil, err
	}
	return cl, j, nil
}

func (c *call) restoreJobsOf(cl *Cluster, kind string) []*RestoreJob {
	var out []*RestoreJob
	for _, j := range c.w.restoreJobsAt(cl.GroupID, cl.Name) {
		if j.Kind == kind {
			out = append(out, j)
		}
	}
	slices.SortStableFunc(out, func(a, b *RestoreJob) int { return b.CreatedAt.Compare(a.CreatedAt) })
	return out
}

// restoreBody is DiskBackupSnapshotRestoreJob (and the serverless variant).
type restoreBody struct {
	DeliveryType          string `json:"deliveryType"`
	SnapshotID            string `json:"snapshotId"`
	TargetClusterName     string `json:"targetClusterName"`
	TargetGroupID         string `json:"targetGroupId"`
	PointInTimeUTCSeconds *int64 `json:"pointInTimeUTCSeconds"`
	OplogTs               *int64 `json:"oplogTs"`
	OplogInc              *int64 `json:"oplogInc"`
}

// validate checks the body against the spec's rules; serverless restores
// always need a target.
func (b *restoreBody) validate(c *call, serverless bool) *apiError {
	switch b.DeliveryType {
	case "":
		return errMissing("deliveryType")
	case "automated", "download", "pointInTime":
	default:
		return errField("deliveryType", "must be one of automated, download, pointInTime")
	}
	if b.DeliveryType != "pointInTime" && b.SnapshotID == "" {
		return errMissing("snapshotId")
	}
	if b.SnapshotID != "" && !hexID.MatchString(b.SnapshotID) {
		return errField("snapshotId", "must be a 24-character hexadecimal id")
	}
	if b.DeliveryType != "download" || serverless {
		if b.TargetClusterName == "" {
			return errMissing("targetClusterName")
		}
		if b.TargetGroupID == "" {
			return errMissing("targetGroupId")
		}
		if !hexID.MatchString(b.TargetGroupID) {
			return errField("targetGroupId", "must be a 24-character hexadecimal id")
		}
	}
	if e := limitError("", ifSet(b.PointInTimeUTCSeconds, limits.PointInTimeUTCSeconds),
		ifSet(b.OplogTs, limits.OplogTs), ifSet(b.OplogInc, limits.OplogInc)); e != nil {
		return e
	}
	if (b.OplogTs == nil) != (b.OplogInc == nil) {
		return errField("oplogInc", "oplogTs and oplogInc must be given together")
	}
	if b.DeliveryType == "pointInTime" {
		if b.PointInTimeUTCSeconds == nil && b.OplogTs == nil {
			return errMissing("pointInTimeUTCSeconds")
		}
		if b.PointInTimeUTCSeconds != nil && *b.PointInTimeUTCSeconds > c.now.Unix() {
			return errField("pointInTimeUTCSeconds", "must not be in the future")
		}
	}
	if b.TargetClusterName != "" {
		if tp := c.w.project(b.TargetGroupID); tp == nil || c.w.cluster(tp.ID, b.TargetClusterName) == nil {
			return errNotFound("CLUSTER_NOT_FOUND", "No cluster named %s exists in group %s.", b.TargetClusterName, b.TargetGroupID)
		}
	}
	return nil
}

func (b *restoreBody) job(c *call, cl *Cluster, kind string) *RestoreJob {
	j := &RestoreJob{
		ID: c.w.newID(), GroupID: cl.GroupID, ClusterName: cl.Name, Kind: kind, SnapshotID: b.SnapshotID,
		DeliveryType: b.DeliveryType, TargetClusterName: b.TargetClusterName, TargetGroupID: b.TargetGroupID,
		CreatedAt: c.now, QueueFor: 5, RunFor: 115,
	}
	if b.PointInTimeUTCSeconds != nil {
		j.PointInTimeUTCSeconds = *b.PointInTimeUTCSeconds
	}
	if b.OplogTs != nil {
		j.OplogTs, j.OplogInc = *b.OplogTs, *b.OplogInc
	}
	return j
}

// completedSnapshot checks the restore's snapshot exists and is complete.
func (c *call) completedSnapshot(cl *Cluster, id string, kinds ...string) *apiError {
	if id == "" {
		return nil
	}
	s := find(c.w.Snapshots, func(x *Snapshot) bool {
		return x.ID == id && x.GroupID == cl.GroupID && x.ClusterName == cl.Name && slices.Contains(kinds, x.Kind)
	})
	if s == nil {
		return errNotFound("SNAPSHOT_NOT_FOUND", "No snapshot with ID %s exists for cluster %s.", id, cl.Name)
	}
	if s.finished(c.now) == nil {
		return errBadRequest("SNAPSHOT_NOT_COMPLETE", "Snapshot %s is %s; only completed snapshots can be restored.", id, s.status(c.now))
	}
	return nil
}

// restoreRequest decodes and validates a restore body for cl, whose snapshot
// (of one of the kinds) must have completed.
func (c *call) restoreRequest(cl *Cluster, serverless bool, kinds ...string) (*restoreBody, *apiError) {
	var b restoreBody
	if e := c.decode(&b); e != nil {
		return nil, e
	}
	if e := b.validate(c, serverless); e != nil {
		return nil, e
	}
	if e := c.completedSnapshot(cl, b.SnapshotID, kinds...); e != nil {
		return nil, e
	}
	return &b, nil
}

func createBackupRestoreJob(c *call) (any, error) {
	cl, err := c.clusterAPICluster("clusterName", true)
	if err != nil {
		return nil, err
	}
	b, e := c.restoreRequest(cl, false, KindReplicaSet, KindSharded)
	if e != nil {
		return nil, e
	}
	j := b.job(c, cl, "cluster")
	if cl.Kind == KindSharded && b.TargetClusterName != "" {
		// The service accepts the job and only finds out while restoring that
		// the target's shards do not match the snapshot's.
		if t := c.w.cluster(b.TargetGroupID, b.TargetClusterName); t != nil && (t.Kind != KindSharded || t.Shards != cl.Shards) {
			j.WillFail = true
		}
	}
	c.w.RestoreJobs = append(c.w.RestoreJobs, j)
	c.markChanged()
	return c.restoreView(j), nil
}

func cancelBackupRestoreJob(c *call) (any, error) {
	cl, j, err := c.clusterRestoreJob()
	if err != nil {
		return nil, err
	}
	if cl.Kind == KindSharded {
		return nil, newError(http.StatusMethodNotAllowed, "ATLAS_BACKUP_CANCEL_SHARD_RESTORE_JOB_NOT_ALLOWED",
			"Restore jobs of sharded cluster %s cannot be cancelled.", cl.Name)
	}
	if j.Cancelled || j.failed(c.now) || j.finishedAt(c.now) != nil {
		return nil, errBadRequest("CANNOT_CANCEL_FINISHED_RESTORE_JOB", "Restore job %s has already finished or been cancelled.", j.ID)
	}
	j.Cancelled = true
	c.markChanged()
	return nil, nil
}
