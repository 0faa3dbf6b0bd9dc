package migration

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// startPost is the write that starts a migration in payments.
const startPost = "POST /api/atlas/v2/groups/" + apisim.DemoPaymentsID + "/liveMigrations"

// checked walks to billing-rs → payments-prod with a passed check.
func (e *env) checked() {
	e.T.Helper()
	e.toOptions("billing-rs", "payments-prod")
	e.check(components.FormValues{})
	e.advance(10 * time.Second)
	require.Equal(e.T, apiclient.ValidationSuccess, e.P.validation.v.Status)
}

// starts counts the start POSTs sent since mark.
func (e *env) starts(mark int) int {
	n := 0
	for _, w := range e.Sim.WritesSince(mark) {
		if w == startPost {
			n++
		}
	}
	return n
}

// A start whose answer is lost is said as such, never as a failure; m is
// off for that destination with the reason, a confirmed m sends nothing,
// and only M with the destination's name typed sends a second start.
func TestLostStartIsNeverSentAgainByM(t *testing.T) {
	e := newEnv(t, "org-owner", goldenW, goldenH)
	p := e.P
	e.checked()
	before := len(e.Sim.Server.MigrationIDs(apisim.DemoPaymentsID))
	mark := e.Sim.Mark()

	e.Sim.Control("PUT", "/faults", `{"malformedWrites": 1}`)
	e.Action(actStart)
	assert.Contains(t, e.LastConfirm().Body, "The check passed.")
	e.Confirm("")
	require.Equal(t, 1, e.starts(mark))
	require.Len(t, e.Sim.Server.MigrationIDs(apisim.DemoPaymentsID), before+1, "the server made the migration")
	assert.Nil(t, p.job, "its id was in the lost answer")
	toast := e.LastToast()
	assert.True(t, toast.Err)
	assert.Contains(t, toast.Text, "start of billing-rs → payments-prod sent - outcome unknown: a migration into payments-prod may be running")
	assert.NotContains(t, toast.Text, "failed")

	// The step says what is known, why it cannot be checked and what
	// starting again takes.
	screen := viewstest.Screen(p.View())
	assert.NotContains(t, screen, "m starts the migration")
	flat := strings.Join(strings.Fields(screen), " ")
	for _, want := range []string{"Start sent - outcome unknown at 12:00:10 UTC (HTTP 201, unreadable answer).",
		"A migration billing-rs → payments-prod may be running into payments-prod;",
		"it cannot be checked: the API has no list of live migrations and the lost answer held its id.",
		"m is off for payments-prod; M starts another after you type its name: a second migration may result."} {
		assert.Contains(t, flat, want)
	}
	goldenScreen(t, "4_options_lost_start", p.View())
	// At 80x24 (the pane gets 20 rows) all of it shows.
	p.SetSize(80, 20)
	flat = strings.Join(strings.Fields(viewstest.Screen(p.View())), " ")
	assert.Contains(t, flat, "Check SUCCESS")
	assert.Contains(t, flat, "Start sent - outcome unknown at 12:00:10 UTC (HTTP 201, unreadable answer).")
	assert.Contains(t, flat, "a second migration may result.")
	p.SetSize(goldenW, goldenH)

	// m is off with the reason; M is on.
	m := viewstest.Offered(t, p, actStart)
	assert.False(t, m.Enabled())
	assert.Equal(t, "a start into payments-prod was sent - outcome unknown and cannot be checked; M starts another (type its name)", m.DisabledReason)
	assert.True(t, viewstest.Offered(t, p, actStartAnother).Enabled())
	assert.NotContains(t, p.hints(), "m start")
	assert.Contains(t, p.hints(), "M start another")
	assert.Contains(t, viewstest.Offered(t, p, actCutover).DisabledReason, "sent - outcome unknown: without its id it cannot be followed")

	// Even if m got through (or its dialog was open before the answer
	// came), nothing is sent.
	confirms := len(e.Confirms)
	e.Action(actStart)
	assert.Len(t, e.Confirms, confirms, "no dialog")
	e.Send(views.ActionMsg{Name: actStart, Confirmed: true})
	assert.Contains(t, e.LastToast().Text, "start: a start into payments-prod was sent - outcome unknown")
	assert.Equal(t, 1, e.starts(mark))

	// Step 5 says the same rather than "no migration started".
	e.Press("right")
	screen = viewstest.Screen(p.View())
	assert.Contains(t, screen, "The start of billing-rs → payments-prod was sent; its outcome is unknown:")
	assert.NotContains(t, screen, "No migration started")
	p.presentation = true
	screen = viewstest.Screen(p.View())
	assert.Contains(t, screen, bigText("UNKNOWN")[0])
	assert.Contains(t, screen, "start of billing-rs → payments-prod sent - outcome unknown: a migration may be running · P leaves")
	p.presentation = false
	e.Press("left")

	// M: the dialog says a second migration may result; the name is typed.
	e.Action(actStartAnother)
	c := e.LastConfirm()
	assert.Equal(t, "Start another live migration into payments-prod?", c.Title)
	assert.Equal(t, "payments-prod", c.TypeToConfirm)
	assert.Contains(t, c.Body, "was sent - outcome unknown (HTTP 201, unreadable answer): that migration may be running into payments-prod")
	assert.Contains(t, c.Body, "Starting again may make a SECOND migration into payments-prod.")
	assert.Equal(t, 1, e.starts(mark), "nothing sent before the answer")
	e.Confirm("payments-pro")
	assert.Equal(t, 1, e.starts(mark), "the name was not typed")
	e.Send(views.ActionMsg{Name: actStartAnother, Confirmed: true, Input: "payments-prod", Payload: anotherStart{}})
	assert.Contains(t, e.LastToast().Text, "the confirmation was for another start")
	assert.Equal(t, 1, e.starts(mark), "a confirmation about another lost start")
	e.Confirm("payments-prod")
	assert.Equal(t, 2, e.starts(mark))
	require.NotNil(t, p.job)
	assert.Equal(t, stepProgress, p.step)
	assert.Contains(t, viewstest.Screen(p.View()), "Lost start     sent - outcome unknown: billing-rs → payments-prod at")
}

// A second m while the first start is on its way sends nothing.
func TestStartBeingSentIsNotSentTwice(t *testing.T) {
	e := newEnv(t, "org-owner", goldenW, goldenH)
	p := e.P
	e.checked()
	mark := e.Sim.Mark()
	_, first := p.Update(views.ActionMsg{Name: actStart, Confirmed: true}) // on its way
	m := viewstest.Offered(t, p, actStart)
	assert.False(t, m.Enabled())
	assert.Equal(t, "the start of billing-rs → payments-prod is being sent", m.DisabledReason)
	assert.False(t, viewstest.Offered(t, p, actDrop).Enabled())
	e.Action(actStart)
	e.Send(views.ActionMsg{Name: actStart, Confirmed: true})
	assert.Contains(t, e.LastToast().Text, "is being sent")
	e.Run(first)
	assert.Equal(t, 1, e.starts(mark))
	require.NotNil(t, p.job)
}

// A refusal of C read while the start was on its way ("y C" typed at
// once) goes when the migration starts; one of "waits for readiness" goes
// when it is ready.
func TestRefusalsClearWhenTheirCauseIsGone(t *testing.T) {
	e := newEnv(t, "org-owner", goldenW, goldenH)
	p := e.P
	e.checked()
	_, first := p.Update(views.ActionMsg{Name: actStart, Confirmed: true})
	e.Action(actCutover)
	assert.Contains(t, e.LastToast().Text, "cut over: no migration started in this session")
	resolved := e.Resolved
	e.Run(first)
	require.NotNil(t, p.job)
	assert.Equal(t, resolved+1, e.Resolved, "the refusal's cause is gone")

	e.advance(2 * time.Minute)
	e.Action(actCutover)
	assert.Contains(t, e.LastToast().Text, "waits for readyForCutover")
	resolved = e.Resolved
	for range 12 {
		e.advance(2 * time.Minute)
	}
	require.True(t, p.job.last.ReadyForCutover)
	assert.Equal(t, resolved+1, e.Resolved, "ready: the refusal's cause is gone")
}

// While a migration runs, m and D are off with the reason (help greys
// them, the hints leave them out); D's dialog says it only sets an option
// of the next start.
func TestStartAndDropAreOffWhileAMigrationRuns(t *testing.T) {
	e := newEnv(t, "org-owner", goldenW, goldenH)
	p := e.P
	e.checked()
	e.Action(actDrop)
	c := e.LastConfirm()
	assert.Equal(t, "Drop destination data?", c.Title)
	assert.True(t, strings.HasPrefix(c.Body, "Nothing is dropped now: this sets an option of the next start (m). When that migration starts: Every collection"), c.Body)
	e.Action(actStart)
	e.Confirm("")
	require.NotNil(t, p.job)

	m := viewstest.Offered(t, p, actStart)
	assert.False(t, m.Enabled())
	assert.Equal(t, "migration billing-rs → payments-prod is still running", m.DisabledReason)
	d := viewstest.Offered(t, p, actDrop)
	assert.False(t, d.Enabled())
	assert.Equal(t, "migration billing-rs → payments-prod is still running; the setting is for the next start", d.DisabledReason)
	h := p.hints()
	assert.NotContains(t, h, "m start")
	assert.NotContains(t, h, "drop dest.")
	// Delivered anyway (a dialog opened before): refused, nothing changes.
	confirms := len(e.Confirms)
	e.Action(actDrop)
	assert.Len(t, e.Confirms, confirms)
	assert.Contains(t, e.LastToast().Text, "drop destination data: migration billing-rs → payments-prod is still running")
	e.Send(views.ActionMsg{Name: actDrop, Confirmed: true, Payload: dropOn{}})
	assert.False(t, p.draft.drop)

	// Done: both come back.
	for range 12 {
		e.advance(2 * time.Minute)
	}
	e.Action(actCutover)
	e.Confirm("payments-prod")
	e.advance(time.Minute)
	require.Equal(t, apiclient.MigrationComplete, p.job.status())
	assert.True(t, viewstest.Offered(t, p, actStart).Enabled())
	assert.True(t, viewstest.Offered(t, p, actDrop).Enabled())
}

// Presentation mode fits the height it is given: the readiness value is
// whole (five rows of large type, or plain when they cannot fit) and the
// caption, with how to leave, is the last line; with the root's stale
// line over the last row, one row less.
func TestPresentationFitsTheHeight(t *testing.T) {
	e := newEnv(t, "org-owner", 80, 20) // 80x24 less the root's four lines
	p := e.P
	e.checked()
	e.Action(actStart)
	e.Confirm("")
	for range 12 {
		e.advance(2 * time.Minute)
	}
	require.True(t, p.job.last.ReadyForCutover)
	p.presentation = true

	big := bigText("READY")
	check := func(t *testing.T, h, room int) {
		t.Helper()
		p.SetSize(80, h)
		lines := strings.Split(strings.TrimSuffix(viewstest.Screen(p.View()), "\n"), "\n")
		require.LessOrEqual(t, len(lines), room)
		assert.Contains(t, lines[len(lines)-1], "· P leaves", "the caption is the last line")
		text := strings.Join(lines, "\n")
		rows := 0
		for _, r := range big {
			if strings.Contains(text, r) {
				rows++
			}
		}
		assert.True(t, rows == 0 || rows == len(big), "h=%d: READY is cut to %d rows\n%s", h, rows, text)
		plain := strings.Contains(text, "  READY\n")
		if room >= 7 { // the plainest form: three values of two lines, the caption
			assert.True(t, plain || rows == len(big), "h=%d: no READY\n%s", h, text)
		}
	}
	for h := 4; h <= 30; h++ { // the pane draws at least four lines
		check(t, h, h)
	}
	p.SetSize(80, 20)
	s := viewstest.Screen(p.View())
	for _, r := range big {
		assert.Contains(t, s, r, "at 80x24 READY is in large type")
	}
	goldenScreen(t, "6_presentation_ready_80x20", p.View())

	// A failed poll: the root's stale line covers the pane's last row.
	e.Sim.Control("PUT", "/faults", `{"faultRate": 1}`)
	e.advance(5 * time.Second)
	require.True(t, p.Health().Stale())
	for h := 4; h <= 30; h++ {
		check(t, h, h-1)
	}
	p.SetSize(80, 20)
	s = viewstest.Screen(p.View())
	for _, r := range big {
		assert.Contains(t, s, r, "at 80x24 with the stale line READY is in large type")
	}
}
