package backups

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// Form ids.
const (
	formSnapshot   = "snapshot"
	formExpiration = "expiration"
	formExport     = "export"
	formBucket     = "bucket"
	formSchedule   = "schedule"
	formDelivery   = "restore-delivery"
	formTarget     = "restore-target"
)

// Actions are the backup keys. Their operations follow the cluster shown,
// so the gate judges the call that will really be made: sharded deletes,
// flex and serverless restores, bucket deletes in the buckets view.
func (p *Pane) Actions() []keymap.Action {
	if p.Ctx.Keys == nil {
		return nil
	}
	k := keysOf(p.Ctx.Keys)
	restore, del := k.Restore, k.Delete
	if p.cluster != nil {
		switch rt, _ := routeFor(p.cluster.Kind, p.Ctx.Now()); {
		case rt == routeFlex:
			restore.Op = "createFlexBackupRestoreJob"
		case rt == routeServerless:
			restore.Op = "createServerlessBackupRestoreJob"
		case p.cluster.Kind == kindSharded:
			del.Op = "deleteShardedClusterBackup"
		}
	}
	if p.view == viewBuckets {
		del.Op = "deleteExportBucket"
		del.Binding.SetHelp(del.Help().Key, "delete bucket")
	}
	out := []keymap.Action{k.Snapshot, restore, k.CancelRestore, k.Expiration, del, k.Export, k.NewBucket, k.EditSchedule, k.CycleViews}
	if p.cluster != nil {
		// In a cluster's views shift+tab mirrors tab; on the cluster list it
		// stays the global previous pane.
		out = append(out, k.PrevView)
		out = append(out, k.ViewKeys[:]...)
	}
	// What the view, the row under the cursor, the data or the compliance
	// policy refuses is greyed with the reason, as the key would answer
	// it, so the footer and help offer only keys that act. An answered
	// dialog is judged on the item it named (JudgesAnswers), not on these.
	for i, a := range out {
		why := p.refusedHere(k, a.Name)
		if why == "" && hintWord(a) != "" {
			why = p.refusal(k, a.Name)
		}
		if why != "" {
			out[i] = a.Disabled(why)
		}
	}
	return out
}

// JudgesAnswers: an answered dialog acts on the item it named (its
// Target); action checks it there, not on the row under the cursor.
func (p *Pane) JudgesAnswers() {}

// refusedHere is why the action named cannot run in the view on screen, or
// "" when it can (as far as the view decides; the row may still refuse).
func (p *Pane) refusedHere(k keys, name string) string {
	if p.cluster == nil {
		return "pick a cluster first (enter on a row)"
	}
	needs := map[string]view{k.Restore.Name: viewSnapshots, k.Expiration.Name: viewSnapshots, k.Export.Name: viewSnapshots,
		k.CancelRestore.Name: viewRestores, k.NewBucket.Name: viewBuckets, k.EditSchedule.Name: viewSchedule}
	if p.view != viewBuckets {
		needs[k.Delete.Name] = viewSnapshots
	}
	if v, ok := needs[name]; ok && p.view != v {
		return "only in the " + v.title() + " view (" + k.ViewKeys[v].Help().Key + ")"
	}
	return ""
}

// refusal is why the action named cannot start now on what is on screen
// (the cluster, the view, the row under the cursor, the data loaded, the
// compliance policy), as its key answers; "" when it can. The pane's hint
// line offers only what it allows, and a notice it raised stays while it
// still holds.
func (p *Pane) refusal(k keys, name string) string {
	if why := p.refusedHere(k, name); why != "" {
		return why
	}
	if !p.loaded {
		return "the backups of " + p.cluster.Name + " are still loading"
	}
	dedicated := ""
	if p.data.Route != routeCluster {
		dedicated = fmt.Sprintf("not available for %s deployments like %s", p.cluster.Kind, p.cluster.Name)
	}
	s, snapOK := p.selectedSnap()
	if p.view != viewSnapshots {
		snapOK = false
	}
	// finished is why an action on a finished snapshot of a dedicated
	// cluster cannot act on the row under the cursor.
	finished := func() string {
		switch {
		case dedicated != "":
			return dedicated
		case !snapOK:
			return "select a snapshot first"
		case !s.Done:
			return "snapshot " + short(s.ID) + " is still " + s.Status
		}
		return ""
	}
	switch name {
	case k.Snapshot.Name:
		if dedicated != "" {
			return dedicated
		}
		for _, s := range p.data.Snaps {
			if s.Type == string(apiclient.SnapshotOnDemand) && !s.Done {
				return fmt.Sprintf("on-demand snapshot %s is already %s; one may be queued or in progress at a time", short(s.ID), s.Status)
			}
		}
	case k.Restore.Name:
		switch {
		case !snapOK:
			return "select a snapshot in the Snapshots view first"
		case !s.Completed:
			return "snapshot " + short(s.ID) + " is " + s.Status + "; only completed snapshots can be restored"
		case p.data.Route == routeNone:
			return "shared-tier clusters cannot be restored through the API"
		}
	case k.Expiration.Name:
		return finished()
	case k.Delete.Name:
		if p.view == viewBuckets {
			if p.buckets.SelectedID() == "" {
				return "select a bucket first"
			}
			return ""
		}
		if why := finished(); why != "" {
			return why
		}
		return p.keptBy(s)
	case k.Export.Name:
		switch {
		case dedicated != "":
			return dedicated
		case !snapOK:
			return "select a snapshot first"
		case !s.Completed:
			return "snapshot " + short(s.ID) + " is " + s.Status + "; only completed snapshots can be exported"
		case len(p.data.Buckets) == 0:
			return "no export bucket in this project; register one in the Buckets view (b)"
		}
	case k.CancelRestore.Name:
		r, ok := p.selectedRestore()
		switch {
		case !ok:
			return "select a restore job in the Restores view (tab)"
		case !r.running():
			return "job " + short(r.ID) + " is " + string(r.State)
		case p.data.Route != routeCluster:
			return p.cluster.Kind.String() + " restores cannot be cancelled through the API"
		}
	case k.EditSchedule.Name:
		switch {
		case dedicated != "":
			return dedicated
		case p.data.Schedule == nil:
			return "the schedule is not loaded"
		}
	}
	return ""
}

// refusalText is what refusing the action now says ("restore: snapshot
// …00000122 is inProgress; ..."), "" when it is not refused: its help
// text first, as the root names a refused key.
func (p *Pane) refusalText(k keys, name string) string {
	why := p.refusal(k, name)
	if why == "" {
		return ""
	}
	return p.desc(name) + ": " + why
}

// desc is the help text of the action named, as this view offers it.
func (p *Pane) desc(name string) string {
	for _, a := range p.Actions() {
		if a.Name == name {
			return a.Help().Desc
		}
	}
	return name
}

// refuseAction refuses the action named with what refusalText says; the
// notice stays while that still holds (see settle).
func (p *Pane) refuseAction(k keys, name string) {
	p.refuse(p.refusalText(k, name))
	p.noticeAct = name
}

// refuse shows text as the pane's notice and an error toast; it goes at
// the next key (refuseAction's, when its cause goes).
func (p *Pane) refuse(text string) {
	p.notice, p.noticeAct = text, ""
	p.layout()
	p.Refuse(text)
}

func (p *Pane) action(msg views.ActionMsg) tea.Cmd {
	k := keysOf(p.Ctx.Keys)
	if to, ok := p.viewFor(k, msg.Name); ok {
		if p.cluster == nil {
			p.refuse("pick a cluster first (enter on a row)")
			return nil
		}
		p.view, p.shown = to, nil
		p.layout()
		p.refreshDetail()
		p.settle(true)
		return nil
	}
	// A new key is refused on what is on screen now, before any dialog
	// opens; an answered dialog acts on what it named (its Target), so
	// only a lost cluster or its reload stops it here.
	if !msg.Confirmed || p.cluster == nil || !p.loaded {
		if p.refusal(k, msg.Name) != "" {
			p.refuseAction(k, msg.Name)
			return nil
		}
	}
	cmd, _ := views.AskThenDo(msg, p.steps)
	return cmd
}

// newSteps is what each action asks first and does on the answer. The
// restore wizard's steps all come back as its action (see restoreStep);
// delete asks about the bucket or the snapshot, as the view on screen is.
func (p *Pane) newSteps() map[string]views.Step {
	byID := func(do func(string) tea.Cmd) func(views.ActionMsg) tea.Cmd {
		return func(msg views.ActionMsg) tea.Cmd { return do(msg.Target) }
	}
	return map[string]views.Step{
		actSnapshot:      {Ask: p.askSnapshot, Do: p.takeSnapshot},
		actExpiration:    {Ask: p.askExpiration, Do: p.changeExpiration},
		actExport:        {Ask: p.askExport, Do: p.export},
		actCancelRestore: {Ask: p.askCancel, Do: byID(p.cancelRestore)},
		actRestore:       {Ask: p.startWizard, Do: p.restoreStep},
		actNewBucket:     {Ask: p.askBucket, Do: p.createBucket},
		actEditSchedule:  {Ask: p.askSchedule, Do: p.updateSchedule},
		actDelete: {
			Ask: func() tea.Cmd {
				if p.view == viewBuckets {
					return p.askDeleteBucket()
				}
				return p.askDelete()
			},
			Do: func(msg views.ActionMsg) tea.Cmd {
				if p.view == viewBuckets {
					return p.deleteBucket(msg.Target)
				}
				return p.deleteSnapshot(msg.Target)
			},
		},
	}
}

func (p *Pane) form(id, title string, fields []components.Field, action views.ActionMsg) {
	p.Form(views.FormMsg{ID: id, Title: title, Fields: fields, Action: action})
}
