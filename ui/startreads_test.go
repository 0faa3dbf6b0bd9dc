package ui

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// TestStartByProjectIDDoesNotWaitForTheOrganizationsName: a start that
// names its project by id is ready, and its first pane shown, while the
// organization's name is still being read (the header says the
// organization's id meanwhile); the name replaces the id when it comes,
// and the start cache keeps it.
// Waiting for it cost a round trip before the first pane read anything.
func TestStartByProjectIDDoesNotWaitForTheOrganizationsName(t *testing.T) {
	api := newFakeAPI(t, orgOwner())
	api.orgHeld = make(chan struct{})
	released := false
	defer func() {
		if !released {
			close(api.orgHeld)
		}
	}()
	cache, err := apiclient.OpenStartCache(filepath.Join(t.TempDir(), "cache"), api.srv.URL, "atlas", "test")
	require.NoError(t, err)
	m := newModel(t, api, func(o *Options) {
		o.Project = fakePayments
		o.Panes = recPanes(false, nil)
		o.Cache = cache
	})
	d := newDriver(t, m, 160, 30)
	deadline := time.Now().Add(10 * time.Second)
	for m.phase != phaseReady && time.Now().Before(deadline) {
		d.Drain()
		time.Sleep(5 * time.Millisecond)
	}
	require.Equal(t, phaseReady, m.phase, "ready while the organization's read is held")
	screen := d.Screen()
	assert.Contains(t, screen, fakeOrg, "the header names the organization by its id meanwhile")
	assert.NotContains(t, screen, "Acme Corp")
	assert.Contains(t, screen, "pane ", "the first pane is shown")

	close(api.orgHeld)
	released = true
	d.Settle()
	screen = d.Screen()
	assert.Contains(t, screen, "Acme Corp", "the name replaces the id")
	assert.False(t, strings.Contains(screen, fakeOrg), "the id is gone from the header:\n%s", screen)
	assert.Equal(t, "Acme Corp", m.ctx.OrgName, "the panes' context names it")
	cached, _, ok := scopeFromCache(cache, want{project: fakePayments})
	require.True(t, ok)
	assert.Equal(t, "Acme Corp", cached.org.Name, "the start cache keeps the name")
}

// TestAProjectKeyKeepsTheOrganizationsID: a key with project roles only
// may not read its organization; the start by project id goes on with the
// organization's id in the header, as before, and nothing is asked that
// the gate refuses.
func TestAProjectKeyKeepsTheOrganizationsID(t *testing.T) {
	api := newFakeAPI(t, catalog.Assignment{RoleName: "GROUP_READ_ONLY", GroupID: fakePayments})
	m := newModel(t, api, func(o *Options) {
		o.Project = fakePayments
		o.Panes = recPanes(false, nil)
	})
	d := newDriver(t, m, 160, 30)
	d.Settle()
	require.Equal(t, phaseReady, m.phase)
	assert.Contains(t, d.Screen(), fakeOrg+" › payments")
	assert.Equal(t, fakeOrg, m.ctx.OrgName)
}

// TestPrestartReadsBeforeInitAndInitTakesTheAnswer: Prestart sends the
// start's reads before the program asks for Init (the terminal's set-up no
// longer delays them); Init then takes that answer instead of asking
// again, and the start is ready on it.
func TestPrestartReadsBeforeInitAndInitTakesTheAnswer(t *testing.T) {
	api := newFakeAPI(t, orgOwner())
	m := newModel(t, api, func(o *Options) {
		o.Project = fakePayments
		o.Panes = recPanes(false, nil)
	})
	m.Prestart()
	awaitRead(api, "getProject")
	require.Equal(t, 1, api.readsOf("getProject"), "the project is read before Init")
	d := newDriver(t, m, 160, 30) // Init
	d.Settle()
	require.Equal(t, phaseReady, m.phase)
	assert.Equal(t, 1, api.readsOf("getProject"), "Init took the answer: nothing asked twice")
	assert.Equal(t, 1, api.readsOf("getSystemStatus"))
	assert.Contains(t, d.Screen(), "Acme Corp › payments")
}

// TestPrestartSendsTheFirstPanesFirstPageAhead: a start by project id on
// the alerts pane sends the pane's first page with the start's own reads,
// before Init; the pane, once shown, takes that answer: the page is read
// once and its alerts are on screen.
func TestPrestartSendsTheFirstPanesFirstPageAhead(t *testing.T) {
	api := newFakeAPI(t, orgOwner())
	m := newModel(t, api, func(o *Options) { o.Project = fakePayments })
	m.Prestart()
	awaitRead(api, "listAlerts")
	assert.Equal(t, 1, api.readsOf("listAlerts"), "the first page left before Init")
	d := newDriver(t, m, 160, 30)
	d.Settle()
	require.Equal(t, phaseReady, m.phase)
	assert.Equal(t, 1, api.readsOf("listAlerts"), "the pane took the page sent ahead")
	assert.Contains(t, d.Screen(), "REPLICATION_OPLOG_WINDOW_RUNNING_OUT", "its alerts are shown")
}

// awaitRead waits up to 10 s for the fake to answer a read of op.
func awaitRead(api *fakeAPI, op string) {
	for deadline := time.Now().Add(10 * time.Second); api.readsOf(op) == 0 && time.Now().Before(deadline); {
		time.Sleep(2 * time.Millisecond)
	}
}

// TestAStartNamingItsOrganizationByIDKeepsTheCachedName: the scope a start
// by project id saves names its organization by id until the name is read;
// saved so, it keeps the name the cache had, and the next start from the
// cache shows the name.
func TestAStartNamingItsOrganizationByIDKeepsTheCachedName(t *testing.T) {
	c, err := apiclient.OpenStartCache(filepath.Join(t.TempDir(), "cache"), "https://example.test", "atlas", "key1")
	require.NoError(t, err)
	p := project{ID: fakePayments, Name: "payments", OrgID: fakeOrg}
	named := scope{org: org{ID: fakeOrg, Name: "Acme Corp"}, project: p, partialLists: true}
	named.orgs, named.projects = []org{named.org}, []project{p}
	saveScope(c, named, time.Now())

	byID := scope{org: org{ID: fakeOrg, Name: fakeOrg}, project: p, partialLists: true}
	byID.orgs, byID.projects = []org{byID.org}, []project{p}
	saveScope(c, byID, time.Now())

	s, _, ok := scopeFromCache(c, want{project: fakePayments})
	require.True(t, ok)
	assert.Equal(t, "Acme Corp", s.org.Name)
}

// TestACachedScopeIsSetApartFromTheBoardsAge: a start drawn from the start
// cache says "cached" of its scope; where the header must shorten, that
// note and a board's "oldest 4s ago" read as one ("cached oldest 4s ago",
// as if the board were the cached part). The note ends with a separator.
func TestACachedScopeIsSetApartFromTheBoardsAge(t *testing.T) {
	api := newFakeAPI(t, orgOwner())
	cache, err := apiclient.OpenStartCache(filepath.Join(t.TempDir(), "cache"), api.srv.URL, "atlas", "test")
	require.NoError(t, err)
	p := project{ID: fakePayments, Name: "payments", OrgID: fakeOrg}
	sc := scope{roles: []catalog.Assignment{}, org: org{ID: fakeOrg, Name: "Acme Corp"}, project: p}
	sc.orgs, sc.projects = []org{sc.org}, []project{p}
	saveScope(cache, sc, time.Now().Add(-10*time.Second))
	panes := map[views.ID]*recPane{}
	m := newModel(t, api, func(o *Options) {
		o.Project = fakePayments
		o.Cache = cache
		o.Panes = recPanes(false, panes)
		o.Wall = time.Now
	})
	d := newDriver(t, m, 100, 30)
	d.Settle()
	require.Equal(t, phaseReady, m.phase)
	require.False(t, m.cachedAt.IsZero(), "the scope came from the cache")
	now := time.Now()
	pane := panes[m.opts.Panes[m.active].ID]
	pane.health = views.Health{OK: now.Add(-4 * time.Second), Parts: []views.PartHealth{
		{Name: "alerts", OK: now.Add(-4 * time.Second)}, {Name: "clusters, snapshots, restores, exports, search", OK: now.Add(-2 * time.Second)}}}
	header := strings.SplitN(d.Screen(), "\n", 2)[0]
	assert.Contains(t, header, "cached · ", "the scope's note set apart:\n%s", header)
	assert.NotContains(t, header, "cached oldest")
}
