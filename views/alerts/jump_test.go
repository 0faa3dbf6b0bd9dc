package alerts

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// A board jump selects the alert asked for and no other: a status filter
// that hides it is lifted (and said), one that shows it is kept; `a`
// acts on that alert.
func TestJumpSelectsTheAlertThroughTheStatusFilter(t *testing.T) {
	e := newPaneEnv(t)
	var open, other string
	for i := range e.P.alerts {
		r := &e.P.alerts[i]
		if r.status == apiclient.AlertOpen && open == "" && i > 5 {
			open = r.id
		}
		if r.status == apiclient.AlertOpen && other == "" && r.id != open && i > 20 {
			other = r.id
		}
	}
	require.NotEmpty(t, open)
	require.NotEmpty(t, other)

	// TRACKING hides an OPEN alert: lifted, said, selected.
	e.Action(actStatus)
	e.Action(actStatus)
	require.Equal(t, statusTracking, e.P.status)
	toasts := len(e.ToastTexts())
	e.Send(views.SelectMsg{ItemID: open})
	assert.Equal(t, statusAll, e.P.status)
	assert.Equal(t, open, e.P.table.SelectedID())
	require.Len(t, e.ToastTexts(), toasts+1)
	assert.Contains(t, e.ToastTexts()[toasts], "status filter TRACKING lifted")

	// OPEN shows it: kept, nothing said.
	e.Action(actStatus)
	require.Equal(t, statusOpen, e.P.status)
	toasts = len(e.ToastTexts())
	e.Send(views.SelectMsg{ItemID: other})
	assert.Equal(t, statusOpen, e.P.status)
	assert.Equal(t, other, e.P.table.SelectedID())
	assert.Len(t, e.ToastTexts(), toasts, "nothing lifted, nothing said")
}

// The root asks whether the text filter shows a jump's alert: it is kept
// when it does, cleared when it hides it or the alert is not read yet.
func TestShowsTellsWhetherTheTextFilterHidesTheAlert(t *testing.T) {
	e := newPaneEnv(t)
	r := e.P.alerts[3]
	e.Send(views.FilterMsg{Text: r.event})
	shown, known := e.P.Shows("", r.id)
	assert.True(t, shown && known, "its own event type shows it")
	e.Send(views.FilterMsg{Text: "!" + r.event})
	shown, known = e.P.Shows("", r.id)
	assert.True(t, known)
	assert.False(t, shown, "the inverted filter hides it")
	_, known = e.P.Shows("", "no-such-alert")
	assert.False(t, known)
}
