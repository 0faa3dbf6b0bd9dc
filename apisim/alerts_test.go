package apisim

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

// alertEnv is a simulator on a manual clock, driven through the shared
// client as the dashboard drives it, with the clock's own incidents off so
// only what a test raises happens.
type alertEnv struct {
	*testEnv
	c    *apiclient.Client // project-owner
	ctrl *digestClient     // org-owner, for the control API
}

func newAlertEnv(t *testing.T) *alertEnv {
	t.Helper()
	e := newEnv(t, Options{})
	c, err := apiclient.New(apiclient.Options{BaseURL: e.ts.URL, Service: "atlas",
		Auth: apiclient.DigestAuth("project-owner", "project-owner-secret"), MaxRetries: -1})
	require.NoError(t, err)
	ae := &alertEnv{testEnv: e, c: c, ctrl: e.digest("org-owner", "MD5")}
	ae.control(t, "PUT", "/incidents/schedule", map[string]any{"enabled": false}, http.StatusOK)
	return ae
}

// control calls the control API and decodes its answer.
func (e *alertEnv) control(t *testing.T, method, path string, body any, want int) map[string]any {
	t.Helper()
	r := rawReq{method: method, path: "/api/atlas/sim" + path, ctype: "application/json"}
	if body != nil {
		r.body = mustJSON(body)
	}
	e.ctrl.challenge(t) // the clock may have moved past the nonce's life
	st, _, b := e.ctrl.do(t, r)
	require.Equal(t, want, st, "%s %s: %s", method, path, b)
	var out map[string]any
	require.NoError(t, json.Unmarshal(b, &out))
	return out
}

// notifications reads the notification log of one alert.
func (e *alertEnv) notifications(t *testing.T, alertID string) []NotificationRecord {
	t.Helper()
	e.ctrl.challenge(t)
	st, _, b := e.ctrl.do(t, rawReq{method: "GET", path: "/api/atlas/sim/notifications?alertId=" + alertID})
	require.Equal(t, 200, st, string(b))
	var out struct{ Notifications []NotificationRecord }
	require.NoError(t, json.Unmarshal(b, &out))
	return out.Notifications
}

// raise raises an incident through the control API and returns the ids of
// the alerts it opened and the incident's id.
func (e *alertEnv) raise(t *testing.T, body map[string]any) (alerts []string, incident string) {
	t.Helper()
	out := e.control(t, "POST", "/incidents", body, http.StatusCreated)
	for _, a := range out["alerts"].([]any) {
		alerts = append(alerts, a.(map[string]any)["id"].(string))
	}
	return alerts, out["incident"].(map[string]any)["id"].(string)
}

func alertAPIErr(t *testing.T, err error) *apiclient.Error {
	t.Helper()
	var ae *apiclient.Error
	require.True(t, errors.As(err, &ae), "want an API error, got %v", err)
	return ae
}

func firstOpenUnacked(t *testing.T, c *apiclient.Client, now time.Time) apiclient.Alert {
	t.Helper()
	all, err := c.Alerts().ListAll(context.Background(), DemoPaymentsID, apiclient.AlertOpen)
	require.NoError(t, err)
	for _, a := range all {
		if !a.Acknowledged(now) {
			return a
		}
	}
	t.Fatal("no open unacknowledged alert")
	return apiclient.Alert{}
}

func TestSeededAlertsSpanPagesSoTheFirstPageHidesOpenOnes(t *testing.T) {
	e := newAlertEnv(t)
	ctx := context.Background()
	page, err := e.c.Alerts().List(ctx, DemoPaymentsID, apiclient.AlertListOptions{})
	require.NoError(t, err)
	assert.Len(t, page.Results, 100)
	assert.GreaterOrEqual(t, page.TotalCount, 150)
	all, err := e.c.Alerts().ListAll(ctx, DemoPaymentsID, "")
	require.NoError(t, err)
	require.Len(t, all, page.TotalCount)
	statuses := map[apiclient.AlertStatus]int{}
	openAfterFirstPage := 0
	for i, a := range all {
		statuses[a.Status]++
		if i >= 100 && a.Status == apiclient.AlertOpen {
			openAfterFirstPage++
		}
	}
	assert.Positive(t, statuses[apiclient.AlertOpen])
	assert.Positive(t, statuses[apiclient.AlertTracking])
	assert.Positive(t, statuses[apiclient.AlertClosed])
	assert.Positive(t, openAfterFirstPage, "open alerts sit beyond the first page")
}

func TestAcknowledgeAndUnacknowledgeTransitions(t *testing.T) {
	e := newAlertEnv(t)
	ctx := context.Background()
	now := e.clock.Now()
	a := firstOpenUnacked(t, e.c, now)

	until := now.Add(time.Hour)
	got, err := e.c.Alerts().Acknowledge(ctx, DemoPaymentsID, a.ID, apiclient.AcknowledgeRequest{AcknowledgedUntil: &until, AcknowledgementComment: "disk full on shard 2"})
	require.NoError(t, err)
	require.NotNil(t, got.AcknowledgedUntil)
	assert.True(t, got.AcknowledgedUntil.Equal(until))
	assert.Equal(t, "disk full on shard 2", got.AcknowledgementComment)
	assert.Equal(t, "project-owner@demo.example", got.AcknowledgingUsername, "the key project-owner stands for a user with an email")
	read, err := e.c.Alerts().Get(ctx, DemoPaymentsID, a.ID)
	require.NoError(t, err)
	assert.True(t, read.Acknowledged(now), "stored, not only echoed")

	// unacknowledgeAlert overrides an acknowledgedUntil sent with it.
	later := now.Add(4 * time.Hour)
	got, err = e.c.Alerts().Acknowledge(ctx, DemoPaymentsID, a.ID, apiclient.AcknowledgeRequest{AcknowledgedUntil: &later, UnacknowledgeAlert: true, AcknowledgementComment: "false alarm"})
	require.NoError(t, err)
	assert.Nil(t, got.AcknowledgedUntil)
	assert.Empty(t, got.AcknowledgingUsername)
	assert.Equal(t, "false alarm", got.AcknowledgementComment, "the unacknowledgement's comment is kept")

	// Forever is 100 years ahead.
	got, err = e.c.Alerts().Acknowledge(ctx, DemoPaymentsID, a.ID, apiclient.AcknowledgeRequest{AcknowledgedUntil: apiclient.AckForever(now)})
	require.NoError(t, err)
	assert.Equal(t, now.Year()+100, got.AcknowledgedUntil.Year())
}

func TestAcknowledgeLimits(t *testing.T) {
	e := newAlertEnv(t)
	now := e.clock.Now()
	a := firstOpenUnacked(t, e.c, now)
	path := "/api/atlas/v2/groups/" + DemoPaymentsID + "/alerts/" + a.ID
	owner := e.digest("project-owner", "MD5")
	until := now.Add(time.Hour).Format(time.RFC3339)

	// 201 characters: 400 naming the field (sent raw: the client refuses it
	// before sending).
	st, h, b := owner.do(t, rawReq{method: "PATCH", path: path, body: mustJSON(map[string]any{
		"acknowledgedUntil": until, "acknowledgementComment": strings.Repeat("é", 201)})})
	eb := wantError(t, st, h, b, 400, "VALIDATION_ERROR")
	assert.Contains(t, eb.Detail, "acknowledgementComment")
	// 200 (multi-byte) characters are fine.
	st, _, b = owner.do(t, rawReq{method: "PATCH", path: path, body: mustJSON(map[string]any{
		"acknowledgedUntil": until, "acknowledgementComment": strings.Repeat("é", 200)})})
	assert.Equal(t, 200, st, string(b))

	_, err := e.c.Alerts().Acknowledge(context.Background(), DemoPaymentsID, a.ID, apiclient.AcknowledgeRequest{AcknowledgementComment: strings.Repeat("x", 201)})
	require.Error(t, err, "the client refuses a long comment locally")

	past := now.Add(-time.Minute)
	_, err = e.c.Alerts().Acknowledge(context.Background(), DemoPaymentsID, a.ID, apiclient.AcknowledgeRequest{AcknowledgedUntil: &past})
	ae := alertAPIErr(t, err)
	assert.Equal(t, 400, ae.Status)
	assert.Contains(t, ae.Detail, "acknowledgedUntil")

	// A closed alert cannot be acknowledged.
	all, err := e.c.Alerts().ListAll(context.Background(), DemoPaymentsID, apiclient.AlertClosed)
	require.NoError(t, err)
	fut := now.Add(time.Hour)
	_, err = e.c.Alerts().Acknowledge(context.Background(), DemoPaymentsID, all[0].ID, apiclient.AcknowledgeRequest{AcknowledgedUntil: &fut})
	assert.Equal(t, "CANNOT_ACKNOWLEDGE_CLOSED_ALERT", alertAPIErr(t, err).ErrorCode)

	// read-only may read but not acknowledge.
	ro := e.digest("read-only", "MD5")
	st, h, b = ro.do(t, rawReq{method: "PATCH", path: path, body: mustJSON(map[string]any{"acknowledgedUntil": until})})
	wantError(t, st, h, b, 403, "USER_UNAUTHORIZED")
}

func webhookConfig(event, url string, delay, interval int, matchers ...Matcher) apiclient.AlertConfig {
	d := delay
	cfg := apiclient.AlertConfig{Enabled: true, EventTypeName: event,
		Notifications: []apiclient.Notification{{TypeName: apiclient.NotifyWebhook, DelayMin: &d, IntervalMin: interval, WebhookURL: url, WebhookSecret: "s3cret-value"}}}
	for _, m := range matchers {
		cfg.Matchers = append(cfg.Matchers, apiclient.Matcher{FieldName: m.FieldName, Operator: apiclient.MatcherOperator(m.Operator), Value: m.Value})
	}
	return cfg
}

func TestAlertConfigCRUDToggleAndMasking(t *testing.T) {
	e := newAlertEnv(t)
	ctx := context.Background()
	cs := e.c.AlertConfigs()
	names, err := cs.MatcherFieldNames(ctx)
	require.NoError(t, err)
	assert.Contains(t, names, "CLUSTER_NAME")
	assert.Contains(t, names, "TYPE_NAME")

	zero := 0
	cfg := apiclient.AlertConfig{EventTypeName: "HOST_DOWN", SeverityOverride: apiclient.SeverityCritical,
		Matchers: []apiclient.Matcher{{FieldName: "CLUSTER_NAME", Operator: apiclient.MatchEquals, Value: "payments-rs"}},
		Notifications: []apiclient.Notification{{TypeName: apiclient.NotifyDatadog, DelayMin: &zero, IntervalMin: 60,
			DatadogAPIKey: "0123456789abcdef0123456789abcdef", DatadogRegion: "US"}}}
	created, err := cs.Create(ctx, DemoPaymentsID, cfg)
	require.NoError(t, err)
	assert.False(t, created.Enabled, "enabled defaults to false")
	assert.Equal(t, strings.Repeat("*", 28)+"cdef", created.Notifications[0].DatadogAPIKey, "all but the last four masked")

	toggled, err := cs.Toggle(ctx, DemoPaymentsID, created.ID, true)
	require.NoError(t, err)
	assert.True(t, toggled.Enabled)
	toggled.Enabled, created.Enabled = false, false
	toggled.Updated, created.Updated = nil, nil
	assert.Equal(t, created, toggled, "toggle changes only enabled (and updated)")

	cfg.EventTypeName = "NO_PRIMARY"
	cfg.Enabled = true
	updated, err := cs.Update(ctx, DemoPaymentsID, created.ID, cfg)
	require.NoError(t, err)
	assert.Equal(t, "NO_PRIMARY", updated.EventTypeName)

	// Validation names the field.
	bad := cfg
	bad.Matchers = []apiclient.Matcher{{FieldName: "CLUSTER_NAME", Operator: apiclient.MatchRegex, Value: "payments-("}}
	_, err = cs.Update(ctx, DemoPaymentsID, created.ID, bad)
	assert.Contains(t, alertAPIErr(t, err).Detail, "matchers[0].value")
	bad.Matchers = []apiclient.Matcher{{FieldName: "NOPE", Operator: apiclient.MatchEquals, Value: "x"}}
	_, err = cs.Update(ctx, DemoPaymentsID, created.ID, bad)
	assert.Contains(t, alertAPIErr(t, err).Detail, "matchers[0].fieldName")
	var out any
	_, err = e.c.Do(ctx, "createAlertConfiguration", apiclient.Request{Params: map[string]string{"groupId": DemoPaymentsID},
		Body: map[string]any{"eventTypeName": "HOST_DOWN"}}, &out)
	assert.Contains(t, alertAPIErr(t, err).Detail, "notifications")

	require.NoError(t, cs.Delete(ctx, DemoPaymentsID, created.ID))
	_, err = cs.Get(ctx, DemoPaymentsID, created.ID)
	assert.Equal(t, 404, alertAPIErr(t, err).Status)
}

func TestMatcherOperators(t *testing.T) {
	cases := []struct {
		op, got, want string
		match         bool
	}{
		{"EQUALS", "payments-rs", "payments-rs", true},
		{"EQUALS", "payments-rs", "Payments-rs", false},
		{"NOT_EQUALS", "payments-rs", "payments-prod", true},
		{"NOT_EQUALS", "payments-rs", "payments-rs", false},
		{"CONTAINS", "payments-rs", "ment", true},
		{"CONTAINS", "payments-rs", "prod", false},
		{"NOT_CONTAINS", "payments-rs", "prod", true},
		{"NOT_CONTAINS", "payments-rs", "rs", false},
		{"STARTS_WITH", "payments-rs", "pay", true},
		{"STARTS_WITH", "payments-rs", "rs", false},
		{"ENDS_WITH", "payments-rs", "-rs", true},
		{"ENDS_WITH", "payments-rs", "pay", false},
		{"REGEX", "payments-rs", "pay.*-r[s]", true},
		{"REGEX", "payments-rs", "ments", false}, // the whole value must match
		{"REGEX", "payments-rs", "(", false},     // an invalid pattern never matches
		{"BOGUS", "payments-rs", "payments-rs", false},
	}
	for _, c := range cases {
		assert.Equal(t, c.match, matchOne(c.op, c.got, c.want), "%s %q %q", c.op, c.got, c.want)
	}
	attrs := map[string]string{"CLUSTER_NAME": "payments-rs", "TYPE_NAME": "PRIMARY"}
	assert.True(t, matchesAll(nil, attrs))
	assert.True(t, matchesAll([]Matcher{{"CLUSTER_NAME", "STARTS_WITH", "pay"}, {"TYPE_NAME", "EQUALS", "PRIMARY"}}, attrs))
	assert.False(t, matchesAll([]Matcher{{"CLUSTER_NAME", "STARTS_WITH", "pay"}, {"TYPE_NAME", "EQUALS", "SECONDARY"}}, attrs), "every matcher must hold")
	assert.False(t, matchesAll([]Matcher{{"SHARD_NAME", "NOT_EQUALS", "x"}}, attrs), "a field the event lacks never matches")
}

func TestIncidentsOpenAlertsOnlyForEnabledMatchingConfigs(t *testing.T) {
	e := newAlertEnv(t)
	ctx := context.Background()
	cs := e.c.AlertConfigs()
	const ev = "FTDC_SETTINGS_UPDATED" // no seeded configuration watches it
	mk := func(enabled bool, m ...Matcher) string {
		cfg := webhookConfig(ev, "http://127.0.0.1:1/none", 0, 60, m...)
		cfg.Enabled = enabled
		c, err := cs.Create(ctx, DemoPaymentsID, cfg)
		require.NoError(t, err)
		return c.ID
	}
	starts := mk(true, Matcher{"CLUSTER_NAME", "STARTS_WITH", "payments-r"})
	notRS := mk(true, Matcher{"CLUSTER_NAME", "NOT_EQUALS", "payments-rs"})
	disabled := mk(false)
	regex := mk(true, Matcher{"CLUSTER_NAME", "REGEX", "payments-(rs|prod)"}, Matcher{"REPLICA_SET_NAME", "CONTAINS", "shard"})

	alerts, _ := e.raise(t, map[string]any{"groupId": DemoPaymentsID, "eventTypeName": ev, "clusterName": "payments-rs"})
	require.Len(t, alerts, 2)
	var byConfig []string
	for _, id := range alerts {
		a, err := e.c.Alerts().Get(ctx, DemoPaymentsID, id)
		require.NoError(t, err)
		assert.Equal(t, apiclient.AlertOpen, a.Status)
		assert.Equal(t, "payments-rs", a.ClusterName)
		byConfig = append(byConfig, a.AlertConfigID)
	}
	assert.ElementsMatch(t, []string{starts, regex}, byConfig)

	// listAlertsByAlertConfigurationId: that configuration's open alerts.
	for _, id := range []string{notRS, disabled} {
		p, err := cs.AlertsByConfig(ctx, DemoPaymentsID, id, apiclient.ListOptions{})
		require.NoError(t, err)
		assert.Empty(t, p.Results)
	}
	p, err := cs.AlertsByConfig(ctx, DemoPaymentsID, starts, apiclient.ListOptions{})
	require.NoError(t, err)
	require.Len(t, p.Results, 1)
	// and the configuration that raised an alert
	raised, err := cs.ListByAlert(ctx, DemoPaymentsID, p.Results[0].ID, apiclient.ListOptions{})
	require.NoError(t, err)
	require.Len(t, raised.Results, 1)
	assert.Equal(t, starts, raised.Results[0].ID)

	// Another cluster: the NOT_EQUALS configuration fires, STARTS_WITH not.
	alerts, _ = e.raise(t, map[string]any{"groupId": DemoPaymentsID, "eventTypeName": ev, "clusterName": "payments-prod"})
	require.Len(t, alerts, 2)
	alerts, _ = e.raise(t, map[string]any{"groupId": DemoPaymentsID, "eventTypeName": ev, "clusterName": "payments-legacy"})
	require.Len(t, alerts, 1)
}
