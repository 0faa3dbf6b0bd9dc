package alerts

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// fill loads alerts into the pane as a full pass would, page by page.
func fill(p *Pane, as []apiclient.Alert) {
	p.mark++
	p.pass = &pass{total: len(as), pages: (len(as) + perPage - 1) / perPage, mark: p.mark}
	for i := 0; i < len(as); i += perPage {
		p.merge(as[i:min(i+perPage, len(as))], p.mark)
	}
	p.loaded = true
	p.finishPass()
}

// raise opens an incident on a cluster and returns its id and its alerts' ids.
func (e *paneEnv) raise(cluster string) (string, []string) {
	e.T.Helper()
	zero := 0
	_, err := e.Sim.Client.AlertConfigs().Create(context.Background(), apisim.DemoPaymentsID, apiclient.AlertConfig{Enabled: true,
		EventTypeName: "FTDC_SETTINGS_UPDATED", SeverityOverride: apiclient.SeverityWarning,
		Matchers:      []apiclient.Matcher{{FieldName: "CLUSTER_NAME", Operator: apiclient.MatchEquals, Value: cluster}},
		Notifications: []apiclient.Notification{{TypeName: apiclient.NotifyEmail, EmailAddress: "a@example.com", DelayMin: &zero, IntervalMin: 60}}})
	require.NoError(e.T, err)
	e.Sim.Clock.Advance(time.Minute)
	out := e.Sim.Control("POST", "/incidents", fmt.Sprintf(`{"groupId":%q,"eventTypeName":"FTDC_SETTINGS_UPDATED","clusterName":%q}`, apisim.DemoPaymentsID, cluster))
	in, _ := out["incident"].(map[string]any)
	var ids []string
	as, _ := out["alerts"].([]any)
	for _, a := range as {
		ids = append(ids, a.(map[string]any)["id"].(string))
	}
	require.NotEmpty(e.T, ids)
	return in["id"].(string), ids
}

func (e *paneEnv) status(id string) apiclient.AlertStatus {
	a, ok := e.P.alert(id)
	require.True(e.T, ok, "alert %s held", id)
	return a.Status
}

func TestRefreshReadsOpenAndTrackingOnly(t *testing.T) {
	e := newPaneEnv(t)
	require.True(t, e.P.firstDone)
	held := len(e.P.alerts)

	// A new alert: the refresh finds it among the open ones.
	incident, ids := e.raise("payments-rs")
	mark := e.Sim.Mark()
	e.Send(views.RefreshMsg{})
	reqs := e.Sim.RequestsSince(mark)
	assert.Len(t, reqs, 3, "OPEN, TRACKING and the configurations: %v", reqs)
	assert.Equal(t, held+len(ids), len(e.P.alerts))
	assert.Equal(t, apiclient.AlertOpen, e.status(ids[0]))
	assert.Contains(t, e.Screen(), fmt.Sprintf("%d alerts", held+len(ids)))

	// It ends: it leaves the open list and is read alone to learn how.
	e.Sim.Clock.Advance(time.Minute)
	e.Sim.Control("POST", "/incidents/"+incident+"/resolve", "")
	mark = e.Sim.Mark()
	e.Send(views.RefreshMsg{})
	reqs = e.Sim.RequestsSince(mark)
	assert.LessOrEqual(t, len(reqs), 3+vanishedGets, "%v", reqs)
	assert.Contains(t, strings.Join(reqs, "\n"), "/alerts/"+ids[0])
	assert.Equal(t, apiclient.AlertClosed, e.status(ids[0]))
	assert.Equal(t, held+len(ids), len(e.P.alerts), "no alert lost or doubled")
}

// flaky fails the requests whose URL contains a string, while armed.
type flaky struct {
	next  http.RoundTripper
	match string
	armed atomic.Bool
	hits  atomic.Int32
}

func (f *flaky) RoundTrip(r *http.Request) (*http.Response, error) {
	if f.armed.Load() && strings.Contains(r.URL.String(), f.match) {
		f.hits.Add(1)
		return nil, errors.New("connection reset by peer")
	}
	return f.next.RoundTrip(r)
}

func TestFailedPageKeepsDataAndIsRetried(t *testing.T) {
	sim := viewstest.NewSim(t, viewstest.SimOptions{})
	require.NoError(t, sim.Server.AddAlerts(apisim.DemoPaymentsID, 2000)) // 5 pages of 500
	tr := &flaky{next: http.DefaultTransport, match: "pageNum=3"}
	client, err := apiclient.New(apiclient.Options{BaseURL: sim.URL, Service: "atlas", MaxRetries: -1,
		Auth: apiclient.DigestAuth("org-owner", "org-owner-secret"), HTTPClient: &http.Client{Transport: tr}})
	require.NoError(t, err)
	ctx := sim.Context(Registration)
	ctx.Client, ctx.Gate = client, nil
	p := New(ctx).(*Pane)
	d := viewstest.NewDriver(t, p)
	p.SetSize(120, 30)

	tr.armed.Store(true)
	d.Run(p.Init())
	require.True(t, p.loaded, "the rows of the pages that came show")
	assert.Equal(t, 2172-perPage, len(p.alerts), "every page but the failed one is held")
	assert.Contains(t, d.Screen(), "page 3")
	assert.Contains(t, d.Screen(), "loading 1672 of 2172")
	assert.False(t, p.firstDone)

	// The next tick asks for page 3 alone; it fails again: nothing is lost.
	mark := sim.Mark()
	d.Send(views.RefreshMsg{})
	assert.Empty(t, sim.RequestsSince(mark), "only page 3 is asked again, and it never reaches the server")
	assert.Equal(t, 2, int(tr.hits.Load()))
	assert.Equal(t, 2172-perPage, len(p.alerts))

	// The server answers again: page 3 and the rest complete the list.
	tr.armed.Store(false)
	sim.Clock.Advance(2 * time.Minute)
	d.Send(views.RefreshMsg{})
	assert.True(t, p.firstDone)
	assert.Equal(t, 2172, len(p.alerts))
	assert.NotContains(t, d.Screen(), "refresh failed")

	// A refresh that fails later: the list stays, marked stale with its age.
	tr.match, tr.armed = "status=OPEN", atomic.Bool{}
	tr.armed.Store(true)
	sim.Clock.Advance(3 * time.Minute)
	d.Send(views.RefreshMsg{})
	assert.Equal(t, 2172, len(p.alerts))
	assert.Contains(t, d.Screen(), "refresh failed")
	assert.Contains(t, d.Screen(), "stale, data from 3m ago")
}

// The store keeps a compact record, not the alert: what the list does not
// show (here the organization) is not held, and the detail reads the whole
// alert when it opens and keeps it current through the refreshes.
func TestStoreKeepsRecordsDetailReadsTheAlert(t *testing.T) {
	e := newPaneEnv(t)
	id := e.P.table.SelectedID()
	require.NotEmpty(t, id)
	r := e.P.alerts[e.P.byID[id]].alert()
	assert.Empty(t, r.OrgID, "the record keeps no organization")
	assert.Equal(t, id, r.ID)

	e.Action(actDetail)
	require.NotNil(t, e.P.full, "the detail read the whole alert")
	require.NotEmpty(t, e.P.full.OrgID)
	assert.Contains(t, e.Screen(), e.P.full.OrgID, "the detail shows what the list does not keep")
	e.Send(views.RefreshMsg{})
	assert.Contains(t, e.Screen(), e.P.full.OrgID, "and still after a refresh")
	assert.LessOrEqual(t, int(unsafe.Sizeof(record{})), 144, "a record's size")
}

// A refresh's rebuild writes over the rows and cells of the last one: it
// allocates nothing in proportion to the alerts (no second copy of the
// rows, their cells, the table's id index or its filter text), also after
// the status filter went round once.
func TestRebuildHoldsOneCopyOfTheRows(t *testing.T) {
	const n = 20_000
	ctx := views.Context{Theme: themes.Resolve("dark", false, true), Keys: views.Registry{Registration}.Keymap(),
		Clock: func() time.Time { return viewstest.Start }, GroupID: apisim.DemoPaymentsID, Poll: views.DefaultPoll}
	p := New(ctx).(*Pane)
	p.SetSize(200, 50)
	fill(p, synthAlerts(n))
	_ = p.View()
	for range 4 {
		p.status = p.status.next()
		p.rebuildRows()
	}
	require.Equal(t, statusAll, p.status)
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	const runs = 4
	for range runs {
		p.sortAndShow() // the frame after it is not counted: it costs the same at any size
	}
	runtime.ReadMemStats(&m1)
	perAlert := float64(m1.TotalAlloc-m0.TotalAlloc) / runs / n
	t.Logf("a rebuild allocated %.1f bytes an alert", perAlert)
	// The rows are 56 bytes an alert (id and class: no cells, no filter
	// text), the row-to-alert index 4, the id index about 40.
	assert.Less(t, perAlert, 4.0)
	assert.Equal(t, n, p.table.Total())
}

// Durations with the same ageKey show the same AGE cell, and different
// cells never share a key.
func TestAgeKeyGroupsEqualCells(t *testing.T) {
	byKey, byCell := map[time.Duration]string{}, map[string]time.Duration{}
	for d := -2 * time.Second; d < 9*24*time.Hour; d += 7*time.Second + 130*time.Millisecond {
		k, cell := ageKey(d), components.Age(d)
		if c, ok := byKey[k]; ok && c != cell {
			t.Fatalf("%v: key %v shows %q and %q", d, k, c, cell)
		}
		if o, ok := byCell[cell]; ok && o != k {
			t.Fatalf("%v: %q has keys %v and %v", d, cell, o, k)
		}
		byKey[k], byCell[cell] = cell, k
	}
}

// A full pass has as many pages in flight as the alerts bucket allows
// while leaving most of it to others: an eighth of its capacity, no more
// than half the tokens left, never fewer than minLanes (nor while the
// bucket is not known).
func TestFullPassLanesFollowTheBucket(t *testing.T) {
	srv, err := apisim.New(apisim.Options{RateLimits: map[string]apisim.RateLimit{
		"alertsRead_group": {Capacity: 100, RefillRate: 100, RefillSeconds: 60}}})
	require.NoError(t, err)
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	client, err := apiclient.New(apiclient.Options{BaseURL: ts.URL, Service: "atlas", MaxRetries: -1,
		Auth: apiclient.DigestAuth("org-owner", "org-owner-secret")})
	require.NoError(t, err)
	ctx := views.Context{Theme: themes.Resolve("dark", false, true), Keys: views.Registry{Registration}.Keymap(),
		Clock: func() time.Time { return viewstest.Start }, GroupID: apisim.DemoPaymentsID, Poll: views.DefaultPoll, Client: client}
	p := New(ctx).(*Pane)
	inFlight := func() int {
		p.pass = &pass{pages: 400, total: 200_000, next: 2, seq: p.passSeq.Next(), mark: p.mark + 1}
		msg := p.claim("")()
		n := 1
		if b, ok := msg.(tea.BatchMsg); ok {
			n = len(b)
		}
		require.Equal(t, n, p.pass.inflight)
		p.pass = nil
		return n
	}
	assert.Equal(t, minLanes, inFlight(), "nothing known of the bucket")

	require.NoError(t, client.LearnRateLimits(context.Background(), apiclient.RateLimitFilter{GroupID: apisim.DemoPaymentsID}))
	assert.Equal(t, 100/8, inFlight(), "an eighth of the bucket")

	// Most of the bucket spent: the pass slows to minLanes.
	for range 90 {
		_, err := client.Alerts().List(context.Background(), apisim.DemoPaymentsID,
			apiclient.AlertListOptions{ListOptions: apiclient.ListOptions{ItemsPerPage: 1}})
		require.NoError(t, err)
	}
	// About 10 tokens left: the bucket refills while the reads go (more on
	// a slow machine), so the lanes are half of what it holds then.
	got := inFlight()
	_, tokens, ok := client.Scheduler().Budget("listAlerts", apisim.DemoPaymentsID)
	require.True(t, ok)
	assert.Less(t, tokens, 30.0, "most of the bucket spent")
	assert.InDelta(t, max(minLanes, int(tokens/2)), got, 1, "half the %.1f tokens left, at least minLanes", tokens)
}

// whenIn writes what time.Format(timeLayout) writes, in the zone given.
func TestWhenInIsFormat(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	require.NoError(t, err)
	for _, tm := range []time.Time{
		time.Date(2025, 3, 9, 6, 59, 59, 0, time.UTC), time.Date(2025, 12, 31, 23, 5, 0, 0, time.UTC),
		time.Date(1999, 1, 2, 3, 4, 5, 6, time.UTC), time.Date(12345, 1, 1, 0, 0, 0, 0, time.UTC),
	} {
		for _, loc := range []*time.Location{time.UTC, ny} {
			assert.Equal(t, tm.In(loc).Format(timeLayout), whenIn(tm, loc))
		}
	}
	assert.Equal(t, "—", whenIn(time.Time{}, time.UTC))
}

// During a first pass the header's counts are counted again at most every
// countEvery, not on every frame after every page; once the pass is done
// they are exact.
func TestCountsDuringAFirstPassAreThrottled(t *testing.T) {
	wall := viewstest.Start
	ctx := views.Context{Theme: themes.Resolve("dark", false, true), Keys: views.Registry{Registration}.Keymap(),
		Clock: func() time.Time { return viewstest.Start }, Wall: func() time.Time { return wall },
		GroupID: apisim.DemoPaymentsID, Poll: views.DefaultPoll}
	p := New(ctx).(*Pane)
	as := synthAlerts(3 * perPage) // a third of them OPEN
	p.mark++
	p.pass = &pass{total: len(as), pages: 3, mark: p.mark}
	p.merge(as[:perPage], p.mark)
	_, _, n := p.counts()
	require.Equal(t, perPage, n)
	p.merge(as[perPage:2*perPage], p.mark)
	wall = wall.Add(countEvery / 2)
	_, _, n = p.counts()
	assert.Equal(t, perPage, n, "counted again within countEvery of the last count")
	wall = wall.Add(countEvery)
	_, _, n = p.counts()
	assert.Equal(t, 2*perPage, n, "not counted again after countEvery")
	p.merge(as[2*perPage:], p.mark)
	p.finishPass()
	open, _, n := p.counts()
	assert.Equal(t, 3*perPage, n, "the pass done, the counts are exact at once")
	want := 0
	for _, a := range as {
		if a.Status == apiclient.AlertOpen {
			want++
		}
	}
	assert.Equal(t, want, open)
}

// A full pass reads only the listed members of each alert; the detail's
// whole alert takes what the page says of it (an acknowledgement, the
// status) and keeps what only the detail read (the metric, its value).
func TestFullPassPageUpdatesTheDetailsAlert(t *testing.T) {
	var s store
	s.reset()
	at := viewstest.Start
	whole := apiclient.Alert{ID: "a1", AlertConfigID: "c1", Status: apiclient.AlertOpen, EventTypeName: "HOST_DOWN",
		Created: at, MetricName: "CONNECTIONS", CurrentValue: &apiclient.CurrentValue{Number: 7, Units: "RAW"}}
	s.fullID = "a1"
	s.merge([]apiclient.Alert{whole}, 1)
	require.NotNil(t, s.full)
	until := at.Add(time.Hour)
	news := s.mergeListed([]listedAlert{{ID: "a1", AlertConfigID: "c1", Status: apiclient.AlertClosed, EventTypeName: "HOST_DOWN",
		Created: at, AcknowledgedUntil: &until, AcknowledgementComment: "looking", AcknowledgingUsername: "alice"}, {ID: "a2", Created: at}}, 2)
	assert.Empty(t, news, "no bell before the first pass is done")
	got, ok := s.alert("a1")
	require.True(t, ok)
	assert.Equal(t, apiclient.AlertClosed, got.Status)
	assert.Equal(t, "looking", got.AcknowledgementComment)
	assert.Equal(t, "alice", got.AcknowledgingUsername)
	require.NotNil(t, got.AcknowledgedUntil)
	assert.Equal(t, "CONNECTIONS", got.MetricName, "what only the detail read is kept")
	assert.Len(t, s.alerts, 2)
	assert.Equal(t, uint32(2), s.alerts[s.byID["a1"]].seen)
}
