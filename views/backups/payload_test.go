package backups

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// A confirmed answer whose payload is not the wizard's (or that names no
// wizard any more) is refused on screen; nothing is sent.
func TestRestoreAnswerOfAnotherShapeIsRefused(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 24)
	restore := keysOf(h.P.Ctx.Keys).Restore.Name
	mark := w.Mark()

	h.Send(views.ActionMsg{Name: restore, Confirmed: true, Payload: "restore:go"})
	assert.Contains(t, h.LastToast().Text, "does not know")
	assert.True(t, h.LastToast().Err)

	h.Send(views.ActionMsg{Name: restore, Confirmed: true, Payload: moveSend})
	assert.Contains(t, h.LastToast().Text, "abandoned; press R again", "a confirmation with no wizard behind it says so")
	assert.Empty(t, w.WritesSince(mark))
}

// The expiration's question carries the length it asked about; an answer
// without one is refused, nothing sent.
func TestExpirationAnswerWithoutLengthIsRefused(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 24)
	var s snapRow
	for _, x := range h.P.data.Snaps {
		if x.Completed && h.P.keptBy(x) == "" {
			s = x
		}
	}
	require.NotEmpty(t, s.ID)
	name := keysOf(h.P.Ctx.Keys).Expiration.Name
	mark := w.Mark()
	h.Send(views.ActionMsg{Name: name, Confirmed: true, Target: s.ID, Payload: "1 WEEKS"})
	assert.Contains(t, h.LastToast().Text, "names no length")
	assert.Empty(t, w.WritesSince(mark))

	h.Send(views.ActionMsg{Name: name, Confirmed: true, Target: s.ID,
		Payload: apiclient.SnapshotRetention{RetentionUnit: apiclient.SnapshotRetentionDays, RetentionValue: 2}})
	assert.Len(t, w.WritesSince(mark), 1, "the length it asked about is sent")
}
