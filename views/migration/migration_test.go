package migration

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

const goldenW, goldenH = 100, 26

// toOptions walks the flow to the options step: source and destination
// picked with enter.
func (e *env) toOptions(source, dest string) {
	e.T.Helper()
	e.Press("enter") // token -> source
	require.Equal(e.T, stepSource, e.P.step)
	e.selectSource(source)
	e.Press("enter")
	require.Equal(e.T, stepDestination, e.P.step)
	e.selectDest(dest)
	e.Press("enter")
	require.Equal(e.T, stepOptions, e.P.step)
}

// check opens the options, submits them with values and lets the check end.
func (e *env) check(values components.FormValues) {
	e.T.Helper()
	e.Action(actValidate)
	require.NoError(e.T, e.Submit(values))
	require.NoError(e.T, e.LastFormDone().Err)
}

func TestGuidedFlowFromLinkTokenToComplete(t *testing.T) {
	e := newEnv(t, "org-owner", goldenW, goldenH)
	p := e.P
	goldenScreen(t, "1_token", p.View())

	// Link token: created once, shown once, copied with y.
	e.Action(actLinkToken)
	require.Len(t, e.Forms, 1)
	require.NoError(t, e.Submit(components.FormValues{"ips": "10.0.0.1, 192.168.0.0/16"}))
	assert.Nil(t, e.LastFormDone().Err)
	assert.Equal(t, []string{"POST /api/atlas/v2/orgs/" + apisim.DemoOrgID + "/liveMigrations/linkTokens"}, e.Sim.Writes())
	token := p.Selected()
	require.NotEmpty(t, token)
	assert.Contains(t, p.View(), token)
	goldenScreen(t, "1_token_created", p.View())
	e.Press("right")
	e.Press("left")
	assert.Empty(t, p.Selected(), "the token is shown once")
	assert.NotContains(t, p.View(), token)
	assert.Contains(t, p.View(), "shown once and no longer kept")

	// Source and destination.
	e.Press("enter")
	goldenScreen(t, "2_source", p.View())
	e.selectSource("billing-rs")
	e.Press("enter")
	goldenScreen(t, "3_destination", p.View())
	e.selectDest("payments-prod")
	e.Press("enter")
	goldenScreen(t, "4_options", p.View())

	// The check: the options form is filled from the source project.
	e.Action(actValidate)
	f := e.Forms[len(e.Forms)-1]
	assert.Equal(t, formOptions, f.ID)
	var keys []string
	for _, fd := range f.Fields {
		keys = append(keys, fd.Key)
		if fd.Key == "host" {
			assert.Equal(t, "mig-host-1.billing.internal:27000", fd.Value)
		}
	}
	assert.Contains(t, keys, "sharding", "payments-prod is sharded: sharding entries are offered")
	require.NoError(t, e.Submit(components.FormValues{"sharding": "billing.invoices:customerId"}))
	require.NoError(t, e.LastFormDone().Err)
	assert.Equal(t, "POST /api/atlas/v2/groups/"+apisim.DemoPaymentsID+"/liveMigrations/validate", e.Sim.Writes()[1])
	goldenScreen(t, "4_options_pending", p.View())
	e.advance(10 * time.Second)
	require.Equal(t, apiclient.ValidationSuccess, p.validation.v.Status)
	assert.Contains(t, e.LastToast().Text, "check passed")
	goldenScreen(t, "4_options_passed", p.View())

	// Drop destination: a warning first, default No.
	e.Action(actDrop)
	assert.Equal(t, "Drop destination data?", e.LastConfirm().Title)
	assert.False(t, p.draft.drop, "nothing changes before the answer")
	e.Confirm("")
	assert.True(t, p.draft.drop)

	// Start: with drop on, the destination's name must be typed.
	e.Action(actStart)
	c := e.LastConfirm()
	assert.Equal(t, "payments-prod", c.TypeToConfirm)
	assert.Contains(t, c.Body, "WARNING")
	assert.Len(t, e.Sim.Writes(), 2, "nothing sent before the confirmation")
	e.Confirm("")
	require.NotNil(t, p.job)
	assert.Equal(t, stepProgress, p.step)
	assert.Equal(t, "POST /api/atlas/v2/groups/"+apisim.DemoPaymentsID+"/liveMigrations", e.Sim.Writes()[2])
	assert.NotEmpty(t, p.Busy())
	goldenScreen(t, "5_progress_new", p.View())

	// Before readiness: cut-over is disabled with the reason.
	for range 6 {
		e.advance(2 * time.Minute)
	}
	assert.Equal(t, "waits for readyForCutover", cutoverAction(t, p).DisabledReason)
	assert.False(t, cutoverAction(t, p).Enabled())
	e.Action(actCutover) // even if it got through, nothing is sent
	assert.Len(t, e.Sim.Writes(), 3)
	assert.Contains(t, e.LastToast().Text, "waits for readyForCutover")
	goldenScreen(t, "5_progress_syncing", p.View())
	p.presentation = true
	goldenScreen(t, "6_presentation_syncing", p.View())
	p.presentation = false

	for range 4 {
		e.advance(2 * time.Minute)
	}
	e.advance(20 * time.Second)
	require.True(t, p.job.last.ReadyForCutover)
	assert.True(t, cutoverAction(t, p).Enabled())
	goldenScreen(t, "5_progress_ready", p.View())
	e.Send(views.ActionMsg{Name: actPresentation})
	goldenScreen(t, "6_presentation_ready", p.View())
	e.Press("esc")
	assert.False(t, p.presentation)

	// Cut over: type the destination's name; then follow it to COMPLETE.
	e.Action(actCutover)
	c = e.LastConfirm()
	assert.Equal(t, "payments-prod", c.TypeToConfirm)
	e.Confirm("")
	assert.Equal(t, "PUT /api/atlas/v2/groups/"+apisim.DemoPaymentsID+"/liveMigrations/"+p.job.id+"/cutover", e.Sim.Writes()[3])
	assert.Equal(t, "cutting over", p.job.phase())
	e.advance(10 * time.Second)
	goldenScreen(t, "5_progress_cutting_over", p.View())
	// Presentation mode while cutting over: STATUS says CUTOVER, and no
	// readiness block reads "SYNCING" under "READY FOR CUT-OVER".
	p.presentation = true
	v := viewstest.Screen(p.View())
	assert.Contains(t, v, "STATUS")
	assert.NotContains(t, v, "READY FOR CUT-OVER", v)
	for _, r := range bigText("CUTOVER") {
		assert.Contains(t, v, r, v)
	}
	p.presentation = false
	e.advance(25 * time.Second)
	require.Equal(t, apiclient.MigrationComplete, p.job.status())
	assert.Empty(t, p.Busy())
	assert.Contains(t, e.LastToast().Text, "complete")
	goldenScreen(t, "5_progress_complete", p.View())
	// Elapsed times stop at completion: presentation mode an hour later
	// shows the same.
	p.presentation = true
	elapsed := regexp.MustCompile(`elapsed \S+`)
	before := elapsed.FindString(viewstest.Screen(p.View()))
	require.NotEmpty(t, before)
	e.Sim.Clock.Advance(time.Hour)
	assert.Equal(t, before, elapsed.FindString(viewstest.Screen(p.View())))
	p.presentation = false
	assert.Nil(t, p.SetVisible(false))
	assert.False(t, p.Polling(), "nothing polls after COMPLETE")

	// The server agrees.
	m, err := e.Sim.Client.Migration().Get(context.Background(), apisim.DemoPaymentsID, p.job.id)
	require.NoError(t, err)
	assert.Equal(t, apiclient.MigrationComplete, m.Status)
	assert.Equal(t, p.job.id, p.Selected())
}

func cutoverAction(t *testing.T, p *Pane) (a actionView) {
	t.Helper()
	for _, x := range p.Actions() {
		if x.Name == actCutover {
			return actionView{x.DisabledReason, x.Enabled()}
		}
	}
	t.Fatal("no cut-over action")
	return
}

type actionView struct {
	DisabledReason string
	enabled        bool
}

func (a actionView) Enabled() bool { return a.enabled }

func TestCheckFailureIsShownWithTheMessage(t *testing.T) {
	e := newEnv(t, "org-owner", goldenW, goldenH)
	e.toOptions("warehouse-rs", "payments-prod")
	e.check(components.FormValues{})
	e.advance(10 * time.Second)
	require.Equal(t, apiclient.ValidationFailed, e.P.validation.v.Status)
	assert.True(t, e.LastToast().Err)
	assert.Contains(t, e.LastToast().Text, "Disk space check failed")
	goldenScreen(t, "4_options_failed", e.P.View())

	// Starting anyway says the check failed, in the confirmation.
	e.Action(actStart)
	assert.Contains(t, e.LastConfirm().Body, "The check FAILED")
	assert.Empty(t, e.LastConfirm().TypeToConfirm, "no drop: a plain yes/no")
}

// A destination older than the source is greyed with the reason before
// any check, and enter on it is refused: the flow stays on step 3.
func TestOlderDestinationGreyedBeforeTheCheck(t *testing.T) {
	e := newEnv(t, "org-owner", goldenW, goldenH)
	e.Press("enter")
	e.selectSource("billing-rs")
	e.Press("enter")
	require.Equal(t, stepDestination, e.P.step)
	view := viewstest.Screen(e.P.View())
	assert.Contains(t, view, "CANNOT RECEIVE IT")
	assert.Contains(t, view, "✗ MongoDB 4.0.28 is older")
	assert.Equal(t, 1, strings.Count(view, "✗ "), "only the older cluster is greyed")
	mark := e.Sim.Mark()
	e.selectDest("payments-legacy")
	assert.Contains(t, viewstest.Screen(e.P.View()), "✗ payments-legacy cannot be picked: MongoDB 4.0.28 is older than the source's 6.0.13")
	e.Press("enter")
	assert.Equal(t, stepDestination, e.P.step, "an ineligible destination cannot be picked")
	assert.Contains(t, e.LastToast().Text, "payments-legacy cannot receive this migration: MongoDB 4.0.28 is older")
	assert.Nil(t, e.P.draft.dest)
	assert.Empty(t, e.Sim.WritesSince(mark))
	e.selectDest("payments-prod")
	e.Press("enter")
	assert.Equal(t, stepOptions, e.P.step)
}

func TestOptionsFormKeepsWhatWasTyped(t *testing.T) {
	e := newEnv(t, "org-owner", goldenW, goldenH)
	e.toOptions("billing-rs", "payments-prod")
	e.Action(actValidate)
	// A field's rule: SCRAM without a username.
	err := e.Submit(components.FormValues{"auth": "username & password (SCRAM)"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "required without managed authentication")
	// A bad sharding entry is refused by its field.
	err = e.Submit(components.FormValues{"sharding": "invoices"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "database.collection:field")
	assert.Empty(t, e.Sim.Writes(), "nothing sent")

	// Own credentials are kept in the draft (the password never shows).
	require.NoError(t, e.Submit(components.FormValues{"auth": "username & password (SCRAM)", "username": "mig-user", "password": "mig-user-secret"}))
	require.NoError(t, e.LastFormDone().Err)
	assert.Equal(t, "mig-user", e.P.draft.username)
	assert.NotContains(t, e.P.View(), "mig-user-secret")
	e.advance(10 * time.Second)
	assert.Equal(t, apiclient.ValidationSuccess, e.P.validation.v.Status)

	// Reopening the form brings the draft back.
	e.Action(actValidate)
	for _, fd := range e.Forms[len(e.Forms)-1].Fields {
		if fd.Key == "username" {
			assert.Equal(t, "mig-user", fd.Value)
		}
		if fd.Key == "auth" {
			assert.Equal(t, 1, fd.Choice)
		}
	}
}

func TestStartNeedsTheFlow(t *testing.T) {
	e := newEnv(t, "org-owner", goldenW, goldenH)
	e.Action(actStart)
	assert.Contains(t, e.LastToast().Text, "pick a source deployment first")
	e.Action(actValidate)
	assert.Contains(t, e.LastToast().Text, "pick a source deployment first")
	e.Action(actDrop)
	assert.Contains(t, e.LastToast().Text, "pick a destination cluster first")
	e.toOptions("billing-rs", "payments-prod")
	e.Action(actStart)
	assert.Contains(t, e.LastToast().Text, "v opens them")
	assert.Empty(t, e.Confirms)
	assert.Empty(t, e.Sim.Writes())
}

func TestDeleteLinkTokenAsksAndIsDeletedWhileAMigrationRuns(t *testing.T) {
	e := newEnv(t, "org-owner", goldenW, goldenH)
	e.Action(actLinkToken)
	require.NoError(t, e.Submit(components.FormValues{"do": tokenDelete, "ips": "not an ip"}))
	assert.Nil(t, e.LastFormDone().Err, "the form closes; the confirmation asks")
	c := e.LastConfirm()
	assert.Equal(t, "Delete the link token?", c.Title)
	assert.Empty(t, e.Sim.Writes())
	e.Confirm("")
	// The seeded migration in payments still runs; the service deletes
	// the token all the same (204), as it documents.
	assert.Equal(t, []string{"DELETE /api/atlas/v2/orgs/" + apisim.DemoOrgID + "/liveMigrations/linkTokens"}, e.Sim.Writes())
	assert.False(t, e.LastToast().Err, e.LastToast().Text)
	assert.Contains(t, e.LastToast().Text, "link token deleted")

	// A bad access list is refused by the form, before anything is sent.
	e.Action(actLinkToken)
	err := e.Submit(components.FormValues{"ips": "10.0.0.1, nope"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"nope" is not an IP address`)
}

func TestDeletedTokenEmptiesTheSources(t *testing.T) {
	e := newEnv(t, "org-owner", goldenW, goldenH)
	require.NotEmpty(t, e.P.sources)
	// Cut the seeded migration over and let it finish, so the token may go.
	mig := seededMigration(t, e)
	require.NoError(t, e.Sim.Client.Migration().Cutover(context.Background(), apisim.DemoPaymentsID, mig))
	e.Sim.Clock.Advance(time.Minute)
	e.Action(actLinkToken)
	require.NoError(t, e.Submit(components.FormValues{"do": tokenDelete}))
	e.Confirm("")
	assert.False(t, e.LastToast().Err, e.LastToast().Text)
	assert.Empty(t, e.P.sources, "nothing is linked without a token")
	e.Press("enter")
	assert.Contains(t, e.P.View(), "no projects are available")
	e.Press("enter")
	assert.True(t, e.LastToast().Err)
	assert.Equal(t, stepSource, e.P.step)
}

// seededMigration is the seeded migration of payments (the API has no list
// call).
func seededMigration(t *testing.T, e *env) string {
	t.Helper()
	id := e.Sim.Server.MigrationIDs(apisim.DemoPaymentsID)
	require.NotEmpty(t, id)
	return id[0]
}

func TestPollingFollowsTheMigration(t *testing.T) {
	e := newEnv(t, "org-owner", goldenW, goldenH)
	p := e.P
	assert.False(t, p.Polling(), "nothing moves: no polling")
	e.toOptions("billing-rs", "payments-prod")
	e.check(components.FormValues{})
	assert.True(t, p.Polling(), "a pending check is polled")
	e.advance(10 * time.Second)
	assert.False(t, p.Polling(), "the check ended")

	e.Action(actStart)
	e.Confirm("")
	require.NotNil(t, p.job)
	assert.True(t, p.Polling())
	// Hidden: still polled, because this session started it.
	p.SetVisible(false)
	assert.True(t, p.Polling())
	assert.Contains(t, p.Busy(), "billing-rs → payments-prod")
	// Paused: nothing.
	e.Send(views.PauseMsg{Paused: true})
	assert.False(t, p.Polling())
	e.Send(views.PauseMsg{Paused: false})
	assert.True(t, p.Polling())

	// A poll that fails is shown and retried; the migration is still watched.
	before := len(p.job.lags)
	e.advance(time.Minute)
	assert.Greater(t, len(p.job.lags), before)
	for i := 1; i < len(p.job.lags); i++ {
		assert.LessOrEqual(t, p.job.lags[i].lag, p.job.lags[i-1].lag, "the lag falls")
	}
}

func TestDangerousActionsAreTagged(t *testing.T) {
	e := newEnv(t, "org-owner", goldenW, goldenH)
	byName := map[string]bool{}
	for _, a := range e.P.Actions() {
		byName[a.Name] = a.Dangerous
		if a.Name == actDrop {
			assert.Equal(t, "createPushMigration", a.Op)
			reg, ok := views.Registry{Registration}.Keymap().Lookup(actDrop)
			require.True(t, ok)
			assert.Equal(t, reg.Keys(), a.Keys())
		}
	}
	assert.True(t, byName[actDrop], "drop destination is dangerous")
	assert.True(t, byName[actCutover], "cut-over is dangerous")
	assert.True(t, byName[actStart])
	assert.False(t, byName[actPresentation])
	// With the keymap's start action disabled (read-only mode, roles), the
	// drop toggle goes with it and the hints leave both out.
	require.NoError(t, e.P.Ctx.Keys.Disable(actStart, "read-only mode"))
	require.NoError(t, e.P.Ctx.Keys.Disable(actCutover, "read-only mode"))
	for _, a := range e.P.Actions() {
		if a.Name == actDrop {
			assert.False(t, a.Enabled())
			assert.Equal(t, "read-only mode", a.DisabledReason)
		}
	}
	h := e.P.hints()
	assert.NotContains(t, h, "drop dest")
	assert.NotContains(t, h, "cut over")
	assert.Contains(t, h, "P present")
}

func TestServerStringsAreSanitized(t *testing.T) {
	e := newEnv(t, "org-owner", goldenW, goldenH)
	e.P.sources[0].project.Name = "evil\x1b]0;pwned\x07name"
	e.P.sources[0].dep.Name = "dep\x1b[2J"
	e.Press("enter")
	v := e.P.View()
	assert.NotContains(t, v, "\x1b]0;")
	assert.NotContains(t, v, "\x1b[2J")
	assert.True(t, strings.Contains(v, "evil"))
}

func TestBigTypeRendersEveryStatusWord(t *testing.T) {
	for _, w := range []string{"NEW", "WORKING", "FAILED", "COMPLETE", "EXPIRED", "READY", "SYNCING", "CUTOVER", "IDLE", "12m05s", "0s", "2h03m", "—"} {
		rows := bigText(w)
		require.Len(t, rows, glyphRows)
		assert.LessOrEqual(t, len([]rune(rows[0])), bigWidth(w), w)
		for _, r := range w {
			_, ok := glyphs[r]
			assert.True(t, ok, "no glyph for %q in %q", r, w)
		}
	}
	assert.Equal(t, "42s", bigLag(42))
	assert.Equal(t, "12m05s", bigLag(725))
	assert.Equal(t, "2h03m", bigLag(2*3600+3*60+9))
}

// BenchmarkProgressView renders the progress step with a full lag history
// (the redraw cost while a migration is watched).
func BenchmarkProgressView(b *testing.B) {
	p := New(views.Context{Theme: benchTheme(), OrgName: "Demo Org", ProjectName: "payments",
		Clock: func() time.Time { return viewstest.Start.Add(time.Hour) }}).(*Pane)
	p.SetSize(160, 48)
	lag := int64(42)
	p.job = &jobState{id: "d671e28600000000000001b3", groupID: apisim.DemoPaymentsID, source: "billing-rs", dest: "payments-prod",
		startedAt: viewstest.Start, last: apiclient.LiveMigration{Status: apiclient.MigrationWorking, LagTimeSeconds: &lag,
			MigrationHosts: []string{"mig-host-1.billing.internal:27000"}, SkippedTimeSeriesCollections: []string{"metrics.cpu_1m"}}}
	for i := range maxSamples {
		p.job.lags = append(p.job.lags, lagSample{at: viewstest.Start.Add(time.Duration(i) * time.Second), lag: int64(maxSamples - i)})
	}
	p.step = stepProgress
	b.ReportAllocs()
	for b.Loop() {
		_ = p.View()
	}
}

func benchTheme() themes.Theme { return themes.Resolve("dark", false, true) }

// The pane matches ActionMsg.Name against its act… constants: each must
// name a registered action, or its key would silently do nothing.
func TestEveryActionConstantNamesARegisteredAction(t *testing.T) {
	assert.Empty(t, viewstest.UnregisteredActionConsts(t, Registration))
}
