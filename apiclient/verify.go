package apiclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"time"
)

// Read-back after a write whose outcome is unknown (*OutcomeUnknownError):
// each Verify* reads the resource the write was about and reports whether it
// holds what was sent (applied) or not. A create is matched in the list by
// what was sent and by being created no earlier than the error's Sent time,
// so an older look-alike does not count. An error means the check itself
// failed and the outcome is still unknown.

// VerifyRetries is how often a Verify* read is retried while it fails
// (transport errors, 5xx, 429, malformed bodies), unless the caller's
// context says otherwise (WithRetries): more than a poll's MaxRetries,
// because the check is what stands between a lost answer and a user who
// would otherwise submit again. Under 30% malformed answers, seven tries
// all fail once in 4,600 checks.
const VerifyRetries = 6

// verifying is ctx with VerifyRetries, unless it carries its own allowance.
func verifying(ctx context.Context) context.Context {
	return WithRetries(ctx, retriesFor(ctx, VerifyRetries))
}

// dateSlack absorbs a server that stores times to the second (a resource
// created at 12:00:00.9 says 12:00:00) and a margin for a service whose
// hosts' clocks differ by less than a second. The send time it is applied
// to (OutcomeUnknownError.Sent) is itself a lower bound.
const dateSlack = 2 * time.Second

func createdSince(created, sent time.Time) bool {
	return sent.IsZero() || !created.Before(sent.Add(-dateSlack))
}

// VerifyAcknowledge reads the alert back and reports whether it carries the
// acknowledgement (or its removal) that req asked for.
func (s AlertsService) VerifyAcknowledge(ctx context.Context, groupID, alertID string, req AcknowledgeRequest) (_ *Alert, holds bool, err error) {
	defer s.c.tellSettled("acknowledgeAlert", map[string]string{"groupId": groupID, "alertId": alertID}, &holds, &err)
	ctx = verifying(ctx)
	a, err := s.Get(ctx, groupID, alertID)
	if err != nil {
		return nil, false, fmt.Errorf("verify acknowledge: %w", err)
	}
	return a, AckHolds(*a, req, s.c.Now()), nil
}

// AckHolds reports whether alert a holds what req asked for at now.
func AckHolds(a Alert, req AcknowledgeRequest, now time.Time) bool {
	if req.UnacknowledgeAlert {
		return !a.Acknowledged(now)
	}
	if a.AcknowledgedUntil == nil || a.AcknowledgementComment != req.AcknowledgementComment {
		return false
	}
	if req.AcknowledgedUntil == nil {
		return a.Acknowledged(now)
	}
	d := a.AcknowledgedUntil.Sub(*req.AcknowledgedUntil)
	return d > -dateSlack && d < dateSlack
}

// VerifyTakeSnapshot looks for the on-demand snapshot req asked for, taken
// since sent; the newest match is returned. The cluster's kind is not
// assumed: the replica-set and the sharded-cluster lists are both read (a
// sharded cluster's snapshot is only in the second), and when neither
// route takes the cluster (a serverless or flex one), the serverless and
// flex lists. A list that could not be read for another reason leaves the
// outcome unknown (an error), never "not taken".
func (s BackupsService) VerifyTakeSnapshot(ctx context.Context, groupID, clusterName string, req TakeSnapshotRequest, sent time.Time) (_ *Snapshot, holds bool, err error) {
	defer s.c.tellSettled("takeSnapshot", clusterParams(groupID, clusterName), &holds, &err)
	ctx = verifying(ctx)
	var found *Snapshot
	consider := func(snap Snapshot) {
		if snap.SnapshotType == SnapshotOnDemand && snap.Description == req.Description &&
			createdSince(snap.CreatedAt, sent) && (found == nil || snap.CreatedAt.After(found.CreatedAt)) {
			found = &snap
		}
	}
	rs, rsErr := s.AllSnapshots(ctx, groupID, clusterName)
	for _, snap := range rs {
		consider(snap)
	}
	sh, shErr := s.ShardedSnapshots(ctx, groupID, clusterName)
	if shErr == nil {
		for _, x := range sh.Results {
			consider(Snapshot{ID: x.ID, CreatedAt: x.CreatedAt, ExpiresAt: x.ExpiresAt, Description: x.Description,
				FrequencyType: x.FrequencyType, MongodVersion: x.MongodVersion, SnapshotType: x.SnapshotType,
				Status: x.Status, StorageSizeBytes: x.StorageSizeBytes, Type: x.Type, Links: x.Links})
		}
	}
	if found != nil {
		return found, true, nil
	}
	switch {
	case rsErr == nil && shErr == nil:
		return nil, false, nil
	case rsErr == nil && refusedRoute(shErr), shErr == nil && refusedRoute(rsErr):
		// One route took the cluster: its list is the whole answer.
		return nil, false, nil
	case refusedRoute(rsErr) && refusedRoute(shErr):
		// Neither took it: a serverless instance or a flex cluster.
		return s.verifyOtherSnapshot(ctx, groupID, clusterName, sent)
	}
	err = rsErr
	if err == nil || refusedRoute(err) {
		err = shErr
	}
	return nil, false, fmt.Errorf("verify snapshot: %w", err)
}

// refusedRoute reports an answer saying the route does not take the
// cluster (a 4xx other than auth and rate limits), as against a failure to
// read.
func refusedRoute(err error) bool {
	var e *Error
	if !errors.As(err, &e) {
		return false
	}
	switch e.Status {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusTooManyRequests, http.StatusRequestTimeout:
		return false
	}
	return e.Status >= 400 && e.Status < 500
}

// verifyOtherSnapshot reads a serverless instance's snapshots for an
// on-demand one taken since sent, and a flex cluster's (which has none on
// demand, so a list read is "not taken").
func (s BackupsService) verifyOtherSnapshot(ctx context.Context, groupID, name string, sent time.Time) (*Snapshot, bool, error) {
	sl, slErr := getAll[ServerlessSnapshot](ctx, s.c, "listServerlessBackups", Request{Params: clusterParams(groupID, name)})
	if slErr == nil {
		var found *Snapshot
		for _, x := range sl {
			if x.SnapshotType == SnapshotOnDemand && createdSince(x.CreatedAt, sent) && (found == nil || x.CreatedAt.After(found.CreatedAt)) {
				found = &Snapshot{ID: x.ID, CreatedAt: x.CreatedAt, ExpiresAt: x.ExpiresAt, FrequencyType: x.FrequencyType,
					MongodVersion: x.MongodVersion, SnapshotType: x.SnapshotType, Status: x.Status, StorageSizeBytes: x.StorageSizeBytes}
			}
		}
		return found, found != nil, nil
	}
	_, flErr := getAll[FlexSnapshot](ctx, s.c, "listFlexBackups", Request{Params: flexParams(groupID, name)})
	if flErr == nil {
		return nil, false, nil
	}
	return nil, false, fmt.Errorf("verify snapshot: %w", slErr)
}

// VerifyCreateRestoreJob looks for a restore job of clusterName's backups
// with every field req sent that had not finished before sent.
func (s BackupsService) VerifyCreateRestoreJob(ctx context.Context, groupID, clusterName string, req RestoreRequest, sent time.Time) (_ *RestoreJob, holds bool, err error) {
	defer s.c.tellSettled("createBackupRestoreJob", clusterParams(groupID, clusterName), &holds, &err)
	ctx = verifying(ctx)
	all, err := s.AllRestoreJobs(ctx, groupID, clusterName)
	if err != nil {
		return nil, false, fmt.Errorf("verify restore: %w", err)
	}
	for i, j := range all {
		if j.DeliveryType == req.DeliveryType && j.SnapshotID == req.SnapshotID &&
			j.TargetClusterName == req.TargetClusterName && j.TargetGroupID == req.TargetGroupID &&
			j.OplogTs == req.OplogTs && j.OplogInc == req.OplogInc &&
			j.PointInTimeUTCSeconds == req.PointInTimeUTCSeconds &&
			(j.FinishedAt == nil || createdSince(*j.FinishedAt, sent)) {
			return &all[i], true, nil
		}
	}
	return nil, false, nil
}

// VerifyCreateExportJob looks for the export of req's snapshot to req's
// bucket created since sent.
func (s BackupsService) VerifyCreateExportJob(ctx context.Context, groupID, clusterName string, req ExportJobRequest, sent time.Time) (_ *ExportJob, holds bool, err error) {
	defer s.c.tellSettled("createBackupExportJob", clusterParams(groupID, clusterName), &holds, &err)
	ctx = verifying(ctx)
	all, err := getAll[ExportJob](ctx, s.c, "listBackupExportJobs", Request{Params: clusterParams(groupID, clusterName)})
	if err != nil {
		return nil, false, fmt.Errorf("verify export: %w", err)
	}
	for i, j := range all {
		if j.SnapshotID == req.SnapshotID && j.ExportBucketID == req.ExportBucketID &&
			reflect.DeepEqual(labelsOrNil(j.CustomData), labelsOrNil(req.CustomData)) && createdSince(j.CreatedAt, sent) {
			return &all[i], true, nil
		}
	}
	return nil, false, nil
}

func labelsOrNil(l []Label) []Label {
	if len(l) == 0 {
		return nil
	}
	return l
}

// VerifyCreateIndex reads the index back by its name (unique within its
// collection) and reports whether it exists with the type sent.
func (s SearchService) VerifyCreateIndex(ctx context.Context, groupID, clusterName string, req SearchIndexCreateRequest) (_ *SearchIndex, holds bool, err error) {
	defer s.c.tellSettled("createAtlasSearchIndex", clusterParams(groupID, clusterName), &holds, &err)
	ctx = verifying(ctx)
	idx, err := s.GetByName(ctx, groupID, clusterName, req.Database, req.CollectionName, req.Name)
	if IsNotFound(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("verify index: %w", err)
	}
	if req.Type != "" && idx.Type != "" && idx.Type != req.Type {
		return idx, false, nil
	}
	return idx, true, nil
}

// VerifyCreate looks for an alert configuration with cfg's event type,
// matchers, notifications (kind and where each goes) and enabled flag
// created since sent.
func (s AlertConfigsService) VerifyCreate(ctx context.Context, groupID string, cfg AlertConfig, sent time.Time) (_ *AlertConfig, holds bool, err error) {
	defer s.c.tellSettled("createAlertConfiguration", map[string]string{"groupId": groupID}, &holds, &err)
	ctx = verifying(ctx)
	all, err := s.ListAll(ctx, groupID)
	if err != nil {
		return nil, false, fmt.Errorf("verify alert configuration: %w", err)
	}
	for i, a := range all {
		if a.EventTypeName == cfg.EventTypeName && a.Enabled == cfg.Enabled &&
			reflect.DeepEqual(matchersOrNil(a.Matchers), matchersOrNil(cfg.Matchers)) &&
			sameNotifications(a.Notifications, cfg.Notifications) &&
			(a.Created == nil || createdSince(*a.Created, sent)) {
			return &all[i], true, nil
		}
	}
	return nil, false, nil
}

// sameNotifications compares notifications by kind and by where they go,
// in order. Secrets (keys, tokens, webhook URLs) come back masked and
// defaults may be filled in, so they are not compared.
func sameNotifications(got, sent []Notification) bool {
	if len(got) != len(sent) {
		return false
	}
	for i, g := range got {
		n := sent[i]
		if g.TypeName != n.TypeName || g.EmailAddress != n.EmailAddress || g.Username != n.Username ||
			g.MobileNumber != n.MobileNumber || g.TeamID != n.TeamID || g.ChannelName != n.ChannelName ||
			!slices.Equal(g.Roles, n.Roles) {
			return false
		}
	}
	return true
}

func matchersOrNil(m []Matcher) []Matcher {
	if len(m) == 0 {
		return nil
	}
	return m
}
