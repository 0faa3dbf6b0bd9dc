package apiclient

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func alertCases() map[string]wireCase {
	g := "/groups/" + wGroup
	checkAlertPage := func(t *testing.T, v any) {
		p := as[*Page[Alert]](t, v)
		require.NotEmpty(t, p.Results)
		a := p.Results[0]
		assert.Equal(t, wAlert, a.ID)
		assert.Equal(t, AlertOpen, a.Status)
		assert.Equal(t, "Cluster0", a.ClusterName)
		require.NotNil(t, a.CurrentValue)
		assert.Equal(t, 512.0, a.CurrentValue.Number)
		assert.True(t, p.HasCount)
	}
	checkAlert := func(t *testing.T, v any) {
		a := as[*Alert](t, v)
		assert.Equal(t, wAlert, a.ID)
		assert.Equal(t, wConfig, a.AlertConfigID)
		assert.Equal(t, "OUTSIDE_METRIC_THRESHOLD", a.EventTypeName)
		assert.Equal(t, ts("2025-03-01T10:00:00Z"), a.Created)
		assert.Equal(t, "atlas-xyz-shard-0", a.ReplicaSetName)
	}
	checkAcked := func(t *testing.T, v any) {
		a := as[*Alert](t, v)
		require.NotNil(t, a.AcknowledgedUntil)
		assert.Equal(t, 2125, a.AcknowledgedUntil.Year())
		assert.Equal(t, "looking into it", a.AcknowledgementComment)
		assert.Equal(t, "ops@example.com", a.AcknowledgingUsername)
		assert.True(t, a.Acknowledged(ts("2025-03-02T00:00:00Z")))
	}
	checkConfig := func(t *testing.T, v any) {
		cfg := as[*AlertConfig](t, v)
		assert.Equal(t, wConfig, cfg.ID)
		assert.Equal(t, SeverityCritical, cfg.SeverityOverride)
		require.Len(t, cfg.Matchers, 1)
		assert.Equal(t, MatchEquals, cfg.Matchers[0].Operator)
		require.NotNil(t, cfg.MetricThreshold)
		assert.Equal(t, 500.0, *cfg.MetricThreshold.Threshold)
		require.Len(t, cfg.Notifications, 3)
		assert.Equal(t, NotifyEmail, cfg.Notifications[0].TypeName)
		assert.Equal(t, 0, *cfg.Notifications[0].DelayMin)
		assert.Equal(t, "oncall@example.com", cfg.Notifications[0].EmailAddress)
		assert.Equal(t, "US", cfg.Notifications[1].DatadogRegion)
		assert.Equal(t, []string{"GROUP_OWNER", "GROUP_CLUSTER_MANAGER"}, cfg.Notifications[2].Roles)
		assert.False(t, *cfg.Notifications[2].SMSEnabled)
	}
	checkConfigPage := func(t *testing.T, v any) {
		r := results[AlertConfig](t, v, 1)
		checkConfig(t, &r[0])
	}
	newConfig := AlertConfig{
		ID: "ignored-read-only", Enabled: true, EventTypeName: "HOST_DOWN",
		Matchers:      []Matcher{{FieldName: "HOSTNAME", Operator: MatchStartsWith, Value: "cluster0"}},
		Notifications: []Notification{{TypeName: NotifyEmail, DelayMin: ptr(0), IntervalMin: 60, EmailAddress: "oncall@example.com"}},
	}
	newConfigJSON := `{"enabled":true,"eventTypeName":"HOST_DOWN",
		"matchers":[{"fieldName":"HOSTNAME","operator":"STARTS_WITH","value":"cluster0"}],
		"notifications":[{"typeName":"EMAIL","delayMin":0,"intervalMin":60,"emailAddress":"oncall@example.com"}]}`
	getAlert := wireCase{
		path:  g + "/alerts/" + wAlert,
		call:  func(ctx context.Context, c *Client) (any, error) { return c.Alerts().Get(ctx, wGroup, wAlert) },
		check: checkAlert,
	}
	acknowledgeAlert := wireCase{
		path: g + "/alerts/" + wAlert,
		body: `{"acknowledgedUntil":"2125-03-01T10:00:00Z","acknowledgementComment":"looking into it"}`,
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.Alerts().Acknowledge(ctx, wGroup, wAlert, AcknowledgeRequest{
				AcknowledgedUntil: AckForever(ts("2025-03-01T10:00:00Z")), AcknowledgementComment: "looking into it",
			})
		},
		check: checkAcked,
	}
	return map[string]wireCase{
		"listAlerts": {
			path: g + "/alerts", query: pagedQuery("status", "OPEN"),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Alerts().List(ctx, wGroup, AlertListOptions{Status: AlertOpen, ListOptions: wirePage})
			},
			check: func(t *testing.T, v any) {
				checkAlertPage(t, v)
				r := results[Alert](t, v, 2)
				assert.Equal(t, AlertClosed, r[1].Status)
				require.NotNil(t, r[1].Resolved)
			},
		},
		"getAlert":         getAlert,
		"acknowledgeAlert": acknowledgeAlert,
		"listAlertsByAlertConfigurationId": {
			path: g + "/alertConfigs/" + wConfig + "/alerts", query: pagedQuery(),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.AlertConfigs().AlertsByConfig(ctx, wGroup, wConfig, wirePage)
			},
			check: checkAlertPage,
		},
		"legacyListAlerts": {
			path: g + "/alerts", query: pagedQuery("status", "TRACKING"),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Alerts().LegacyList(ctx, wGroup, AlertListOptions{Status: AlertTracking, ListOptions: wirePage})
			},
			check: func(t *testing.T, v any) {
				checkAlertPage(t, v)
				assert.NotEmpty(t, as[*Page[Alert]](t, v).Results[0].Links, "v1.0 bodies carry links")
			},
		},
		"legacyGetAlert": getAlert.via(func(ctx context.Context, c *Client) (any, error) {
			return c.Alerts().LegacyGet(ctx, wGroup, wAlert)
		}),
		"legacyAcknowledgeAlert": acknowledgeAlert.via(func(ctx context.Context, c *Client) (any, error) {
			return c.Alerts().LegacyAcknowledge(ctx, wGroup, wAlert, ptr(ts("2125-03-01T10:00:00Z")), "looking into it")
		}),
		"listAlertConfigurations": {
			path: g + "/alertConfigs", query: pagedQuery(),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.AlertConfigs().List(ctx, wGroup, wirePage)
			},
			check: checkConfigPage,
		},
		"getAlertConfiguration": {
			path:  g + "/alertConfigs/" + wConfig,
			call:  func(ctx context.Context, c *Client) (any, error) { return c.AlertConfigs().Get(ctx, wGroup, wConfig) },
			check: checkConfig,
		},
		"createAlertConfiguration": {
			path: g + "/alertConfigs", body: newConfigJSON,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.AlertConfigs().Create(ctx, wGroup, newConfig)
			},
			check: checkConfig,
		},
		"updateAlertConfiguration": {
			path: g + "/alertConfigs/" + wConfig, body: newConfigJSON,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.AlertConfigs().Update(ctx, wGroup, wConfig, newConfig)
			},
			check: checkConfig,
		},
		"toggleAlertConfiguration": {
			path: g + "/alertConfigs/" + wConfig, body: `{"enabled":false}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.AlertConfigs().Toggle(ctx, wGroup, wConfig, false)
			},
			check: func(t *testing.T, v any) { assert.False(t, as[*AlertConfig](t, v).Enabled) },
		},
		"deleteAlertConfiguration": {
			path: g + "/alertConfigs/" + wConfig,
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.AlertConfigs().Delete(ctx, wGroup, wConfig)
			},
		},
		"listAlertConfigurationsByAlertId": {
			path: g + "/alerts/" + wAlert + "/alertConfigs", query: pagedQuery(),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.AlertConfigs().ListByAlert(ctx, wGroup, wAlert, wirePage)
			},
			check: checkConfigPage,
		},
		"listAlertConfigurationMatchersFieldNames": {
			path: "/alertConfigs/matchers/fieldNames",
			call: func(ctx context.Context, c *Client) (any, error) { return c.AlertConfigs().MatcherFieldNames(ctx) },
			check: func(t *testing.T, v any) {
				names := as[[]string](t, v)
				assert.Contains(t, names, "HOSTNAME_AND_PORT")
				assert.Contains(t, names, "CLUSTER_NAME")
			},
		},
	}
}
