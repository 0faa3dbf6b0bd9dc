package backups

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

var bg = context.Background()

func TestClusterPickerThenSnapshotsList(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "", 120, 24)
	requireGolden(t, "cluster_picker", h.Screen())
	// Actions need a cluster first; nothing is sent.
	mark := w.Mark()
	h.ActionKey("n")
	assert.Contains(t, h.LastToast().Text, "pick a cluster first")
	h.P.picker.SetCursorID("payments-rs")
	h.ActionKey("enter")
	require.True(t, h.P.loaded)
	requireGolden(t, "snapshots_list", h.Screen())
	assert.Empty(t, w.WritesSince(mark))
	assert.Contains(t, h.Screen(), "failed", "the seeded failed snapshot shows")
}

func TestShardedMembersExpand(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-prod", 120, 20)
	require.True(t, h.P.loaded)
	assert.NotContains(t, h.Screen(), "payments-prod-shard-1")
	h.ActionKey("enter")
	s := h.Screen()
	assert.Contains(t, s, "└ member")
	assert.Contains(t, s, "payments-prod-shard-1")
	// On a member row, actions act on its snapshot.
	h.ActionKey("down")
	snap, ok := h.P.selectedSnap()
	require.True(t, ok)
	assert.Equal(t, h.P.data.Snaps[0].ID, snap.ID)
	// Delete on a sharded cluster is the sharded operation, for the gate too.
	for _, a := range h.P.Actions() {
		if a.Name == keysOf(h.P.Ctx.Keys).Delete.Name {
			assert.Equal(t, "deleteShardedClusterBackup", a.Op)
		}
	}
}

func TestOnDemandSnapshotWatchedToCompletion(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 24)
	h.ActionKey("n")
	require.Len(t, h.Forms, 1)
	requireGolden(t, "snapshot_form", formScreen(h.Forms[0], 120, 24))
	mark := w.Mark()
	require.NoError(t, h.Submit(components.FormValues{"description": "before the upgrade", "retention": "3"}))
	assert.Equal(t, []string{"POST /api/atlas/v2/groups/" + apisim.DemoPaymentsID + "/clusters/payments-rs/backup/snapshots"}, w.WritesSince(mark))
	require.Len(t, h.FormsDone, 1)
	assert.NoError(t, h.FormsDone[0].Err, "the form closes")
	assert.Contains(t, h.LastToast().Text, "queued")
	assert.Contains(t, h.Screen(), "before the upgrade")
	assert.Contains(t, h.Screen(), "watching 1")

	// A second one is refused here, before anything is sent.
	mark = w.Mark()
	h.ActionKey("n")
	assert.Contains(t, h.LastToast().Text, "one may be queued or in progress at a time")
	assert.Empty(t, w.WritesSince(mark))

	w.Clock.Advance(2 * time.Minute)
	require.True(t, h.tick())
	assert.Contains(t, h.Toasts[len(h.Toasts)-1].Text, "completed")
	assert.Empty(t, h.P.watching)
}

func TestServerRefusalKeepsTheFormOpen(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 24)
	// Someone else starts one after the pane loaded.
	_, err := w.Client.Backups().TakeSnapshot(bg, apisim.DemoPaymentsID, "payments-rs", apiclient.TakeSnapshotRequest{RetentionInDays: 3})
	require.NoError(t, err)
	h.ActionKey("n")
	require.NoError(t, h.Submit(components.FormValues{"description": "mine", "retention": "3"}))
	require.Len(t, h.FormsDone, 1)
	ae, ok := apiclient.AsError(h.FormsDone[0].Err)
	require.True(t, ok, "the API error goes back to the form")
	assert.Equal(t, "ON_DEMAND_SNAPSHOT_IN_PROGRESS", ae.ErrorCode)
	assert.Empty(t, h.P.watching)
}

// restoreThroughWizard drives the wizard from the selected snapshot to the
// typed confirmation, checking each step.
func restoreThroughWizard(t *testing.T, h *harness, golden bool) {
	t.Helper()
	h.ActionKey("R")
	require.Len(t, h.Forms, 1, "step 1 opens after the projects load")
	if golden {
		requireGolden(t, "restore_step1", formScreen(h.Forms[0], 120, 30))
	}
	require.NoError(t, h.Submit(components.FormValues{"delivery": "automated", "project": "staging"}))
	require.Len(t, h.FormsDone, 1)
	assert.NoError(t, h.FormsDone[0].Err)
	require.Len(t, h.Forms, 2, "step 2 opens with the project's clusters")
	target := h.Forms[1].Fields[0]
	assert.Equal(t, []string{"staging-rs", "staging-flex", "staging-m5"}, target.Choices, "every cluster, the ones that can receive it first")
	assert.Equal(t, []string{"", "a flex cluster cannot receive a dedicated cluster's snapshot", "tier M5 cannot receive a restore"}, target.Reasons)
	assert.True(t, target.None, "no target is preselected")
	if golden {
		requireGolden(t, "restore_step2", formScreen(h.Forms[1], 120, 30))
	}
	require.ErrorContains(t, h.Submit(nil), "choose one", "nothing is chosen for the user")
	require.ErrorContains(t, h.Submit(components.FormValues{"cluster": "staging-m5"}), "cannot be chosen")
	require.NoError(t, h.Submit(components.FormValues{"cluster": "staging-rs"}))
	require.Len(t, h.Confirms, 1)
	c := h.Confirms[0]
	assert.Equal(t, "staging-rs", c.TypeToConfirm)
	// The snapshot by its id: several can share the minute they were taken.
	assert.Contains(t, c.Body, "snapshot "+h.P.snaps.SelectedID()+" of payments-rs, taken 2025-05-29 15:00, MongoDB 6.0.18")
	assert.Contains(t, c.Body, "-> project staging, cluster staging-rs, MongoDB 8.0.4")
	assert.Contains(t, c.Body, "ALL DATA on staging-rs is REPLACED")
	if golden {
		requireGolden(t, "restore_step3", c.Title+"\n\n"+c.Body+"\n\ntype: "+c.TypeToConfirm+"\n")
	}
}

func TestRestoreWizardStartsAndWatchesALiveRestore(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 16)
	h.P.snaps.SetCursor(3) // a completed daily snapshot
	snap, _ := h.P.selectedSnap()
	require.True(t, snap.Completed)
	mark := w.Mark()
	restoreThroughWizard(t, h, true)
	assert.Empty(t, w.WritesSince(mark), "nothing is sent before the typed confirmation")

	h.Confirm("")
	assert.Equal(t, []string{"POST /api/atlas/v2/groups/" + apisim.DemoPaymentsID + "/clusters/payments-rs/backup/restoreJobs"}, w.WritesSince(mark))
	jobs, err := w.Client.Backups().AllRestoreJobs(bg, apisim.DemoPaymentsID, "payments-rs")
	require.NoError(t, err)
	assert.Equal(t, snap.ID, jobs[0].SnapshotID)
	assert.Equal(t, "staging-rs", jobs[0].TargetClusterName)
	assert.Equal(t, apisim.DemoStagingID, jobs[0].TargetGroupID)
	assert.Equal(t, apiclient.DeliveryAutomated, jobs[0].DeliveryType)

	assert.Equal(t, viewRestores, h.P.view)
	assert.Contains(t, h.P.Busy(), "running")
	w.Clock.Advance(65 * time.Second)
	require.True(t, h.tick())
	requireGolden(t, "restore_live_row", h.Screen())

	w.Clock.Advance(time.Minute)
	require.True(t, h.tick())
	assert.Equal(t, "restore of "+short(snap.ID)+" to staging-rs finished", h.LastToast().Text)
	assert.Empty(t, h.P.Busy())
}

func TestRestoreRefusedReopensTheStepWithTheChoices(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 16)
	h.P.snaps.SetCursor(3)
	snap, _ := h.P.selectedSnap()
	restoreThroughWizard(t, h, false)
	// The snapshot is deleted elsewhere before the confirmation is answered
	// (the compliance policy that kept it turned off first).
	require.NoError(t, w.Client.Backups().DisableCompliancePolicy(bg, apisim.DemoPaymentsID))
	require.NoError(t, w.Client.Backups().DeleteSnapshot(bg, apisim.DemoPaymentsID, "payments-rs", snap.ID))
	h.Confirm("")
	assert.True(t, h.Toasts[len(h.Toasts)-1].Err)
	assert.Contains(t, h.LastToast().Text, "SNAPSHOT_NOT_FOUND")
	last := h.Forms[len(h.Forms)-1]
	assert.Equal(t, formTarget, last.ID, "the target step reopens")
	assert.Equal(t, "staging-rs", last.Fields[0].Choices[last.Fields[0].Choice], "with the choice kept")
	assert.Contains(t, last.Fields[0].Hint, "SNAPSHOT_NOT_FOUND")
	assert.Empty(t, h.P.watching)
}

// Step 2 lists every cluster of the chosen project; the ones that cannot
// receive the snapshot are greyed with the reason and cannot be chosen.
func TestRestoreTargetsGreyedWithTheReason(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 16)
	h.P.snaps.SetCursor(3)
	h.ActionKey("R")
	require.NoError(t, h.Submit(components.FormValues{"delivery": "pointInTime", "project": "payments"}))
	f := h.Forms[len(h.Forms)-1].Fields[0]
	why := map[string]string{}
	for i, c := range f.Choices {
		why[c] = f.Reasons[i]
	}
	assert.Equal(t, map[string]string{
		"payments-rs":         "",
		"payments-legacy":     "MongoDB 4.0.28 is older than the snapshot's 6.0.18",
		"payments-prod":       "sharded cluster, the snapshot is of a replica set",
		"payments-flex":       "a flex cluster cannot receive a dedicated cluster's snapshot",
		"payments-serverless": "a serverless instance cannot receive a dedicated cluster's snapshot",
	}, why, "point-in-time follows the same rule; the source is offered (in place)")

	// A project with a target: the goldens show the greyed rows at both sizes.
	h.ActionKey("R")
	require.NoError(t, h.Submit(components.FormValues{"delivery": "automated", "project": "analytics"}))
	form := h.Forms[len(h.Forms)-1]
	assert.Equal(t, []string{"analytics-main", "analytics-old", "reports-m2", "sandbox-m0"}, form.Fields[0].Choices)
	requireGolden(t, "restore_step2_greyed_80x24", formScreen(form, 80, 24))
	requireGolden(t, "restore_step2_greyed_120x40", formScreen(form, 120, 40))
}

func TestPointInTimeStepValidatesLocally(t *testing.T) {
	check := func(key, mode, v string) error {
		return pitField(key)(v, components.FormValues{"mode": mode})
	}
	assert.Error(t, check("when", pitDateTime, "yesterday"))
	assert.Error(t, check("when", pitDateTime, "2007-12-31 23:59:59"))
	assert.NoError(t, check("when", pitDateTime, "2025-06-01 11:30:00"))
	assert.NoError(t, check("when", pitOplog, ""), "unused in oplog mode")
	assert.Error(t, check("oplogTs", pitOplog, "1199145599"))
	assert.NoError(t, check("oplogTs", pitOplog, "1199145600"))
	assert.Error(t, check("oplogInc", pitOplog, "0"))
	wz := &wizard{Delivery: apiclient.DeliveryPointInTime, Route: routeCluster, Target: "t", Project: apiclient.Project{ID: "p"},
		PITMode: pitDateTime, When: "2025-06-01 11:30:00", Snapshot: snapRow{ID: "s"}}
	r := wz.request()
	assert.Equal(t, time.Date(2025, 6, 1, 11, 30, 0, 0, time.UTC).Unix(), r.PointInTimeUTCSeconds)
	assert.Empty(t, r.SnapshotID)
	assert.NoError(t, r.Validate())
}

func TestCancelAskedThenSent(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 16)
	h.ActionKey("tab")
	require.Equal(t, viewRestores, h.P.view)
	// The seeded restore still running is first.
	r, ok := h.P.selectedRestore()
	require.True(t, ok)
	require.True(t, r.running())
	mark := w.Mark()
	h.ActionKey("x")
	require.Len(t, h.Confirms, 1)
	assert.Empty(t, h.Confirms[0].TypeToConfirm)
	assert.Empty(t, w.WritesSince(mark), "nothing before the yes")
	h.Confirm("")
	assert.Equal(t, []string{"DELETE /api/atlas/v2/groups/" + apisim.DemoPaymentsID + "/clusters/payments-rs/backup/restoreJobs/" + r.ID}, w.WritesSince(mark))
	got, _ := h.P.selectedRestore()
	assert.Equal(t, apiclient.RestoreCancelled, got.State)
}

func TestDeleteNeedsTheTypedName(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 16)
	h.P.snaps.SetCursor(8) // a daily snapshot past the compliance policy's 7 days
	s, _ := h.P.selectedSnap()
	require.Equal(t, "daily", s.Frequency)
	h.ActionKey("d")
	require.Len(t, h.Confirms, 1)
	assert.Equal(t, s.ID, h.Confirms[0].TypeToConfirm, "no description: the id is typed")
	h.Confirm("")
	_, err := w.Client.Backups().Snapshot(bg, apisim.DemoPaymentsID, "payments-rs", s.ID)
	assert.True(t, apiclient.IsNotFound(err))
}

func TestExpirationAndExportForms(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 16)
	h.P.snaps.SetCursor(3)
	s, _ := h.P.selectedSnap()
	h.ActionKey("e")
	require.Len(t, h.Forms, 1)
	mark := w.Mark()
	require.NoError(t, h.Submit(components.FormValues{"keep": "2 weeks"}), "a longer one, its date shown in the form, is sent at once")
	assert.Len(t, w.WritesSince(mark), 1)
	got, err := w.Client.Backups().Snapshot(bg, apisim.DemoPaymentsID, "payments-rs", s.ID)
	require.NoError(t, err)
	assert.True(t, got.ExpiresAt.Equal(viewstest.Start.AddDate(0, 0, 14)))

	h.ActionKey("E")
	require.Len(t, h.Forms, 2, h.LastToast().Text)
	require.NoError(t, h.Submit(components.FormValues{"bucket": h.Forms[1].Fields[0].Choices[0], "label": "ticket=OPS-7"}))
	h.ActionKey("tab")
	h.ActionKey("tab")
	require.Equal(t, viewExports, h.P.view)
	assert.Contains(t, h.Screen(), "Queued")
	w.Clock.Advance(3 * time.Minute)
	require.True(t, h.tick())
	assert.Contains(t, h.LastToast().Text, "Successful")
}

func TestScheduleEditSendsOnlyWhatChangedAndChecksOrdering(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 30)
	for h.P.view != viewSchedule {
		h.ActionKey("tab")
	}
	requireGolden(t, "schedule", h.Screen())
	h.ActionKey("s")
	require.Len(t, h.Forms, 1)
	f := h.Forms[0]
	vals := components.FormValues{"hour": "5", "minute": "30", "window": "7", "item0": "2 days", "item1": "7 days", "item2": "4 weeks", "item3": "12 months"}
	// The weekly item may not keep less than the daily one.
	bad := components.FormValues{}
	for k, v := range vals {
		bad[k] = v
	}
	bad["item2"] = "3 days"
	var itemField components.Field
	for _, fd := range f.Fields {
		if fd.Key == "item2" {
			itemField = fd
		}
	}
	assert.ErrorContains(t, itemField.Validate("3 days", bad), "less than the more frequent daily item")
	mark := w.Mark()
	require.NoError(t, h.Submit(vals))
	assert.Equal(t, []string{"PATCH /api/atlas/v2/groups/" + apisim.DemoPaymentsID + "/clusters/payments-rs/backup/schedule"}, w.WritesSince(mark))
	sch, err := w.Client.Backups().Schedule(bg, apisim.DemoPaymentsID, "payments-rs")
	require.NoError(t, err)
	assert.Equal(t, 5, *sch.ReferenceHourOfDay)
	assert.Len(t, sch.Policies[0].PolicyItems, 4, "the policy was not touched")
}

func TestComplianceView(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 24)
	for h.P.view != viewCompliance {
		h.ActionKey("tab")
	}
	s := h.Screen()
	assert.Contains(t, s, "State                ACTIVE")
	assert.Contains(t, s, "compliance@example.com")
}

func TestServerlessFallsBackToFlexAfterTheSunsetAndSaysSo(t *testing.T) {
	w := newWorld(t)
	w.Clock.Set(time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC))
	h := newHarness(t, w, "payments-serverless", 140, 16)
	require.True(t, h.P.loaded)
	s := h.Screen()
	assert.Contains(t, s, "sunset on 2026-01-22")
	assert.Contains(t, s, "completed")
	reqs := w.RequestsSince(0)
	for _, r := range reqs {
		assert.NotContains(t, r, "/serverless/", "no call to the sunset routes")
	}
	for _, a := range h.P.Actions() {
		if a.Name == keysOf(h.P.Ctx.Keys).Restore.Name {
			assert.Equal(t, "createFlexBackupRestoreJob", a.Op)
		}
	}

	// Before the sunset the serverless routes are used.
	w2 := newWorld(t)
	h2 := newHarness(t, w2, "payments-serverless", 140, 16)
	assert.NotContains(t, h2.Screen(), "sunset")
	reqs = w2.RequestsSince(0)
	assert.Contains(t, strings.Join(reqs, "\n"), "/serverless/payments-serverless/backup/snapshots")
}

func TestTenantClusterSaysWhy(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "", 120, 16)
	h.P.Ctx.GroupID = apisim.DemoAnalyticsID
	h.Run(h.P.loadClusters(""))
	h.P.picker.SetCursorID("reports-m2")
	h.ActionKey("enter")
	assert.Contains(t, h.Screen(), "Shared-tier (M0/M2/M5) clusters")
	h.ActionKey("n")
	assert.Contains(t, h.LastToast().Text, "not available for shared tier")
}

// TestPollingBudget: a restore this session started, watched for 60
// simulated seconds, costs at most one request per 4 s tick (hidden: the
// job's GET; visible: one list per moving part); nothing once it ends;
// nothing from a hidden pane with nothing to watch.
func TestPollingBudget(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 16)
	h.P.snaps.SetCursor(3)
	restoreThroughWizard(t, h, false)
	h.Confirm("")
	require.Len(t, h.P.watching, 1)

	// Visible for 60 s: every tick 4 s apart, at most one list per moving
	// part (the restores, and the seeded scheduled snapshot while it runs).
	mark := w.Mark()
	ticks := 0
	for elapsed := time.Duration(0); elapsed < 60*time.Second; {
		d := h.P.PollEvery()
		require.Equal(t, WatchEvery, d)
		w.Clock.Advance(d)
		elapsed += d
		require.True(t, h.tick())
		ticks++
	}
	reqs := w.RequestsSince(mark)
	assert.Equal(t, 15, ticks)
	assert.LessOrEqual(t, len(reqs), 2*ticks, "visible: %v", reqs)
	for _, r := range reqs {
		assert.True(t, strings.HasPrefix(r, "GET "), r)
	}

	// Hidden: only the watched job's own GET, one per tick.
	h.Run(h.P.SetVisible(false))
	mark = w.Mark()
	for i := 0; i < 3; i++ {
		w.Clock.Advance(h.P.PollEvery())
		require.True(t, h.tick())
	}
	reqs = w.RequestsSince(mark)
	require.Len(t, reqs, 3)
	for _, r := range reqs {
		assert.Contains(t, r, "GET /api/atlas/v2/groups/"+apisim.DemoPaymentsID+"/clusters/payments-rs/backup/restoreJobs/")
	}
	// It finishes while hidden: a toast, and the loop stops.
	for i := 0; i < 20 && len(h.P.watching) > 0; i++ {
		w.Clock.Advance(h.P.PollEvery())
		h.tick()
	}
	assert.Empty(t, h.P.watching)
	assert.Contains(t, h.LastToast().Text, "finished")
	assert.False(t, h.P.Polling(), "no poll after it finished")
	mark = w.Mark()
	tick := h.P.Tick()
	h.Send(tick)
	tick.Gen--
	h.Send(tick)
	w.Clock.Advance(time.Hour)
	reqs = w.RequestsSince(mark)
	assert.Empty(t, reqs, "nothing after it finished")

	// A hidden pane that watches nothing never polls.
	other := newHarness(t, w, "payments-rs", 120, 16)
	other.Run(other.P.SetVisible(false))
	assert.False(t, other.P.Polling())
	mark = w.Mark()
	other.Send(other.P.Tick())
	reqs = w.RequestsSince(mark)
	assert.Empty(t, reqs, "hidden and idle")
}

// Issue 24 case 3: the snapshot's own cluster is offered first, marked
// "this cluster (roll back in place)"; choosing it asks for its name typed,
// and the restore sent names it as the target in the same project.
func TestRestoreInPlaceOffered(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 16)
	h.P.snaps.SetCursor(3)
	snap, _ := h.P.selectedSnap()
	h.ActionKey("R")
	require.NoError(t, h.Submit(components.FormValues{"delivery": "automated", "project": "payments"}))
	form := h.Forms[len(h.Forms)-1]
	f := form.Fields[0]
	require.Equal(t, "payments-rs", f.Choices[0], "the source first")
	assert.Empty(t, f.Reasons[0])
	assert.Contains(t, f.Details[0], "this cluster (roll back in place)")
	assert.Equal(t, -1, f.Choice, "nothing chosen for the user")
	requireGolden(t, "restore_step2_in_place_80x24", formScreen(form, 80, 24))
	requireGolden(t, "restore_step2_in_place_120x40", formScreen(form, 120, 40))

	mark := w.Mark()
	require.NoError(t, h.Submit(components.FormValues{"cluster": "payments-rs"}))
	c := h.LastConfirm()
	assert.Equal(t, "payments-rs", c.TypeToConfirm, "the target's name is typed")
	assert.Equal(t, "Roll payments-rs back in place? (3/3)", c.Title)
	assert.Contains(t, c.Body, "rolled back in place")
	assert.Contains(t, c.Body, "ALL DATA on payments-rs is REPLACED")
	assert.Empty(t, w.WritesSince(mark))
	h.Confirm("payments-rs")
	assert.Equal(t, []string{"POST /api/atlas/v2/groups/" + apisim.DemoPaymentsID + "/clusters/payments-rs/backup/restoreJobs"}, w.WritesSince(mark))
	jobs, err := w.Client.Backups().AllRestoreJobs(bg, apisim.DemoPaymentsID, "payments-rs")
	require.NoError(t, err)
	assert.Equal(t, snap.ID, jobs[0].SnapshotID)
	assert.Equal(t, "payments-rs", jobs[0].TargetClusterName)
	assert.Equal(t, apisim.DemoPaymentsID, jobs[0].TargetGroupID)
	assert.Equal(t, "restore of "+short(snap.ID)+" to payments-rs started", h.LastToast().Text)
}
