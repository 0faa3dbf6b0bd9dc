package backups

import (
	"net/url"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// Issue 24 case 9: a point-in-time restore has no snapshot id; its cancel
// question names what it restores (the cluster as of the time) and the job,
// never "snapshot  to staging-rs"; its watch says point-in-time too.
func TestPointInTimeRestoreCancelNamesWhatItRestores(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 24)
	h.P.snaps.SetCursor(3)
	h.ActionKey("R")
	require.NoError(t, h.Submit(components.FormValues{"delivery": "pointInTime", "project": "staging"}))
	require.NoError(t, h.Submit(components.FormValues{"cluster": "staging-rs", "mode": pitDateTime, "when": "2025-06-01 11:30:00"}))
	h.Confirm("staging-rs")
	require.Equal(t, viewRestores, h.P.view)
	assert.Equal(t, "point-in-time restore of payments-rs as of 2025-06-01 11:30:00 UTC to staging-rs started", h.LastToast().Text)
	id := h.P.restores.SelectedID()
	require.NotEmpty(t, id)
	assert.Contains(t, h.Screen(), "PIT", "the SNAPSHOT column says point in time, not a blank")

	mark := w.Mark()
	h.ActionKey("x")
	c := h.LastConfirm()
	assert.NotContains(t, c.Body, "snapshot  to")
	assert.Contains(t, c.Body, "The pointInTime restore of payments-rs as of 2025-06-01 11:30:00 UTC to staging-rs (job "+id+") stops")
	h.Confirm("")
	assert.Equal(t, []string{"DELETE /api/atlas/v2/groups/" + apisim.DemoPaymentsID + "/clusters/payments-rs/backup/restoreJobs/" + id}, w.WritesSince(mark))
}

// Issue 24 case 9: a running restore's ELAPSED ticks by the second on
// screen between polls (no request), instead of jumping at each poll.
func TestRunningRestoreElapsedTicksBetweenPolls(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 16)
	h.P.snaps.SetCursor(3)
	restoreThroughWizard(t, h, false)
	h.Confirm("")
	require.True(t, h.P.clockArmed, "the clock runs while a restore runs on screen")
	row := func() string {
		for _, l := range strings.Split(h.Screen(), "\n") {
			if strings.Contains(l, "★") {
				return l
			}
		}
		return ""
	}
	require.Contains(t, row(), " 0s ")
	mark := w.Mark()
	for i := 1; i <= 3; i++ {
		w.Clock.Advance(time.Second)
		h.Send(clockTick{})
		assert.Contains(t, row(), " "+fmtDur(time.Duration(i)*time.Second)+" ", "after %ds", i)
	}
	assert.Empty(t, w.RequestsSince(mark), "the clock asks nothing of the server")

	// Elsewhere it stops: another view, or nothing running.
	h.ActionKey("S")
	h.Send(clockTick{})
	assert.False(t, h.P.clockArmed)
}

// Issue 24 case 6: while the server does not answer, a watch stays and the
// title says it waits ("watching 1 (server away)"); an answer clears it,
// and the restore's end still ends the watch with its notice.
func TestWatchWaitsThroughAnOutage(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 80, 24)
	h.P.snaps.SetCursor(3)
	restoreThroughWizard(t, h, false)
	h.Confirm("")
	require.Len(t, h.P.watching, 1)
	refused := &url.Error{Op: "Get", URL: "http://127.0.0.1:1/x", Err: syscall.ECONNREFUSED}
	h.Send(views.Result[dataResult]{Pane: ID, Key: keyPoll, Seq: h.P.seq.Next(), Load: true, Err: refused,
		Value: dataResult{Data: clusterData{Cluster: *h.P.cluster, RestErr: refused}, Want: parts{restores: true}}})
	assert.Contains(t, h.Screen(), "watching 1 (server away)")
	assert.Len(t, h.P.watching, 1, "the watch stays")

	w.Clock.Advance(3 * time.Minute)
	require.True(t, h.tick())
	assert.NotContains(t, h.Screen(), "server away")
	assert.Empty(t, h.P.watching)
	assert.Contains(t, h.LastToast().Text, "to staging-rs finished")
}
