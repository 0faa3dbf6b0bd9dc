package backups

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
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
	Targets  []restoreChoice

	Target  string
	PITMode string
	When    string
	OplogTs string
	OpInc   string
	Err     string // the last refusal, shown on the reopened step
	// Sent: the restore left; its answer is awaited or being verified, and
	// the confirmation cannot send it again.
	Sent bool
}

// wizardMove is where a confirmed step of the wizard goes, in its
// ActionMsg's Payload; a form's submit carries none (its Form says which).
type wizardMove int

const (
	moveNone        wizardMove = iota
	moveSend                   // step 3 confirmed: send the restore
	moveBack                   // step 2's way back to step 1
	moveBackConfirm            // step 3's way back to the step before it
)

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
	Targets  []restoreChoice
	Step     string // the form waiting for this answer, "" for the first
}

// restoreStep drives the wizard once started: every answered step arrives as the Restore action,
// told apart by its form or, for a confirmation's answer, its wizardMove.
func (p *Pane) restoreStep(msg views.ActionMsg) tea.Cmd {
	move, ok := msg.Payload.(wizardMove)
	switch {
	case msg.Payload != nil && !ok:
		p.refuse(fmt.Sprintf("restore: an answer this wizard does not know (%T); nothing was sent", msg.Payload))
		return nil
	case p.wizard == nil:
		const gone = "this restore was abandoned; press R again"
		if msg.Form == "" {
			p.refuse("restore: " + gone)
		} else {
			p.FormDone(msg.Form, errors.New(gone))
		}
		return nil
	case move == moveBack:
		// Step 2's way back: step 1 again, with what was chosen there.
		p.deliveryForm()
		return nil
	case move == moveBackConfirm:
		// Step 3's way back: the step before it (a download has no step 2).
		if wz := p.wizard; wz.Sent {
			p.Refuse("this restore was sent already; its outcome is being checked")
			return nil
		}
		if p.wizard.Delivery == apiclient.DeliveryDownload && p.wizard.Route == routeCluster {
			p.deliveryForm()
		} else {
			p.targetForm()
		}
		return nil
	case msg.Form == formDelivery:
		return p.deliveryChosen(msg.Values)
	case msg.Form == formTarget:
		return p.targetChosen(msg.Values)
	case move == moveSend:
		if p.wizard.Sent {
			p.Refuse("this restore was sent already; its outcome is being checked")
			return nil
		}
		return p.sendRestore()
	}
	return nil
}

func (p *Pane) startWizard() tea.Cmd {
	s, _ := p.selectedSnap() // refusal made sure there is one, completed, on a route that restores
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
			p.refuse("restore: projects could not be listed: " + views.ErrText(msg.Err))
			return nil
		}
		wz.Projects = res.Projects
		for _, pr := range res.Projects {
			p.projectNames[pr.ID] = pr.Name // for the restore detail's target project
		}
		wz.Project = apiclient.Project{ID: p.Ctx.GroupID, Name: p.Ctx.ProjectName}
		for _, pr := range res.Projects {
			if pr.ID == p.Ctx.GroupID {
				wz.Project = pr
			}
		}
		p.deliveryForm()
		return nil
	}
	switch {
	case msg.Err != nil:
		p.FormDone(res.Step, fmt.Errorf("clusters of %s could not be listed: %w", wz.Project.Name, msg.Err))
	case len(res.Targets) == 0:
		p.FormDone(res.Step, fmt.Errorf("project %s has no cluster to restore to", wz.Project.Name))
	default:
		wz.Targets = res.Targets
		p.FormDone(res.Step, nil)
		p.targetForm()
	}
	return nil
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

func (p *Pane) deliveryForm() {
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
	p.form(formDelivery, fmt.Sprintf("Restore snapshot %s of %s (1/3)", short(wz.Snapshot.ID), wz.Source.Name), []components.Field{
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
		p.FormDone(formDelivery, nil)
		p.finalConfirm()
		return nil
	}
	client, n, gid, rt := p.Ctx.Client, wz.n, wz.Project.ID, wz.Route
	src := wz.source(p.Ctx.GroupID)
	return views.Get(&p.Base, keyWizard, p.seq.Next(), "", func(ctx context.Context) (wizardLoaded, error) {
		targets, err := restoreTargets(ctx, client, gid, rt, src)
		return wizardLoaded{N: n, Targets: targets, Step: formDelivery}, err
	})
}

// restoreChoice is one cluster of the target project in the wizard's list;
// Why says why it cannot receive the snapshot ("" when it can).
type restoreChoice struct {
	Name, Version, Kind, Why string
	// InPlace: the snapshot's own cluster; restoring onto it rolls it back
	// in place.
	InPlace bool
}

// inPlaceMark is how the wizard marks the snapshot's own cluster.
const inPlaceMark = "this cluster (roll back in place)"

// source is what targets are judged against: the snapshot's cluster, its
// topology and the snapshot's MongoDB version.
func (wz *wizard) source(gid string) apiclient.RestoreSource {
	ct := apiclient.ClusterReplicaSet
	if wz.Source.Kind == kindSharded || wz.Snapshot.Sharded {
		ct = apiclient.ClusterSharded
	}
	return apiclient.RestoreSource{GroupID: gid,
		Cluster: apiclient.Cluster{Name: wz.Source.Name, GroupID: gid, ClusterType: ct, MongoDBVersion: wz.Source.Version},
		Version: wz.Snapshot.Version}
}

// restoreTargets lists every deployment of a project, each judged as a
// target for the snapshot: dedicated clusters by apiclient.RestoreTarget for
// cluster snapshots; flex clusters (and migrated serverless instances) for
// flex ones, never the source itself nor an older version. The ones that
// can receive it come first, each group by name.
func restoreTargets(ctx context.Context, c *apiclient.Client, gid string, rt route, src apiclient.RestoreSource) ([]restoreChoice, error) {
	cls, err := c.Clusters().All(ctx, gid)
	if err != nil {
		return nil, fmt.Errorf("list clusters: %w", err)
	}
	var out []restoreChoice
	for _, cl := range cls {
		kind := strings.TrimSpace(cl.InstanceSize() + " " + topology(cl))
		ch := restoreChoice{Name: cl.Name, Version: cl.MongoDBVersion, Kind: kind}
		if cl.GroupID == "" {
			cl.GroupID = gid
		}
		switch rt {
		case routeCluster:
			ch.Why = apiclient.RestoreTarget(src, cl).Reason
			ch.InPlace = apiclient.InPlace(src, cl)
		default:
			ch.Why = "a dedicated cluster; this snapshot restores onto flex clusters"
		}
		out = append(out, ch)
	}
	// Flex and serverless lists are best effort, as in loadClusters.
	judgeFlex := func(name, version, kind string) restoreChoice {
		ch := restoreChoice{Name: name, Version: version, Kind: kind}
		switch {
		case rt == routeCluster:
			ch.Why = map[string]string{"flex": "a flex cluster", "serverless": "a serverless instance"}[kind] + " cannot receive a dedicated cluster's snapshot"
		case rt == routeServerless && kind != "serverless":
			ch.Why = "serverless snapshots restore onto serverless instances"
		default:
			ch.InPlace = name == src.Cluster.Name && gid == src.GroupID
			v := firstNonEmpty(src.Version, src.Cluster.MongoDBVersion)
			if cmp, ok := apiclient.CompareMongoDBVersions(version, v); ok && cmp < 0 {
				ch.Why = "MongoDB " + version + " is older than the snapshot's " + v
			}
		}
		return ch
	}
	if fl, err := c.Clusters().AllFlex(ctx, gid); err == nil {
		for _, f := range fl {
			out = append(out, judgeFlex(f.Name, f.MongoDBVersion, "flex"))
		}
	}
	if sl, err := c.Clusters().AllServerless(ctx, gid); err == nil {
		for _, s := range sl {
			out = append(out, judgeFlex(s.Name, s.MongoDBVersion, "serverless"))
		}
	}
	// The snapshot's own cluster first (rolling back in place is the
	// commonest restore), then the others that can receive it, then the
	// greyed ones; each group by name.
	rank := func(c restoreChoice) int {
		switch {
		case c.Why != "":
			return 2
		case c.InPlace:
			return 0
		}
		return 1
	}
	slices.SortStableFunc(out, func(a, b restoreChoice) int {
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra - rb
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out, nil
}

func topology(cl apiclient.Cluster) string {
	if cl.ClusterType == apiclient.ClusterSharded || cl.ClusterType == apiclient.ClusterGeoSharded {
		return "sharded"
	}
	return "replica set"
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// target is the chosen target's entry in the list.
func (wz *wizard) target() restoreChoice {
	for _, t := range wz.Targets {
		if t.Name == wz.Target {
			return t
		}
	}
	return restoreChoice{Name: wz.Target}
}

func (p *Pane) targetForm() {
	wz := p.wizard
	var names, details, reasons []string
	choice := -1
	for i, t := range wz.Targets {
		names = append(names, t.Name)
		detail := fmt.Sprintf("%-7s %s", firstNonEmpty(t.Version, "?"), t.Kind)
		if t.InPlace && t.Why == "" {
			detail = inPlaceMark // the snapshot's version is in the label
		}
		details = append(details, detail)
		reasons = append(reasons, t.Why)
		if t.Name == wz.Target && t.Why == "" {
			choice = i
		}
	}
	fields := []components.Field{
		{Key: "cluster", Label: "Target cluster in " + components.Sanitize(wz.Project.Name) + " (snapshot: MongoDB " + firstNonEmpty(wz.Snapshot.Version, "?") + ")", Kind: components.FieldChoice,
			List: true, Choices: names, Details: details, Reasons: reasons, Choice: choice, None: choice < 0,
			Hint: "↑/↓ choose (its data is replaced) · " + p.backKey() + " back to 1/3"},
	}
	if wz.Delivery == apiclient.DeliveryPointInTime {
		modes := []string{pitDateTime, pitOplog}
		fields = append(fields,
			components.Field{Key: "mode", Label: "Restore to", Kind: components.FieldChoice, Choices: modes, Choice: indexOf(modes, wz.PITMode)},
			// What enter sends, under the choice (seen without scrolling
			// at 80x24); typing into a mode's fields selects that mode.
			components.Field{Key: "sends", Kind: components.FieldNote, Live: pitSends},
			components.Field{Key: "when", Label: "Point in time (UTC)", Value: wz.When, Placeholder: "2025-06-01 11:30:00", Validate: pitField("when"),
				Selects: &components.Selects{Key: "mode", Choice: pitDateTime}},
			components.Field{Key: "oplogTs", Label: "oplog ts (seconds since the epoch)", Value: wz.OplogTs, Validate: pitField("oplogTs"),
				Selects: &components.Selects{Key: "mode", Choice: pitOplog}},
			components.Field{Key: "oplogInc", Label: "oplog inc", Value: wz.OpInc, Validate: pitField("oplogInc"),
				Selects: &components.Selects{Key: "mode", Choice: pitOplog}},
		)
	}
	if wz.Err != "" {
		fields[0].Hint = "last attempt refused: " + wz.Err
	}
	p.Form(views.FormMsg{ID: formTarget, Title: fmt.Sprintf("Restore snapshot %s of %s (2/3)", short(wz.Snapshot.ID), wz.Source.Name),
		Fields: fields, Action: views.ActionMsg{Name: keysOf(p.Ctx.Keys).Restore.Name},
		Back: &views.ActionMsg{Name: keysOf(p.Ctx.Keys).Restore.Name, Payload: moveBack}})
}

// backKey is the key that goes back a step of the wizard: the dialog's
// previous-field key on a step's first field.
func (p *Pane) backKey() string {
	if p.Ctx.Keys == nil {
		return "shift+tab"
	}
	return p.Ctx.Keys.Dialog.PrevField.Help().Key
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
	p.FormDone(formTarget, nil)
	p.finalConfirm()
	return nil
}

// finalConfirm states what the restore does; an overwriting one asks for
// the target cluster's name.
func (p *Pane) finalConfirm() {
	wz := p.wizard
	what := fmt.Sprintf("snapshot %s of %s (taken %s)", wz.Snapshot.ID, wz.Source.Name, fmtTime(wz.Snapshot.Created))
	if wz.Delivery == apiclient.DeliveryPointInTime {
		what = fmt.Sprintf("%s as of %s", wz.Source.Name, wz.pointText())
	}
	back := &views.ActionMsg{Name: keysOf(p.Ctx.Keys).Restore.Name, Payload: moveBackConfirm}
	if wz.Delivery == apiclient.DeliveryDownload && wz.Route == routeCluster {
		p.Confirm(views.ConfirmMsg{Title: "Start a download restore? (3/3)",
			Body: "Prepares " + what + " as files to download. No cluster is changed; the link expires after a few hours.\n" +
				p.backKey() + " goes back to step 1.",
			Action: views.ActionMsg{Name: keysOf(p.Ctx.Keys).Restore.Name, Payload: moveSend}, Back: back})
		return
	}
	tg := wz.target()
	from := fmt.Sprintf("snapshot %s of %s, taken %s, MongoDB %s", wz.Snapshot.ID, wz.Source.Name, fmtTime(wz.Snapshot.Created), firstNonEmpty(wz.Snapshot.Version, "?"))
	if wz.Delivery == apiclient.DeliveryPointInTime {
		from = fmt.Sprintf("%s as of %s, MongoDB %s", wz.Source.Name, wz.pointText(), firstNonEmpty(wz.Snapshot.Version, firstNonEmpty(wz.Source.Version, "?")))
	}
	to := fmt.Sprintf("project %s, cluster %s, MongoDB %s", components.Sanitize(wz.Project.Name), tg.Name, firstNonEmpty(tg.Version, "?"))
	title := fmt.Sprintf("Restore onto %s? (3/3)", wz.Target)
	if tg.InPlace {
		to = fmt.Sprintf("%s itself (project %s): this cluster, rolled back in place", tg.Name, components.Sanitize(wz.Project.Name))
		title = fmt.Sprintf("Roll %s back in place? (3/3)", wz.Target)
	}
	sends := ""
	if wz.Delivery == apiclient.DeliveryPointInTime {
		sends = "  sends " + pitFields(wz.PITMode, wz.When, wz.OplogTs, wz.OpInc) + "\n"
	}
	p.Confirm(views.ConfirmMsg{Title: title,
		Body: fmt.Sprintf("%s restore\n  %s\n  -> %s\n%sALL DATA on %s is REPLACED by the snapshot's and cannot be recovered afterwards. Type the target cluster's name to confirm (%s: back to step 2).",
			wz.Delivery, from, to, sends, wz.Target, p.backKey()),
		TypeToConfirm: wz.Target, Back: back,
		Action: views.ActionMsg{Name: keysOf(p.Ctx.Keys).Restore.Name, Payload: moveSend}})
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
