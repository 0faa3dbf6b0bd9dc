package alerts

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

var start = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// paneEnv is the pane alone against apisim, with what it asked the root for.
type paneEnv struct {
	t      *testing.T
	p      *Pane
	clock  *apisim.ManualClock
	client *apiclient.Client
	mu     sync.Mutex
	writes []string
	msgs   []tea.Msg // toasts, forms, confirms, raw bells
}

func newPaneEnv(t *testing.T) *paneEnv {
	t.Helper()
	e := &paneEnv{t: t, clock: apisim.NewManualClock(start)}
	s, err := apisim.New(apisim.Options{Clock: e.clock})
	require.NoError(t, err)
	h := s.Handler()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Header.Get("Authorization") != "" && strings.Contains(r.URL.Path, "/v2/") {
			e.mu.Lock()
			e.writes = append(e.writes, r.Method+" "+r.URL.Path)
			e.mu.Unlock()
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { ts.Close(); _ = s.Close() })
	c, err := apiclient.New(apiclient.Options{BaseURL: ts.URL, Service: "atlas",
		Auth: apiclient.DigestAuth("org-owner", "org-owner-secret"), MaxRetries: -1, Gate: apiclient.NewGate(nil)})
	require.NoError(t, err)
	e.client = c
	ctx := views.Context{Client: c, Gate: c.Gate(), Theme: themes.Resolve("mono", true, true), Keys: keymap.Default(),
		Clock: e.clock.Now, GroupID: apisim.DemoPaymentsID, ProjectName: "payments", Poll: views.DefaultPoll}
	e.p = New(ctx).(*Pane)
	e.p.SetSize(120, 30)
	e.run(e.p.Init())
	return e
}

// run executes a Cmd as the program would (ticks are not waited for) and
// feeds the pane its own answers.
func (e *paneEnv) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-done:
	case <-time.After(300 * time.Millisecond):
		return
	}
	switch m := msg.(type) {
	case tea.BatchMsg:
		for _, c := range m {
			e.run(c)
		}
	case views.ResultMsg, views.PaneMsg:
		if pm, ok := m.(views.PaneMsg); ok {
			msg = pm.Msg
		}
		_, next := e.p.Update(msg)
		e.run(next)
	case views.TaskStartMsg, nil:
	default:
		if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().Elem() == reflect.TypeOf(tea.Cmd(nil)) {
			for i := 0; i < v.Len(); i++ { // a tea.Sequence
				e.run(v.Index(i).Interface().(tea.Cmd))
			}
			return
		}
		e.msgs = append(e.msgs, msg)
	}
}

func (e *paneEnv) send(msg tea.Msg) {
	_, cmd := e.p.Update(msg)
	e.run(cmd)
}

func (e *paneEnv) bells() int {
	n := 0
	for _, m := range e.msgs {
		if r, ok := m.(tea.RawMsg); ok && r.Msg == "\a" {
			n++
		}
	}
	return n
}

func (e *paneEnv) toasts() []string {
	var out []string
	for _, m := range e.msgs {
		if t, ok := m.(views.ToastMsg); ok {
			out = append(out, t.Text)
		}
	}
	return out
}

func TestBellRingsOnceForNewLoudOpenAlerts(t *testing.T) {
	e := newPaneEnv(t)
	require.True(t, e.p.loaded)
	require.Greater(t, len(e.p.alerts), 150, "every page, not the first 100")
	assert.Zero(t, e.bells(), "the first load is not news")

	ctx := context.Background()
	zero := 0
	for _, sev := range []apiclient.Severity{apiclient.SeverityCritical, apiclient.SeverityInfo} {
		_, err := e.client.AlertConfigs().Create(ctx, apisim.DemoPaymentsID, apiclient.AlertConfig{Enabled: true,
			EventTypeName: "FTDC_SETTINGS_UPDATED", SeverityOverride: sev, Matchers: []apiclient.Matcher{{FieldName: "CLUSTER_NAME", Operator: apiclient.MatchEquals, Value: map[apiclient.Severity]string{apiclient.SeverityCritical: "payments-rs", apiclient.SeverityInfo: "payments-prod"}[sev]}},
			Notifications: []apiclient.Notification{{TypeName: apiclient.NotifyEmail, EmailAddress: "a@example.com", DelayMin: &zero, IntervalMin: 60}}})
		require.NoError(t, err)
	}
	// An INFO alert opens: no bell.
	e.raiseIncident("payments-prod")
	e.send(views.RefreshMsg{})
	assert.Zero(t, e.bells(), "INFO does not ring")
	// Two CRITICAL ones: one bell, one toast naming them.
	e.raiseIncident("payments-rs")
	e.raiseIncident("payments-rs")
	e.send(views.RefreshMsg{})
	assert.Equal(t, 1, e.bells())
	assert.Contains(t, strings.Join(e.toasts(), "\n"), "new CRITICAL alert: FTDC_SETTINGS_UPDATED on payments-rs (and 1 more)")
	e.send(views.RefreshMsg{})
	assert.Equal(t, 1, e.bells(), "once per alert")
}

// raiseIncident raises an incident through the simulator's control API
// (as the demo service account, an Organization Owner).
func (e *paneEnv) raiseIncident(cluster string) {
	e.t.Helper()
	e.clock.Advance(time.Minute)
	base := e.client.BaseURL()
	treq, _ := http.NewRequest("POST", base+"/api/oauth/token", strings.NewReader("grant_type=client_credentials"))
	treq.SetBasicAuth("demo-sa", "demo-sa-secret")
	treq.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	tres, err := http.DefaultClient.Do(treq)
	require.NoError(e.t, err)
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	require.NoError(e.t, json.NewDecoder(tres.Body).Decode(&tok))
	tres.Body.Close()
	body := fmt.Sprintf(`{"groupId":%q,"eventTypeName":"FTDC_SETTINGS_UPDATED","clusterName":%q}`, apisim.DemoPaymentsID, cluster)
	req, _ := http.NewRequest("POST", base+"/api/atlas/sim/incidents", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	res, err := http.DefaultClient.Do(req)
	require.NoError(e.t, err)
	res.Body.Close()
	require.Equal(e.t, http.StatusCreated, res.StatusCode)
}

func TestConfigToggleDeleteAndFormCreate(t *testing.T) {
	e := newPaneEnv(t)
	e.send(views.ActionMsg{Name: actConfigs})
	require.Equal(t, modeConfigs, e.p.mode)
	first := e.p.cfgTable.SelectedID()
	was := e.p.configs[first].Enabled

	// t: only enabled changes, on the server too.
	e.send(views.ActionMsg{Name: actToggle})
	got, err := e.client.AlertConfigs().Get(context.Background(), apisim.DemoPaymentsID, first)
	require.NoError(t, err)
	assert.Equal(t, !was, got.Enabled)
	assert.Equal(t, []string{"PATCH /api/atlas/v2/groups/" + apisim.DemoPaymentsID + "/alertConfigs/" + first}, e.writes)

	// d asks first (default No lives in the root); nothing is sent before yes.
	e.send(views.ActionMsg{Name: actDelete})
	var confirm views.ConfirmMsg
	for _, m := range e.msgs {
		if c, ok := m.(views.ConfirmMsg); ok {
			confirm = c
		}
	}
	require.Equal(t, first, confirm.Action.Target)
	assert.Len(t, e.writes, 1)
	a := confirm.Action
	a.Confirmed = true
	e.send(a)
	_, err = e.client.AlertConfigs().Get(context.Background(), apisim.DemoPaymentsID, first)
	require.Error(t, err, "deleted")
	assert.NotContains(t, e.p.cfgOrder, first)

	// n: the form is validated before anything is sent.
	e.send(views.ActionMsg{Name: actNewConfig})
	var form views.FormMsg
	for _, m := range e.msgs {
		if f, ok := m.(views.FormMsg); ok {
			form = f
		}
	}
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
	before := len(e.writes)
	e.send(views.ActionMsg{Name: actNewConfig, Confirmed: true, Form: formConfig, Values: values})
	require.Len(t, e.writes, before+1)
	found := false
	for _, c := range e.p.configs {
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
	now := start
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

// BenchmarkAlertsFilter100k measures a filter keystroke with 100,000 alerts
// in the pane: the FilterMsg the root sends and the frame after it.
func BenchmarkAlertsFilter100k(b *testing.B) {
	ctx := views.Context{Theme: themes.Resolve("dark", false, true), Keys: keymap.Default(),
		Clock: func() time.Time { return start }, GroupID: apisim.DemoPaymentsID, Poll: views.DefaultPoll}
	p := New(ctx).(*Pane)
	p.SetSize(200, 50)
	events := []string{"HOST_DOWN", "OUTSIDE_METRIC_THRESHOLD", "NO_PRIMARY", "CPS_SNAPSHOT_FAILED", "REPLICATION_OPLOG_WINDOW_RUNNING_OUT"}
	statuses := []apiclient.AlertStatus{apiclient.AlertOpen, apiclient.AlertTracking, apiclient.AlertClosed}
	as := make([]apiclient.Alert, 100_000)
	for i := range as {
		as[i] = apiclient.Alert{ID: fmt.Sprintf("%024x", i), AlertConfigID: "cfg", Status: statuses[i%3], EventTypeName: events[i%5],
			ClusterName: fmt.Sprintf("cluster-%03d", i%400), HostnameAndPort: fmt.Sprintf("host-%05d.example.net:27017", i%9000),
			Created: start.Add(-time.Duration(i) * time.Minute)}
	}
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	p.setAlerts(snapshot{alerts: as})
	p.loaded = true
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
	if per := b.Elapsed() / time.Duration(b.N); b.N >= 10 && per > 16*time.Millisecond {
		b.Errorf("a filter keystroke took %v per frame, over the 16ms budget", per)
	}
}
