package alerts_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// topAlert is the id of the first row: the newest open alert.
func topAlert(t *testing.T, w *viewstest.Sim) apiclient.Alert {
	t.Helper()
	all, err := w.Client.Alerts().ListAll(context.Background(), apisim.DemoPaymentsID, apiclient.AlertOpen)
	require.NoError(t, err)
	best := all[0]
	for _, a := range all {
		if a.Created.After(best.Created) {
			best = a
		}
	}
	return best
}

func TestAckDialogKeys(t *testing.T) {
	w := newWorld(t)
	d := newDriver(t, w, "org-owner", 120, 40)
	require.Contains(t, d.Screen(), "STATUS")
	first := topAlert(t, w)

	d.Press("a")
	s := d.Screen()
	require.Contains(t, s, "Acknowledge "+first.EventTypeName, "the dialog names the alert")
	assert.Contains(t, s, "(•) 1h", "until starts at 1h")
	assert.Contains(t, s, "0/200", "a live counter")

	// The cursor starts in the comment.
	d.Type("disk full on shard 2")
	assert.Contains(t, d.Screen(), "disk full on shard 2")
	assert.Contains(t, d.Screen(), "20/200")

	// tab moves to until; until… with no date: enter does not send.
	d.Press("tab", "right", "right", "right")
	require.Contains(t, d.Screen(), "(•) until…")
	d.Press("enter")
	assert.Contains(t, d.Screen(), "type a date and time")
	assert.Zero(t, len(w.Writes()), "nothing was sent")
	// The cursor went to the field at fault; a date in the past is refused too.
	assert.Contains(t, d.Screen(), "▸ Until (typing here selects until…)")
	d.Type("2020-01-01 10:00")
	d.Press("enter")
	assert.Contains(t, d.Screen(), "must be in the future")
	assert.Zero(t, len(w.Writes()))

	// Back to 1h (shift+tab, left x3): enter sends, the dialog closes and
	// says who and until when.
	// The alert is acknowledged until later already: asked first.
	d.Press("shift+tab", "left", "left", "left", "enter")
	require.Contains(t, d.Screen(), "Shorten an acknowledgement?")
	require.Zero(t, len(w.Writes()))
	d.Press("y")
	require.EqualValues(t, 1, len(w.Writes()))
	s = d.Screen()
	assert.NotContains(t, s, "0/200", "the dialog closed")
	until := viewstest.Start.Add(time.Hour)
	assert.Contains(t, s, "acknowledged until "+until.Format("2006-01-02 15:04")+" by org-owner@demo.example")
	got := alertOf(t, w, first.ID)
	require.NotNil(t, got.AcknowledgedUntil)
	assert.True(t, got.AcknowledgedUntil.Equal(until))
	assert.Equal(t, "disk full on shard 2", got.AcknowledgementComment)
	assert.Equal(t, "org-owner@demo.example", got.AcknowledgingUsername)
}

func TestAckCommentStopsAt200Characters(t *testing.T) {
	w := newWorld(t)
	d := newDriver(t, w, "org-owner", 120, 40)
	first := topAlert(t, w)
	d.Press("a")
	d.Type(strings.Repeat("é", 201))
	assert.Contains(t, d.Screen(), "200/200", "the 201st character is not taken")
	d.Press("enter", "y") // y: shorten the acknowledgement it has
	require.EqualValues(t, 1, len(w.Writes()))
	assert.Equal(t, strings.Repeat("é", 200), alertOf(t, w, first.ID).AcknowledgementComment)
}

// raiseOwnAlert opens a fresh alert through an incident of an event no
// seeded configuration watches, so the test can close it server-side.
func raiseOwnAlert(t *testing.T, w *viewstest.Sim) (alertID, incidentID string) {
	t.Helper()
	zero := 0
	_, err := w.Client.AlertConfigs().Create(context.Background(), apisim.DemoPaymentsID, apiclient.AlertConfig{
		Enabled: true, EventTypeName: "FTDC_SETTINGS_UPDATED", SeverityOverride: apiclient.SeverityWarning,
		Notifications: []apiclient.Notification{{TypeName: apiclient.NotifyEmail, EmailAddress: "dba@example.com", DelayMin: &zero, IntervalMin: 60}}})
	require.NoError(t, err)
	w.Clock.Advance(time.Minute) // newest of all, so the first row
	out := w.Control("POST", "/incidents", `{"groupId":"`+apisim.DemoPaymentsID+`","eventTypeName":"FTDC_SETTINGS_UPDATED","clusterName":"payments-rs"}`)
	alerts := out["alerts"].([]any)
	require.Len(t, alerts, 1)
	return alerts[0].(map[string]any)["id"].(string), out["incident"].(map[string]any)["id"].(string)
}

func TestAckFailureKeepsTheDraftAndShowsTheError(t *testing.T) {
	w := newWorld(t)
	id, incident := raiseOwnAlert(t, w)
	d := newDriver(t, w, "org-owner", 120, 40)
	d.Press("a")
	require.Contains(t, d.Screen(), "FTDC_SETTINGS_UPDATED")
	d.Type("looking at the FTDC change")
	// Meanwhile the incident clears: the alert closes on the server.
	w.Control("POST", "/incidents/"+incident+"/resolve", "")
	before := len(w.Writes())
	d.Press("enter")
	require.Equal(t, before+1, len(w.Writes()), "it was sent")
	s := d.Screen()
	assert.Contains(t, s, "CANNOT_ACKNOWLEDGE_CLOSED_ALERT", "the errorCode shows in the dialog")
	assert.Contains(t, s, "looking at the FTDC change", "the comment is kept")
	assert.Contains(t, s, "Acknowledge FTDC_SETTINGS_UPDATED", "the dialog is still open")
	assert.Nil(t, alertOf(t, w, id).AcknowledgedUntil)
	d.Press("esc")
	assert.NotContains(t, d.Screen(), "looking at the FTDC change", "esc closes the dialog")
}

func TestBulkAckReportsEachAlert(t *testing.T) {
	w := newWorld(t)
	id, incident := raiseOwnAlert(t, w)
	d := newDriver(t, w, "org-owner", 140, 40)
	// Mark the first three rows: ours and two seeded open alerts.
	d.Press("space", "space", "space")
	require.Contains(t, d.Screen(), "3 marked")
	w.Control("POST", "/incidents/"+incident+"/resolve", "")
	d.Press("a")
	require.Contains(t, d.Screen(), "Acknowledge 3 alerts")
	s := d.Screen()
	assert.Contains(t, s, "Acts on these 3:", "the dialog lists what it acts on")
	assert.Contains(t, s, id)
	d.Type("bulk")
	before := len(w.Writes())
	d.Press("enter")
	// The second row is acknowledged until later than 1h from now: asked
	// first, default No, nothing sent meanwhile.
	s = d.Screen()
	require.Contains(t, s, "Shorten an acknowledgement?")
	assert.Contains(t, s, "shortens it by 24h59m")
	assert.Equal(t, before, len(w.Writes()), "nothing sent before the answer")
	d.Press("y")
	assert.Equal(t, before+3, len(w.Writes()), "one request per alert")
	s = d.Screen()
	assert.Contains(t, s, "acknowledged 2 of 3 alerts; 1 failed")
	assert.Contains(t, s, "Bulk acknowledge")
	assert.Contains(t, s, id)
	assert.Contains(t, s, "CANNOT_ACKNOWLEDGE_CLOSED_ALERT")
	assert.Equal(t, 2, strings.Count(s, "✓ acknowledged until"), s)
	assert.Contains(t, s, "✗ acknowledging 3 alerts failed: 1 of 3 failed: 400 CANNOT_ACKNOWLEDGE_CLOSED_ALERT",
		"a partly failed write's task is not done")
	assert.NotContains(t, s, "3 alerts: done")
	// The failed one stays marked, with the choices kept for a retry: two
	// of the three went through, so the retry lands on their window (the
	// until they got), not a new "1h" from the retry.
	d.Press("esc")
	assert.Contains(t, d.Screen(), "1 marked")
	d.Press("a")
	s = d.Screen()
	assert.Contains(t, s, "bulk", "the draft comes back")
	assert.Contains(t, s, "(•) until…", "the retry keeps the until of the first submit")
	assert.Contains(t, s, viewstest.Start.Add(time.Minute+time.Hour).UTC().Format(time.RFC3339))
}

// A failed acknowledgement's choices come back only for the same alert:
// another alert's dialog opens fresh, and the task line says the write
// failed.
func TestFailedAckDraftStaysWithItsAlert(t *testing.T) {
	w := newWorld(t)
	d := newDriver(t, w, "org-owner", 140, 40)
	// The first row is acknowledged until later than 1h from now.
	d.Press("a")
	d.Type("shorten")
	d.Press("enter")
	require.Contains(t, d.Screen(), "Shorten an acknowledgement?")
	w.Control("PUT", "/faults", `{"failWrites": 1}`)
	d.Press("y")
	s := d.Screen()
	require.Contains(t, s, "503", "the write failed")
	assert.Contains(t, s, "failed: 503 SERVICE_UNAVAILABLE", "the task line says it failed")
	assert.NotContains(t, s, ": done")

	// Time passes: a kept "1h" must not have turned into a stale time.
	w.Clock.Advance(2 * time.Hour)
	// Another alert: a fresh dialog.
	d.Press("down", "a")
	s = d.Screen()
	require.Contains(t, s, "0/200", "a fresh dialog, no comment")
	assert.Contains(t, s, "(•) 1h")
	d.Type("checking disk")
	assert.Contains(t, d.Screen(), "13/200")
	assert.NotContains(t, d.Screen(), "shorten")
	d.Press("esc")

	// The same alert again: its choices come back, as chosen.
	d.Press("up", "a")
	s = d.Screen()
	assert.Contains(t, s, "shorten", "the draft comes back for its alert")
	assert.Contains(t, s, "(•) 1h", "1h stays 1h")
	assert.NotContains(t, s, "must be in the future")
}

func TestReadOnlyIsRefusedOnScreenAndNothingIsSent(t *testing.T) {
	w := newWorld(t)
	d := newDriver(t, w, "read-only", 120, 40)
	require.Contains(t, d.Screen(), "STATUS")
	for _, k := range []string{"a", "u", "c", "t", "d", "n", "e"} {
		d.Press(k)
	}
	s := d.Screen()
	assert.Contains(t, s, "needs", "the refusal names the role needed")
	assert.Zero(t, len(w.Writes()))
	assert.NotContains(t, s, "0/200", "no dialog opened")
}

// A failed unacknowledgement's comment is not an acknowledgement's: the
// ack dialog opens fresh.
func TestFailedUnackLeavesTheAckDialogFresh(t *testing.T) {
	w := newWorld(t)
	d := newDriver(t, w, "org-owner", 140, 40)
	d.Press("u")
	d.Type("not mine")
	w.Control("PUT", "/faults", `{"failWrites": 1}`)
	d.Press("enter")
	require.Contains(t, d.Screen(), "503", "the write failed")
	d.Press("esc", "a")
	s := d.Screen()
	require.Contains(t, s, "Acknowledge ")
	assert.Contains(t, s, "0/200", "no comment carried over")
	assert.NotContains(t, s, "not mine")
}

// Alerts of the same event on the same place share the dialog's title: the
// one-alert ack and unack dialogs name the alert by its whole id and its
// created time, at 80 columns.
func TestOneAlertDialogsNameTheIDAndCreated(t *testing.T) {
	w := newWorld(t)
	d := newDriver(t, w, "org-owner", 80, 24)
	first := topAlert(t, w)
	created := "created " + first.Created.UTC().Format("2006-01-02 15:04") + " UTC"

	d.Press("a")
	s := d.Screen()
	require.Contains(t, s, "Acknowledge "+first.EventTypeName)
	assert.Contains(t, s, first.ID+"  "+created, "the ack dialog names the alert by id and created time")
	d.Press("esc", "u")
	s = d.Screen()
	require.Contains(t, s, "Unacknowledge "+first.EventTypeName)
	assert.Contains(t, s, first.ID+"  "+created, "the unack dialog names the alert by id and created time")
}

// On a short terminal the ack dialog's list shows two targets and scrolls
// to the others: every target can be read before enter, none is hidden
// behind "and N more".
func TestAckListScrollsToEveryTargetOnAShortTerminal(t *testing.T) {
	w := newWorld(t)
	d := newDriver(t, w, "org-owner", 80, 24)
	d.Press("space", "space", "space", "space", "space")
	require.Contains(t, d.Screen(), "5 marked")
	d.Press("a")
	s := d.Screen()
	require.Contains(t, s, "Acknowledge 5 alerts")
	assert.NotContains(t, s, "and 3 more")
	assert.Contains(t, s, "(↓ 3 more · tab here to scroll)")
	idRe := regexp.MustCompile(`• ([0-9a-f]{24})`)
	seen := map[string]bool{}
	read := func() {
		for _, m := range idRe.FindAllStringSubmatch(d.Screen(), -1) {
			seen[m[1]] = true
		}
	}
	read()
	require.Len(t, seen, 2, "two targets shown before scrolling")
	// From the comment back to the list: it takes the cursor and scrolls.
	d.Press("shift+tab", "shift+tab", "shift+tab")
	assert.Contains(t, d.Screen(), "(↓ 3 more · ↑/↓ scroll)")
	for range 3 {
		d.Press("down")
		read()
	}
	assert.Len(t, seen, 5, "every target was read by scrolling")
	assert.Contains(t, d.Screen(), "(↑ 3 above · ↑/↓ scroll)")
	// At the end, down moves on to the next field as usual.
	d.Press("down")
	assert.Contains(t, d.Screen(), "▸ Acknowledge until")
}
