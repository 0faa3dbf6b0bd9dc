package apisim

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
)

// Serverless (sunset) and flex backups: snapshots and restore jobs.

// serverlessGone reports whether the serverless backup calls are past their
// sunset at now: from then on the service has migrated every serverless
// instance to flex, so the flex routes serve them.
func serverlessGone(now time.Time) bool {
	op, ok := catalog.Get("listServerlessBackups")
	return ok && op.Gone(now)
}

// flexCluster finds the cluster a flex route addresses, the kind of its
// snapshots and the kinds of its restore jobs: a flex cluster, or a
// serverless instance migrated to flex once the serverless calls are gone
// (its earlier serverless jobs stay listed).
func (c *call) flexCluster() (*Cluster, string, []string, error) {
	if cl := c.w.cluster(c.project.ID, c.param("name")); cl != nil && cl.Kind == KindServerless && serverlessGone(c.now) {
		return cl, KindServerless, []string{"flex", "serverless"}, nil
	}
	cl, err := c.kindCluster("name", KindFlex)
	if err != nil {
		return nil, "", nil, err
	}
	return cl, KindFlex, []string{"flex"}, nil
}

func init() {
	handle("listServerlessBackups", func(c *call) (any, error) {
		cl, err := c.kindCluster("clusterName", KindServerless)
		if err != nil {
			return nil, err
		}
		return listOf(c.snapshotsOf(cl, KindServerless), c.serverlessSnapshotView), nil
	})
	handle("getServerlessBackup", func(c *call) (any, error) {
		cl, err := c.kindCluster("clusterName", KindServerless)
		if err != nil {
			return nil, err
		}
		s, err := c.snapshot(cl, KindServerless)
		if err != nil {
			return nil, err
		}
		return c.serverlessSnapshotView(s), nil
	})
	handle("listServerlessBackupRestoreJobs", func(c *call) (any, error) {
		cl, err := c.kindCluster("clusterName", KindServerless)
		if err != nil {
			return nil, err
		}
		return listOf(c.restoreJobsOf(cl, "serverless"), c.restoreView), nil
	})
	handle("getServerlessBackupRestoreJob", func(c *call) (any, error) {
		cl, err := c.kindCluster("clusterName", KindServerless)
		if err != nil {
			return nil, err
		}
		j, err := c.restoreJob(cl, "serverless")
		if err != nil {
			return nil, err
		}
		return c.restoreView(j), nil
	})
	handle("createServerlessBackupRestoreJob", func(c *call) (any, error) {
		cl, err := c.kindCluster("clusterName", KindServerless)
		if err != nil {
			return nil, err
		}
		b, e := c.restoreRequest(cl, true, KindServerless)
		if e != nil {
			return nil, e
		}
		j := b.job(c, cl, "serverless")
		c.w.RestoreJobs = append(c.w.RestoreJobs, j)
		c.markChanged()
		return c.restoreView(j), nil
	})

	handle("listFlexBackups", func(c *call) (any, error) {
		cl, snapKind, _, err := c.flexCluster()
		if err != nil {
			return nil, err
		}
		return listOf(c.snapshotsOf(cl, snapKind), c.tenantSnapshotView), nil
	})
	handle("getFlexBackup", func(c *call) (any, error) {
		cl, snapKind, _, err := c.flexCluster()
		if err != nil {
			return nil, err
		}
		s, err := c.snapshot(cl, snapKind)
		if err != nil {
			return nil, err
		}
		return c.tenantSnapshotView(s), nil
	})
	handle("listFlexBackupRestoreJobs", func(c *call) (any, error) {
		cl, _, kinds, err := c.flexCluster()
		if err != nil {
			return nil, err
		}
		var jobs []*RestoreJob
		for _, k := range kinds {
			jobs = append(jobs, c.restoreJobsOf(cl, k)...)
		}
		slices.SortStableFunc(jobs, func(a, b *RestoreJob) int { return b.CreatedAt.Compare(a.CreatedAt) })
		return listOf(jobs, c.flexRestoreView), nil
	})
	handle("getFlexBackupRestoreJob", func(c *call) (any, error) {
		cl, _, kinds, err := c.flexCluster()
		if err != nil {
			return nil, err
		}
		for _, k := range kinds {
			if j, err := c.restoreJob(cl, k); err == nil {
				return c.flexRestoreView(j), nil
			}
		}
		return nil, errNotFound("RESTORE_JOB_NOT_FOUND", "No restore job with ID %s exists for %s.", c.param("restoreJobId"), cl.Name)
	})
	handle("createFlexBackupRestoreJob", createFlexRestore(false))
	handle("downloadFlexBackup", createFlexRestore(true))
}

func (c *call) serverlessSnapshotView(s *Snapshot) any {
	v := map[string]any{
		"id": s.ID, "createdAt": fmtTime(s.CreatedAt), "expiresAt": fmtTime(s.ExpiresAt),
		"mongodVersion": s.MongodVersion, "serverlessInstanceName": s.ClusterName,
		"snapshotType": s.SnapshotType, "status": s.status(c.now), "storageSizeBytes": s.StorageSizeBytes,
	}
	s.setFrequency(v)
	return v
}

// flexRestoreView is FlexBackupRestoreJob20241113; a download's snapshotUrl
// appears once the job completes and stays valid for four hours.
func (c *call) flexRestoreView(j *RestoreJob) any {
	status := [...]string{"QUEUED", "RUNNING", "COMPLETED"}[phase(c.now, j.CreatedAt, j.QueueFor, j.RunFor)]
	if j.failed(c.now) {
		status = "FAILED"
	}
	delivery := j.DeliveryType
	switch delivery { // a migrated serverless instance's older jobs
	case "automated", "pointInTime":
		delivery = "RESTORE"
	case "download":
		delivery = "DOWNLOAD"
	}
	v := map[string]any{
		"id": j.ID, "deliveryType": delivery, "status": status, "snapshotId": j.SnapshotID,
		"instanceName": j.ClusterName, "projectId": j.GroupID, "restoreScheduledDate": fmtTime(j.CreatedAt),
		"expirationDate": fmtTime(j.CreatedAt.Add(secs(j.QueueFor + j.RunFor)).Add(4 * 3600e9)),
	}
	if delivery == "RESTORE" {
		v["targetDeploymentItemName"], v["targetProjectId"] = j.TargetClusterName, j.TargetGroupID
	}
	if fin := j.finishedAt(c.now); fin != nil {
		v["restoreFinishedDate"] = fmtTime(*fin)
		v["snapshotFinishedDate"] = fmtTime(*fin)
		if delivery == "DOWNLOAD" {
			v["snapshotUrl"] = "https://restore.sim.invalid/flex/" + j.ID + "/" + j.SnapshotID + ".tar.gz"
		}
	}
	return v
}

func createFlexRestore(download bool) opHandler {
	return func(c *call) (any, error) {
		cl, snapKind, _, err := c.flexCluster()
		if err != nil {
			return nil, err
		}
		var b struct {
			SnapshotID               string `json:"snapshotId"`
			TargetDeploymentItemName string `json:"targetDeploymentItemName"`
			TargetProjectID          string `json:"targetProjectId"`
			// Read-only in the schema; the service ignores it on create
			// and the official CLI sends it.
			InstanceName json.RawMessage `json:"instanceName"`
		}
		if e := c.decode(&b); e != nil {
			return nil, e
		}
		if b.SnapshotID == "" {
			return nil, errMissing("snapshotId")
		}
		if !hexID.MatchString(b.SnapshotID) {
			return nil, errField("snapshotId", "must be a 24-character hexadecimal id")
		}
		j := &RestoreJob{ID: c.w.newID(), GroupID: cl.GroupID, ClusterName: cl.Name, Kind: "flex",
			SnapshotID: b.SnapshotID, DeliveryType: "DOWNLOAD", CreatedAt: c.now, QueueFor: 5, RunFor: 55}
		if !download {
			if b.TargetDeploymentItemName == "" {
				return nil, errMissing("targetDeploymentItemName")
			}
			target := b.TargetProjectID
			if target == "" {
				target = cl.GroupID
			}
			if !hexID.MatchString(target) {
				return nil, errField("targetProjectId", "must be a 24-character hexadecimal id")
			}
			if c.w.project(target) == nil || c.w.cluster(target, b.TargetDeploymentItemName) == nil {
				return nil, errNotFound("CLUSTER_NOT_FOUND", "No cluster named %s exists in group %s.", b.TargetDeploymentItemName, target)
			}
			j.DeliveryType, j.TargetClusterName, j.TargetGroupID = "RESTORE", b.TargetDeploymentItemName, target
		} else if b.TargetDeploymentItemName != "" || b.TargetProjectID != "" {
			return nil, errField("targetDeploymentItemName", "is not an attribute of a download request")
		}
		if e := c.completedSnapshot(cl, b.SnapshotID, snapKind); e != nil {
			return nil, e
		}
		c.w.RestoreJobs = append(c.w.RestoreJobs, j)
		c.markChanged()
		return c.flexRestoreView(j), nil
	}
}
