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
		if why == "" && hintWord(k, a) != "" {
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

// keptHere is why the snapshot under the cursor cannot be deleted yet:
// the compliance policy still keeps it; "" otherwise.
func (p *Pane) keptHere() string {
	if p.cluster == nil || p.view != viewSnapshots {
		return ""
	}
	s, ok := p.selectedSnap()
	if !ok || !s.Done {
		return ""
	}
	return p.keptBy(s)
}

// keptBy says until when and why the compliance policy keeps snapshot s
// from being deleted; "" when it does not (any more).
func (p *Pane) keptBy(s snapRow) string {
	until, rule, ok := policyKeeps(p.data.Policy, s)
	if !ok || !p.Ctx.Now().Before(until) {
		return ""
	}
	return fmt.Sprintf("snapshot %s is kept until %s UTC by the backup compliance policy (%s)", short(s.ID), fmtTime(&until), rule)
}

// policyKeeps is until when the project's backup compliance policy keeps
// snapshot s (its creation plus the minimum of the item for its kind: the
// on-demand item, or the scheduled item of its frequency) and that minimum
// in words ("daily snapshots at least 7 days"); ok is false when no policy
// or item covers it. The service refuses to delete it, or to set it to
// expire, before then.
func policyKeeps(pol *apiclient.CompliancePolicy, s snapRow) (until time.Time, rule string, ok bool) {
	if pol == nil || s.Created == nil {
		return time.Time{}, "", false
	}
	var it *apiclient.PolicyItem
	what := "on-demand"
	if s.Type == string(apiclient.SnapshotOnDemand) || s.Frequency == string(apiclient.FrequencyOnDemand) {
		it = pol.OnDemandPolicyItem
	} else {
		for i := range pol.ScheduledPolicyItems {
			if string(pol.ScheduledPolicyItems[i].FrequencyType) == s.Frequency {
				it, what = &pol.ScheduledPolicyItems[i], s.Frequency
			}
		}
	}
	if it == nil || it.RetentionValue < 1 {
		return time.Time{}, "", false
	}
	return s.Created.AddDate(0, 0, it.RetentionUnit.Days(it.RetentionValue)),
		fmt.Sprintf("%s snapshots at least %d %s", what, it.RetentionValue, it.RetentionUnit), true
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

// settle drops what no longer holds, after a key (onKey), a view switch or
// new data: the notice of a refused action once the action would not be
// refused so any more (the snapshot completed, the cursor moved on), any
// other notice at the next key; and the root's error toasts with it, or
// when the compliance policy stops holding the row under the cursor (the
// key's refusal the root showed). Nothing true is dropped.
func (p *Pane) settle(onKey bool) {
	resolved := false
	if p.notice != "" {
		keep, cause := !onKey, true
		if p.noticeAct != "" {
			now := p.refusalText(keysOf(p.Ctx.Keys), p.noticeAct)
			keep = now == p.notice
			// Refused still, for another row: the line goes, the root's
			// toast naming the first row stays true (and clearing it would
			// race the refusal of a key typed right after this one).
			cause = now == ""
		}
		if !keep {
			p.notice, p.noticeAct, resolved = "", "", cause
			p.layout()
		}
	}
	// Only the hold on the same snapshot going resolves: a refusal names
	// its snapshot, and stays true when the cursor moves on. (Resolving
	// then also cleared the refusal of a key typed right after the move,
	// before the root heard of it: d after a move said nothing.)
	kept, keptID := p.keptHere(), ""
	if kept != "" {
		keptID = p.snaps.SelectedID()
	}
	if p.kept != "" && (kept == "" || keptID != p.keptID) {
		s, _ := p.selectedSnap()
		resolved = resolved || (kept == "" && s.ID == p.keptID)
	}
	p.kept, p.keptID = kept, keptID
	if resolved {
		p.ErrorsResolved()
	}
}

func (p *Pane) key(msg tea.KeyPressMsg) tea.Cmd {
	if p.cluster == nil {
		if msg.String() == "enter" {
			if id := p.picker.SelectedID(); id != "" {
				for _, c := range p.clusters {
					if c.Name == id {
						return p.open(c)
					}
				}
			}
			return nil
		}
		p.picker, _ = p.picker.Update(msg)
		return nil
	}
	switch msg.String() {
	case "esc": // see CanGoBack
		if p.detailOn() {
			p.closeDetail()
			p.settle(true)
			return nil
		}
		if p.notice != "" {
			p.notice, p.noticeAct = "", ""
			p.layout()
			p.ErrorsResolved()
			return nil
		}
		if p.Ctx.ClusterName == "" {
			// Back to the cluster list; watched jobs stay watched.
			p.cluster, p.loaded = nil, false
			return p.Arm()
		}
		return nil
	case "enter":
		if p.detailOn() {
			p.closeDetail()
			p.settle(true)
			return nil
		}
		// A sharded snapshot's row expands and collapses its members; a
		// member row, any other snapshot and a restore job open the detail.
		if p.view == viewSnapshots && !strings.Contains(p.snaps.SelectedID(), "/") {
			if s, ok := p.selectedSnap(); ok && s.Sharded {
				p.expanded[s.ID] = !p.expanded[s.ID]
				p.lists[viewSnapshots].fill()
				p.snaps.SetCursorID(s.ID)
				p.settle(true)
				return nil
			}
		}
		p.openDetail()
		p.settle(true)
		return nil
	}
	if p.detailOn() {
		var cmd tea.Cmd
		p.item, cmd = p.item.Update(msg)
		return cmd
	}
	var cmd tea.Cmd
	if l, ok := p.lists[p.view]; ok {
		*l.table, _ = l.table.Update(msg)
	} else {
		p.detail, cmd = p.detail.Update(msg)
	}
	p.settle(true)
	return cmd
}

// selectedSnap is the snapshot under the cursor; a member row stands for
// its sharded snapshot.
func (p *Pane) selectedSnap() (snapRow, bool) {
	id := p.snaps.SelectedID()
	if i := strings.IndexByte(id, '/'); i >= 0 {
		id = id[:i]
	}
	for _, s := range p.data.Snaps {
		if s.ID == id {
			return s, true
		}
	}
	return snapRow{}, false
}

func (p *Pane) selectedRestore() (restoreRow, bool) {
	id := p.restores.SelectedID()
	for _, r := range p.data.Restores {
		if r.ID == id {
			return r, true
		}
	}
	return restoreRow{}, false
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

func positiveInt(field string) func(string, components.FormValues) error {
	return func(v string, _ components.FormValues) error {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 1 {
			return fmt.Errorf("%s must be a whole number of at least 1", field)
		}
		return nil
	}
}

// write sends a change; the answer closes or re-opens its form and starts
// watching what it created.
type writeResult struct {
	Form  string
	Done  string // toast on success
	Watch *watch
	// A lost answer: the write was sent and may have been applied. Verify
	// reads the resource back; the form stays frozen meanwhile and the
	// write is never sent again.
	Unknown bool
	Sent    time.Time
	Verify  verifyFn
}

// verifyFn reads back what a write whose answer was lost would have made:
// the result to report when it holds (applied), or applied false.
type verifyFn func(ctx context.Context, sent time.Time) (r writeResult, applied bool, err error)

func (p *Pane) write(form, task string, fn func(ctx context.Context) (writeResult, error)) tea.Cmd {
	return p.writeVerified(form, task, fn, nil)
}

// writeVerified is write for a create whose lost answer can be checked.
func (p *Pane) writeVerified(form, task string, fn func(ctx context.Context) (writeResult, error), verify verifyFn) tea.Cmd {
	return views.Write(&p.Base, keyWrite, p.seq.Next(), task, func(ctx context.Context) (writeResult, error) {
		r, err := fn(ctx)
		r.Form = form
		if ou, ok := apiclient.AsOutcomeUnknown(err); ok && verify != nil {
			return writeResult{Form: form, Unknown: true, Sent: ou.Sent, Verify: verify}, nil
		}
		return r, err
	})
}

// createVerified is writeVerified for a create answered with what it made:
// send makes it, verify looks for it after a lost answer, made says what
// was made, the same way for both.
func createVerified[T any](p *Pane, form, task string, send func(context.Context) (*T, error), verify func(context.Context, time.Time) (*T, bool, error), made func(*T) writeResult) tea.Cmd {
	return p.writeVerified(form, task, func(ctx context.Context) (writeResult, error) {
		v, err := send(ctx)
		if err != nil {
			return writeResult{}, err
		}
		return made(v), nil
	}, func(ctx context.Context, sent time.Time) (writeResult, bool, error) {
		v, ok, err := verify(ctx, sent)
		if !ok || err != nil {
			return writeResult{}, false, err
		}
		return made(v), true, nil
	})
}

// verifyWrite reads back a write whose answer was lost, a few times if the
// read itself fails, and answers with the verified outcome.
func (p *Pane) verifyWrite(res writeResult) tea.Cmd {
	return views.Get(&p.Base, keyWrite, p.seq.Next(), "checking what the server holds", func(ctx context.Context) (writeResult, error) {
		r, applied, err := res.Verify(ctx, res.Sent)
		r.Form = res.Form
		switch {
		case err != nil:
			return r, views.OutcomeStillUnknown(views.ErrText(err))
		case !applied:
			return r, errors.New(views.NotApplied)
		}
		if r.Done != "" {
			r.Done += " (verified after a lost answer)"
		}
		return r, nil
	})
}

func (p *Pane) writeResult(msg views.Result[writeResult]) tea.Cmd {
	res := msg.Value
	if res.Unknown && msg.Err == nil {
		if res.Form != "" {
			p.FormStatus(res.Form, views.OutcomeChecking)
		}
		p.Toast(views.OutcomeChecking, false)
		return p.verifyWrite(res)
	}
	if res.Form != "" {
		p.FormDone(res.Form, msg.Err)
	}
	if msg.Err != nil {
		if res.Form == "" {
			p.Refuse(views.ErrText(msg.Err))
		}
		return nil
	}
	p.notice, p.noticeAct = "", ""
	if res.Watch != nil {
		p.watching[res.Watch.ID] = *res.Watch
	}
	if res.Done != "" {
		p.Toast(res.Done, false)
	}
	return tea.Batch(p.loadData("", allParts, keyData), p.Arm())
}

// --- on-demand snapshot ---

func (p *Pane) askSnapshot() tea.Cmd {
	p.form(formSnapshot, "On-demand snapshot of "+p.cluster.Name, []components.Field{
		{Key: "description", Label: "Description", Placeholder: "before the schema migration", CharLimit: 200},
		{Key: "retention", Label: "Retention (days)", Value: strconv.Itoa(apiclient.SnapshotRetentionDefault(p.data.Policy, 1)),
			Validate: func(v string, all components.FormValues) error {
				if err := positiveInt("retention")(v, all); err != nil {
					return err
				}
				return p.snapshotBelowPolicy(v)
			}},
	}, views.ActionMsg{Name: keysOf(p.Ctx.Keys).Snapshot.Name})
	return nil
}

// snapshotBelowPolicy is why an on-demand snapshot kept days (a whole
// number) from now is refused: it would expire before the compliance
// policy's on-demand minimum, and the service refuses it.
func (p *Pane) snapshotBelowPolicy(days string) error {
	n, _ := strconv.Atoi(strings.TrimSpace(days))
	now := p.Ctx.Now()
	return p.belowPolicy(snapRow{Type: string(apiclient.SnapshotOnDemand), Created: &now},
		apiclient.SnapshotRetention{RetentionUnit: apiclient.SnapshotRetentionDays, RetentionValue: n})
}

func (p *Pane) takeSnapshot(msg views.ActionMsg) tea.Cmd {
	// The policy may have changed while the form was open.
	if err := p.snapshotBelowPolicy(msg.Values["retention"]); err != nil {
		if msg.Form == "" {
			p.refuse(p.desc(keysOf(p.Ctx.Keys).Snapshot.Name) + ": " + err.Error() + "; nothing was sent")
			return nil
		}
		p.FormDone(msg.Form, err)
		return nil
	}
	days, _ := strconv.Atoi(strings.TrimSpace(msg.Values["retention"]))
	req := apiclient.TakeSnapshotRequest{Description: strings.TrimSpace(msg.Values["description"]), RetentionInDays: days}
	client, gid, cl := p.Ctx.Client, p.Ctx.GroupID, *p.cluster
	made := func(s *apiclient.Snapshot) writeResult {
		label := "snapshot " + short(s.ID) + " of " + cl.Name
		return writeResult{Done: label + " " + string(s.Status), Watch: &watch{Kind: "snapshot", ID: s.ID, Cluster: cl, Label: label}}
	}
	b := client.Backups()
	return createVerified(p, msg.Form, "taking a snapshot of "+cl.Name,
		func(ctx context.Context) (*apiclient.Snapshot, error) { return b.TakeSnapshot(ctx, gid, cl.Name, req) },
		func(ctx context.Context, sent time.Time) (*apiclient.Snapshot, bool, error) {
			return b.VerifyTakeSnapshot(ctx, gid, cl.Name, req, sent)
		}, made)
}

// --- expiration ---

// keepChoices are the expiration form's lengths, counted from when the
// change is sent; keepOther takes one typed in the field under them.
var keepChoices = []string{"1 day", "3 days", "1 week", "2 weeks", "1 month", "1 year"}

const keepOther = "other"

// keepFor reads "3 days", "1 week", "2 months" as the request.
func keepFor(v string) (apiclient.SnapshotRetention, error) {
	n, u, err := parseRetention(v)
	if err != nil {
		return apiclient.SnapshotRetention{}, err
	}
	return apiclient.SnapshotRetention{RetentionUnit: apiclient.SnapshotRetentionUnit(strings.ToUpper(string(u))), RetentionValue: n}, nil
}

// retentionWords is r as read: "1 week", "2 weeks".
func retentionWords(r apiclient.SnapshotRetention) string {
	unit := strings.ToLower(string(r.RetentionUnit))
	if r.RetentionValue == 1 {
		unit = strings.TrimSuffix(unit, "s")
	}
	return strconv.Itoa(r.RetentionValue) + " " + unit
}

// expiry is when a snapshot kept r from now expires, as the service counts
// it (a month is 30 days, a year 365).
func expiry(now time.Time, r apiclient.SnapshotRetention) time.Time {
	return now.AddDate(0, 0, apiclient.RetentionUnit(strings.ToLower(string(r.RetentionUnit))).Days(r.RetentionValue))
}

// belowPolicy is why keeping s for r from now is refused: it would expire
// before the compliance policy's minimum for it.
func (p *Pane) belowPolicy(s snapRow, r apiclient.SnapshotRetention) error {
	until, rule, ok := policyKeeps(p.data.Policy, s)
	if exp := expiry(p.Ctx.Now(), r); ok && exp.Before(until) {
		return fmt.Errorf("it would expire %s, before the backup compliance policy's minimum %s UTC (%s)", fmtTime(&exp), fmtTime(&until), rule)
	}
	return nil
}

// askExpiration opens the form: every length with the date it gives, the
// ones before the compliance policy's minimum greyed with it, and one to
// type; nothing is chosen for the user.
func (p *Pane) askExpiration() tea.Cmd {
	s, _ := p.selectedSnap() // refusal made sure there is one, done
	now := p.Ctx.Now()
	until, rule, kept := policyKeeps(p.data.Policy, s)
	kept = kept && now.Before(until)
	policy := "No compliance policy minimum holds it now."
	if kept {
		policy = "The compliance policy keeps it until " + fmtTime(&until) + " UTC\n(" + rule + ")."
	}
	choices := append(slices.Clone(keepChoices), keepOther)
	details := make([]string, len(choices))
	reasons := make([]string, len(choices))
	for i, c := range keepChoices {
		r, _ := keepFor(c)
		exp := expiry(now, r)
		details[i] = "expires " + fmtTime(&exp)
		if s.Expires != nil && exp.Before(*s.Expires) {
			// The current expiry's date is the note's first line: the
			// whole phrase with the date would be cut at the dialog's width.
			details[i] += ", sooner than current"
		}
		if kept && exp.Before(until) {
			reasons[i] = "before the compliance policy's minimum"
		}
	}
	details[len(keepChoices)] = "typed below, asked with its date"
	p.form(formExpiration, "Expiration of snapshot "+short(s.ID), []components.Field{
		{Key: "now", Kind: components.FieldNote, Label: "Current expiry: " + fmtTime(s.Expires) + " UTC. A new date counts from when the change is sent.",
			Value: policy},
		{Key: "keep", Label: "Keep for", Kind: components.FieldChoice, List: true, None: true,
			Choices: choices, Details: details, Reasons: reasons},
		{Key: "other", Label: "Other (typing here selects it)", Placeholder: "45 days, 10 weeks, 2 years",
			Selects: &components.Selects{Key: "keep", Choice: keepOther},
			Validate: func(v string, all components.FormValues) error {
				if all["keep"] != keepOther {
					return nil
				}
				r, err := keepFor(v)
				if err != nil {
					return err
				}
				return p.belowPolicy(s, r)
			}},
	}, views.ActionMsg{Name: keysOf(p.Ctx.Keys).Expiration.Name, Target: s.ID})
	return nil
}

// changeExpiration takes the form's answer, then the question's: a typed
// length, or one that expires the snapshot sooner than it does now, is asked
// about with the date it gives first; the others were shown with theirs.
// Nothing the compliance policy refuses is sent.
func (p *Pane) changeExpiration(msg views.ActionMsg) tea.Cmd {
	k, id := keysOf(p.Ctx.Keys), msg.Target
	fail := func(err error) tea.Cmd {
		if msg.Form != "" {
			p.FormDone(msg.Form, err)
			return nil
		}
		p.refuse(p.desc(k.Expiration.Name) + ": " + err.Error() + "; nothing was sent")
		return nil
	}
	var s snapRow
	for _, x := range p.data.Snaps {
		if x.ID == id {
			s = x
		}
	}
	if s.ID == "" {
		return fail(fmt.Errorf("snapshot %s is no longer listed", short(id)))
	}
	var r apiclient.SnapshotRetention
	var err error
	asked := msg.Form == ""
	switch {
	case asked:
		// The question's answer carries the length it asked about.
		var ok bool
		if r, ok = msg.Payload.(apiclient.SnapshotRetention); !ok {
			err = fmt.Errorf("the answer names no length (%T)", msg.Payload)
		}
	case msg.Values["keep"] == keepOther:
		r, err = keepFor(msg.Values["other"])
	default:
		r, err = keepFor(msg.Values["keep"])
	}
	if err == nil {
		err = p.belowPolicy(s, r)
	}
	if err != nil {
		return fail(err)
	}
	exp := expiry(p.Ctx.Now(), r)
	sooner := s.Expires != nil && exp.Before(*s.Expires)
	if !asked && (msg.Values["keep"] == keepOther || sooner) {
		title, body := "Change the expiration of snapshot "+short(id)+"?", ""
		if sooner {
			title = "Shorten the expiration of snapshot " + short(id) + "?"
			body = ", sooner than its current expiry: it is deleted then and can no longer be restored"
		}
		body = fmt.Sprintf("Snapshot %s of %s, taken %s, now expires %s UTC. Kept %s from when this is sent, it expires about %s UTC%s.",
			short(id), p.cluster.Name, fmtTime(s.Created), fmtTime(s.Expires), retentionWords(r), fmtTime(&exp), body)
		p.FormDone(msg.Form, nil)
		p.Confirm(views.ConfirmMsg{Title: title, Body: body,
			Action: views.ActionMsg{Name: k.Expiration.Name, Target: id, Payload: r}})
		return nil
	}
	client, gid, cl := p.Ctx.Client, p.Ctx.GroupID, *p.cluster
	return p.write(msg.Form, "changing the expiration of "+short(id), func(ctx context.Context) (writeResult, error) {
		s, err := client.Backups().UpdateRetention(ctx, gid, cl.Name, id, r)
		if err != nil {
			return writeResult{}, err
		}
		return writeResult{Done: "snapshot " + short(id) + " now expires " + fmtTime(s.ExpiresAt)}, nil
	})
}

// --- delete ---

func (p *Pane) askDelete() tea.Cmd {
	s, _ := p.selectedSnap() // refusal made sure there is one, done and not kept
	typed := s.ID
	what := "its id"
	if d := components.Sanitize(s.Description); d != "" && d == s.Description {
		typed, what = d, "its description"
	}
	p.Confirm(views.ConfirmMsg{Title: "Delete snapshot " + short(s.ID) + "?",
		Body: fmt.Sprintf("Snapshot %s of %s taken %s (%s) is deleted for good; it can no longer be restored. Type %s to confirm.",
			s.ID, p.cluster.Name, fmtTime(s.Created), fmtSize(s.Size), what),
		TypeToConfirm: typed, Action: views.ActionMsg{Name: keysOf(p.Ctx.Keys).Delete.Name, Target: s.ID}})
	return nil
}

func (p *Pane) deleteSnapshot(id string) tea.Cmd {
	// The policy may have come to keep it while the question was open.
	for _, s := range p.data.Snaps {
		if s.ID == id {
			if why := p.keptBy(s); why != "" {
				p.refuse(p.desc(keysOf(p.Ctx.Keys).Delete.Name) + ": " + why + "; nothing was sent")
				return nil
			}
		}
	}
	client, gid, cl := p.Ctx.Client, p.Ctx.GroupID, *p.cluster
	return p.write("", "deleting snapshot "+short(id), func(ctx context.Context) (writeResult, error) {
		del := client.Backups().DeleteSnapshot
		if cl.Kind == kindSharded {
			del = client.Backups().DeleteShardedSnapshot
		}
		if err := del(ctx, gid, cl.Name, id); err != nil {
			return writeResult{}, err
		}
		return writeResult{Done: "snapshot " + short(id) + " deleted"}, nil
	})
}

// --- cancel restore ---

func (p *Pane) askCancel() tea.Cmd {
	r, _ := p.selectedRestore() // refusal made sure there is one, running
	p.Confirm(views.ConfirmMsg{Title: "Cancel restore " + short(r.ID) + "?",
		Body: fmt.Sprintf("The %s restore of %s to %s (job %s) stops; data already written to the target stays as it is.",
			r.Delivery, p.restoreOf(r), orDash(r.Target), r.ID),
		Action: views.ActionMsg{Name: keysOf(p.Ctx.Keys).CancelRestore.Name, Target: r.ID}})
	return nil
}

// restoreOf is what a restore job restores, in words: "snapshot
// …0000011f", or for a point-in-time one without a snapshot "payments-rs
// as of 2025-06-01 11:30:00 UTC" (or its oplog ts/inc).
func (p *Pane) restoreOf(r restoreRow) string {
	switch {
	case r.SnapshotID != "":
		return "snapshot " + short(r.SnapshotID)
	case r.PointInTime != 0:
		t := time.Unix(r.PointInTime, 0)
		return p.cluster.Name + " as of " + fmtUTC(&t)
	case r.OplogTs != 0:
		return fmt.Sprintf("%s as of oplog %d/%d", p.cluster.Name, r.OplogTs, r.OplogInc)
	}
	return p.cluster.Name
}

func orDash(s string) string {
	if s == "" {
		return "a download"
	}
	return s
}

func (p *Pane) cancelRestore(id string) tea.Cmd {
	client, gid, cl := p.Ctx.Client, p.Ctx.GroupID, *p.cluster
	return p.write("", "cancelling restore "+short(id), func(ctx context.Context) (writeResult, error) {
		if err := client.Backups().CancelRestoreJob(ctx, gid, cl.Name, id); err != nil {
			return writeResult{}, err
		}
		return writeResult{Done: "restore " + short(id) + " cancel requested"}, nil
	})
}

// --- export ---

func (p *Pane) askExport() tea.Cmd {
	s, _ := p.selectedSnap() // refusal made sure there is one, completed, and a bucket
	var names []string
	for _, b := range p.data.Buckets {
		names = append(names, components.Sanitize(b.BucketName)+" ("+string(b.CloudProvider)+")")
	}
	p.form(formExport, "Export snapshot "+short(s.ID), []components.Field{
		{Key: "bucket", Label: "Bucket", Kind: components.FieldChoice, Choices: names},
		{Key: "label", Label: "Label (key=value, optional)", Placeholder: "ticket=OPS-1", Validate: func(v string, _ components.FormValues) error {
			if v = strings.TrimSpace(v); v != "" && !strings.Contains(v, "=") {
				return errors.New("write the label as key=value")
			}
			return nil
		}},
	}, views.ActionMsg{Name: keysOf(p.Ctx.Keys).Export.Name, Target: s.ID})
	return nil
}

func (p *Pane) export(msg views.ActionMsg) tea.Cmd {
	var bucket apiclient.ExportBucket
	for _, b := range p.data.Buckets {
		if components.Sanitize(b.BucketName)+" ("+string(b.CloudProvider)+")" == msg.Values["bucket"] {
			bucket = b
		}
	}
	req := apiclient.ExportJobRequest{SnapshotID: msg.Target, ExportBucketID: bucket.ID}
	if k, v, ok := strings.Cut(strings.TrimSpace(msg.Values["label"]), "="); ok {
		req.CustomData = []apiclient.Label{{Key: strings.TrimSpace(k), Value: strings.TrimSpace(v)}}
	}
	client, gid, cl := p.Ctx.Client, p.Ctx.GroupID, *p.cluster
	made := func(j *apiclient.ExportJob) writeResult {
		label := "export of " + short(req.SnapshotID) + " to " + bucket.BucketName
		return writeResult{Done: label + " " + string(j.State), Watch: &watch{Kind: "export", ID: j.ID, Cluster: cl, Label: label}}
	}
	b := client.Backups()
	return createVerified(p, msg.Form, "exporting snapshot "+short(msg.Target),
		func(ctx context.Context) (*apiclient.ExportJob, error) {
			return b.CreateExportJob(ctx, gid, cl.Name, req)
		},
		func(ctx context.Context, sent time.Time) (*apiclient.ExportJob, bool, error) {
			return b.VerifyCreateExportJob(ctx, gid, cl.Name, req, sent)
		}, made)
}

// --- buckets ---

func (p *Pane) askBucket() tea.Cmd {
	p.form(formBucket, "New export bucket", []components.Field{
		{Key: "name", Label: "Bucket name", CharLimit: 63, Validate: func(v string, all components.FormValues) error {
			if n := len([]rune(strings.TrimSpace(v))); (n < 3 || n > 63) && all["provider"] != "AZURE" {
				return fmt.Errorf("3 to 63 characters, got %d", n)
			}
			return nil
		}},
		{Key: "provider", Label: "Cloud provider", Kind: components.FieldChoice, Choices: []string{"AWS", "AZURE", "GCP"}},
		{Key: "role", Label: "Access role id", Hint: "an authorized cloud provider access role (Settings pane)", Validate: func(v string, _ components.FormValues) error {
			if len(strings.TrimSpace(v)) != 24 {
				return errors.New("a 24-character role id")
			}
			return nil
		}},
		{Key: "serviceUrl", Label: "Service URL (AZURE only)"},
	}, views.ActionMsg{Name: actNewBucket})
	return nil
}

func (p *Pane) createBucket(msg views.ActionMsg) tea.Cmd {
	v := msg.Values
	b := apiclient.ExportBucket{BucketName: strings.TrimSpace(v["name"]), CloudProvider: apiclient.CloudProvider(v["provider"])}
	role := strings.TrimSpace(v["role"])
	if b.CloudProvider == apiclient.ProviderAWS {
		b.IAMRoleID = role
	} else {
		b.RoleID = role
		b.ServiceURL = strings.TrimSpace(v["serviceUrl"])
	}
	client, gid := p.Ctx.Client, p.Ctx.GroupID
	return p.write(msg.Form, "creating bucket "+b.BucketName, func(ctx context.Context) (writeResult, error) {
		nb, err := client.Backups().CreateExportBucket(ctx, gid, b)
		if err != nil {
			return writeResult{}, err
		}
		return writeResult{Done: "export bucket " + nb.BucketName + " registered"}, nil
	})
}

func (p *Pane) askDeleteBucket() tea.Cmd {
	id := p.buckets.SelectedID()
	for _, b := range p.data.Buckets {
		if b.ID == id {
			p.Confirm(views.ConfirmMsg{Title: "Delete export bucket " + components.Sanitize(b.BucketName) + "?",
				Body:          "The bucket is no longer offered for exports; objects already in it stay. Automatic export must be off on every cluster using it.",
				TypeToConfirm: b.BucketName, Action: views.ActionMsg{Name: keysOf(p.Ctx.Keys).Delete.Name, Target: b.ID}})
			return nil
		}
	}
	p.refuse("delete bucket: select a bucket first")
	return nil
}

func (p *Pane) deleteBucket(id string) tea.Cmd {
	client, gid := p.Ctx.Client, p.Ctx.GroupID
	return p.write("", "deleting bucket", func(ctx context.Context) (writeResult, error) {
		if err := client.Backups().DeleteExportBucket(ctx, gid, id); err != nil {
			return writeResult{}, err
		}
		return writeResult{Done: "export bucket deleted"}, nil
	})
}

// --- schedule ---

func (p *Pane) askSchedule() tea.Cmd {
	s := p.data.Schedule // refusal made sure it is loaded
	fields := []components.Field{
		{Key: "hour", Label: "Reference hour (UTC, 0-23)", Value: strconv.Itoa(deref(s.ReferenceHourOfDay)), Validate: intRange(0, 23)},
		{Key: "minute", Label: "Reference minute (0-59)", Value: strconv.Itoa(deref(s.ReferenceMinuteOfHour)), Validate: intRange(0, 59)},
		{Key: "window", Label: "Restore window (days)", Value: strconv.Itoa(deref(s.RestoreWindowDays)), Validate: intRange(1, 365)},
	}
	for i, it := range policyItems(s) {
		fields = append(fields, components.Field{Key: fmt.Sprintf("item%d", i),
			Label: fmt.Sprintf("%s every %s: keep", it.FrequencyType, interval(it)),
			Value: fmt.Sprintf("%d %s", it.RetentionValue, it.RetentionUnit), Validate: p.retentionField(i)})
	}
	fields = append(fields, components.Field{Key: "updateSnapshots", Label: "Apply retention changes to existing snapshots", Kind: components.FieldToggle})
	p.form(formSchedule, "Backup schedule of "+p.cluster.Name, fields, views.ActionMsg{Name: actEditSchedule})
	return nil
}

func policyItems(s *apiclient.BackupSchedule) []apiclient.PolicyItem {
	if len(s.Policies) == 0 {
		return nil
	}
	return s.Policies[0].PolicyItems
}

func intRange(lo, hi int) func(string, components.FormValues) error {
	return func(v string, _ components.FormValues) error {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < lo || n > hi {
			return fmt.Errorf("a whole number from %d to %d", lo, hi)
		}
		return nil
	}
}

// parseRetention reads "7 days", "4 weeks".
func parseRetention(v string) (int, apiclient.RetentionUnit, error) {
	f := strings.Fields(strings.ToLower(v))
	if len(f) != 2 {
		return 0, "", errors.New(`write it as "<number> days|weeks|months|years"`)
	}
	n, err := strconv.Atoi(f[0])
	if err != nil || n < 1 {
		return 0, "", errors.New("the number must be at least 1")
	}
	u := apiclient.RetentionUnit(strings.TrimSuffix(f[1], "s") + "s")
	switch u {
	case apiclient.RetentionDays, apiclient.RetentionWeeks, apiclient.RetentionMonths, apiclient.RetentionYears:
		return n, u, nil
	}
	return 0, "", errors.New("the unit is days, weeks, months or years")
}

// retentionField checks one item and, across the form, that less frequent
// items keep snapshots at least as long as more frequent ones.
func (p *Pane) retentionField(i int) func(string, components.FormValues) error {
	return func(v string, all components.FormValues) error {
		if _, _, err := parseRetention(v); err != nil {
			return err
		}
		items, err := p.itemsFrom(all)
		if err != nil {
			return nil // the other field shows its own error
		}
		var ve *apiclient.ValidationError
		if err := apiclient.RetentionOrder("policies[0].policyItems", items); errors.As(err, &ve) &&
			strings.HasPrefix(ve.Field, fmt.Sprintf("policies[0].policyItems[%d]", i)) {
			return errors.New(ve.Reason)
		}
		return nil
	}
}

func (p *Pane) itemsFrom(v components.FormValues) ([]apiclient.PolicyItem, error) {
	if p.data.Schedule == nil {
		return nil, errors.New("no schedule")
	}
	var out []apiclient.PolicyItem
	for i, it := range policyItems(p.data.Schedule) {
		n, u, err := parseRetention(v[fmt.Sprintf("item%d", i)])
		if err != nil {
			return nil, err
		}
		it.RetentionValue, it.RetentionUnit = n, u
		out = append(out, it)
	}
	return out, nil
}

// updateSchedule sends only what changed (a partial update).
func (p *Pane) updateSchedule(msg views.ActionMsg) tea.Cmd {
	s := p.data.Schedule
	if s == nil {
		p.FormDone(msg.Form, errors.New("the schedule is not loaded"))
		return nil
	}
	v := msg.Values
	var up apiclient.BackupSchedule
	setInt := func(dst **int, cur *int, text string) {
		n, _ := strconv.Atoi(strings.TrimSpace(text))
		if cur == nil || *cur != n {
			*dst = &n
		}
	}
	setInt(&up.ReferenceHourOfDay, s.ReferenceHourOfDay, v["hour"])
	setInt(&up.ReferenceMinuteOfHour, s.ReferenceMinuteOfHour, v["minute"])
	setInt(&up.RestoreWindowDays, s.RestoreWindowDays, v["window"])
	items, err := p.itemsFrom(v)
	if err != nil {
		p.FormDone(msg.Form, err)
		return nil
	}
	changed := false
	for i, it := range policyItems(s) {
		if items[i].RetentionValue != it.RetentionValue || items[i].RetentionUnit != it.RetentionUnit {
			changed = true
		}
	}
	if changed {
		up.Policies = []apiclient.BackupPolicy{{ID: s.Policies[0].ID, PolicyItems: items}}
		if v.Bool("updateSnapshots") {
			t := true
			up.UpdateSnapshots = &t
		}
	}
	if up.ReferenceHourOfDay == nil && up.ReferenceMinuteOfHour == nil && up.RestoreWindowDays == nil && up.Policies == nil {
		p.FormDone(msg.Form, nil)
		p.Toast("schedule unchanged: nothing sent", false)
		return nil
	}
	client, gid, cl := p.Ctx.Client, p.Ctx.GroupID, *p.cluster
	return p.write(msg.Form, "updating the schedule of "+cl.Name, func(ctx context.Context) (writeResult, error) {
		if _, err := client.Backups().UpdateSchedule(ctx, gid, cl.Name, up); err != nil {
			return writeResult{}, err
		}
		return writeResult{Done: "backup schedule of " + cl.Name + " updated"}, nil
	})
}

// CanGoBack: a notice is shown; esc dismisses it before the root clears the
// list's filter.
func (p *Pane) CanGoBack() bool { return p.notice != "" || p.detailOn() }

// viewFor says which view an action moves to: tab the next, shift+tab the
// previous, a view's own key that view.
func (p *Pane) viewFor(k keys, name string) (view, bool) {
	switch name {
	case k.CycleViews.Name:
		return (p.view + 1) % viewCount, true
	case k.PrevView.Name:
		return (p.view + viewCount - 1) % viewCount, true
	}
	for v, a := range k.ViewKeys {
		if a.Name == name {
			return view(v), true
		}
	}
	return 0, false
}
