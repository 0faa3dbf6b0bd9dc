package accesslogs

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// A board row of failures from an address opens here with the pane's own
// filters judged as the root judges its `/` filter: a user filter that
// shows every failure from the address is kept; one that hides any is
// lifted, and said. The search hides no line: the root keeps it.
func TestJumpKeepsTheUserFilterOnlyWhenItShowsTheFailures(t *testing.T) {
	e := newEnv(t, "monitoring-admin", apisim.DemoPaymentsID, "payments-rs", 140, 30)
	e.Run(e.P.restart(""))
	now := e.Sim.Clock.Now()
	ip, user := "", ""
	for _, l := range e.serverRecords("payments-rs", now.Add(-15*time.Minute), now) {
		if !l.AuthResult && l.Username != "" {
			ip, user = l.IPAddress, l.Username
			break
		}
	}
	require.NotEmpty(t, ip, "a failure in the last 15 minutes")
	shown, known := e.P.Shows("failures", ip)
	assert.True(t, shown && known)

	// A user filter no failure from the address matches: lifted, said.
	e.P.st.filter.user = "no-such-user-anywhere"
	e.P.refilter()
	toasts := len(e.ToastTexts())
	e.Send(views.SelectMsg{View: "failures", ItemID: ip})
	assert.Empty(t, e.P.st.filter.user)
	require.Greater(t, len(e.ToastTexts()), toasts)
	assert.Contains(t, strings.Join(e.ToastTexts()[toasts:], "\n"), "user filter ~no-such-user-anywhere lifted to show every failure from "+ip)
	require.NotEmpty(t, e.shownRecords())

	// A user filter that every failure from the address matches: kept.
	every := true
	for _, r := range e.shownRecords() {
		every = every && strings.Contains(strings.ToLower(r.Username), strings.ToLower(user))
	}
	require.True(t, every, "the demo's failures from %s are of one user, %s", ip, user)
	e.P.st.filter.user = user
	e.P.refilter()
	toasts = len(e.ToastTexts())
	e.Send(views.SelectMsg{View: "failures", ItemID: ip})
	assert.Equal(t, user, e.P.st.filter.user, "it shows them all: kept")
	for _, s := range e.ToastTexts()[toasts:] {
		assert.NotContains(t, s, "lifted")
	}
}
