package alerts_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// topAlert is the id of the first row: the newest open alert.
func topAlert(t *testing.T, w *world) apiclient.Alert {
	t.Helper()
	all, err := w.client("org-owner").Alerts().ListAll(context.Background(), apisim.DemoPaymentsID, apiclient.AlertOpen)
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
	require.Contains(t, d.screen(), "STATUS")
	first := topAlert(t, w)

	d.keys("a")
	s := d.screen()
	require.Contains(t, s, "Acknowledge "+first.EventTypeName, "the dialog names the alert")
	assert.Contains(t, s, "(•) 1h", "until starts at 1h")
	assert.Contains(t, s, "0/200", "a live counter")

	// The cursor starts in the comment.
	d.typeText("disk full on shard 2")
	assert.Contains(t, d.screen(), "disk full on shard 2")
	assert.Contains(t, d.screen(), "20/200")

	// tab moves to until; until… with no date: enter does not send.
	d.keys("tab", "right", "right", "right")
	require.Contains(t, d.screen(), "(•) until…")
	d.keys("enter")
	assert.Contains(t, d.screen(), "type a date and time")
	assert.Zero(t, w.writes.Load(), "nothing was sent")
	// The cursor went to the field at fault; a date in the past is refused too.
	assert.Contains(t, d.screen(), "▸ Until (for until…)")
	d.typeText("2020-01-01 10:00")
	d.keys("enter")
	assert.Contains(t, d.screen(), "must be in the future")
	assert.Zero(t, w.writes.Load())

	// Back to 1h (shift+tab, left x3): enter sends, the dialog closes and
	// says who and until when.
	d.keys("shift+tab", "left", "left", "left", "enter")
	require.EqualValues(t, 1, w.writes.Load())
	s = d.screen()
	assert.NotContains(t, s, "0/200", "the dialog closed")
	until := simStart.Add(time.Hour)
	assert.Contains(t, s, "acknowledged until "+until.Format("2006-01-02 15:04")+" by org-owner")
	got := w.alertOf(first.ID)
	require.NotNil(t, got.AcknowledgedUntil)
	assert.True(t, got.AcknowledgedUntil.Equal(until))
	assert.Equal(t, "disk full on shard 2", got.AcknowledgementComment)
	assert.Equal(t, "org-owner", got.AcknowledgingUsername)
}

func TestAckCommentStopsAt200Characters(t *testing.T) {
	w := newWorld(t)
	d := newDriver(t, w, "org-owner", 120, 40)
	first := topAlert(t, w)
	d.keys("a")
	d.typeText(strings.Repeat("é", 201))
	assert.Contains(t, d.screen(), "200/200", "the 201st character is not taken")
	d.keys("enter")
	require.EqualValues(t, 1, w.writes.Load())
	assert.Equal(t, strings.Repeat("é", 200), w.alertOf(first.ID).AcknowledgementComment)
}

// raiseOwnAlert opens a fresh alert through an incident of an event no
// seeded configuration watches, so the test can close it server-side.
func raiseOwnAlert(t *testing.T, w *world) (alertID, incidentID string) {
	t.Helper()
	zero := 0
	_, err := w.client("org-owner").AlertConfigs().Create(context.Background(), apisim.DemoPaymentsID, apiclient.AlertConfig{
		Enabled: true, EventTypeName: "FTDC_SETTINGS_UPDATED", SeverityOverride: apiclient.SeverityWarning,
		Notifications: []apiclient.Notification{{TypeName: apiclient.NotifyEmail, EmailAddress: "dba@example.com", DelayMin: &zero, IntervalMin: 60}}})
	require.NoError(t, err)
	w.clock.Advance(time.Minute) // newest of all, so the first row
	out := w.control("POST", "/incidents", `{"groupId":"`+apisim.DemoPaymentsID+`","eventTypeName":"FTDC_SETTINGS_UPDATED","clusterName":"payments-rs"}`)
	alerts := out["alerts"].([]any)
	require.Len(t, alerts, 1)
	return alerts[0].(map[string]any)["id"].(string), out["incident"].(map[string]any)["id"].(string)
}

func TestAckFailureKeepsTheDraftAndShowsTheError(t *testing.T) {
	w := newWorld(t)
	id, incident := raiseOwnAlert(t, w)
	d := newDriver(t, w, "org-owner", 120, 40)
	d.keys("a")
	require.Contains(t, d.screen(), "FTDC_SETTINGS_UPDATED")
	d.typeText("looking at the FTDC change")
	// Meanwhile the incident clears: the alert closes on the server.
	w.control("POST", "/incidents/"+incident+"/resolve", "")
	before := w.writes.Load()
	d.keys("enter")
	require.Equal(t, before+1, w.writes.Load(), "it was sent")
	s := d.screen()
	assert.Contains(t, s, "CANNOT_ACKNOWLEDGE_CLOSED_ALERT", "the errorCode shows in the dialog")
	assert.Contains(t, s, "looking at the FTDC change", "the comment is kept")
	assert.Contains(t, s, "Acknowledge FTDC_SETTINGS_UPDATED", "the dialog is still open")
	assert.Nil(t, w.alertOf(id).AcknowledgedUntil)
	d.keys("esc")
	assert.NotContains(t, d.screen(), "looking at the FTDC change", "esc closes the dialog")
}

func TestBulkAckReportsEachAlert(t *testing.T) {
	w := newWorld(t)
	id, incident := raiseOwnAlert(t, w)
	d := newDriver(t, w, "org-owner", 140, 40)
	// Mark the first three rows: ours and two seeded open alerts.
	d.keys("space", "space", "space")
	require.Contains(t, d.screen(), "3 marked")
	w.control("POST", "/incidents/"+incident+"/resolve", "")
	d.keys("a")
	require.Contains(t, d.screen(), "Acknowledge 3 alerts")
	d.typeText("bulk")
	before := w.writes.Load()
	d.keys("enter")
	assert.Equal(t, before+3, w.writes.Load(), "one request per alert")
	s := d.screen()
	assert.Contains(t, s, "acknowledged 2 of 3 alerts; 1 failed")
	assert.Contains(t, s, "Bulk acknowledge")
	assert.Contains(t, s, id)
	assert.Contains(t, s, "CANNOT_ACKNOWLEDGE_CLOSED_ALERT")
	assert.Equal(t, 2, strings.Count(s, "✓ acknowledged until"), s)
	// The failed one stays marked, with the comment kept for a retry.
	d.keys("esc")
	assert.Contains(t, d.screen(), "1 marked")
	d.keys("a")
	assert.Contains(t, d.screen(), "bulk", "the draft comes back")
}

func TestReadOnlyIsRefusedOnScreenAndNothingIsSent(t *testing.T) {
	w := newWorld(t)
	d := newDriver(t, w, "read-only", 120, 40)
	require.Contains(t, d.screen(), "STATUS")
	for _, k := range []string{"a", "u", "c", "t", "d", "n", "e"} {
		d.keys(k)
	}
	s := d.screen()
	assert.Contains(t, s, "needs", "the refusal names the role needed")
	assert.Zero(t, w.writes.Load())
	assert.NotContains(t, s, "0/200", "no dialog opened")
}
