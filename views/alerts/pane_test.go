package alerts

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// paneEnv is the pane's test environment, opened but not shown, with no
// organization known (as before the root has read the project).
type paneEnv struct{ *viewstest.Env[*Pane] }

func newPaneEnv(t *testing.T) *paneEnv {
	t.Helper()
	return &paneEnv{viewstest.Open[*Pane](t, Registration, viewstest.Setup{Gate: viewstest.GateUnknownRoles, Hidden: true,
		Context: func(c *views.Context) { c.OrgID, c.OrgName = "", "" }})}
}

func TestBellRingsOnceForNewLoudOpenAlerts(t *testing.T) {
	e := newPaneEnv(t)
	require.True(t, e.P.loaded)
	require.Greater(t, len(e.P.alerts), 150, "every page, not the first 100")
	assert.Zero(t, e.Bells(), "the first load is not news")

	ctx := context.Background()
	zero := 0
	for _, sev := range []apiclient.Severity{apiclient.SeverityCritical, apiclient.SeverityInfo} {
		_, err := e.Sim.Client.AlertConfigs().Create(ctx, apisim.DemoPaymentsID, apiclient.AlertConfig{Enabled: true,
			EventTypeName: "FTDC_SETTINGS_UPDATED", SeverityOverride: sev, Matchers: []apiclient.Matcher{{FieldName: "CLUSTER_NAME", Operator: apiclient.MatchEquals, Value: map[apiclient.Severity]string{apiclient.SeverityCritical: "payments-rs", apiclient.SeverityInfo: "payments-prod"}[sev]}},
			Notifications: []apiclient.Notification{{TypeName: apiclient.NotifyEmail, EmailAddress: "a@example.com", DelayMin: &zero, IntervalMin: 60}}})
		require.NoError(t, err)
	}
	// An INFO alert opens: no bell.
	e.raiseIncident("payments-prod")
	e.Send(views.RefreshMsg{})
	assert.Zero(t, e.Bells(), "INFO does not ring")
	// Two CRITICAL ones: one bell, one toast naming them.
	e.raiseIncident("payments-rs")
	e.raiseIncident("payments-rs")
	e.Send(views.RefreshMsg{})
	assert.Equal(t, 1, e.Bells())
	assert.Contains(t, strings.Join(e.ToastTexts(), "\n"), "new CRITICAL alert: FTDC_SETTINGS_UPDATED on payments-rs (and 1 more)")
	e.Send(views.RefreshMsg{})
	assert.Equal(t, 1, e.Bells(), "once per alert")
}

// raiseIncident raises an incident through the simulator's control API.
func (e *paneEnv) raiseIncident(cluster string) {
	e.T.Helper()
	e.Sim.Clock.Advance(time.Minute)
	e.Sim.Control("POST", "/incidents", fmt.Sprintf(`{"groupId":%q,"eventTypeName":"FTDC_SETTINGS_UPDATED","clusterName":%q}`, apisim.DemoPaymentsID, cluster))
}

func TestConfigToggleDeleteAndFormCreate(t *testing.T) {
	e := newPaneEnv(t)
	e.Send(views.ActionMsg{Name: actConfigs})
	require.Equal(t, modeConfigs, e.P.mode)
	first := e.P.cfgTable.SelectedID()
	was := e.P.configs[first].Enabled

	// t: only enabled changes, on the server too.
	e.Send(views.ActionMsg{Name: actToggle})
	got, err := e.Sim.Client.AlertConfigs().Get(context.Background(), apisim.DemoPaymentsID, first)
	require.NoError(t, err)
	assert.Equal(t, !was, got.Enabled)
	assert.Equal(t, []string{"PATCH /api/atlas/v2/groups/" + apisim.DemoPaymentsID + "/alertConfigs/" + first}, e.Sim.Writes())

	// d asks first (default No lives in the root); nothing is sent before yes.
	e.Send(views.ActionMsg{Name: actDelete})
	confirm := e.LastConfirm()
	require.Equal(t, first, confirm.Action.Target)
	assert.Len(t, e.Sim.Writes(), 1)
	a := confirm.Action
	a.Confirmed = true
	e.Send(a)
	_, err = e.Sim.Client.AlertConfigs().Get(context.Background(), apisim.DemoPaymentsID, first)
	require.Error(t, err, "deleted")
	assert.NotContains(t, e.P.cfgOrder, first)

	// n: the form is validated before anything is sent.
	e.Send(views.ActionMsg{Name: actNewConfig})
	require.NotEmpty(t, e.Forms)
	form := e.Forms[len(e.Forms)-1]
	require.Equal(t, formConfig, form.ID)
	values := map[string]string{"event": "HOST_DOWN", "enabled": "true", "severity": "CRITICAL",
		"matchers": "CLUSTER_NAME STARTS_WITH payments; TYPE_NAME EQUALS PRIMARY", "kind": "WEBHOOK",
		"target": "http://127.0.0.1:9/hook", "secret": "", "delay": "0", "interval": "5"}
	for _, f := range form.Fields {
		if f.Validate != nil {
			require.NoError(t, f.Validate(values[f.Key], values), f.Key)
		}
	}
	bad := map[string]string{"matchers": "CLUSTER_NAME LIKES x", "event": "", "interval": "2", "target": ""}
	for _, f := range form.Fields {
		if v, ok := bad[f.Key]; ok {
			assert.Error(t, f.Validate(v, values), f.Key)
		}
	}
	before := len(e.Sim.Writes())
	e.Send(views.ActionMsg{Name: actNewConfig, Confirmed: true, Form: formConfig, Values: values})
	require.Len(t, e.Sim.Writes(), before+1)
	found := false
	for _, c := range e.P.configs {
		if c.EventTypeName == "HOST_DOWN" && c.SeverityOverride == apiclient.SeverityCritical && len(c.Matchers) == 2 {
			found = true
			assert.Equal(t, apiclient.NotifyWebhook, c.Notifications[0].TypeName)
			assert.NotContains(t, c.Notifications[0].WebhookURL, "127.0.0.1", "shown masked")
		}
	}
	assert.True(t, found, "the new configuration is listed")
}

func TestJSONConfigIsCheckedBeforeSending(t *testing.T) {
	_, err := parseConfigJSON(`{"eventTypeName": "HOST_DOWN"}`)
	assert.ErrorContains(t, err, "notifications")
	_, err = parseConfigJSON(`{"notifications": [{"typeName": "EMAIL", "emailAddress": "a@b.c"}]}`)
	assert.ErrorContains(t, err, "eventTypeName")
	_, err = parseConfigJSON(`{"eventTypeName": "HOST_DOWN", "notifications": [{"typeName": "DATADOG", "datadogApiKey": "****************1234"}]}`)
	assert.ErrorContains(t, err, "masked")
	_, err = parseConfigJSON(`{"eventTypeName": "HOST_DOWN", "matchers": [{"fieldName": "CLUSTER_NAME", "operator": "REGEX", "value": "("}], "notifications": [{"typeName": "EMAIL", "emailAddress": "a@b.c"}]}`)
	assert.ErrorContains(t, err, "regular expression")
	c, err := parseConfigJSON(configTemplate)
	require.NoError(t, err)
	assert.Equal(t, "HOST_DOWN", c.EventTypeName)
}

func TestParseUntil(t *testing.T) {
	now := viewstest.Start
	for choice, want := range map[string]time.Time{until1h: now.Add(time.Hour), until4h: now.Add(4 * time.Hour), until24h: now.Add(24 * time.Hour)} {
		got, err := parseUntil(choice, "", now)
		require.NoError(t, err)
		assert.True(t, got.Equal(want), choice)
	}
	got, err := parseUntil(untilForever, "", now)
	require.NoError(t, err)
	assert.Equal(t, 2125, got.Year())
	got, err = parseUntil(untilCustom, "2025-06-02 08:30", now)
	require.NoError(t, err)
	assert.True(t, got.Equal(time.Date(2025, 6, 2, 8, 30, 0, 0, time.UTC)))
	_, err = parseUntil(untilCustom, "2025-06-02T08:30:00+02:00", now)
	require.NoError(t, err)
	for _, bad := range []string{"", "  ", "tomorrow", "2025-06-01 11:59"} {
		_, err := parseUntil(untilCustom, bad, now)
		assert.Error(t, err, bad)
	}
}

// synthAlerts is n alerts, a third of them in each status, over 400
// clusters and 9,000 hosts, a minute apart.
func synthAlerts(n int) []apiclient.Alert {
	events := []string{"HOST_DOWN", "OUTSIDE_METRIC_THRESHOLD", "NO_PRIMARY", "CPS_SNAPSHOT_FAILED", "REPLICATION_OPLOG_WINDOW_RUNNING_OUT"}
	statuses := []apiclient.AlertStatus{apiclient.AlertOpen, apiclient.AlertTracking, apiclient.AlertClosed}
	as := make([]apiclient.Alert, n)
	for i := range as {
		as[i] = apiclient.Alert{ID: fmt.Sprintf("%024x", i), AlertConfigID: "cfg", Status: statuses[i%3], EventTypeName: events[i%5],
			ClusterName: fmt.Sprintf("cluster-%03d", i%400), HostnameAndPort: fmt.Sprintf("host-%05d.example.net:27017", i%9000),
			Created: viewstest.Start.Add(-time.Duration(i) * time.Minute)}
	}
	return as
}

// BenchmarkAlertsFilter100k measures a filter keystroke with 100,000 alerts
// in the pane: the FilterMsg the root sends and the pane's frame after it.
// ms-first-keystroke is the first one, which makes the filter's lowercase
// text (it is not held while no filter is set). It leaves out the root:
// the filter bar, the header and footer and their stacking (a whole frame
// is BenchmarkFrame100k in ui), and Bubble Tea's renderer.
func BenchmarkAlertsFilter100k(b *testing.B) {
	ctx := views.Context{Theme: themes.Resolve("dark", false, true), Keys: views.Registry{Registration}.Keymap(),
		Clock: func() time.Time { return viewstest.Start }, GroupID: apisim.DemoPaymentsID, Poll: views.DefaultPoll}
	p := New(ctx).(*Pane)
	p.SetSize(200, 50)
	// The heap before the input is made: the alerts the test builds are
	// dropped once the pane holds them, so the difference is what it retains.
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	as := synthAlerts(100_000)
	fill(p, as)
	as = nil
	_ = p.View()
	runtime.GC()
	runtime.ReadMemStats(&m1)
	heapMB := float64(m1.HeapAlloc-m0.HeapAlloc) / (1 << 20)
	// The first keystroke after a refresh, when caches are fresh.
	t0 := time.Now()
	p.Update(views.FilterMsg{Text: "host-00"})
	_ = p.View()
	firstMS := float64(time.Since(t0).Microseconds()) / 1000
	p.Update(views.FilterMsg{Text: ""})
	filters := []string{"c", "cl", "clu", "clus", "cluster-1", "cluster-12", "cluster-123", "host-0042", "!closed", "NO_PRIMARY"}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p.Update(views.FilterMsg{Text: filters[i%len(filters)]})
		if p.View() == "" {
			b.Fatal("empty frame")
		}
	}
	b.StopTimer()
	// ResetTimer drops reported metrics, so they are reported here.
	b.ReportMetric(heapMB, "MB-heap-100k")
	b.ReportMetric(firstMS, "ms-first-keystroke")
}

// The pane's View is exactly its box (it says so with ExactView and the
// root takes it as it is): every line as wide as the pane, as many lines
// as it is tall, the same as lipgloss makes of its content, in the list
// (cursor moved, marked, filtered, sorted, no match), the detail, the
// configurations and while loading, wide and narrow.
func TestViewIsExactlyTheBox(t *testing.T) {
	e := newPaneEnv(t)
	p := e.P
	check := func(what string) {
		t.Helper()
		v := p.View()
		lines := strings.Split(v, "\n")
		require.Len(t, lines, p.H, "%s: lines", what)
		for i, l := range lines {
			require.Equal(t, p.W, ansi.StringWidth(l), "%s: line %d %q", what, i, ansi.Strip(l))
		}
		require.Equal(t, v, p.View(), "%s: the same frame again", what)
	}
	for _, size := range [][2]int{{200, 50}, {120, 40}, {80, 24}, {60, 12}} {
		p.SetSize(size[0], size[1])
		check(fmt.Sprintf("list %dx%d", size[0], size[1]))
		e.Press("j", "j")
		check("cursor moved")
		e.Press("space")
		check("marked")
		e.Send(views.FilterMsg{Text: "payments"})
		check("filtered")
		e.Send(views.FilterMsg{Text: "no such alert anywhere"})
		check("no match")
		e.Send(views.FilterMsg{Text: ""})
		e.Action(actDetail)
		require.Equal(t, modeDetail, p.mode)
		check("detail")
		e.Press("esc")
		e.Action(actConfigs)
		require.Equal(t, modeConfigs, p.mode)
		check("configurations")
		e.Press("esc")
		require.Equal(t, modeList, p.mode)
	}
	p.table.SetRows(nil)
	check("no rows")
	p.loaded = false
	check("loading")
}

// With nothing loaded the pane says why, as every pane does
// (views.Prologue): no project, loading, or the first load's error.
func TestNothingLoadedSaysWhy(t *testing.T) {
	e := newPaneEnv(t)
	e.P.SetSize(80, 10)
	e.P.loaded = false
	assert.Contains(t, e.Screen(), "loading alerts…")
	e.P.err = errors.New("boom")
	assert.Contains(t, e.Screen(), "alerts: boom (r retries)")
	e.P.Ctx.GroupID = ""
	assert.Contains(t, e.Screen(), "no project selected (press @ or :project)")
}
