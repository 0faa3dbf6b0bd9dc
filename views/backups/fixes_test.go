package backups

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// A refusal's notice stays while it is true and goes with its cause: the
// snapshot completing, the cursor moving on; the root's error toast goes
// with it (ErrorsResolved). A poll that changes nothing keeps it.
func TestRefusalNoticeGoesWithItsCause(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 16)
	s, _ := h.P.selectedSnap() // the top row: an hourly snapshot still running
	require.Equal(t, "inProgress", s.Status)
	h.ActionKey("R")
	want := "restore: snapshot " + short(s.ID) + " is inProgress; only completed snapshots can be restored"
	assert.Equal(t, want, h.LastToast().Text)
	assert.Contains(t, h.Screen(), want)
	assert.NotContains(t, h.P.hints(), "R restore", "the hint line does not offer what only refuses")

	require.True(t, h.tick())
	assert.Contains(t, h.Screen(), want, "still true: it stays")
	resolved := h.Resolved

	w.Clock.Advance(2 * time.Minute) // it completes
	require.True(t, h.tick())
	assert.NotContains(t, h.Screen(), "only completed snapshots", "gone with its cause")
	assert.Greater(t, h.Resolved, resolved, "and the root's error with it")
	assert.Contains(t, h.P.hints(), "R restore", "the key is offered again")

	// A refusal about the row under the cursor goes when the cursor moves on.
	h.P.snaps.SetCursor(4) // the failed snapshot
	h.ActionKey("E")
	assert.Contains(t, h.Screen(), "only completed snapshots can be exported")
	resolved = h.Resolved
	h.ActionKey("up")
	assert.NotContains(t, h.Screen(), "only completed snapshots can be exported")
	assert.Greater(t, h.Resolved, resolved)
}

// The project's compliance policy keeps on-demand snapshots 3 days: `d` on
// one a few minutes old is greyed with until when and why, the hint line
// leaves it out, and the key is refused before anything is asked or sent.
// Once the policy lets it go, it is offered again.
func TestCompliancePolicyKeepsASnapshotFromDelete(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 16)
	h.ActionKey("n")
	require.NoError(t, h.Submit(components.FormValues{"description": "fresh", "retention": "3"}))
	w.Clock.Advance(5 * time.Minute)
	require.True(t, h.tick())
	var id string
	for _, s := range h.P.data.Snaps {
		if s.Description == "fresh" {
			id = s.ID
			require.True(t, s.Completed)
		}
	}
	require.True(t, h.P.snaps.SetCursorID(id))
	k := keysOf(h.P.Ctx.Keys)
	why := "snapshot " + short(id) + " is kept until 2025-06-04 12:00 UTC by the backup compliance policy (on-demand snapshots at least 3 days)"
	del := viewstest.Offered(h.T, h.P, k.Delete.Name)
	assert.False(t, del.Enabled(), "greyed in help and the footer")
	assert.Equal(t, why, del.DisabledReason)
	assert.NotContains(t, h.P.hints(), "d delete")
	assert.Contains(t, h.P.hints(), "e expiration")

	mark := w.Mark()
	h.ActionKey("d")
	assert.Empty(t, h.Confirms, "nothing is asked")
	assert.Empty(t, w.WritesSince(mark), "nothing is sent")
	assert.Equal(t, "delete snapshot: "+why, h.LastToast().Text)

	// Three days on the policy lets it go: offered again, and the root's
	// error about it goes.
	resolved := h.Resolved
	w.Clock.Advance(3 * 24 * time.Hour)
	require.True(t, h.tick())
	require.True(t, h.P.snaps.SetCursorID(id))
	assert.True(t, viewstest.Offered(h.T, h.P, k.Delete.Name).Enabled())
	assert.Contains(t, h.P.hints(), "d delete snapshot")
	assert.Greater(t, h.Resolved, resolved)
	h.ActionKey("d")
	require.Len(t, h.Confirms, 1)
}

// The expiration form shows the date each length gives before anything is
// sent, greys the ones before the compliance policy's minimum with it, and
// chooses nothing for the user; a typed length below it is refused with
// the date it would give; a typed one, or one sooner than the current expiry, is asked
// about with its date before it is sent.
func TestExpirationFormShowsTheDateAndTheComplianceMinimum(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 16)
	h.P.snaps.SetCursor(3) // daily, taken 2025-05-29 15:00, expires 2025-06-08 15:00
	s, _ := h.P.selectedSnap()
	require.Equal(t, "daily", s.Frequency)
	h.ActionKey("e")
	require.Len(t, h.Forms, 1)
	f := h.Forms[0]
	assert.Contains(t, f.Fields[0].Label, "Current expiry: 2025-06-08 15:00 UTC")
	assert.Equal(t, "The compliance policy keeps it until 2025-06-05 15:00 UTC\n(daily snapshots at least 7 days).", f.Fields[0].Value)
	keep := f.Fields[1]
	assert.True(t, keep.None, "nothing is chosen for the user")
	assert.Equal(t, []string{"1 day", "3 days", "1 week", "2 weeks", "1 month", "1 year", "other"}, keep.Choices)
	assert.Equal(t, "expires 2025-06-02 12:00, sooner than current", keep.Details[0], "than the current expiry, the note's first line")
	assert.Equal(t, "expires 2025-06-08 12:00, sooner than current", keep.Details[2])
	assert.Equal(t, "expires 2025-06-15 12:00", keep.Details[3])
	below := "before the compliance policy's minimum"
	assert.Equal(t, []string{below, below, "", "", "", "", ""}, keep.Reasons)
	requireGolden(t, "expiration_form", formScreen(f, 120, 40))

	other := f.Fields[2]
	assert.ErrorContains(t, other.Validate("2 days", components.FormValues{"keep": keepOther}), "before the backup compliance policy's minimum",
		"the field says so as it is typed")
	assert.NoError(t, other.Validate("5 days", components.FormValues{"keep": keepOther}))
	assert.NoError(t, other.Validate("", components.FormValues{"keep": "2 weeks"}), "unused unless chosen")

	mark := w.Mark()
	require.ErrorContains(t, h.Submit(components.FormValues{"keep": "1 day"}), "cannot be chosen")
	require.ErrorContains(t, h.Submit(components.FormValues{"keep": keepOther, "other": "2 days"}),
		"it would expire 2025-06-03 12:00, before the backup compliance policy's minimum 2025-06-05 15:00 UTC (daily snapshots at least 7 days)")
	require.ErrorContains(t, h.Submit(components.FormValues{"keep": keepOther, "other": "soon"}), "days|weeks|months|years")
	assert.Empty(t, w.WritesSince(mark))

	// Sooner than the current expiry: asked, with the date.
	require.NoError(t, h.Submit(components.FormValues{"keep": "1 week"}))
	require.Len(t, h.Confirms, 1)
	c := h.LastConfirm()
	assert.Equal(t, "Shorten the expiration of snapshot "+short(s.ID)+"?", c.Title)
	assert.Contains(t, c.Body, "now expires 2025-06-08 15:00 UTC")
	assert.Contains(t, c.Body, "Kept 1 week from when this is sent, it expires about 2025-06-08 12:00 UTC, sooner than its current expiry: it is deleted then")
	assert.Empty(t, w.WritesSince(mark), "nothing before the yes")

	// Typed: asked with its date, then sent once.
	h.ActionKey("e")
	require.NoError(t, h.Submit(components.FormValues{"keep": keepOther, "other": "10 days"}))
	require.Len(t, h.Confirms, 2)
	c = h.LastConfirm()
	assert.Equal(t, "Change the expiration of snapshot "+short(s.ID)+"?", c.Title)
	assert.Contains(t, c.Body, "Kept 10 days from when this is sent, it expires about 2025-06-11 12:00 UTC.")
	assert.Empty(t, w.WritesSince(mark))
	h.Confirm("")
	assert.Len(t, w.WritesSince(mark), 1)
	got, err := w.Client.Backups().Snapshot(bg, apisim.DemoPaymentsID, "payments-rs", s.ID)
	require.NoError(t, err)
	assert.True(t, got.ExpiresAt.Equal(viewstest.Start.AddDate(0, 0, 10)), "%v", got.ExpiresAt)
	assert.Contains(t, h.LastToast().Text, "now expires 2025-06-11 12:00")
}

// A policy that comes to keep the snapshot while its delete question is
// open stops the delete at the yes: nothing is sent, and the pane says why.
func TestDeleteStoppedAtTheYesWhenThePolicyNowKeepsIt(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 16)
	h.P.snaps.SetCursor(8) // a daily snapshot past the policy's 7 days
	s, _ := h.P.selectedSnap()
	h.ActionKey("d")
	require.Len(t, h.Confirms, 1)
	pol, err := w.Client.Backups().CompliancePolicy(bg, apisim.DemoPaymentsID)
	require.NoError(t, err)
	pol.ScheduledPolicyItems[0].RetentionValue = 30 // daily snapshots at least 30 days
	_, err = w.Client.Backups().UpdateCompliancePolicy(bg, apisim.DemoPaymentsID, *pol, false)
	require.NoError(t, err)
	h.Refresh()
	mark := w.Mark()
	h.Confirm(s.ID)
	assert.Empty(t, w.WritesSince(mark))
	assert.Contains(t, h.LastToast().Text, "kept until 2025-06-23 15:00 UTC by the backup compliance policy (daily snapshots at least 30 days); nothing was sent")
}

// The footer and help read Actions(): what the row under the cursor
// refuses is greyed there with the reason the key gives, not only left off
// the pane's own hint line; it comes back when its cause goes.
func TestActionsGreyWhatTheRowRefuses(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 16)
	s, _ := h.P.selectedSnap() // the top row: an hourly snapshot still running
	require.Equal(t, "inProgress", s.Status)
	r := viewstest.Offered(h.T, h.P, "backups.restore")
	assert.False(t, r.Enabled())
	assert.Equal(t, "snapshot "+short(s.ID)+" is inProgress; only completed snapshots can be restored", r.DisabledReason)
	assert.False(t, viewstest.Offered(h.T, h.P, "backups.export").Enabled())

	w.Clock.Advance(2 * time.Minute) // it completes
	require.True(t, h.tick())
	assert.True(t, viewstest.Offered(h.T, h.P, "backups.restore").Enabled(), "offered again once it can act")
	assert.True(t, viewstest.Offered(h.T, h.P, "backups.cycleViews").Enabled(), "view keys are never greyed by the row")
}

// The compliance policy keeps on-demand snapshots at least 3 days: the
// snapshot form refuses a retention below that in place with the date it
// would give and the policy's minimum, and nothing is sent; 3 goes. An
// answer that reaches the pane below it anyway (the policy changed while
// the form was open) goes back to the form unsent.
func TestSnapshotFormRefusesARetentionBelowThePolicy(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 24)
	h.ActionKey("n")
	require.Len(t, h.Forms, 1)
	f := h.Forms[0]
	ret := f.Fields[1]
	require.Equal(t, "retention", ret.Key)
	assert.Equal(t, "3", ret.Value, "the policy's minimum is offered")
	why := "it would expire 2025-06-02 12:00, before the backup compliance policy's minimum 2025-06-04 12:00 UTC (on-demand snapshots at least 3 days)"
	assert.EqualError(t, ret.Validate("1", nil), why, "the field says so as it is typed")
	assert.ErrorContains(t, ret.Validate("0", nil), "at least 1")
	assert.NoError(t, ret.Validate("3", nil))

	mark := w.Mark()
	require.EqualError(t, h.Submit(components.FormValues{"description": "test1", "retention": "1"}), why)
	assert.Empty(t, w.WritesSince(mark), "nothing is sent")

	a := f.Action
	a.Confirmed, a.Form, a.Values = true, f.ID, components.FormValues{"description": "test1", "retention": "2"}
	h.Send(a)
	require.Len(t, h.FormsDone, 1)
	assert.ErrorContains(t, h.FormsDone[0].Err, "before the backup compliance policy's minimum")
	assert.Empty(t, w.WritesSince(mark), "nothing is sent")

	require.NoError(t, h.Submit(components.FormValues{"description": "test1", "retention": "3"}))
	assert.Len(t, w.WritesSince(mark), 1)
	assert.NoError(t, h.LastFormDone().Err)
}

// lastLine is the pane's own last line: its hint line.
func lastLine(h *harness) string {
	lines := strings.Split(strings.TrimRight(h.Screen(), "\n"), "\n")
	return lines[len(lines)-1]
}

// At 80 columns the Snapshots view's hint line puts the keys that act
// first, whole; the snapshot id, which the table does not show, is whole
// where it fits and shortened to the characters that tell rows apart where
// it would be cut. On a sharded snapshot enter, which folds its members,
// is offered as what it does next.
func TestSnapshotsHintLineKeysFirstAt80Columns(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 80, 20)
	h.P.snaps.SetCursor(1) // completed; the policy keeps it from d
	s, _ := h.P.selectedSnap()
	line := lastLine(h)
	assert.True(t, strings.HasPrefix(line, "n snapshot  R restore  e expiration  E export · snapshot "+short(s.ID)), "%q", line)

	mid := newHarness(t, w, "payments-rs", 90, 20)
	mid.P.snaps.SetCursor(1)
	assert.Equal(t, "n snapshot  R restore  e expiration  E export · snapshot "+s.ID, lastLine(mid),
		"the version goes before the id is shortened")

	wide := newHarness(t, w, "payments-rs", 160, 20)
	wide.P.snaps.SetCursor(1)
	assert.Equal(t, "enter detail  n snapshot  R restore  e expiration  E export · snapshot "+s.ID+" · mongod 6.0.18", lastLine(wide),
		"the whole id where it fits, and enter's detail")

	sh := newHarness(t, w, "payments-prod", 80, 20)
	sh.P.snaps.SetCursor(1)
	assert.True(t, strings.HasPrefix(lastLine(sh), "enter expand  n snapshot  R restore"), "%q", lastLine(sh))
	sh.ActionKey("enter")
	assert.True(t, strings.HasPrefix(lastLine(sh), "enter collapse  n snapshot  R restore"), "%q", lastLine(sh))
}

// The cluster list's enter is the pane's own key, not an action the root's
// footer lists: the pane's last line offers it while there is a row to
// open, and enter opens it.
func TestClusterListOffersEnterOpen(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "", 80, 20)
	assert.Equal(t, "enter open", lastLine(h))
	h.P.picker.SetCursorID("payments-rs")
	h.ActionKey("enter")
	require.True(t, h.P.loaded)
	assert.Equal(t, "payments-rs", h.P.cluster.Name)
}
