// The restore wizard's request: the point in time as typed and sent, the
// request, its answer and the read-back after a lost one.

package backups

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// parseWhen reads a UTC date-time.
func parseWhen(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{"2006-01-02 15:04:05", "2006-01-02 15:04", time.RFC3339, "2006-01-02T15:04:05"} {
		if t, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			return t, nil
		}
	}
	return time.Time{}, errors.New(`a UTC time like "2025-06-01 11:30:00"`)
}

// pitField validates the point-in-time fields the chosen mode uses.
func pitField(key string) func(string, components.FormValues) error {
	return func(v string, all components.FormValues) error {
		oplog := all["mode"] == pitOplog
		switch key {
		case "when":
			if oplog {
				return nil
			}
			t, err := parseWhen(v)
			if err != nil {
				return err
			}
			if t.Unix() < apiclient.MinOplogTs {
				return errors.New("must be 2008-01-01 or later")
			}
		case "oplogTs":
			if !oplog {
				return nil
			}
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil || n < apiclient.MinOplogTs {
				return fmt.Errorf("seconds since the epoch, at least %d (2008-01-01)", apiclient.MinOplogTs)
			}
		case "oplogInc":
			if !oplog {
				return nil
			}
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil || n < 1 {
				return errors.New("at least 1")
			}
		}
		return nil
	}
}

// label names the restore in its notices and its watch: "restore of
// …0000011f to staging-rs", "point-in-time restore of payments-rs as of
// 2025-06-01 11:30 UTC to staging-rs", "download restore of …0000011f".
func (wz *wizard) label() string {
	switch {
	case wz.Delivery == apiclient.DeliveryDownload && wz.Route == routeCluster:
		return "download restore of " + short(wz.Snapshot.ID)
	case wz.Delivery == apiclient.DeliveryPointInTime:
		return "point-in-time restore of " + wz.Source.Name + " as of " + wz.pointText() + " to " + wz.Target
	}
	return "restore of " + short(wz.Snapshot.ID) + " to " + wz.Target
}

// pointText is the point in time as it is sent: the date read back from
// the seconds sent, or the oplog timestamp and increment.
func (wz *wizard) pointText() string {
	return pointText(wz.PITMode, wz.When, wz.OplogTs, wz.OpInc)
}

func pointText(mode, when, ts, inc string) string {
	if mode == pitOplog {
		return "oplog " + strings.TrimSpace(ts) + "/" + strings.TrimSpace(inc)
	}
	if t, err := parseWhen(when); err == nil {
		return t.UTC().Format("2006-01-02 15:04:05") + " UTC"
	}
	return strings.TrimSpace(when) + " UTC"
}

// pitFields names the point-in-time fields of the request, with their
// values, as they are sent: "pointInTimeUTCSeconds 1748777400 (2025-06-01
// 11:30:00 UTC)" or "oplogTs 1748777400, oplogInc 3".
func pitFields(mode, when, ts, inc string) string {
	if mode == pitOplog {
		return "oplogTs " + firstNonEmpty(strings.TrimSpace(ts), "?") + ", oplogInc " + firstNonEmpty(strings.TrimSpace(inc), "?")
	}
	t, err := parseWhen(when)
	if err != nil {
		return "pointInTimeUTCSeconds ? (no valid time yet)"
	}
	return fmt.Sprintf("pointInTimeUTCSeconds %d (%s UTC)", t.Unix(), t.UTC().Format("2006-01-02 15:04:05"))
}

// pitSends is step 2's line of what enter sends for the point in time.
func pitSends(v components.FormValues) string {
	mode := v["mode"]
	if mode == "" {
		mode = pitDateTime
	}
	return "sends " + pitFields(mode, v["when"], v["oplogTs"], v["oplogInc"])
}

// request builds the cluster (or serverless) restore request.
func (wz *wizard) request() apiclient.RestoreRequest {
	r := apiclient.RestoreRequest{DeliveryType: wz.Delivery}
	if wz.Delivery != apiclient.DeliveryPointInTime {
		r.SnapshotID = wz.Snapshot.ID
	}
	if wz.Delivery != apiclient.DeliveryDownload || wz.Route == routeServerless {
		r.TargetClusterName, r.TargetGroupID = wz.Target, wz.Project.ID
	}
	if wz.Delivery == apiclient.DeliveryPointInTime {
		if wz.PITMode == pitOplog {
			r.OplogTs, _ = strconv.ParseInt(strings.TrimSpace(wz.OplogTs), 10, 64)
			r.OplogInc, _ = strconv.ParseInt(strings.TrimSpace(wz.OpInc), 10, 64)
		} else if t, err := parseWhen(wz.When); err == nil {
			r.PointInTimeUTCSeconds = t.Unix()
		}
	}
	return r
}

// restoreSent is the answer to the wizard's final step.
type restoreSent struct {
	N     int
	Watch watch
	State string
	// Verified: the answer was lost and the job was found by reading back.
	Verified bool
}

// restoreUnknown is a restore whose answer was lost: it may have started.
type restoreUnknown struct {
	N    int
	Sent time.Time
	// Still is set once the read-back failed too; Err says why.
	Still bool
	// NotApplied: the read-back found no such job.
	NotApplied bool
	Err        string
}

// restoreReply is the answer of a restore's request or of its read-back:
// started, or its outcome unknown; with neither, the error refused it.
type restoreReply struct {
	N       int
	Sent    *restoreSent
	Unknown *restoreUnknown
}

func (p *Pane) sendRestore() tea.Cmd {
	wz := p.wizard
	client, gid := p.Ctx.Client, p.Ctx.GroupID
	req, n := wz.request(), wz.n
	label := wz.label()
	src, rt, target, project := wz.Source, wz.Route, wz.Target, wz.Project.ID
	wz.Sent = true
	return views.Write(&p.Base, keyWizard, p.seq.Next(), "starting "+label, func(ctx context.Context) (restoreReply, error) {
		b := client.Backups()
		var id string
		var err error
		switch rt {
		case routeFlex:
			var j *apiclient.FlexRestoreJob
			if j, err = b.CreateFlexRestoreJob(ctx, gid, src.Name, apiclient.FlexRestoreRequest{SnapshotID: req.SnapshotID, TargetDeploymentItemName: target, TargetProjectID: project}); err == nil {
				id = j.ID
			}
		case routeServerless:
			var j *apiclient.RestoreJob
			if j, err = b.CreateServerlessRestoreJob(ctx, gid, src.Name, req); err == nil {
				id = j.ID
			}
		default:
			var j *apiclient.RestoreJob
			if j, err = b.CreateRestoreJob(ctx, gid, src.Name, req); err == nil {
				id = j.ID
			}
		}
		if ou, ok := apiclient.AsOutcomeUnknown(err); ok {
			return restoreReply{N: n, Unknown: &restoreUnknown{N: n, Sent: ou.Sent}}, nil
		}
		if err != nil {
			return restoreReply{N: n}, err
		}
		return restoreReply{N: n, Sent: &restoreSent{N: n, Watch: watch{Kind: "restore", ID: id, Cluster: src, Label: label}}}, nil
	})
}

// verifyRestore reads the restore jobs back after a lost answer and
// reports the job that was sent, if the server holds it.
func (p *Pane) verifyRestore(sent time.Time) tea.Cmd {
	wz := p.wizard
	client, gid, req, n, src, rt := p.Ctx.Client, p.Ctx.GroupID, wz.request(), wz.n, wz.Source, wz.Route
	label := wz.label()
	return views.Get(&p.Base, keyWizard, p.seq.Next(), "checking what the server holds", func(ctx context.Context) (restoreReply, error) {
		unknown := func(u restoreUnknown) (restoreReply, error) { return restoreReply{N: n, Unknown: &u}, nil }
		if rt != routeCluster {
			return unknown(restoreUnknown{N: n, Sent: sent, Still: true, Err: "this kind of restore cannot be read back by what was sent"})
		}
		j, ok, err := client.Backups().VerifyCreateRestoreJob(ctx, gid, src.Name, req, sent)
		switch {
		case err != nil:
			return unknown(restoreUnknown{N: n, Sent: sent, Still: true, Err: views.ErrText(err)})
		case !ok:
			return unknown(restoreUnknown{N: n, Sent: sent, NotApplied: true})
		}
		return restoreReply{N: n, Sent: &restoreSent{N: n, Verified: true, Watch: watch{Kind: "restore", ID: j.ID, Cluster: src, Label: label}}}, nil
	})
}

// restoreAnswer: success starts watching and shows the restores; a refusal
// reopens the step the user can fix, with everything chosen kept.
func (p *Pane) restoreAnswer(msg views.Result[restoreReply]) tea.Cmd {
	switch r := msg.Value; {
	case r.Sent != nil:
		v := r.Sent
		if p.wizard == nil || v.N != p.wizard.n {
			return nil
		}
		p.wizard = nil
		p.watching[v.Watch.ID] = v.Watch
		p.focusRestore = v.Watch.ID
		p.view = viewRestores
		p.notice = ""
		p.layout()
		done := v.Watch.Label + " started"
		if v.Verified {
			done += " (verified after a lost answer)"
		}
		p.Toast(done, false)
		return tea.Batch(p.loadData("", allParts, keyData), p.Arm())
	case r.Unknown != nil:
		v := r.Unknown
		wz := p.wizard
		if wz == nil || v.N != wz.n {
			return nil
		}
		switch {
		case v.Still:
			p.wizard = nil
			p.notice = "restore sent - outcome still unknown (" + v.Err + "); the Restores view (tab, r) shows what the server holds"
			p.Refuse(p.notice)
			return p.loadData("", allParts, keyData)
		case v.NotApplied:
			p.wizard = nil
			p.notice = "restore " + views.NotApplied + "; R starts a new one"
			p.Refuse(p.notice)
			return nil
		}
		p.notice = "restore " + views.OutcomeChecking
		p.Toast(p.notice, false)
		return p.verifyRestore(v.Sent)
	}
	// Refused: the step the user can fix reopens.
	wz := p.wizard
	if wz == nil || msg.Value.N != wz.n || msg.Err == nil {
		return nil
	}
	wz.Err, wz.Sent = views.ErrText(msg.Err), false
	p.Refuse("restore refused: " + wz.Err + " (fix it in the reopened step)")
	if wz.Delivery == apiclient.DeliveryDownload && wz.Route == routeCluster {
		p.deliveryForm()
	} else {
		p.targetForm()
	}
	return nil
}
