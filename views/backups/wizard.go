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
	"github.com/dbadmin-tui/dbadmin-tui/ui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// wizard is a restore being set up: delivery type and target project, then
// target cluster and point in time, then a typed confirmation. Each step is
// a form; what was chosen is kept here so a refused restore reopens with it.
type wizard struct {
	n        int
	Source   clusterRef
	Route    route
	Snapshot snapRow

	Projects []apiclient.Project
	Delivery apiclient.DeliveryType
	Project  apiclient.Project
	Clusters []string

	Target  string
	PITMode string
	When    string
	OplogTs string
	OpInc   string
	Err     string // the last refusal, shown on the reopened step
}

// Point-in-time modes.
const (
	pitDateTime = "date-time (UTC)"
	pitOplog    = "oplog ts/inc"
)

var wizardN int

// wizardLoaded answers a wizard's fetch of projects or clusters.
type wizardLoaded struct {
	N        int
	Projects []apiclient.Project
	Clusters []string
	Step     string // the form waiting for this answer, "" for the first
}

// restoreStep drives the wizard: every step arrives as the Restore action,
// told apart by its form or confirmation target.
func (p *Pane) restoreStep(msg views.ActionMsg) tea.Cmd {
	switch {
	case !msg.Confirmed:
		return p.startWizard()
	case p.wizard == nil:
		return views.FormDone(ID, msg.Form, errors.New("this restore was abandoned; press R again"))
	case msg.Form == formDelivery:
		return p.deliveryChosen(msg.Values)
	case msg.Form == formTarget:
		return p.targetChosen(msg.Values)
	case msg.Target == targetRestoreGo:
		return p.sendRestore()
	}
	return nil
}

func (p *Pane) startWizard() tea.Cmd {
	s, ok := p.selectedSnap()
	if !ok || p.view != viewSnapshots {
		return p.refuse("restore: select a snapshot in the Snapshots view first")
	}
	if !s.Completed {
		return p.refuse("restore: snapshot " + short(s.ID) + " is " + s.Status + "; only completed snapshots can be restored")
	}
	if p.data.Route == routeNone {
		return p.refuse("restore: shared-tier clusters cannot be restored through the API")
	}
	wizardN++
	p.wizard = &wizard{n: wizardN, Source: *p.cluster, Route: p.data.Route, Snapshot: s, PITMode: pitDateTime}
	client, n := p.Ctx.Client, p.wizard.n
	return views.Get(&p.Base, keyWizard, p.seq.Next(), "loading projects", func(ctx context.Context) (wizardLoaded, error) {
		ps, err := client.Projects().All(ctx)
		return wizardLoaded{N: n, Projects: ps}, err
	})
}

func (p *Pane) wizardResult(msg views.Result[wizardLoaded]) tea.Cmd {
	res := msg.Value
	wz := p.wizard
	if wz == nil || res.N != wz.n {
		return nil
	}
	if res.Step == "" {
		if msg.Err != nil {
			p.wizard = nil
			return p.refuse("restore: projects could not be listed: " + errText(msg.Err))
		}
		wz.Projects = res.Projects
		wz.Project = apiclient.Project{ID: p.Ctx.GroupID, Name: p.Ctx.ProjectName}
		for _, pr := range res.Projects {
			if pr.ID == p.Ctx.GroupID {
				wz.Project = pr
			}
		}
		return p.deliveryForm()
	}
	if msg.Err != nil {
		return views.FormDone(ID, res.Step, fmt.Errorf("clusters of %s could not be listed: %w", wz.Project.Name, msg.Err))
	}
	if len(res.Clusters) == 0 {
		return views.FormDone(ID, res.Step, fmt.Errorf("project %s has no cluster this snapshot can be restored to", wz.Project.Name))
	}
	wz.Clusters = res.Clusters
	return tea.Sequence(views.FormDone(ID, res.Step, nil), p.targetForm())
}

func (wz *wizard) deliveries() []string {
	switch wz.Route {
	case routeFlex:
		return []string{string(apiclient.DeliveryAutomated)}
	}
	return []string{string(apiclient.DeliveryAutomated), string(apiclient.DeliveryDownload), string(apiclient.DeliveryPointInTime)}
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return 0
}

func (p *Pane) deliveryForm() tea.Cmd {
	wz := p.wizard
	var names []string
	for _, pr := range wz.Projects {
		names = append(names, components.Sanitize(pr.Name))
	}
	if len(names) == 0 {
		names = []string{components.Sanitize(wz.Project.Name)}
	}
	deliveries := wz.deliveries()
	hint := "automated and pointInTime OVERWRITE the target"
	if wz.Route == routeFlex {
		hint = "flex restores are automated: they OVERWRITE the target"
	}
	return p.form(formDelivery, fmt.Sprintf("Restore snapshot %s of %s (1/3)", short(wz.Snapshot.ID), wz.Source.Name), []components.Field{
		{Key: "delivery", Label: "Delivery", Kind: components.FieldChoice, Choices: deliveries, Choice: indexOf(deliveries, string(wz.Delivery)), Hint: hint},
		{Key: "project", Label: "Target project", Kind: components.FieldChoice, Choices: names, Choice: indexOf(names, components.Sanitize(wz.Project.Name)),
			Hint: "ignored for downloads"},
	}, views.ActionMsg{Name: keysOf(p.Ctx.Keys).Restore.Name})
}

func (p *Pane) deliveryChosen(v components.FormValues) tea.Cmd {
	wz := p.wizard
	wz.Delivery = apiclient.DeliveryType(v["delivery"])
	for _, pr := range wz.Projects {
		if components.Sanitize(pr.Name) == v["project"] {
			wz.Project = pr
		}
	}
	if wz.Delivery == apiclient.DeliveryDownload && wz.Route == routeCluster {
		return tea.Sequence(views.FormDone(ID, formDelivery, nil), p.finalConfirm())
	}
	client, n, gid, rt, source := p.Ctx.Client, wz.n, wz.Project.ID, wz.Route, wz.Source.Name
	return views.Get(&p.Base, keyWizard, p.seq.Next(), "", func(ctx context.Context) (wizardLoaded, error) {
		names, err := restoreTargets(ctx, client, gid, rt, source)
		return wizardLoaded{N: n, Clusters: names, Step: formDelivery}, err
	})
}

// restoreTargets lists the deployments a snapshot can be restored onto in a
// project: dedicated clusters for cluster snapshots, flex clusters (and
// migrated serverless instances) for flex ones. The source comes last, so
// the first choice is never the cluster the snapshot came from.
func restoreTargets(ctx context.Context, c *apiclient.Client, gid string, rt route, source string) ([]string, error) {
	refs, err := loadClusters(ctx, c, gid)
	if err != nil {
		return nil, err
	}
	var out []string
	var self bool
	for _, r := range refs {
		ok := false
		switch rt {
		case routeCluster:
			ok = r.Kind == kindReplicaSet || r.Kind == kindSharded
		case routeFlex:
			ok = r.Kind == kindFlex || r.Kind == kindServerless
		case routeServerless:
			ok = r.Kind == kindServerless
		}
		if !ok {
			continue
		}
		if r.Name == source {
			self = true
			continue
		}
		out = append(out, r.Name)
	}
	if self {
		out = append(out, source)
	}
	return out, nil
}

func (p *Pane) targetForm() tea.Cmd {
	wz := p.wizard
	fields := []components.Field{
		{Key: "cluster", Label: "Target cluster in " + components.Sanitize(wz.Project.Name), Kind: components.FieldChoice,
			Choices: wz.Clusters, Choice: indexOf(wz.Clusters, wz.Target), Hint: "its data is replaced by the snapshot's"},
	}
	if wz.Delivery == apiclient.DeliveryPointInTime {
		modes := []string{pitDateTime, pitOplog}
		fields = append(fields,
			components.Field{Key: "mode", Label: "Restore to", Kind: components.FieldChoice, Choices: modes, Choice: indexOf(modes, wz.PITMode)},
			components.Field{Key: "when", Label: "Point in time (UTC)", Value: wz.When, Placeholder: "2025-06-01 11:30:00", Validate: pitField("when")},
			components.Field{Key: "oplogTs", Label: "oplog ts (seconds since the epoch)", Value: wz.OplogTs, Validate: pitField("oplogTs")},
			components.Field{Key: "oplogInc", Label: "oplog inc", Value: wz.OpInc, Validate: pitField("oplogInc")},
		)
	}
	if wz.Err != "" {
		fields[0].Hint = "last attempt refused: " + wz.Err
	}
	return p.form(formTarget, fmt.Sprintf("Restore snapshot %s of %s (2/3)", short(wz.Snapshot.ID), wz.Source.Name), fields,
		views.ActionMsg{Name: keysOf(p.Ctx.Keys).Restore.Name})
}

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

func (p *Pane) targetChosen(v components.FormValues) tea.Cmd {
	wz := p.wizard
	wz.Target, wz.PITMode, wz.When, wz.OplogTs, wz.OpInc = v["cluster"], v["mode"], v["when"], v["oplogTs"], v["oplogInc"]
	if wz.PITMode == "" {
		wz.PITMode = pitDateTime
	}
	return tea.Sequence(views.FormDone(ID, formTarget, nil), p.finalConfirm())
}

// finalConfirm states what the restore does; an overwriting one asks for
// the target cluster's name.
func (p *Pane) finalConfirm() tea.Cmd {
	wz := p.wizard
	what := fmt.Sprintf("snapshot %s of %s (taken %s)", wz.Snapshot.ID, wz.Source.Name, fmtTime(wz.Snapshot.Created))
	if wz.Delivery == apiclient.DeliveryPointInTime {
		what = fmt.Sprintf("%s as of %s", wz.Source.Name, wz.pointText())
	}
	if wz.Delivery == apiclient.DeliveryDownload && wz.Route == routeCluster {
		return p.confirm(views.ConfirmMsg{Title: "Start a download restore? (3/3)",
			Body:   "Prepares " + what + " as files to download. No cluster is changed; the link expires after a few hours.",
			Action: views.ActionMsg{Name: keysOf(p.Ctx.Keys).Restore.Name, Target: targetRestoreGo}})
	}
	return p.confirm(views.ConfirmMsg{Title: fmt.Sprintf("Restore onto %s? (3/3)", wz.Target),
		Body: fmt.Sprintf("This %s restore OVERWRITES ALL DATA on cluster %s in project %s with %s. The target's current data cannot be recovered afterwards. Type the target cluster's name to confirm.",
			wz.Delivery, wz.Target, components.Sanitize(wz.Project.Name), what),
		TypeToConfirm: wz.Target,
		Action:        views.ActionMsg{Name: keysOf(p.Ctx.Keys).Restore.Name, Target: targetRestoreGo}})
}

func (wz *wizard) pointText() string {
	if wz.PITMode == pitOplog {
		return "oplog " + strings.TrimSpace(wz.OplogTs) + "/" + strings.TrimSpace(wz.OpInc)
	}
	return strings.TrimSpace(wz.When) + " UTC"
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
}

func (p *Pane) sendRestore() tea.Cmd {
	wz := p.wizard
	client, gid := p.Ctx.Client, p.Ctx.GroupID
	req, n := wz.request(), wz.n
	label := "restore of " + short(wz.Snapshot.ID) + " to " + wz.Target
	if wz.Delivery == apiclient.DeliveryDownload && wz.Route == routeCluster {
		label = "download restore of " + short(wz.Snapshot.ID)
	}
	src, rt, target, project := wz.Source, wz.Route, wz.Target, wz.Project.ID
	return views.Write(&p.Base, keyWizard, p.seq.Next(), "starting "+label, func(ctx context.Context) (restoreSent, error) {
		b := client.Backups()
		var id string
		switch rt {
		case routeFlex:
			j, err := b.CreateFlexRestoreJob(ctx, gid, src.Name, apiclient.FlexRestoreRequest{SnapshotID: req.SnapshotID, TargetDeploymentItemName: target, TargetProjectID: project})
			if err != nil {
				return restoreSent{N: n}, err
			}
			id = j.ID
		case routeServerless:
			j, err := b.CreateServerlessRestoreJob(ctx, gid, src.Name, req)
			if err != nil {
				return restoreSent{N: n}, err
			}
			id = j.ID
		default:
			j, err := b.CreateRestoreJob(ctx, gid, src.Name, req)
			if err != nil {
				return restoreSent{N: n}, err
			}
			id = j.ID
		}
		return restoreSent{N: n, Watch: watch{Kind: "restore", ID: id, Cluster: src, Label: label}}, nil
	})
}

// restoreAnswer: success starts watching and shows the restores; a refusal
// reopens the step the user can fix, with everything chosen kept.
func (p *Pane) restoreAnswer(msg views.Result[restoreSent]) tea.Cmd {
	v, wz := msg.Value, p.wizard
	if wz == nil || v.N != wz.n {
		return nil
	}
	if msg.Err != nil {
		wz.Err = errText(msg.Err)
		toast := views.Toast("restore refused: "+wz.Err+" (fix it in the reopened step)", true)
		if wz.Delivery == apiclient.DeliveryDownload && wz.Route == routeCluster {
			return tea.Batch(toast, p.deliveryForm())
		}
		return tea.Batch(toast, p.targetForm())
	}
	p.wizard = nil
	p.watching[v.Watch.ID] = v.Watch
	p.focusRestore = v.Watch.ID
	p.view = viewRestores
	p.notice = ""
	p.layout()
	return tea.Batch(views.Toast(v.Watch.Label+" started", false), p.loadData("", allParts, keyData), p.Arm())
}
