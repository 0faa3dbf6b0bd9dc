package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

// flatScreen is the screen's words without dialog frames, one space apart.
func flatScreen(screen string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(screen, "│", " ")), " ")
}

// Issue 24: a point in time typed while "oplog ts/inc" is chosen selects
// date-time (it showed and was not sent). Typed with no pauses, at 80x24
// and wide: step 3 names pointInTimeUTCSeconds and its value, one POST
// reaches the server, and the job it holds has that time and no oplog.
func TestTrustBackupsPointInTimeTypedIsSent(t *testing.T) {
	RequireTmux(t)
	eachSize(t, func(t *testing.T, w, h int) {
		s := startPaymentsBackups(t, w, h)
		openRestoreWizard(s)
		s.SendFast("Right", "Right", "Tab", "Right", "Right", "Enter") // point in time, staging
		s.WaitFor("Target cluster in staging", wait)
		at := time.Now().UTC().Add(-10 * time.Minute).Truncate(time.Second)
		when := at.Format("2006-01-02 15:04:05")
		// staging-rs, oplog on the radio, then the date in its field.
		s.SendFast("Down", "Tab", "Right", "Tab", when, "Enter")
		// (The dialog wraps over the pane: the number is checked whole,
		// the date it reads back on its own.)
		sends := fmt.Sprintf("sends pointInTimeUTCSeconds %d", at.Unix())
		s.waitUntil(func(screen string) bool {
			return strings.Contains(screen, "ALL DATA on staging-rs") && strings.Contains(flatScreen(screen), sends) &&
				strings.Contains(flatScreen(screen), "payments-rs as of "+when+" UTC")
		}, wait, "step 3 naming "+sends)
		s.SendFast("staging-rs", "Enter")
		s.WaitFor("[Restores]", wait)
		s.WaitFor("PIT", wait)
		wantOneRestorePost(t, s)
		var posted []string
		for _, r := range s.SimRequests() {
			if r.Method == "POST" && strings.HasSuffix(r.Path, "/clusters/payments-rs/backup/restoreJobs") && r.Status < 300 {
				posted = append(posted, r.Path)
			}
		}
		if len(posted) != 1 {
			t.Fatalf("accepted restore POSTs in the request log = %v, want one", posted)
		}
		jobs := paymentsRestoreJobs(t, s)
		var pit []apiclient.RestoreJob
		for _, j := range jobs {
			if j.DeliveryType == apiclient.DeliveryPointInTime && j.TargetClusterName == "staging-rs" {
				pit = append(pit, j)
			}
		}
		if len(pit) != 1 || pit[0].PointInTimeUTCSeconds != at.Unix() || pit[0].OplogTs != 0 || pit[0].OplogInc != 0 {
			t.Fatalf("point-in-time jobs in apisim = %+v, want one at %d with no oplog", pit, at.Unix())
		}
		quitPastRunningRestore(s)
	})
}
