package backups

import (
	"context"
	"errors"
	"fmt"

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
