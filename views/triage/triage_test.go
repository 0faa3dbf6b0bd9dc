package triage

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// env is the board's test environment, as identity with its roles known
// to the gate.
type env struct{ *viewstest.Env[*Pane] }

func newEnv(t *testing.T, identity string, w, h int) *env {
	t.Helper()
	return &env{viewstest.Open[*Pane](t, Registration, viewstest.Setup{Identity: identity, Gate: viewstest.GateWithRoles, Width: w, Height: h})}
}

// raw reads one operation as org-owner into plain JSON, apart from the
// board's typed decoding and rules.
func raw(t *testing.T, c *apiclient.Client, op string, params map[string]string) []map[string]any {
	t.Helper()
	var page struct {
		Results []map[string]any `json:"results"`
	}
	_, err := c.Do(context.Background(), op, apiclient.Request{Params: params, List: &apiclient.ListOptions{ItemsPerPage: 500}}, &page)
	require.NoError(t, err, op)
	return page.Results
}

// truth counts, from what apisim serves, each kind the board should show.
func truth(t *testing.T, sim *viewstest.Sim) map[Kind]int {
	t.Helper()
	c := sim.ClientAs("org-owner", viewstest.NoGate)
	now := sim.Clock.Now()
	when := func(v any) time.Time {
		s, _ := v.(string)
		tm, _ := time.Parse(time.RFC3339, s)
		return tm
	}
	n := map[Kind]int{}
	for name, gid := range sim.Server.World().Projects {
		_ = name
		for _, a := range raw(t, c, "listAlerts", map[string]string{"groupId": gid}) {
			if a["status"] != "OPEN" {
				continue
			}
			until := when(a["acknowledgedUntil"])
			switch {
			case until.After(now) && until.Sub(now) <= time.Hour:
				n[KindAckEnds]++
			case !until.After(now):
				n[KindAlert]++
			}
		}
		for _, cl := range raw(t, c, "listClusters", map[string]string{"groupId": gid}) {
			name := cl["name"].(string)
			if cl["paused"] == true || cl["stateName"] != "IDLE" {
				n[KindCluster]++
			}
			if v := cl["mongoDBVersion"].(string); strings.HasPrefix(v, "3.6.") || strings.HasPrefix(v, "4.0.") || strings.HasPrefix(v, "4.4.") {
				n[KindVersion]++ // the series past end of life on 2025-06-01
			}
			size := ""
			if rs, ok := cl["replicationSpecs"].([]any); ok && len(rs) > 0 {
				rc := rs[0].(map[string]any)["regionConfigs"].([]any)[0].(map[string]any)
				size, _ = rc["electableSpecs"].(map[string]any)["instanceSize"].(string)
			}
			if cl["paused"] == true || size == "M0" || size == "M2" || size == "M5" {
				continue
			}
			p := map[string]string{"groupId": gid, "clusterName": name}
			for _, s := range raw(t, c, "listReplicaSetBackups", p) {
				if s["status"] == "failed" && now.Sub(when(s["createdAt"])) <= 24*time.Hour {
					n[KindSnapshot]++
				}
			}
			for _, j := range raw(t, c, "listBackupRestoreJobs", p) {
				if j["failed"] == true || (j["cancelled"] != true && j["expired"] != true && j["finishedAt"] == nil) {
					n[KindRestore]++
				}
			}
			for _, j := range raw(t, c, "listBackupExportJobs", p) {
				if j["state"] == "Failed" {
					n[KindExport]++
				}
			}
			var ixs []map[string]any
			if _, err := c.Do(context.Background(), "listAtlasSearchIndexesCluster", apiclient.Request{Params: p}, &ixs); err != nil {
				var apiErr *apiclient.Error
				require.ErrorAs(t, err, &apiErr)
				require.Equal(t, 400, apiErr.Status, "%s: %v", name, err) // before 4.2: no search
			}
			for _, ix := range ixs {
				v, _ := ix["latestDefinitionVersion"].(map[string]any)
				building := ix["status"] == "BUILDING" || ix["status"] == "PENDING"
				if ix["status"] == "FAILED" || ix["synonymMappingStatus"] == "FAILED" || (building && now.Sub(when(v["createdAt"])) > time.Hour) {
					n[KindIndex]++
				}
			}
		}
	}
	return n
}

func counts(items []Item) map[Kind]int {
	n := map[Kind]int{}
	for _, it := range items {
		n[it.Kind]++
	}
	return n
}

func TestBoardCountsEqualApisimState(t *testing.T) {
	e := newEnv(t, "org-owner", 120, 40)
	got := counts(e.P.Items())
	want := truth(t, e.Sim)
	for _, k := range Kinds {
		if k != KindMigration && k != KindAuthBurst { // the API lists no migrations (see TestBoardCoversTheMigrationsThisSessionKnows); bursts are off by default (see TestAuthBurstsEqualApisimState)
			assert.Positive(t, want[k], "the demo world has a %s row", k)
		}
	}
	assert.Equal(t, want, got)
	assert.Contains(t, e.P.coverage(), "12 of 12 projects")

	// The world moves: the running restores finish, a new alert opens;
	// the next polls follow.
	e.Sim.Clock.Advance(5 * time.Hour)
	for range restEvery {
		e.Send(e.P.Tick())
	}
	assert.Equal(t, truth(t, e.Sim), counts(e.P.Items()))
}

func TestBoardFillsAlertsFirstAndOnlyInTheBackground(t *testing.T) {
	sim := viewstest.NewSim(t, viewstest.SimOptions{Gate: viewstest.GateWithRoles})
	p := New(sim.Context(Registration)).(*Pane)
	p.SetSize(120, 40)
	d := viewstest.NewDriver(t, p)
	mark := sim.Mark()
	d.Run(p.Init())
	assert.Empty(t, sim.RequestsSince(mark), "nothing is read before the board is shown")
	d.Run(p.SetVisible(true))
	reqs := sim.RequestsSince(mark)
	firstRest := len(reqs)
	lastAlerts := 0
	for i, r := range reqs {
		if strings.HasSuffix(r, "/alerts") || strings.HasSuffix(r, "/alertConfigs") {
			lastAlerts = i
		} else if strings.Contains(r, "/groups/") && firstRest == len(reqs) {
			firstRest = i
		}
	}
	assert.Less(t, lastAlerts, firstRest, "every project's alerts before the rest: %v", reqs)
	for _, w := range sim.Writes() {
		t.Errorf("the board wrote: %s", w)
	}
}

func TestProjectsTheRoleCannotReadAreListedOnceAndNotRetried(t *testing.T) {
	e := newEnv(t, "payments-oncall", 120, 40)
	assert.Contains(t, e.P.coverage(), "8 not visible (role)")
	assert.Contains(t, e.Screen(), "not visible (role)")
	for gid := range e.P.hidden {
		assert.NotEqual(t, apisim.DemoPaymentsID, gid)
	}
	mark := e.Sim.Mark()
	for range restEvery {
		e.Send(e.P.Tick())
	}
	for _, r := range e.Sim.RequestsSince(mark) {
		for gid := range e.P.hidden {
			assert.NotContains(t, r, gid, "a hidden project is not asked again")
		}
	}
}

// openJump is the jump enter asks for on the selected row.
func openJump(t *testing.T, p *Pane) views.JumpMsg {
	t.Helper()
	p.TakeAsks() // what came before
	require.Nil(t, p.open())
	asks, _ := p.TakeAsks()
	require.Len(t, asks, 1)
	j, ok := asks[0].(views.JumpMsg)
	require.True(t, ok, "%#v", asks[0])
	return j
}

func TestEnterJumpsToTheOwningPane(t *testing.T) {
	e := newEnv(t, "org-owner", 120, 40)
	seen := map[Kind]views.JumpMsg{}
	for _, it := range e.P.Items() {
		if _, ok := seen[it.Kind]; ok {
			continue
		}
		require.True(t, e.P.table.SetCursorID(it.Key()))
		j := openJump(t, e.P)
		seen[it.Kind] = j
		assert.Equal(t, it.GroupID, j.GroupID)
		assert.Equal(t, ID, j.From)
	}
	assert.Equal(t, views.ID("alerts"), seen[KindAlert].Pane)
	assert.Equal(t, views.ID("backups"), seen[KindRestore].Pane)
	assert.Equal(t, "restores", seen[KindRestore].View)
	assert.Equal(t, views.ID("search"), seen[KindIndex].Pane)
	assert.NotEmpty(t, seen[KindIndex].Cluster)
}

func TestBoardGolden(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {120, 40}, {200, 60}} {
		e := newEnv(t, "org-owner", sz.w, sz.h-4) // the root's header, tabs and footer take four lines
		viewstest.Golden(t, fmt.Sprintf("triage/board_%dx%d", sz.w, sz.h), ansi.Strip(e.P.View()))
	}
}

// While the board fills, the cursor stays on the top row (the most urgent)
// until the user moves it; from then on it stays on the row the user chose.
func TestCursorFollowsTheTopUntilTheUserMoves(t *testing.T) {
	e := newEnv(t, "org-owner", 120, 40)
	require.Greater(t, e.P.table.Len(), 3)
	assert.Zero(t, e.P.table.Cursor(), "on the top row after the fill")
	// Rows that arrived above the row the cursor was on (the table keeps
	// its row by id) do not take the cursor away from the top.
	e.P.table.SetCursor(3)
	e.P.rebuild()
	assert.Zero(t, e.P.table.Cursor(), "back on the top row: the user never moved")
	e.Press("down", "down")
	chosen := e.P.table.SelectedID()
	require.Equal(t, 2, e.P.table.Cursor())
	e.P.rebuild()
	assert.Equal(t, chosen, e.P.table.SelectedID(), "a rebuild keeps the row the user chose")
}

// The rest is read again per project as it needs: over restSlow polls
// (the world standing still) a quiet project's rest is read exactly once,
// its turn spread among the polls so that no poll reads them all; a
// project with something under way is read every restEvery polls; and r
// reads everything.
func TestRestRefreshIsIncremental(t *testing.T) {
	e := newEnv(t, "org-owner", 120, 40)
	visible := 0
	for _, pr := range e.P.projects {
		if !e.P.hidden[pr.ID] {
			visible++
		}
	}
	require.Greater(t, visible, 6)
	// rests counts, by project, the reads of its rest (its clusters' list).
	rests := func(mark int) map[string]int {
		got := map[string]int{}
		for _, r := range e.Sim.RequestsSince(mark) {
			if strings.HasPrefix(r, "GET ") && strings.HasSuffix(r, "/clusters") && strings.Contains(r, "/groups/") {
				got[strings.TrimSuffix(strings.TrimPrefix(r, "GET /api/atlas/v2/groups/"), "/clusters")]++
			}
		}
		return got
	}
	moving := map[string]bool{}
	for gid, r := range e.P.rest {
		require.Zero(t, r.Errs, "%s: a failed read is read again sooner", gid)
		moving[gid] = r.Moving
	}
	require.Len(t, moving, visible)
	quiet := 0
	for _, m := range moving {
		if !m {
			quiet++
		}
	}
	require.Positive(t, quiet, "some projects are quiet")
	require.Less(t, quiet, visible, "some have something under way")
	reads := map[string]int{}
	most := 0
	for range restSlow {
		mark := e.Sim.Mark()
		e.Run(e.P.poll())
		got := rests(mark)
		n := 0
		for gid, k := range got {
			reads[gid] += k
			n += k
		}
		most = max(most, n)
	}
	for gid, m := range moving {
		assert.Equal(t, m, e.P.rest[gid].Moving, "%s: the world stood still", gid)
		if m {
			assert.Equal(t, restSlow/restEvery, reads[gid], "%s is under way: read every restEvery polls", gid)
		} else {
			assert.Equal(t, 1, reads[gid], "%s is quiet: read once in restSlow polls", gid)
		}
	}
	assert.Len(t, reads, visible, "every project's rest was read again within restSlow polls")
	assert.Less(t, most, visible, "no poll read every project's rest")

	mark := e.Sim.Mark()
	e.Refresh()
	assert.Len(t, rests(mark), visible, "r reads every project's rest")
}
