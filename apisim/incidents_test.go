package apisim

import (
	"context"
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

// hookSink is a loopback webhook receiver that keeps what it got.
type hookSink struct {
	mu    sync.Mutex
	posts []map[string]any
	sigOK []bool
	srv   *httptest.Server
}

func newHookSink(t *testing.T) *hookSink {
	h := &hookSink{}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		mac := hmac.New(sha1.New, []byte("s3cret-value"))
		mac.Write(b)
		ok := r.Method == "POST" && r.Header.Get("X-MMS-Signature") == base64.StdEncoding.EncodeToString(mac.Sum(nil))
		h.mu.Lock()
		h.posts, h.sigOK = append(h.posts, m), append(h.sigOK, ok)
		h.mu.Unlock()
	}))
	t.Cleanup(h.srv.Close)
	return h
}

// kinds returns the kinds of the posts that arrived, in order.
func (h *hookSink) kinds(t *testing.T) []string {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for i, p := range h.posts {
		out = append(out, p["kind"].(string))
		assert.True(t, h.sigOK[i], "post %d is a POST signed with the secret", i)
	}
	return out
}

func kindsAt(recs []NotificationRecord, start time.Time) []string {
	var out []string
	for _, r := range recs {
		out = append(out, r.TypeName+" "+r.Kind+" +"+r.Time.Sub(start).String())
	}
	return out
}

func TestNotificationTimingDelayIntervalAndAck(t *testing.T) {
	e := newAlertEnv(t)
	ctx := context.Background()
	sink := newHookSink(t)
	start := e.clock.Now()

	// Email after 5 minutes then every 10; the webhook at once then every 15.
	cfg := webhookConfig("FTDC_SETTINGS_UPDATED", sink.srv.URL+"/hook", 0, 15)
	five := 5
	cfg.Notifications = append(cfg.Notifications, apiclient.Notification{TypeName: apiclient.NotifyEmail, DelayMin: &five, IntervalMin: 10, EmailAddress: "dba@example.com"})
	_, err := e.c.AlertConfigs().Create(ctx, DemoPaymentsID, cfg)
	require.NoError(t, err)

	alerts, incident := e.raise(t, map[string]any{"groupId": DemoPaymentsID, "eventTypeName": "FTDC_SETTINGS_UPDATED", "clusterName": "payments-rs"})
	require.Len(t, alerts, 1)
	id := alerts[0]
	step := func(d time.Duration) []string {
		e.clock.Advance(d)
		return kindsAt(e.notifications(t, id), start)
	}
	assert.Equal(t, []string{"WEBHOOK open +0s"}, step(0), "delayMin 0: at once")
	assert.Equal(t, []string{"WEBHOOK open +0s"}, step(4*time.Minute+59*time.Second), "the email waits its delay")
	assert.Equal(t, []string{"WEBHOOK open +0s", "EMAIL open +5m0s"}, step(time.Second))
	got := step(11 * time.Minute) // at +16m
	assert.Equal(t, []string{"WEBHOOK open +0s", "EMAIL open +5m0s", "WEBHOOK repeat +15m0s", "EMAIL repeat +15m0s"}, got)
	a, err := e.c.Alerts().Get(ctx, DemoPaymentsID, id)
	require.NoError(t, err)
	require.NotNil(t, a.LastNotified)
	assert.True(t, a.LastNotified.Equal(start.Add(15*time.Minute)))

	// Acknowledged until +76m: nothing while it holds.
	until := start.Add(76 * time.Minute)
	_, err = e.c.Alerts().Acknowledge(ctx, DemoPaymentsID, id, apiclient.AcknowledgeRequest{AcknowledgedUntil: &until, AcknowledgementComment: "on it"})
	require.NoError(t, err)
	assert.Len(t, step(59*time.Minute), 4, "acknowledging stops successive notifications") // +75m
	// When the acknowledgement runs out, the targets hear again.
	assert.Equal(t, []string{"WEBHOOK repeat +1h16m0s", "EMAIL repeat +1h16m0s"}, step(time.Minute)[4:])

	// Acknowledge again, then unacknowledge: notifications resume on the interval.
	until = start.Add(10 * time.Hour)
	_, err = e.c.Alerts().Acknowledge(ctx, DemoPaymentsID, id, apiclient.AcknowledgeRequest{AcknowledgedUntil: &until})
	require.NoError(t, err)
	assert.Len(t, step(30*time.Minute), 6) // +1h46m
	_, err = e.c.Alerts().Acknowledge(ctx, DemoPaymentsID, id, apiclient.AcknowledgeRequest{UnacknowledgeAlert: true})
	require.NoError(t, err)
	assert.Equal(t, []string{"EMAIL repeat +1h56m0s"}, step(10 * time.Minute)[6:])

	// The incident resolves: the alert closes with resolved set, the targets
	// are told, and nothing follows.
	out := e.control(t, "POST", "/incidents/"+incident+"/resolve", nil, http.StatusOK)
	closed := out["alerts"].([]any)[0].(map[string]any)
	assert.Equal(t, "CLOSED", closed["status"])
	assert.NotEmpty(t, closed["resolved"])
	recs := step(0)
	assert.Equal(t, []string{"WEBHOOK resolved +1h56m0s", "EMAIL resolved +1h56m0s"}, recs[7:])
	assert.Len(t, step(3*time.Hour), 9)
	a, err = e.c.Alerts().Get(ctx, DemoPaymentsID, id)
	require.NoError(t, err)
	assert.Equal(t, apiclient.AlertClosed, a.Status)
	require.NotNil(t, a.Resolved)

	// Every webhook record was really POSTed, signed, in order (the
	// simulator sends them one after the other from one queue, so a later
	// batch cannot overtake an earlier one), and its outcome recorded.
	e.srv.waitWebhooks()
	assert.Equal(t, []string{"open", "repeat", "repeat", "resolved"}, sink.kinds(t))
	for _, r := range e.notifications(t, id) {
		if r.TypeName == "WEBHOOK" {
			assert.Equal(t, "posted: HTTP 200", r.Delivery)
			assert.NotContains(t, r.Target, sink.srv.URL, "the target is masked")
		}
	}
}

func TestWebhooksOnlyGoToLoopback(t *testing.T) {
	e := newAlertEnv(t)
	cfg := webhookConfig("STEP_SKIPPED", "http://192.0.2.10/hook", 0, 60)
	_, err := e.c.AlertConfigs().Create(context.Background(), DemoPaymentsID, cfg)
	require.NoError(t, err)
	alerts, _ := e.raise(t, map[string]any{"groupId": DemoPaymentsID, "eventTypeName": "STEP_SKIPPED", "clusterName": "payments-rs"})
	recs := e.notifications(t, alerts[0])
	require.Len(t, recs, 1)
	assert.Contains(t, recs[0].Delivery, "loopback")
}

func TestIncidentsFireOnTheClockAndResolve(t *testing.T) {
	run := func() ([]*Incident, int, int) {
		e := newEnv(t, Options{})
		d := e.digest("org-owner", "MD5")
		get := func() map[string][]*Incident {
			d.challenge(t)
			st, b := d.get(t, "/api/atlas/sim/incidents")
			require.Equal(t, 200, st, string(b))
			var out map[string][]*Incident
			require.NoError(t, json.Unmarshal(b, &out))
			return out
		}
		get() // the engine starts now
		e.clock.Advance(6 * time.Hour)
		inc := get()["incidents"]
		opened, closed := 0, 0
		e.srv.mu.Lock()
		for _, in := range inc {
			for _, id := range in.AlertIDs {
				a := find(e.srv.world.Alerts, func(x *Alert) bool { return x.ID == id })
				opened++
				if a.Status == "CLOSED" {
					closed++
					assert.Equal(t, in.Resolved, a.Resolved)
				}
			}
		}
		e.srv.mu.Unlock()
		return inc, opened, closed
	}
	inc, opened, closed := run()
	assert.GreaterOrEqual(t, len(inc), 14, "one every 8 to 25 minutes")
	assert.LessOrEqual(t, len(inc), 45)
	assert.Positive(t, opened, "some match the seeded configurations")
	assert.Positive(t, closed, "some have cleared")
	families := map[string]bool{}
	for _, in := range inc {
		families[in.Family] = true
		assert.NotEmpty(t, in.Family)
	}
	assert.Greater(t, len(families), 2)
	again, _, _ := run()
	require.Equal(t, len(inc), len(again), "the schedule is a function of the seed")
	for i := range inc {
		assert.Equal(t, inc[i].EventTypeName, again[i].EventTypeName)
		assert.Equal(t, inc[i].Started, again[i].Started)
	}
}

// alertable are the event types the seeded configurations watch, each in
// one of the service's alertable enums.
var alertable = map[string]bool{"HOST_DOWN": true, "OUTSIDE_METRIC_THRESHOLD": true, "REPLICATION_OPLOG_WINDOW_RUNNING_OUT": true,
	"NO_PRIMARY": true, "CPS_SNAPSHOT_FAILED": true, "CLUSTER_MONGOS_IS_MISSING": true, "DEPLOYMENT_FAILURE": true,
	"CLUSTER_BLOCK_WRITE": true, "HOST_NOT_ENOUGH_DISK_SPACE": true, "CREDIT_CARD_ABOUT_TO_EXPIRE": true}

// The demo world raises alerts only for event types the service alerts on;
// the spec's other events happen as incidents no configuration watches.
func TestDemoWorldAlertsOnlyOnAlertableEventTypes(t *testing.T) {
	e := newEnv(t, Options{})
	d := e.digest("org-owner", "MD5")
	d.challenge(t)
	st, b := d.get(t, "/api/atlas/sim/incidents") // the engine starts now
	require.Equal(t, 200, st, string(b))
	e.clock.Advance(48 * time.Hour)
	d.challenge(t)
	st, b = d.get(t, "/api/atlas/sim/incidents")
	require.Equal(t, 200, st, string(b))
	var out map[string][]*Incident
	require.NoError(t, json.Unmarshal(b, &out))
	unwatched := 0
	for _, in := range out["incidents"] {
		if !alertable[in.EventTypeName] {
			unwatched++
			assert.Empty(t, in.AlertIDs, "%s opened an alert", in.EventTypeName)
		}
	}
	assert.Positive(t, unwatched, "the other event families still happen")

	e.srv.mu.Lock()
	defer e.srv.mu.Unlock()
	for _, ac := range e.srv.world.AlertConfigs {
		assert.True(t, alertable[ac.EventTypeName], "configuration for %s", ac.EventTypeName)
	}
	raised := 0
	for _, a := range e.srv.world.Alerts {
		assert.True(t, alertable[a.EventTypeName], "alert %s for %s", a.ID, a.EventTypeName)
		if a.CurrentValue != nil {
			assert.Contains(t, alertUnits, a.CurrentValue.Units, "alert %s reads in the unit enum", a.ID)
		}
		if !a.Created.Before(testStart) {
			raised++
		}
	}
	assert.Positive(t, raised, "the engine raised alerts")
}

func TestControlIncidentValidation(t *testing.T) {
	e := newAlertEnv(t)
	st, h, b := e.ctrl.do(t, rawReq{method: "POST", path: "/api/atlas/sim/incidents", ctype: "application/json",
		body: mustJSON(map[string]any{"groupId": DemoPaymentsID, "eventTypeName": "HOST_DOWN", "attributes": map[string]string{"NOPE": "x"}})})
	wantError(t, st, h, b, 400, "VALIDATION_ERROR")
	st, h, b = e.ctrl.do(t, rawReq{method: "POST", path: "/api/atlas/sim/incidents/0123456789abcdef01234567/resolve"})
	wantError(t, st, h, b, 404, "INCIDENT_NOT_FOUND")
	ro := e.digest("read-only", "MD5")
	st, h, b = ro.do(t, rawReq{method: "GET", path: "/api/atlas/sim/notifications"})
	wantError(t, st, h, b, 403, "USER_UNAUTHORIZED")
}
