package triage

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

func TestProfileNarrowsTheBoard(t *testing.T) {
	sim := viewstest.NewSim(t, viewstest.SimOptions{Gate: viewstest.GateWithRoles})
	ctx := sim.Context(Registration)
	ctx.TriageOrgs = []string{"acme-retail"} // names match whatever their case
	ctx.TriageProjects = []string{"checkout", "warehouse", "no-such-project"}
	p := New(ctx).(*Pane)
	p.SetSize(200, 40)
	d := viewstest.NewDriver(t, p)
	mark := sim.Mark()
	d.Run(p.SetVisible(true))

	var names []string
	for _, pr := range p.projects {
		assert.Equal(t, "Acme-Retail", pr.OrgName)
		names = append(names, pr.Name)
	}
	assert.ElementsMatch(t, []string{"checkout", "warehouse"}, names)
	require.NotEmpty(t, p.Items())
	for _, it := range p.Items() {
		assert.Contains(t, []string{"checkout", "warehouse"}, it.Project)
	}
	cov := p.coverage()
	assert.Contains(t, cov, "2 of 2 projects (narrowed by the profile)")
	assert.Contains(t, cov, `triage_projects "no-such-project" matches nothing`)
	for _, r := range sim.RequestsSince(mark) {
		assert.NotContains(t, r, "/groups/"+apisim.DemoPaymentsID, "a project left out is never read")
		assert.NotContains(t, r, "/orgs/"+apisim.DemoOrgID+"/", "an organization left out is not asked for its projects")
	}
}

func TestAFailedReadKeepsItsRowsStaleWithTheError(t *testing.T) {
	e := newEnv(t, "org-owner", 200, 40)
	gid := apisim.DemoPaymentsID
	before := 0
	for _, it := range e.P.Items() {
		if it.GroupID == gid && it.Kind == KindAlert {
			before++
		}
	}
	require.Positive(t, before)
	e.Sim.Clock.Advance(2 * time.Minute)
	e.P.Ctx.Wall = e.Sim.Clock.Now // the header's ages on the world's clock
	failed := partResult{GroupID: gid}
	failed.fail("", &apiclient.Error{Status: 503, ErrorCode: "SERVICE_UNAVAILABLE", Detail: "Injected fault."})
	e.P.pending[keyAlerts]++
	e.Send(views.Result[partResult]{Pane: ID, Key: keyAlerts, Seq: e.P.gen, Value: failed})

	after := 0
	for _, it := range e.P.Items() {
		if it.GroupID == gid && it.Kind == KindAlert {
			after++
			assert.True(t, it.Stale)
		}
	}
	assert.Equal(t, before, after, "the rows stay, marked stale")
	cov := e.P.coverage()
	assert.Contains(t, cov, "alerts 12/12 (2m ago), 1 stale (payments: 503 SERVICE_UNAVAILABLE: Injected fault.)")
	assert.Contains(t, e.Screen(), "(stale) ")

	// The header's freshness: the alerts part stale since the failed
	// answer, with its error; the other parts fresh, as old as their reads.
	h := e.P.Health()
	require.True(t, h.Stale())
	byName := map[string]views.PartHealth{}
	for _, ph := range h.Parts {
		byName[ph.Name] = ph
	}
	assert.Equal(t, e.Sim.Clock.Now(), byName["alerts"].StaleSince)
	assert.Equal(t, "503 SERVICE_UNAVAILABLE", views.ErrorCode(byName["alerts"].Err))
	for _, name := range []string{"clusters", "snapshots", "restores", "exports", "search", "migrations"} {
		assert.False(t, byName[name].Stale(), name)
		assert.False(t, byName[name].OK.IsZero(), name)
	}
	// A good read clears it.
	e.Send(e.P.Tick())
	assert.False(t, e.P.Health().Stale())

	// A cluster's failed snapshot read keeps that cluster's snapshot rows only.
	prev := partResult{GroupID: gid, Items: []Item{
		{Kind: KindSnapshot, GroupID: gid, Cluster: "c1", ItemID: "s1"},
		{Kind: KindExport, GroupID: gid, Cluster: "c1", ItemID: "x1"},
	}}
	next := partResult{GroupID: gid}
	next.fail(string(KindSnapshot)+"/c1", errors.New("timeout"))
	got := keep(next, prev)
	require.Len(t, got.Items, 1)
	assert.Equal(t, "s1", got.Items[0].ItemID)
	assert.True(t, got.Items[0].Stale)
}

func TestBoardCoversTheMigrationsThisSessionKnows(t *testing.T) {
	e := newEnv(t, "org-owner", 200, 40)
	assert.Contains(t, e.P.coverage(), "migrations: this session's only (the API lists none)")
	m := startMigration(t, e)
	migRows := func() []Item {
		var out []Item
		for _, it := range e.P.Items() {
			if it.Kind == KindMigration {
				out = append(out, it)
			}
		}
		return out
	}
	e.Send(views.RefreshMsg{})
	assert.Empty(t, migRows(), "a migration still syncing needs nobody")

	e.Sim.Clock.Advance(time.Hour) // ready for cut-over
	e.Send(views.RefreshMsg{})
	rows := migRows()
	require.Len(t, rows, 1)
	assert.Equal(t, m.ID, rows[0].ItemID)
	assert.Equal(t, "payments-prod", rows[0].Cluster)
	assert.Equal(t, "live migration ready for cut-over", rows[0].What)

	e.Sim.Clock.Advance(100 * time.Hour) // the 120-hour window ends within a day
	e.Send(views.RefreshMsg{})
	rows = migRows()
	require.Len(t, rows, 1)
	assert.Equal(t, apiclient.SeverityWarning, rows[0].Severity)
	assert.True(t, strings.HasPrefix(rows[0].What, "live migration: cut-over window ends in at most "), rows[0].What)

	require.True(t, e.P.table.SetCursorID(rows[0].Key()))
	j := openJump(t, e.P)
	assert.Equal(t, views.ID("migration"), j.Pane)
}

// A migration that is over (here EXPIRED: FAILED and COMPLETE are over
// too) is not read again, and does not keep its project on the fast rest
// rate.
func TestFinishedMigrationIsNotReadAgain(t *testing.T) {
	e := newEnv(t, "org-owner", 200, 40)
	m := startMigration(t, e)
	e.Sim.Clock.Advance(200 * time.Hour) // past the 120-hour cut-over window
	e.Send(views.RefreshMsg{})
	known := e.P.Ctx.Client.KnownMigrations(apisim.DemoPaymentsID)
	require.Len(t, known, 1)
	require.Equal(t, apiclient.MigrationExpired, known[0].Last.Status, "the read after the window learned it expired")

	mark := e.Sim.Mark()
	e.Send(views.RefreshMsg{})
	for _, r := range e.Sim.RequestsSince(mark) {
		assert.NotContains(t, r, "/liveMigrations/"+m.ID, "an expired migration is not read again")
	}
	assert.False(t, e.P.rest[apisim.DemoPaymentsID].Moving, "nothing under way in payments: the slow rest rate")
}

// startMigration starts a live migration of billing-rs onto payments-prod
// this session knows of, as a user would from the Migration pane.
func startMigration(t *testing.T, e *env) *apiclient.LiveMigration {
	t.Helper()
	c := e.P.Ctx.Client
	ctx := context.Background()
	srcs, err := c.Migration().SourceProjects(ctx, apisim.DemoOrgID)
	require.NoError(t, err)
	require.NotEmpty(t, srcs)
	m, err := c.Migration().Create(ctx, apisim.DemoPaymentsID, apiclient.MigrationRequest{
		Source:         apiclient.MigrationSource{ClusterName: "billing-rs", GroupID: srcs[0].ProjectID, ManagedAuthentication: true, SSL: true},
		Destination:    apiclient.MigrationDestination{ClusterName: "payments-prod", GroupID: apisim.DemoPaymentsID, HostnameSchemaType: apiclient.HostnamePublic},
		MigrationHosts: []string{"mig-host-1.billing.internal:27000"},
	})
	require.NoError(t, err)
	return m
}
