package alerts_test

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// Marks the filter hides are named apart in the ack dialog and left out
// unless included: the one request goes to the row on screen.
func TestHiddenMarksAreListedAndLeftOut(t *testing.T) {
	for _, size := range []struct {
		name string
		w, h int
	}{{"120x40", 120, 40}, {"80x24", 80, 24}} {
		t.Run(size.name, func(t *testing.T) {
			w := newWorld(t)
			d := newDriver(t, w, "org-owner", size.w, size.h)
			require.Contains(t, d.Screen(), "EVENT TYPE")
			d.Press("space", "space")
			d.Press("/")
			d.Type("NO_PRIMARY")
			d.Press("enter", "g", "a")
			s := d.Screen()
			require.Contains(t, s, "2 marked rows are hidden by the filter")
			assert.Contains(t, s, "[ ] off", "the hidden rows are excluded by default")
			requireGolden(t, "ack_hidden_marks_"+size.name, s)
			d.Type("on it")
			mark := w.Mark()
			d.Press("enter")
			writes := w.WritesSince(mark)
			require.Len(t, writes, 1, "only the row on screen")
			assert.Contains(t, writes[0], "PATCH ")
			assert.NotContains(t, d.Screen(), "on it", "the dialog closed")
		})
	}
}

// A lost answer is read back, never sent again: one PATCH, the check on
// screen meanwhile, then the verified outcome.
func TestLostAckAnswerIsVerifiedNotResent(t *testing.T) {
	w := newWorld(t)
	id, _ := raiseOwnAlert(t, w)
	d := newDriver(t, w, "org-owner", 80, 24)
	var shot string // the first screen on which the form says it checks
	d.Model = &watched{Model: d.Model, after: func(_ tea.Msg, m tea.Model) {
		if screen := viewstest.Screen(m.View().Content); shot == "" && strings.Contains(screen, "outcome unknown, checking") {
			shot = screen
		}
	}}
	d.Press("a")
	d.Type("checking")
	w.Control("PUT", "/faults", `{"malformedWrites": 1}`)
	mark := w.Mark()
	d.Press("enter")
	require.Len(t, w.WritesSince(mark), 1, "one PATCH, never resent")
	require.Contains(t, shot, "sent - outcome unknown, checking", "the dialog says so, frozen")
	requireGolden(t, "ack_verify_80x24", shot)
	assert.Contains(t, d.Screen(), "sent - verified: acknowledged until")
	assert.Equal(t, "checking", alertOf(t, w, id).AcknowledgementComment)
}
