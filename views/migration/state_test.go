package migration

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// What the draft still lacks disables v, m, M and D with the reason the
// key itself answers with, so help greys them and the footer and the hint
// line leave them out; each comes back when the flow gives it what it
// needs.
func TestActionsTheDraftRefusesAreOff(t *testing.T) {
	e := newEnv(t, "org-owner", goldenW, goldenH)
	p := e.P
	off := func(name, why string) {
		t.Helper()
		a := viewstest.Offered(t, p, name)
		assert.False(t, a.Enabled(), name)
		assert.Equal(t, why, a.DisabledReason, name)
	}
	off(actValidate, "pick a source deployment first (step 2)")
	off(actStart, "pick a source deployment first (step 2)")
	off(actStartAnother, "after a start of unknown outcome")
	off(actDrop, "pick a destination cluster first (step 3)")
	assert.True(t, viewstest.Offered(t, p, actLinkToken).Enabled())
	h := p.hints()
	for _, no := range []string{"v check", "m start", "D drop", "←/→"} {
		assert.NotContains(t, h, no)
	}
	assert.Contains(t, h, "enter next · → step · l token · P present")

	e.Press("enter") // token -> source
	e.selectSource("billing-rs")
	e.Press("enter")
	off(actValidate, "pick a destination cluster first (step 3)")
	off(actStart, "pick a destination cluster first (step 3)")
	e.selectDest("payments-prod")
	e.Press("enter")
	assert.True(t, viewstest.Offered(t, p, actValidate).Enabled())
	assert.True(t, viewstest.Offered(t, p, actDrop).Enabled())
	off(actStart, "set the migration host and options first: v opens them and checks the request")
	assert.Contains(t, p.hints(), "v check")
	assert.NotContains(t, p.hints(), "m start")
	e.check(components.FormValues{})
	e.advance(10 * time.Second)
	assert.True(t, viewstest.Offered(t, p, actStart).Enabled())
	assert.Contains(t, p.hints(), "m start")
	e.Press("right")
	assert.Contains(t, p.hints(), "← step")
	assert.NotContains(t, p.hints(), "←/→")
}

// A refusal goes when its cause does: "validate: pick a source deployment
// first" when a source is picked; moving between steps changes nothing and
// clears nothing.
func TestDraftRefusalClearsWhenTheSourceIsPicked(t *testing.T) {
	e := newEnv(t, "org-owner", goldenW, goldenH)
	e.Action(actValidate)
	assert.Contains(t, e.LastToast().Text, "validate: pick a source deployment first (step 2)")
	resolved := e.Resolved
	e.Press("enter") // token -> source
	assert.Equal(t, resolved, e.Resolved, "still no source")
	e.selectSource("billing-rs")
	e.Press("enter")
	require.Equal(t, stepDestination, e.P.step)
	assert.Equal(t, resolved+1, e.Resolved, "a source is picked")

	// Sending the start takes no cause away.
	e.selectDest("payments-prod")
	e.Press("enter")
	e.check(components.FormValues{})
	e.advance(10 * time.Second)
	resolved = e.Resolved
	_, cmd := e.P.Update(views.ActionMsg{Name: actStart, Confirmed: true})
	e.Run(cmd)
	assert.Equal(t, resolved+1, e.Resolved, "only the started migration clears (cut over: no migration started)")
}

// After a start of unknown outcome only M starts: D's dialog names M, and
// M's dialog says what is known of the check and of that start.
func TestDialogsAfterALostStartSayWhatIsKnown(t *testing.T) {
	e := newEnv(t, "org-owner", goldenW, goldenH)
	e.checked()
	e.Sim.Control("PUT", "/faults", `{"malformedWrites": 1}`)
	e.Action(actStart)
	e.Confirm("")
	require.NotNil(t, e.P.lostHere())

	e.Action(actDrop)
	assert.True(t, strings.HasPrefix(e.LastConfirm().Body, "Nothing is dropped now: this sets an option of the next start (M). "), e.LastConfirm().Body)

	e.Action(actStartAnother)
	body := e.LastConfirm().Body
	assert.NotContains(t, body, "The check passed.")
	assert.Contains(t, body, "The check (sent at 12:00:00 UTC) passed; the outcome of the last start into payments-prod (12:00:10 UTC) is unknown.")
}

// At 80x24 after a lost start, presentation mode's caption wraps into the
// free rows rather than being cut; at any height how to leave is the last
// line.
func TestPresentationCaptionWraps(t *testing.T) {
	e := newEnv(t, "org-owner", 80, 20) // 80x24 less the root's four lines
	p := e.P
	e.checked()
	e.Sim.Control("PUT", "/faults", `{"malformedWrites": 1}`)
	e.Action(actStart)
	e.Confirm("")
	require.NotNil(t, p.lostHere())
	p.presentation = true
	screen := viewstest.Screen(p.View())
	assert.NotContains(t, screen, "…")
	flat := strings.Join(strings.Fields(screen), " ")
	assert.Contains(t, flat, "start of billing-rs → payments-prod sent - outcome unknown: a migration may be running · P leaves")
	assert.Contains(t, screen, bigText("UNKNOWN")[0], "large type still fits")
	for _, w := range []int{20, 40, 80} { // at 20 the caption wraps to more lines than the height
		for h := 4; h <= 30; h++ {
			p.SetSize(w, h)
			lines := strings.Split(strings.TrimSuffix(viewstest.Screen(p.View()), "\n"), "\n")
			require.LessOrEqual(t, len(lines), h)
			assert.True(t, strings.HasSuffix(strings.TrimRight(lines[len(lines)-1], " "), "· P leaves"), "%dx%d: %q", w, h, lines[len(lines)-1])
		}
	}
}

// A project change takes the picked destination (its clusters are the
// destinations): a later step of the draft goes back to the destination
// step and says why; a started migration's progress stays.
func TestProjectChangeGoesBackToTheDestination(t *testing.T) {
	e := newEnv(t, "org-owner", goldenW, goldenH)
	p := e.P
	e.checked()
	ctx := p.Ctx
	ctx.GroupID, ctx.ProjectName = apisim.DemoAnalyticsID, "analytics"
	e.Send(views.ContextChangedMsg{Ctx: ctx, Scope: true})
	require.Equal(t, stepDestination, p.step)
	why := "project changed to analytics: pick a destination in it (payments-prod is in payments)"
	assert.Equal(t, why, e.LastToast().Text)
	assert.False(t, e.LastToast().Err)
	screen := viewstest.Screen(p.View())
	assert.Contains(t, screen, why)
	assert.Contains(t, screen, "Pick the destination cluster in analytics:")
	assert.NotNil(t, p.draft.source, "the source side stays")
	assert.Nil(t, p.validation)

	// Back on the source step: the step stays; nothing to say twice.
	e.Press("left")
	toasts := len(e.Toasts)
	ctx.GroupID, ctx.ProjectName = apisim.DemoPaymentsID, "payments"
	e.Send(views.ContextChangedMsg{Ctx: ctx, Scope: true})
	assert.Equal(t, stepSource, p.step)
	assert.Len(t, e.Toasts, toasts, "no destination was picked")

	// An organization change takes the source too.
	e.Press("enter")
	require.Equal(t, stepDestination, p.step)
	e.selectDest("payments-prod")
	e.Press("enter")
	require.Equal(t, stepOptions, p.step)
	ctx.OrgID, ctx.OrgName = "65a0c0ffee00000000000009", "Other-Org"
	toasts = len(e.Toasts)
	e.Send(views.ContextChangedMsg{Ctx: ctx, Scope: true})
	assert.Equal(t, stepSource, p.step)
	// Said when the change comes, before the reloads it starts answer.
	require.Greater(t, len(e.Toasts), toasts)
	assert.Equal(t, "organization changed to Other-Org: pick a source deployment linked to it", e.Toasts[toasts].Text)
}

// A migration's progress stays on screen through a project change.
func TestProjectChangeKeepsTheProgressStep(t *testing.T) {
	e := newEnv(t, "org-owner", goldenW, goldenH)
	p := e.P
	e.checked()
	e.Action(actStart)
	e.Confirm("")
	require.Equal(t, stepProgress, p.step)
	ctx := p.Ctx
	ctx.GroupID, ctx.ProjectName = apisim.DemoAnalyticsID, "analytics"
	e.Send(views.ContextChangedMsg{Ctx: ctx, Scope: true})
	assert.Equal(t, stepProgress, p.step)
}

// When a message takes away a refusal's cause, "resolved" goes before what
// the message said, so an error it says stays on screen.
func TestResolvedGoesBeforeWhatTheMessageSaid(t *testing.T) {
	p := New(views.Context{}).(*Pane)
	p.TakeAsks()
	p.say("a refusal said by the message", true)
	p.Confirm(views.ConfirmMsg{Title: "asked by the message"})
	p.ErrorsResolvedFirst()
	asks, _ := p.TakeAsks()
	require.Len(t, asks, 3)
	assert.IsType(t, views.ErrorsResolvedMsg{}, asks[0])
	assert.Equal(t, views.ToastMsg{Text: "a refusal said by the message", Err: true, Pane: ID}, asks[1])
	assert.Equal(t, "asked by the message", asks[2].(views.ConfirmMsg).Title)
	assert.Equal(t, ID, asks[2].(views.ConfirmMsg).Pane)
	asks, _ = p.TakeAsks()
	assert.Empty(t, asks, "said once")
}
