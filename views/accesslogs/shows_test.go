package accesslogs

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
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

// A role that may not read the access log reads as that, not as an
// outage: the pane says in place which roles read it, wrapped whole at 80
// columns; it is not stale, does not say "poll failed" or "retrying", and
// is not polled again until r. Checked with the gate (nothing sent) and
// with the server's own 403.
func TestReadOnlyRoleIsSaidInPlaceNotStale(t *testing.T) {
	for _, gate := range []viewstest.GateMode{viewstest.GateWithRoles, viewstest.NoGate} {
		w := viewstest.NewSim(t, viewstest.SimOptions{Identity: "read-only", Gate: gate})
		e := &env{viewstest.Open[*Pane](t, Registration, viewstest.Setup{Sim: w, Cluster: "payments-rs", Width: 80, Height: 20, RunTimers: true,
			New: func(c views.Context) views.Pane { return newPane(c, 0) },
			Context: func(c *views.Context) {
				c.GroupID, c.ProjectName = apisim.DemoPaymentsID, ""
				c.Poll = views.Poll{Fast: time.Nanosecond, Normal: time.Nanosecond, Slow: time.Nanosecond}
			}})}
		view := screen(e)
		flat := strings.Join(strings.Fields(view), " ")
		assert.Contains(t, flat, "Access log of payments-rs: not visible with your role (needs Project Monitoring Admin or Project Database Access Admin or Project Cluster Log Viewer). r asks again.", view)
		assert.NotContains(t, view, "poll failed")
		assert.NotContains(t, view, "retrying")
		assert.NotContains(t, view, "following", "nothing is followed")
		assert.True(t, e.P.Health().StaleSince.IsZero(), "stale for a role")
		assert.False(t, e.P.Polling(), "polled again for nothing")
		if gate == viewstest.NoGate {
			assert.Equal(t, 1, w.Count("/dbAccessHistory/"), "the server asked once, its 403 taken as the role's answer")
		} else {
			assert.Zero(t, w.Count("/dbAccessHistory/"), "the gate sends nothing")
		}
	}
}
