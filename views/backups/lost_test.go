package backups

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// An on-demand snapshot whose answer is lost: one POST, the form frozen
// with "outcome unknown, checking", then the snapshot found by reading back
// and watched as if the answer had come.
func TestLostSnapshotAnswerIsVerifiedNotResent(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 16)
	h.ActionKey("n")
	w.Control("PUT", "/faults", `{"malformedWrites": 1}`)
	mark := w.Mark()
	require.NoError(t, h.Submit(components.FormValues{"description": "before the upgrade", "retention": "3"}))
	assert.Equal(t, []string{"POST /api/atlas/v2/groups/" + apisim.DemoPaymentsID + "/clusters/payments-rs/backup/snapshots"}, w.WritesSince(mark), "sent once, never again")
	require.Len(t, h.FormStatuses, 1)
	assert.Equal(t, "sent - outcome unknown, checking", h.FormStatuses[0].Text)
	require.Len(t, h.FormsDone, 1)
	assert.NoError(t, h.FormsDone[0].Err, "verified: applied")
	assert.Contains(t, h.LastToast().Text, "(verified after a lost answer)")
	require.Len(t, h.P.watching, 1)
	for id := range h.P.watching {
		s, err := w.Client.Backups().Snapshot(bg, apisim.DemoPaymentsID, "payments-rs", id)
		require.NoError(t, err)
		assert.Equal(t, "before the upgrade", s.Description)
	}
}

// A lost answer whose read-back finds nothing: the form says "unknown"
// (it stays open, the draft kept). The read-back is the client's real
// VerifyTakeSnapshot against the simulator, for a snapshot that was never
// taken; the simulator has no fault that loses a write before applying it,
// so the pane's own closure (createVerified) is not the one run here.
func TestLostSnapshotAnswerNotAppliedSaysSo(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 16)
	h.ActionKey("n")
	mark := w.Mark()
	h.Send(views.Result[writeResult]{Pane: ID, Key: keyWrite, Value: writeResult{Form: formSnapshot, Unknown: true, Sent: w.Client.Now(),
		Verify: func(ctx context.Context, sent time.Time) (writeResult, bool, error) {
			_, ok, err := w.Client.Backups().VerifyTakeSnapshot(ctx, apisim.DemoPaymentsID, "payments-rs", apiclient.TakeSnapshotRequest{Description: "never sent", RetentionInDays: 3}, sent)
			return writeResult{}, ok, err
		}}})
	assert.Empty(t, w.WritesSince(mark))
	require.NotEmpty(t, h.FormsDone)
	assert.EqualError(t, h.LastFormDone().Err, "sent - unknown: the server does not show it yet - check before submitting again")
	assert.Empty(t, h.P.watching)
}

// A restore whose answer is lost: one POST with the typed target, the
// confirmation cannot send it again, and the job is found by reading back.
func TestLostRestoreAnswerIsVerifiedNotResent(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 16)
	h.P.snaps.SetCursor(3)
	restoreThroughWizard(t, h, false)
	before, err := w.Client.Backups().AllRestoreJobs(bg, apisim.DemoPaymentsID, "payments-rs")
	require.NoError(t, err)
	w.Control("PUT", "/faults", `{"malformedWrites": 1}`)
	mark := w.Mark()
	h.Confirm("staging-rs")
	require.Len(t, w.WritesSince(mark), 1, "one POST")
	assert.Equal(t, "POST /api/atlas/v2/groups/"+apisim.DemoPaymentsID+"/clusters/payments-rs/backup/restoreJobs", w.WritesSince(mark)[0])
	var texts []string
	for _, t := range h.Toasts {
		texts = append(texts, t.Text)
	}
	assert.Contains(t, texts, "restore sent - outcome unknown, checking")
	assert.Contains(t, h.LastToast().Text, "started (verified after a lost answer)")
	jobs, err := w.Client.Backups().AllRestoreJobs(bg, apisim.DemoPaymentsID, "payments-rs")
	require.NoError(t, err)
	require.Len(t, jobs, len(before)+1, "exactly one new restore")
	require.Len(t, h.P.watching, 1)
	found := false
	for _, j := range jobs {
		if _, ok := h.P.watching[j.ID]; ok {
			found = true
			assert.Equal(t, "staging-rs", j.TargetClusterName, "onto the typed target")
			assert.Equal(t, apisim.DemoStagingID, j.TargetGroupID)
		}
	}
	assert.True(t, found, "the verified job is the one watched")
	// The same confirmation once more sends nothing.
	h.Confirm("staging-rs")
	assert.Len(t, w.WritesSince(mark), 1)
}

func TestEveryKeyFieldNamesARegisteredAction(t *testing.T) {
	assert.Empty(t, views.MissingKeys[keys](Registration))
	assert.Empty(t, viewstest.UnregisteredActionConsts(t, Registration), "nor an act… constant")
}

// heldAnswer is a write's answer held while the server's clock runs on (a
// simulator at speed 60 holding it 10 s): the server applies the write,
// its clock moves ten minutes, then the answer leaves unreadable, dated by
// the clock it left at.
func heldAnswer(w *viewstest.Sim, method string) func(http.ResponseWriter, *http.Request, http.Handler) bool {
	return func(rw http.ResponseWriter, r *http.Request, server http.Handler) bool {
		if r.Method != method {
			return false
		}
		rec := httptest.NewRecorder()
		server.ServeHTTP(rec, r)
		w.Clock.Advance(10 * time.Minute)
		rw.Header().Set("Content-Type", rec.Header().Get("Content-Type"))
		rw.Header().Set("Date", w.Clock.Now().UTC().Format(http.TimeFormat))
		rw.WriteHeader(rec.Code)
		_, _ = rw.Write(rec.Body.Bytes()[:rec.Body.Len()/2])
		return true
	}
}

// A lost answer to a snapshot of a sharded cluster, on a server whose clock
// ran on while the answer was held: the form says checking, then the
// snapshot is found (in the sharded cluster's list, created after the
// request left though long before the lost answer's Date) and watched;
// one POST, never "not applied".
func TestLostSnapshotAnswerOnAShardedClusterUnderAFastClockIsFound(t *testing.T) {
	for _, tc := range []struct {
		name, cluster string
		fast          bool
	}{
		{"sharded", "payments-prod", false},
		{"fast clock", "payments-rs", true},
		{"sharded under a fast clock", "payments-prod", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			h := newHarness(t, w, tc.cluster, 120, 16)
			h.ActionKey("n")
			if tc.fast {
				w.Intercept(heldAnswer(w, http.MethodPost))
			} else {
				w.Control("PUT", "/faults", `{"malformedWrites": 1}`)
			}
			mark := w.Mark()
			require.NoError(t, h.Submit(components.FormValues{"description": "before the " + tc.cluster + " upgrade", "retention": "3"}))
			w.Intercept(nil)
			assert.Equal(t, []string{"POST /api/atlas/v2/groups/" + apisim.DemoPaymentsID + "/clusters/" + tc.cluster + "/backup/snapshots"},
				w.WritesSince(mark), "sent once, never again")
			require.Len(t, h.FormStatuses, 1)
			assert.Equal(t, views.OutcomeChecking, h.FormStatuses[0].Text)
			require.Len(t, h.FormsDone, 1)
			require.NoError(t, h.FormsDone[0].Err, "the snapshot the server took was not found")
			var texts []string
			for _, t := range h.Toasts {
				texts = append(texts, t.Text)
			}
			assert.Contains(t, strings.Join(texts, "\n"), "(verified after a lost answer)")
			if !tc.fast {
				assert.Len(t, h.P.watching, 1, "the queued snapshot is watched")
			}
		})
	}
}
