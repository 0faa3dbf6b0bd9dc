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
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/ui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// Bucket and schedule management, as the keymap names them; they are only
// offered in their views.
const (
	actNewBucket    = "backups.newBucket"
	actEditSchedule = "backups.editSchedule"
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

// Confirmation targets.
const (
	targetRestoreGo = "restore:go"
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
	out := []keymap.Action{k.Snapshot, restore, k.CancelRestore, k.Expiration, del, k.Export, k.CycleViews}
	if p.cluster != nil {
		// In a cluster's views shift+tab mirrors tab; on the cluster list it
		// stays the global previous pane.
		out = append(out, k.PrevView)
		out = append(out, k.ViewKeys[:]...)
	}
	switch p.view {
	case viewBuckets:
		del.Op = "deleteExportBucket"
		del.Binding.SetHelp(del.Help().Key, "delete bucket")
		out[4] = del
		out = append(out, k.NewBucket)
	case viewSchedule:
		out = append(out, k.EditSchedule)
	}
	// What the view on screen refuses is greyed with the reason, as the
	// key would answer it.
	for i, a := range out {
		if why := p.refusedHere(k, a.Name); why != "" {
			out[i] = a.Disabled(why)
		}
	}
	return out
}

// refusedHere is why the action named cannot run in the view on screen, or
// "" when it can (as far as the view decides; the row may still refuse).
func (p *Pane) refusedHere(k keys, name string) string {
	if p.cluster == nil {
		return "pick a cluster first (enter on a row)"
	}
	needs := map[string]view{k.Restore.Name: viewSnapshots, k.Expiration.Name: viewSnapshots, k.Export.Name: viewSnapshots,
		k.CancelRestore.Name: viewRestores}
	if p.view != viewBuckets {
		needs[k.Delete.Name] = viewSnapshots
	}
	if v, ok := needs[name]; ok && p.view != v {
		return "only in the " + v.title() + " view (" + k.ViewKeys[v].Help().Key + ")"
	}
	return ""
}

func (p *Pane) refuse(text string) tea.Cmd {
	p.notice = text
	p.layout()
	return views.Toast(text, true)
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
		if p.notice != "" {
			p.notice = ""
			p.layout()
			return nil
		}
		if p.Ctx.ClusterName == "" {
			// Back to the cluster list; watched jobs stay watched.
			p.cluster, p.loaded = nil, false
			return p.Arm()
		}
		return nil
	case "enter":
		if p.view == viewSnapshots {
			if s, ok := p.selectedSnap(); ok && s.Sharded {
				p.expanded[s.ID] = !p.expanded[s.ID]
				p.rebuildSnaps()
				p.snaps.SetCursorID(s.ID)
			}
		}
		return nil
	}
	switch p.view {
	case viewSnapshots:
		p.snaps, _ = p.snaps.Update(msg)
	case viewRestores:
		p.restores, _ = p.restores.Update(msg)
	case viewExports:
		p.exports, _ = p.exports.Update(msg)
	case viewBuckets:
		p.buckets, _ = p.buckets.Update(msg)
	default:
		var cmd tea.Cmd
		p.detail, cmd = p.detail.Update(msg)
		return cmd
	}
	return nil
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
			return p.refuse("pick a cluster first (enter on a row)")
		}
		p.view = to
		p.notice = ""
		p.layout()
		p.refreshDetail()
		return nil
	}
	if p.cluster == nil {
		return p.refuse("pick a cluster first (enter on a row)")
	}
	if !p.loaded {
		return p.refuse(p.cluster.Name + ": backups are still loading")
	}
	switch msg.Name {
	case k.Snapshot.Name:
		if msg.Confirmed {
			return p.takeSnapshot(msg)
		}
		return p.askSnapshot()
	case k.Expiration.Name:
		if msg.Confirmed {
			return p.changeExpiration(msg)
		}
		return p.askExpiration()
	case k.Delete.Name:
		if p.view == viewBuckets {
			if msg.Confirmed {
				return p.deleteBucket(msg.Target)
			}
			return p.askDeleteBucket()
		}
		if msg.Confirmed {
			return p.deleteSnapshot(msg.Target)
		}
		return p.askDelete()
	case k.Export.Name:
		if msg.Confirmed {
			return p.export(msg)
		}
		return p.askExport()
	case k.CancelRestore.Name:
		if msg.Confirmed {
			return p.cancelRestore(msg.Target)
		}
		return p.askCancel()
	case k.Restore.Name:
		return p.restoreStep(msg)
	case actNewBucket:
		if msg.Confirmed {
			return p.createBucket(msg)
		}
		return p.askBucket()
	case actEditSchedule:
		if msg.Confirmed {
			return p.updateSchedule(msg)
		}
		return p.askSchedule()
	}
	return nil
}

func (p *Pane) form(id, title string, fields []components.Field, action views.ActionMsg) tea.Cmd {
	m := views.FormMsg{Pane: ID, ID: id, Title: title, Fields: fields, Action: action}
	return func() tea.Msg { return m }
}

func (p *Pane) confirm(m views.ConfirmMsg) tea.Cmd {
	m.Pane = ID
	return func() tea.Msg { return m }
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

// dedicatedOnly refuses what only the cluster routes offer.
func (p *Pane) dedicatedOnly(what string) tea.Cmd {
	if p.data.Route == routeCluster {
		return nil
	}
	return p.refuse(fmt.Sprintf("%s: not available for %s deployments like %s", what, p.cluster.Kind, p.cluster.Name))
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
		var cmds []tea.Cmd
		if res.Form != "" {
			cmds = append(cmds, views.FormStatus(ID, res.Form, views.OutcomeChecking))
		}
		return tea.Batch(append(cmds, views.Toast(views.OutcomeChecking, false), p.verifyWrite(res))...)
	}
	var cmds []tea.Cmd
	if res.Form != "" {
		cmds = append(cmds, views.FormDone(ID, res.Form, msg.Err))
	}
	if msg.Err != nil {
		if res.Form == "" {
			cmds = append(cmds, views.Toast(views.ErrText(msg.Err), true))
		}
		return tea.Batch(cmds...)
	}
	p.notice = ""
	if res.Watch != nil {
		p.watching[res.Watch.ID] = *res.Watch
	}
	if res.Done != "" {
		cmds = append(cmds, views.Toast(res.Done, false))
	}
	cmds = append(cmds, p.loadData("", allParts, keyData), p.Arm())
	return tea.Batch(cmds...)
}

// --- on-demand snapshot ---

func (p *Pane) askSnapshot() tea.Cmd {
	if c := p.dedicatedOnly("on-demand snapshot"); c != nil {
		return c
	}
	for _, s := range p.data.Snaps {
		if s.Type == string(apiclient.SnapshotOnDemand) && !s.Done {
			return p.refuse(fmt.Sprintf("on-demand snapshot: %s is already %s; one may be queued or in progress at a time", short(s.ID), s.Status))
		}
	}
	return p.form(formSnapshot, "On-demand snapshot of "+p.cluster.Name, []components.Field{
		{Key: "description", Label: "Description", Placeholder: "why this snapshot", CharLimit: 200},
		{Key: "retention", Label: "Retention (days)", Value: strconv.Itoa(apiclient.SnapshotRetentionDefault(p.data.Policy, 1)), Validate: positiveInt("retention")},
	}, views.ActionMsg{Name: keysOf(p.Ctx.Keys).Snapshot.Name})
}

func (p *Pane) takeSnapshot(msg views.ActionMsg) tea.Cmd {
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

var retentionUnits = []string{"DAYS", "WEEKS", "MONTHS", "YEARS"}

func (p *Pane) askExpiration() tea.Cmd {
	if c := p.dedicatedOnly("change expiration"); c != nil {
		return c
	}
	s, ok := p.selectedSnap()
	if !ok || p.view != viewSnapshots {
		return p.refuse("change expiration: select a snapshot first")
	}
	if !s.Done {
		return p.refuse("change expiration: snapshot " + short(s.ID) + " is still " + s.Status)
	}
	return p.form(formExpiration, "Expiration of snapshot "+short(s.ID), []components.Field{
		{Key: "unit", Label: "Keep for", Kind: components.FieldChoice, Choices: retentionUnits, Hint: "counted from now; now expires " + fmtTime(s.Expires)},
		{Key: "value", Label: "How many", Value: "7", Validate: positiveInt("the value")},
	}, views.ActionMsg{Name: keysOf(p.Ctx.Keys).Expiration.Name, Target: s.ID})
}

func (p *Pane) changeExpiration(msg views.ActionMsg) tea.Cmd {
	n, _ := strconv.Atoi(strings.TrimSpace(msg.Values["value"]))
	req := apiclient.SnapshotRetention{RetentionUnit: apiclient.SnapshotRetentionUnit(msg.Values["unit"]), RetentionValue: n}
	client, gid, cl, id := p.Ctx.Client, p.Ctx.GroupID, *p.cluster, msg.Target
	return p.write(msg.Form, "changing the expiration of "+short(id), func(ctx context.Context) (writeResult, error) {
		s, err := client.Backups().UpdateRetention(ctx, gid, cl.Name, id, req)
		if err != nil {
			return writeResult{}, err
		}
		return writeResult{Done: "snapshot " + short(id) + " now expires " + fmtTime(s.ExpiresAt)}, nil
	})
}

// --- delete ---

func (p *Pane) askDelete() tea.Cmd {
	if c := p.dedicatedOnly("delete snapshot"); c != nil {
		return c
	}
	s, ok := p.selectedSnap()
	if !ok || p.view != viewSnapshots {
		return p.refuse("delete: select a snapshot first")
	}
	if !s.Done {
		return p.refuse("delete: snapshot " + short(s.ID) + " is still " + s.Status)
	}
	typed := s.ID
	what := "its id"
	if d := components.Sanitize(s.Description); d != "" && d == s.Description {
		typed, what = d, "its description"
	}
	return p.confirm(views.ConfirmMsg{Title: "Delete snapshot " + short(s.ID) + "?",
		Body: fmt.Sprintf("Snapshot %s of %s taken %s (%s) is deleted for good; it can no longer be restored. Type %s to confirm.",
			s.ID, p.cluster.Name, fmtTime(s.Created), fmtSize(s.Size), what),
		TypeToConfirm: typed, Action: views.ActionMsg{Name: keysOf(p.Ctx.Keys).Delete.Name, Target: s.ID}})
}

func (p *Pane) deleteSnapshot(id string) tea.Cmd {
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
	r, ok := p.selectedRestore()
	if p.view != viewRestores || !ok {
		return p.refuse("cancel restore: select a restore job in the Restores view (tab)")
	}
	if !r.running() {
		return p.refuse("cancel restore: job " + short(r.ID) + " is " + string(r.State))
	}
	if p.data.Route != routeCluster {
		return p.refuse("cancel restore: " + p.cluster.Kind.String() + " restores cannot be cancelled through the API")
	}
	return p.confirm(views.ConfirmMsg{Title: "Cancel restore " + short(r.ID) + "?",
		Body: fmt.Sprintf("The %s restore of snapshot %s to %s stops; data already written to the target stays as it is.",
			r.Delivery, short(r.SnapshotID), orDash(r.Target)),
		Action: views.ActionMsg{Name: keysOf(p.Ctx.Keys).CancelRestore.Name, Target: r.ID}})
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
	if c := p.dedicatedOnly("export"); c != nil {
		return c
	}
	s, ok := p.selectedSnap()
	if !ok || p.view != viewSnapshots {
		return p.refuse("export: select a snapshot first")
	}
	if !s.Completed {
		return p.refuse("export: snapshot " + short(s.ID) + " is " + s.Status + "; only completed snapshots can be exported")
	}
	if len(p.data.Buckets) == 0 {
		return p.refuse("export: no export bucket in this project; register one in the Buckets view (b)")
	}
	var names []string
	for _, b := range p.data.Buckets {
		names = append(names, components.Sanitize(b.BucketName)+" ("+string(b.CloudProvider)+")")
	}
	return p.form(formExport, "Export snapshot "+short(s.ID), []components.Field{
		{Key: "bucket", Label: "Bucket", Kind: components.FieldChoice, Choices: names},
		{Key: "label", Label: "Label (key=value, optional)", Placeholder: "ticket=OPS-1", Validate: func(v string, _ components.FormValues) error {
			if v = strings.TrimSpace(v); v != "" && !strings.Contains(v, "=") {
				return errors.New("write the label as key=value")
			}
			return nil
		}},
	}, views.ActionMsg{Name: keysOf(p.Ctx.Keys).Export.Name, Target: s.ID})
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
	return p.form(formBucket, "New export bucket", []components.Field{
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
			return p.confirm(views.ConfirmMsg{Title: "Delete export bucket " + components.Sanitize(b.BucketName) + "?",
				Body:          "The bucket is no longer offered for exports; objects already in it stay. Automatic export must be off on every cluster using it.",
				TypeToConfirm: b.BucketName, Action: views.ActionMsg{Name: keysOf(p.Ctx.Keys).Delete.Name, Target: b.ID}})
		}
	}
	return p.refuse("delete bucket: select a bucket first")
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
	if c := p.dedicatedOnly("edit schedule"); c != nil {
		return c
	}
	s := p.data.Schedule
	if s == nil {
		return p.refuse("edit schedule: the schedule is not loaded")
	}
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
	return p.form(formSchedule, "Backup schedule of "+p.cluster.Name, fields, views.ActionMsg{Name: actEditSchedule})
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
		return views.FormDone(ID, msg.Form, errors.New("the schedule is not loaded"))
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
		return views.FormDone(ID, msg.Form, err)
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
		return tea.Batch(views.FormDone(ID, msg.Form, nil), views.Toast("schedule unchanged: nothing sent", false))
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
func (p *Pane) CanGoBack() bool { return p.notice != "" }

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
