package apiclient

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Identifiers shared with the fixtures under testdata/responses.
const (
	wGroup    = "5f1a2b3c4d5e6f7a8b9c0d1e"
	wOrg      = "5e0a1b2c3d4e5f6a7b8c9d0e"
	wAlert    = "6a1b2c3d4e5f6a7b8c9d0e1f"
	wConfig   = "6b2c3d4e5f6a7b8c9d0e1f2a"
	wSnapshot = "6c3d4e5f6a7b8c9d0e1f2a3b"
	wRestore  = "6d4e5f6a7b8c9d0e1f2a3b4c"
	wBucket   = "6e5f6a7b8c9d0e1f2a3b4c5d"
	wExport   = "6f6a7b8c9d0e1f2a3b4c5d6e"
	wIndex    = "607a8b9c0d1e2f3a4b5c6d7e"
	wMig      = "618b9c0d1e2f3a4b5c6d7e8f"
	wValid    = "629c0d1e2f3a4b5c6d7e8f90"
	wRole     = "63ad0e1f2a3b4c5d6e7f8091"
	wHost     = "cluster0-shard-00-00.ab12c.mongodb.net"
	wClient   = "mdb_sa_id_65d0e1f2a3b4c5d6e7f8a9b1"
)

// wirePage is the paging every paged case sends, so the test sees it.
var wirePage = ListOptions{PageNum: 2, ItemsPerPage: 50}

func pagedQuery(extra ...string) url.Values {
	q := url.Values{"pageNum": {"2"}, "itemsPerPage": {"50"}}
	for i := 0; i+1 < len(extra); i += 2 {
		q.Add(extra[i], extra[i+1])
	}
	return q
}

// seen is what the test server recorded of one request.
type seen struct {
	Method, Path, Accept, ContentType string
	Query                             url.Values
	Body                              []byte
}

// wireCase drives one operation through its service method.
type wireCase struct {
	path  string     // escaped path under the API root
	query url.Values // exact query expected (nil: none)
	body  string     // JSON body expected ("": no body)
	call  func(ctx context.Context, c *Client) (any, error)
	check func(t *testing.T, got any)
}

func as[T any](t *testing.T, v any) T {
	t.Helper()
	out, ok := v.(T)
	require.True(t, ok, "result is %T", v)
	return out
}

func ptr[T any](v T) *T { return &v }

func ts(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

// fixture reads testdata/responses/<opID>.json (nil when absent).
func fixture(t *testing.T, opID string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "responses", opID+".json"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	require.NoError(t, err)
	return data
}

// wireServer answers every request with op's success status and fixture and
// records what it received.
func wireServer(t *testing.T, op catalog.Op) (*Client, func() []seen) {
	t.Helper()
	body := fixture(t, op.ID)
	var mu sync.Mutex
	var got []seen
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, seen{
			Method: r.Method, Path: r.URL.EscapedPath(), Accept: r.Header.Get("Accept"),
			ContentType: r.Header.Get("Content-Type"), Query: r.URL.Query(), Body: data,
		})
		mu.Unlock()
		if body != nil {
			w.Header().Set("Content-Type", r.Header.Get("Accept"))
		}
		w.WriteHeader(op.OK)
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	c, err := New(Options{BaseURL: srv.URL, MaxRetries: -1})
	require.NoError(t, err)
	return c, func() []seen {
		mu.Lock()
		defer mu.Unlock()
		return append([]seen(nil), got...)
	}
}

// TestWireEveryOperation runs every catalog operation through its service
// method against a recording server: method, escaped path, versioned media
// types, query and body on the wire, and the typed decoding of a realistic
// answer. An operation added to the catalog without a case fails here.
func TestWireEveryOperation(t *testing.T) {
	cases := wireCases()
	for id := range cases {
		_, ok := catalog.Get(id)
		assert.True(t, ok, "wire case for %s, which the catalog lacks", id)
	}
	for _, op := range catalog.All() {
		tc, ok := cases[op.ID]
		if !ok {
			t.Errorf("%s: no wire test case (does a service method call it?)", op.ID)
			continue
		}
		t.Run(op.ID, func(t *testing.T) {
			c, requests := wireServer(t, op)
			hasBody := op.OK != http.StatusNoContent && op.OK != http.StatusAccepted
			if hasBody {
				require.NotNil(t, fixture(t, op.ID), "fixture testdata/responses/%s.json", op.ID)
			}
			got, err := tc.call(context.Background(), c)
			require.NoError(t, err)

			reqs := requests()
			require.Len(t, reqs, 1, "one request")
			r := reqs[0]
			assert.Equal(t, op.Method, r.Method)
			root := "/api/atlas/v2"
			media := "application/json"
			if op.Legacy {
				root = "/api/atlas/v1.0"
			} else {
				v, ok := op.Current()
				require.True(t, ok)
				media = "application/vnd.atlas." + v.Date + "+json"
			}
			assert.Equal(t, root+tc.path, r.Path, "escaped path")
			assert.Equal(t, media, r.Accept, "Accept")
			if tc.query == nil {
				assert.Empty(t, r.Query, "query")
			} else {
				assert.Equal(t, tc.query, r.Query, "query")
			}
			if tc.body == "" {
				assert.Empty(t, r.Body, "body")
				assert.Empty(t, r.ContentType, "Content-Type without a body")
			} else {
				assert.Equal(t, media, r.ContentType, "Content-Type")
				assert.JSONEq(t, tc.body, string(r.Body), "body")
			}
			if tc.check != nil {
				tc.check(t, got)
			} else {
				assert.False(t, hasBody, "an operation with an answer needs a check of its decoding")
			}
		})
	}
}

// TestFixturesBelongToOperations keeps testdata honest: each fixture names a
// catalog operation that answers a body, and parses as JSON.
func TestFixturesBelongToOperations(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "responses", "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		id := strings.TrimSuffix(filepath.Base(f), ".json")
		op, ok := catalog.Get(id)
		if assert.True(t, ok, "fixture %s names no operation", f) {
			assert.NotEqual(t, http.StatusNoContent, op.OK, "%s answers no body", id)
		}
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		assert.True(t, json.Valid(data), "%s is not JSON", f)
	}
}

// TestVersionsSentForKnownOperations pins the dates the real service expects
// for a few operations, so a catalog edit that changes them is noticed.
func TestVersionsSentForKnownOperations(t *testing.T) {
	for id, date := range map[string]string{
		"acknowledgeAlert":                 "2024-05-30",
		"listAlerts":                       "2023-01-01",
		"createAtlasSearchIndex":           "2024-05-30",
		"getAtlasSearchIndexByName":        "2024-05-30",
		"listClusters":                     "2024-08-05",
		"listServerlessBackups":            "2023-01-01",
		"listServerlessInstances":          "2023-01-01",
		"listFlexClusters":                 "2024-11-13",
		"listFlexBackups":                  "2024-11-13",
		"getBackupSchedule":                "2024-08-05",
		"getDataProtectionSettings":        "2023-10-01",
		"disableDataProtectionSettings":    "2024-11-13",
		"createPushMigration":              "2024-05-30",
		"listExportBuckets":                "2024-05-30",
		"deleteExportBucket":               "2023-01-01",
		"createAtlasSearchIndexDeprecated": "2023-01-01",
	} {
		v, ok := catalog.MustGet(id).Current()
		if assert.True(t, ok, id) {
			assert.Equal(t, date, v.Date, id)
		}
	}
	for _, id := range []string{"listAtlasSearchAnalyzers", "updateAtlasSearchAnalyzers", "legacyAcknowledgeAlert"} {
		assert.True(t, catalog.MustGet(id).Legacy, id)
	}
}

func wireCases() map[string]wireCase {
	cases := map[string]wireCase{}
	for _, m := range []map[string]wireCase{
		alertCases(), pickerCases(), backupCases(), searchCases(),
		accessLogCases(), migrationCases(), settingsCases(), otherCases(),
	} {
		for k, v := range m {
			if _, dup := cases[k]; dup {
				panic("duplicate wire case " + k)
			}
			cases[k] = v
		}
	}
	return cases
}

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
		p := as[*Page[AlertConfig]](t, v)
		require.Len(t, p.Results, 1)
		checkConfig(t, &p.Results[0])
	}
	newConfig := AlertConfig{
		ID: "ignored-read-only", Enabled: true, EventTypeName: "HOST_DOWN",
		Matchers:      []Matcher{{FieldName: "HOSTNAME", Operator: MatchStartsWith, Value: "cluster0"}},
		Notifications: []Notification{{TypeName: NotifyEmail, DelayMin: ptr(0), IntervalMin: 60, EmailAddress: "oncall@example.com"}},
	}
	newConfigJSON := `{"enabled":true,"eventTypeName":"HOST_DOWN",
		"matchers":[{"fieldName":"HOSTNAME","operator":"STARTS_WITH","value":"cluster0"}],
		"notifications":[{"typeName":"EMAIL","delayMin":0,"intervalMin":60,"emailAddress":"oncall@example.com"}]}`
	return map[string]wireCase{
		"listAlerts": {
			path: g + "/alerts", query: pagedQuery("status", "OPEN"),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Alerts().List(ctx, wGroup, AlertListOptions{Status: AlertOpen, ListOptions: wirePage})
			},
			check: func(t *testing.T, v any) {
				checkAlertPage(t, v)
				p := as[*Page[Alert]](t, v)
				require.Len(t, p.Results, 2)
				assert.Equal(t, AlertClosed, p.Results[1].Status)
				require.NotNil(t, p.Results[1].Resolved)
			},
		},
		"getAlert": {
			path:  g + "/alerts/" + wAlert,
			call:  func(ctx context.Context, c *Client) (any, error) { return c.Alerts().Get(ctx, wGroup, wAlert) },
			check: checkAlert,
		},
		"acknowledgeAlert": {
			path: g + "/alerts/" + wAlert,
			body: `{"acknowledgedUntil":"2125-03-01T10:00:00Z","acknowledgementComment":"looking into it"}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Alerts().Acknowledge(ctx, wGroup, wAlert, AcknowledgeRequest{
					AcknowledgedUntil: AckForever(ts("2025-03-01T10:00:00Z")), AcknowledgementComment: "looking into it",
				})
			},
			check: checkAcked,
		},
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
		"legacyGetAlert": {
			path:  g + "/alerts/" + wAlert,
			call:  func(ctx context.Context, c *Client) (any, error) { return c.Alerts().LegacyGet(ctx, wGroup, wAlert) },
			check: checkAlert,
		},
		"legacyAcknowledgeAlert": {
			path: g + "/alerts/" + wAlert,
			body: `{"acknowledgedUntil":"2125-03-01T10:00:00Z","acknowledgementComment":"looking into it"}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Alerts().LegacyAcknowledge(ctx, wGroup, wAlert, ptr(ts("2125-03-01T10:00:00Z")), "looking into it")
			},
			check: checkAcked,
		},
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

func pickerCases() map[string]wireCase {
	g := "/groups/" + wGroup
	checkProject := func(t *testing.T, p Project) {
		assert.Equal(t, wGroup, p.ID)
		assert.Equal(t, "payments-prod", p.Name)
		assert.Equal(t, wOrg, p.OrgID)
		assert.EqualValues(t, 3, p.ClusterCount)
		assert.Equal(t, ts("2023-06-12T14:03:11Z"), p.Created)
		assert.Equal(t, []Tag{{Key: "env", Value: "prod"}}, p.Tags)
	}
	checkLegacyCluster := func(t *testing.T, lc LegacyCluster) {
		assert.Equal(t, "Cluster0", lc.Name)
		require.NotNil(t, lc.ProviderSettings)
		assert.Equal(t, "M2", lc.ProviderSettings.InstanceSizeName)
		assert.NotEmpty(t, lc.Links)
	}
	return map[string]wireCase{
		"getSystemStatus": {
			path: "",
			call: func(ctx context.Context, c *Client) (any, error) { return c.WhoAmI(ctx) },
			check: func(t *testing.T, v any) {
				s := as[*SystemStatus](t, v)
				require.NotNil(t, s.APIKey)
				assert.Equal(t, "zmmrboas", s.APIKey.PublicKey)
				assert.Len(t, s.APIKey.Roles, 2)
			},
		},
		"getOrganization": {
			path: "/orgs/" + wOrg,
			call: func(ctx context.Context, c *Client) (any, error) { return c.Projects().Org(ctx, wOrg) },
			check: func(t *testing.T, v any) {
				o := as[*Organization](t, v)
				assert.Equal(t, wOrg, o.ID)
				assert.Equal(t, "Acme-Ops", o.Name)
				assert.False(t, o.IsDeleted)
			},
		},
		"listRateLimits": {
			path: "/rateLimits", query: pagedQuery("groupId", wGroup, "endpointPath", "/api/atlas/v2/groups/{groupId}/clusters"),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.RateLimits().List(ctx, RateLimitFilter{GroupID: wGroup, EndpointPaths: []string{"/api/atlas/v2/groups/{groupId}/clusters"}}, wirePage)
			},
			check: func(t *testing.T, v any) {
				p := as[*Page[RateLimitSet]](t, v)
				require.Len(t, p.Results, 2)
				assert.Equal(t, 52, p.TotalCount)
				assert.Equal(t, RateLimitValues{Capacity: 100, RefillRate: 10, RefillSeconds: 60}, p.Results[0].Values())
				assert.Equal(t, "PROJECT", p.Results[0].Scope)
				assert.Equal(t, RateLimitEndpoint{Method: "GET", Path: "/api/atlas/v2/orgs"}, p.Results[1].Endpoints[0])
			},
		},
		"getRateLimit": {
			path: "/rateLimits/rateLimitsInspection_group", query: url.Values{"userId": {wClient}},
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.RateLimits().Get(ctx, "rateLimitsInspection_group", RateLimitFilter{UserID: wClient})
			},
			check: func(t *testing.T, v any) {
				s := as[*RateLimitSet](t, v)
				assert.Equal(t, "rateLimitsInspection_group", s.EndpointSetID)
				assert.Equal(t, 20, s.Capacity.Value)
				require.NotNil(t, s.Capacity.DefaultValue)
				assert.Equal(t, 10, *s.Capacity.DefaultValue)
				assert.Nil(t, s.RefillRate.DefaultValue)
				assert.Len(t, s.Endpoints, 2)
			},
		},
		"listOrganizations": {
			path: "/orgs", query: pagedQuery("name", "Acme"),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Projects().Orgs(ctx, NameListOptions{Name: "Acme", ListOptions: wirePage})
			},
			check: func(t *testing.T, v any) {
				p := as[*Page[Organization]](t, v)
				require.Len(t, p.Results, 2)
				assert.Equal(t, wOrg, p.Results[0].ID)
				assert.Equal(t, "Acme Sandbox", p.Results[1].Name)
				assert.False(t, p.Results[0].IsDeleted)
			},
		},
		"listProjects": {
			path: "/groups", query: pagedQuery(),
			call: func(ctx context.Context, c *Client) (any, error) { return c.Projects().List(ctx, wirePage) },
			check: func(t *testing.T, v any) {
				p := as[*Page[Project]](t, v)
				require.Len(t, p.Results, 1)
				checkProject(t, p.Results[0])
			},
		},
		"legacyListProjects": {
			path: "/groups", query: pagedQuery(),
			call: func(ctx context.Context, c *Client) (any, error) { return c.Projects().LegacyList(ctx, wirePage) },
			check: func(t *testing.T, v any) {
				p := as[*Page[Project]](t, v)
				require.Len(t, p.Results, 1)
				checkProject(t, p.Results[0])
			},
		},
		"getProject": {
			path: g,
			call: func(ctx context.Context, c *Client) (any, error) { return c.Projects().Get(ctx, wGroup) },
			check: func(t *testing.T, v any) {
				p := as[*Project](t, v)
				checkProject(t, *p)
				assert.True(t, *p.WithDefaultAlertsSettings)
			},
		},
		"listOrganizationProjects": {
			path: "/orgs/" + wOrg + "/groups", query: pagedQuery("name", "payments"),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Projects().OrgProjects(ctx, wOrg, NameListOptions{Name: "payments", ListOptions: wirePage})
			},
			check: func(t *testing.T, v any) {
				p := as[*Page[Project]](t, v)
				require.Len(t, p.Results, 2)
				checkProject(t, p.Results[0])
				assert.Equal(t, "payments-staging", p.Results[1].Name)
			},
		},
		"listClusters": {
			path: g + "/clusters", query: pagedQuery("includeDeletedWithRetainedBackups", "true"),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Clusters().List(ctx, wGroup, ClusterListOptions{IncludeDeletedWithRetainedBackups: true, ListOptions: wirePage})
			},
			check: func(t *testing.T, v any) {
				p := as[*Page[Cluster]](t, v)
				require.Len(t, p.Results, 2)
				dedicated, tenant := p.Results[0], p.Results[1]
				assert.Equal(t, "Cluster0", dedicated.Name)
				assert.Equal(t, "M30", dedicated.InstanceSize())
				assert.False(t, dedicated.Tenant())
				assert.Equal(t, ClusterIdle, dedicated.StateName)
				assert.Equal(t, "7.0.14", dedicated.MongoDBVersion)
				require.NotNil(t, dedicated.ConnectionStrings)
				assert.Equal(t, "mongodb+srv://cluster0.ab12c.mongodb.net", dedicated.ConnectionStrings.StandardSrv)
				assert.Equal(t, "M0", tenant.InstanceSize())
				assert.True(t, tenant.Tenant())
				assert.Equal(t, "AWS", tenant.ReplicationSpecs[0].RegionConfigs[0].BackingProviderName)
			},
		},
		"getCluster": {
			path: g + "/clusters/Cluster0",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Clusters().Get(ctx, wGroup, "Cluster0")
			},
			check: func(t *testing.T, v any) {
				cl := as[*Cluster](t, v)
				assert.Equal(t, ClusterSharded, cl.ClusterType)
				assert.True(t, cl.PitEnabled)
				assert.Equal(t, 3, cl.ReplicationSpecs[0].RegionConfigs[0].ElectableSpecs.NodeCount)
				assert.Equal(t, "Zone 1", cl.ReplicationSpecs[0].ZoneName)
			},
		},
		"listClustersForAllProjects": {
			path: "/clusters", query: pagedQuery(),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Clusters().ForAllProjects(ctx, wirePage)
			},
			check: func(t *testing.T, v any) {
				p := as[*Page[OrgGroupClusters]](t, v)
				require.Len(t, p.Results, 1)
				assert.Equal(t, "Acme Ops", p.Results[0].OrgName)
				require.Len(t, p.Results[0].Clusters, 1)
				cs := p.Results[0].Clusters[0]
				assert.Equal(t, "REPLICA_SET", cs.Type)
				assert.Equal(t, "available", cs.Availability)
				assert.Equal(t, 2, cs.AlertCount)
				assert.EqualValues(t, 734003200, cs.DataSizeBytes)
			},
		},
		"listFlexClusters": {
			path: g + "/flexClusters", query: pagedQuery(),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Clusters().Flex(ctx, wGroup, wirePage)
			},
			check: func(t *testing.T, v any) {
				p := as[*Page[FlexCluster]](t, v)
				require.Len(t, p.Results, 1)
				f := p.Results[0]
				assert.Equal(t, "flex-dev", f.Name)
				assert.Equal(t, "FLEX", f.ProviderSettings.ProviderName)
				assert.Equal(t, "AWS", f.ProviderSettings.BackingProviderName)
				require.NotNil(t, f.BackupSettings)
				assert.True(t, f.BackupSettings.Enabled)
			},
		},
		"listServerlessInstances": {
			path: g + "/serverless", query: pagedQuery(),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Clusters().Serverless(ctx, wGroup, wirePage)
			},
			check: func(t *testing.T, v any) {
				p := as[*Page[ServerlessInstance]](t, v)
				require.Len(t, p.Results, 1)
				s := p.Results[0]
				assert.Equal(t, "serverless-1", s.Name)
				assert.Equal(t, "SERVERLESS", s.ProviderSettings.ProviderName)
				assert.True(t, s.ServerlessBackupOptions.ServerlessContinuousBackupEnabled)
			},
		},
		"listAtlasProcesses": {
			path: g + "/processes", query: pagedQuery(),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Clusters().Processes(ctx, wGroup, wirePage)
			},
			check: func(t *testing.T, v any) {
				p := as[*Page[Process]](t, v)
				require.Len(t, p.Results, 2)
				pr := p.Results[0]
				assert.Equal(t, wHost+":27017", pr.ID)
				assert.Equal(t, wHost, pr.Hostname)
				assert.Equal(t, 27017, pr.Port)
				assert.Equal(t, ProcessPrimary, pr.TypeName)
				assert.Equal(t, "atlas-xyz-shard-0", pr.ReplicaSetName)
				assert.Equal(t, wHost, pr.UserAlias)
				assert.Equal(t, pr.ID, pr.HostPort())
				assert.Equal(t, ProcessSecondary, p.Results[1].TypeName)
			},
		},
		"getServiceAccount": {
			path: "/orgs/" + wOrg + "/serviceAccounts/" + wClient,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Projects().ServiceAccount(ctx, wOrg, wClient)
			},
			check: func(t *testing.T, v any) {
				sa := as[*ServiceAccount](t, v)
				assert.Equal(t, []string{"ORG_MEMBER", "ORG_READ_ONLY"}, sa.Roles)
				require.Len(t, sa.Secrets, 1)
				assert.Equal(t, "mdb_sa_sk_****abcd", sa.Secrets[0].MaskedSecretValue)
				roles := sa.OrgAssignments(wOrg)
				assert.Equal(t, catalog.Assignment{RoleName: catalog.OrgMember, OrgID: wOrg}, roles[0])
			},
		},
		"getProjectServiceAccount": {
			path: g + "/serviceAccounts/" + wClient,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Projects().ProjectServiceAccount(ctx, wGroup, wClient)
			},
			check: func(t *testing.T, v any) {
				sa := as[*ServiceAccount](t, v)
				roles := sa.GroupAssignments(wGroup)
				require.Len(t, roles, 2)
				assert.Equal(t, catalog.Assignment{RoleName: catalog.GroupBackupManager, GroupID: wGroup}, roles[1])
			},
		},
		"legacyListClusters": {
			path: g + "/clusters", query: pagedQuery(),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Clusters().LegacyList(ctx, wGroup, wirePage)
			},
			check: func(t *testing.T, v any) {
				p := as[*Page[LegacyCluster]](t, v)
				require.Len(t, p.Results, 1)
				checkLegacyCluster(t, p.Results[0])
			},
		},
		"legacyGetCluster": {
			path: g + "/clusters/Cluster0",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Clusters().LegacyGet(ctx, wGroup, "Cluster0")
			},
			check: func(t *testing.T, v any) { checkLegacyCluster(t, *as[*LegacyCluster](t, v)) },
		},
	}
}

func backupCases() map[string]wireCase {
	g := "/groups/" + wGroup
	cl := g + "/clusters/Cluster0/backup"
	sl := g + "/serverless/serverless-1/backup"
	fl := g + "/flexClusters/flex-dev/backup"
	checkSnapshot := func(t *testing.T, s Snapshot) {
		assert.Equal(t, wSnapshot, s.ID)
		assert.Equal(t, "AWS", s.CloudProvider)
		assert.Equal(t, []string{"US_WEST_2"}, s.CopyRegions)
		assert.Equal(t, ts("2025-03-01T06:00:00Z"), s.CreatedAt)
		assert.Equal(t, FrequencyHourly, s.FrequencyType)
		assert.Equal(t, SnapshotOnDemand, s.SnapshotType)
		assert.EqualValues(t, 1073741824, s.StorageSizeBytes)
		assert.Equal(t, "replicaSet", s.Type)
		assert.Equal(t, "72659f08-8b3c-4913-bb4e-a8a68e036502", s.MasterKeyUUID)
	}
	checkSharded := func(t *testing.T, s ShardedSnapshot) {
		assert.Equal(t, "EMBEDDED", s.ConfigServerType)
		require.Len(t, s.Members, 2)
		assert.Equal(t, "atlas-xyz-shard-1", s.Members[1].ReplicaSetName)
		assert.Len(t, s.SnapshotIDs, 2)
		assert.Equal(t, SnapshotInProgress, s.Status)
		assert.False(t, s.Done())
	}
	checkServerlessSnap := func(t *testing.T, s ServerlessSnapshot) {
		assert.Equal(t, "serverless-1", s.ServerlessInstanceName)
		assert.Equal(t, SnapshotCompleted, s.Status)
		assert.True(t, s.Done())
		assert.EqualValues(t, 52428800, s.StorageSizeBytes)
	}
	checkRestore := func(t *testing.T, j RestoreJob) {
		assert.Equal(t, wRestore, j.ID)
		assert.Equal(t, DeliveryAutomated, j.DeliveryType)
		assert.Equal(t, "Cluster1", j.TargetClusterName)
		assert.Equal(t, wGroup, j.TargetGroupID)
		require.NotNil(t, j.DesiredTimestamp)
		assert.EqualValues(t, 1, j.DesiredTimestamp.Increment)
	}
	checkFlexRestore := func(t *testing.T, j FlexRestoreJob) {
		assert.Equal(t, wRestore, j.ID)
		assert.Equal(t, wSnapshot, j.SnapshotID)
		assert.Equal(t, "flex-dev", j.InstanceName)
		require.NotNil(t, j.RestoreScheduledDate)
	}
	checkSchedule := func(t *testing.T, s BackupSchedule) {
		assert.Equal(t, "Cluster0", s.ClusterName)
		require.NotNil(t, s.NextSnapshot)
		assert.Equal(t, 30, *s.ReferenceMinuteOfHour)
		assert.Equal(t, 7, *s.RestoreWindowDays)
		require.NotNil(t, s.Export)
		assert.Equal(t, wBucket, s.Export.ExportBucketID)
		require.Len(t, s.CopySettings, 1)
		assert.Equal(t, []string{"DAILY", "ON_DEMAND"}, s.CopySettings[0].Frequencies)
		assert.Equal(t, []ExtraRetention{{FrequencyType: "YEARLY", RetentionDays: 730}}, s.ExtraRetentionSettings)
	}
	checkBucket := func(t *testing.T, b ExportBucket) {
		assert.Equal(t, wBucket, b.ID)
		assert.Equal(t, "acme-exports", b.BucketName)
		assert.Equal(t, ProviderAWS, b.CloudProvider)
		assert.Equal(t, wRole, b.IAMRoleID)
		assert.Equal(t, "US_EAST_1", b.Region)
		require.NotNil(t, b.RequirePrivateNetworking)
	}
	checkJob := func(t *testing.T, j ExportJob) {
		assert.Equal(t, wExport, j.ID)
		assert.Equal(t, wBucket, j.ExportBucketID)
		require.Len(t, j.Components, 1)
		assert.Equal(t, []Label{{Key: "ticket", Value: "OPS-42"}}, j.CustomData)
		assert.Contains(t, j.Prefix, "/exported_snapshots/")
	}
	checkPolicy := func(t *testing.T, p CompliancePolicy) {
		assert.Equal(t, "security@example.com", p.AuthorizedEmail)
		assert.True(t, p.CopyProtectionEnabled)
		assert.True(t, p.PitEnabled)
		require.NotNil(t, p.OnDemandPolicyItem)
		assert.Equal(t, FrequencyOnDemand, p.OnDemandPolicyItem.FrequencyType)
		require.Len(t, p.ScheduledPolicyItems, 1)
		assert.Equal(t, RetentionDays, p.ScheduledPolicyItems[0].RetentionUnit)
	}
	restoreBody := `{"deliveryType":"automated","snapshotId":"` + wSnapshot + `","targetClusterName":"Cluster1","targetGroupId":"` + wGroup + `"}`
	pitBody := `{"deliveryType":"pointInTime","targetClusterName":"serverless-2","targetGroupId":"` + wGroup + `","pointInTimeUTCSeconds":1740808800}`
	policy := CompliancePolicy{
		AuthorizedEmail: "security@example.com", AuthorizedUserFirstName: "Ada", AuthorizedUserLastName: "Lovelace",
		CopyProtectionEnabled: true, PitEnabled: true, RestoreWindowDays: 7, State: ComplianceActive, UpdatedUser: "read-only",
		ScheduledPolicyItems: []PolicyItem{{FrequencyType: FrequencyDaily, FrequencyInterval: 1, RetentionUnit: RetentionDays, RetentionValue: 7}},
	}
	return map[string]wireCase{
		"listReplicaSetBackups": {
			path: cl + "/snapshots", query: pagedQuery("pointInTimeUtcSeconds", "1740808800"),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().Snapshots(ctx, wGroup, "Cluster0", SnapshotListOptions{PointInTimeUTCSeconds: 1740808800, ListOptions: wirePage})
			},
			check: func(t *testing.T, v any) {
				p := as[*Page[Snapshot]](t, v)
				require.Len(t, p.Results, 2)
				checkSnapshot(t, p.Results[0])
				assert.True(t, p.Results[0].Done())
				assert.Equal(t, SnapshotQueued, p.Results[1].Status)
				assert.False(t, p.Results[1].Done())
				assert.Equal(t, 2, p.TotalCount)
			},
		},
		"getReplicaSetBackup": {
			path: cl + "/snapshots/" + wSnapshot,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().Snapshot(ctx, wGroup, "Cluster0", wSnapshot)
			},
			check: func(t *testing.T, v any) { checkSnapshot(t, *as[*Snapshot](t, v)) },
		},
		"takeSnapshot": {
			path: cl + "/snapshots", body: `{"description":"pre-deploy","retentionInDays":3}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().TakeSnapshot(ctx, wGroup, "Cluster0", TakeSnapshotRequest{Description: "pre-deploy", RetentionInDays: 3})
			},
			check: func(t *testing.T, v any) {
				s := as[*Snapshot](t, v)
				assert.Equal(t, SnapshotQueued, s.Status)
				assert.Equal(t, "pre-deploy", s.Description)
			},
		},
		"updateSnapshotRetention": {
			path: cl + "/snapshots/" + wSnapshot, body: `{"retentionUnit":"WEEKS","retentionValue":4}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().UpdateRetention(ctx, wGroup, "Cluster0", wSnapshot, SnapshotRetention{RetentionUnit: SnapshotRetentionWeeks, RetentionValue: 4})
			},
			check: func(t *testing.T, v any) {
				assert.Equal(t, ts("2025-04-01T06:00:00Z"), *as[*Snapshot](t, v).ExpiresAt)
			},
		},
		"deleteReplicaSetBackup": {
			path: cl + "/snapshots/" + wSnapshot,
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.Backups().DeleteSnapshot(ctx, wGroup, "Cluster0", wSnapshot)
			},
		},
		"listShardedClusterBackups": {
			path: cl + "/snapshots/shardedClusters",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().ShardedSnapshots(ctx, wGroup, "Cluster0")
			},
			check: func(t *testing.T, v any) {
				p := as[*Page[ShardedSnapshot]](t, v)
				require.Len(t, p.Results, 1)
				checkSharded(t, p.Results[0])
			},
		},
		"getShardedClusterBackup": {
			path: cl + "/snapshots/shardedCluster/" + wSnapshot,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().ShardedSnapshot(ctx, wGroup, "Cluster0", wSnapshot)
			},
			check: func(t *testing.T, v any) { checkSharded(t, *as[*ShardedSnapshot](t, v)) },
		},
		"deleteShardedClusterBackup": {
			path: cl + "/snapshots/shardedCluster/" + wSnapshot,
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.Backups().DeleteShardedSnapshot(ctx, wGroup, "Cluster0", wSnapshot)
			},
		},
		"getSharedClusterBackup": {
			path: cl + "/tenant/snapshots/" + wSnapshot,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().TenantSnapshot(ctx, wGroup, "Cluster0", wSnapshot)
			},
			check: func(t *testing.T, v any) {
				s := as[*TenantSnapshot](t, v)
				assert.Equal(t, FlexCompleted, s.Status)
				assert.True(t, s.Done())
				assert.Equal(t, ts("2025-03-01T06:02:00Z"), *s.FinishTime)
			},
		},
		"listServerlessBackups": {
			path: sl + "/snapshots", query: pagedQuery(),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().ServerlessSnapshots(ctx, wGroup, "serverless-1", wirePage)
			},
			check: func(t *testing.T, v any) {
				p := as[*Page[ServerlessSnapshot]](t, v)
				require.Len(t, p.Results, 1)
				checkServerlessSnap(t, p.Results[0])
			},
		},
		"getServerlessBackup": {
			path: sl + "/snapshots/" + wSnapshot,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().ServerlessSnapshot(ctx, wGroup, "serverless-1", wSnapshot)
			},
			check: func(t *testing.T, v any) { checkServerlessSnap(t, *as[*ServerlessSnapshot](t, v)) },
		},
		"listFlexBackups": {
			path: fl + "/snapshots", query: pagedQuery(),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().FlexSnapshots(ctx, wGroup, "flex-dev", wirePage)
			},
			check: func(t *testing.T, v any) {
				p := as[*Page[FlexSnapshot]](t, v)
				require.Len(t, p.Results, 1)
				assert.Equal(t, FlexRunning, p.Results[0].Status)
				assert.False(t, p.Results[0].Done())
				assert.Equal(t, "8.0.4", p.Results[0].MongoDBVersion)
			},
		},
		"getFlexBackup": {
			path: fl + "/snapshots/" + wSnapshot,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().FlexSnapshot(ctx, wGroup, "flex-dev", wSnapshot)
			},
			check: func(t *testing.T, v any) {
				s := as[*FlexSnapshot](t, v)
				assert.True(t, s.Done())
				require.NotNil(t, s.FinishTime)
			},
		},
		"downloadFlexBackup": {
			path: fl + "/download", body: `{"snapshotId":"` + wSnapshot + `"}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().FlexDownload(ctx, wGroup, "flex-dev", wSnapshot)
			},
			check: func(t *testing.T, v any) {
				j := as[*FlexRestoreJob](t, v)
				assert.Equal(t, FlexDeliveryDownload, j.DeliveryType)
				assert.Contains(t, j.SnapshotURL, "https://restore.example/")
				assert.True(t, j.Done())
			},
		},
		"listFlexBackupRestoreJobs": {
			path: fl + "/restoreJobs", query: pagedQuery(),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().FlexRestoreJobs(ctx, wGroup, "flex-dev", wirePage)
			},
			check: func(t *testing.T, v any) {
				p := as[*Page[FlexRestoreJob]](t, v)
				require.Len(t, p.Results, 1)
				checkFlexRestore(t, p.Results[0])
				assert.Equal(t, FlexQueued, p.Results[0].Status)
			},
		},
		"createFlexBackupRestoreJob": {
			path: fl + "/restoreJobs",
			body: `{"snapshotId":"` + wSnapshot + `","targetDeploymentItemName":"flex-restore","targetProjectId":"` + wGroup + `"}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().CreateFlexRestoreJob(ctx, wGroup, "flex-dev", FlexRestoreRequest{SnapshotID: wSnapshot, TargetDeploymentItemName: "flex-restore", TargetProjectID: wGroup})
			},
			check: func(t *testing.T, v any) {
				j := as[*FlexRestoreJob](t, v)
				checkFlexRestore(t, *j)
				assert.Equal(t, FlexDeliveryRestore, j.DeliveryType)
			},
		},
		"getFlexBackupRestoreJob": {
			path: fl + "/restoreJobs/" + wRestore,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().FlexRestoreJob(ctx, wGroup, "flex-dev", wRestore)
			},
			check: func(t *testing.T, v any) {
				j := as[*FlexRestoreJob](t, v)
				checkFlexRestore(t, *j)
				assert.True(t, j.Done())
				require.NotNil(t, j.RestoreFinishedDate)
			},
		},
		"listBackupRestoreJobs": {
			path: cl + "/restoreJobs", query: pagedQuery(),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().RestoreJobs(ctx, wGroup, "Cluster0", wirePage)
			},
			check: func(t *testing.T, v any) {
				p := as[*Page[RestoreJob]](t, v)
				require.Len(t, p.Results, 2)
				checkRestore(t, p.Results[0])
				assert.Equal(t, RestoreRunning, p.Results[0].State())
				dl := p.Results[1]
				assert.Equal(t, RestoreDownloadReady, dl.State())
				assert.Equal(t, "vpce-0abc123", dl.PrivateDownloadDeliveryURLs[0].EndpointID)
				assert.Equal(t, "atlas-xyz-shard-0", dl.Components[0].ReplicaSetName)
				assert.Contains(t, dl.Components[0].DownloadURL, "shard-0.tar.gz")
			},
		},
		"createBackupRestoreJob": {
			path: cl + "/restoreJobs", body: restoreBody,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().CreateRestoreJob(ctx, wGroup, "Cluster0", RestoreRequest{DeliveryType: DeliveryAutomated, SnapshotID: wSnapshot, TargetClusterName: "Cluster1", TargetGroupID: wGroup})
			},
			check: func(t *testing.T, v any) { checkRestore(t, *as[*RestoreJob](t, v)) },
		},
		"getBackupRestoreJob": {
			path: cl + "/restoreJobs/" + wRestore,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().RestoreJob(ctx, wGroup, "Cluster0", wRestore)
			},
			check: func(t *testing.T, v any) {
				j := as[*RestoreJob](t, v)
				checkRestore(t, *j)
				assert.Equal(t, RestoreFinished, j.State())
				assert.True(t, j.Done())
			},
		},
		"cancelBackupRestoreJob": {
			path: cl + "/restoreJobs/" + wRestore,
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.Backups().CancelRestoreJob(ctx, wGroup, "Cluster0", wRestore)
			},
		},
		"listServerlessBackupRestoreJobs": {
			path: sl + "/restoreJobs", query: pagedQuery(),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().ServerlessRestoreJobs(ctx, wGroup, "serverless-1", wirePage)
			},
			check: func(t *testing.T, v any) {
				p := as[*Page[RestoreJob]](t, v)
				require.Len(t, p.Results, 1)
				assert.Equal(t, RestoreFailed, p.Results[0].State())
				assert.EqualValues(t, 1740808800, p.Results[0].PointInTimeUTCSeconds)
			},
		},
		"createServerlessBackupRestoreJob": {
			path: sl + "/restoreJobs", body: pitBody,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().CreateServerlessRestoreJob(ctx, wGroup, "serverless-1", RestoreRequest{DeliveryType: DeliveryPointInTime, PointInTimeUTCSeconds: 1740808800, TargetClusterName: "serverless-2", TargetGroupID: wGroup})
			},
			check: func(t *testing.T, v any) {
				j := as[*RestoreJob](t, v)
				assert.Equal(t, DeliveryPointInTime, j.DeliveryType)
				assert.Equal(t, RestoreRunning, j.State())
			},
		},
		"getServerlessBackupRestoreJob": {
			path: sl + "/restoreJobs/" + wRestore,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().ServerlessRestoreJob(ctx, wGroup, "serverless-1", wRestore)
			},
			check: func(t *testing.T, v any) {
				j := as[*RestoreJob](t, v)
				assert.True(t, j.Failed)
				assert.Equal(t, "serverless-2", j.TargetClusterName)
			},
		},
		"getBackupSchedule": {
			path: cl + "/schedule",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().Schedule(ctx, wGroup, "Cluster0")
			},
			check: func(t *testing.T, v any) {
				s := as[*BackupSchedule](t, v)
				checkSchedule(t, *s)
				require.Len(t, s.Policies, 1)
				items := s.Policies[0].PolicyItems
				require.Len(t, items, 3)
				assert.Equal(t, PolicyItem{ID: "5f0b1c2d3e4f5a6b7c8d9e11", FrequencyType: FrequencyMonthly, FrequencyInterval: 40, RetentionUnit: RetentionMonths, RetentionValue: 12}, items[2])
			},
		},
		"updateBackupSchedule": {
			path: cl + "/schedule", body: `{"referenceHourOfDay":3,"updateSnapshots":true,
				"policies":[{"id":"5f0b1c2d3e4f5a6b7c8d9e00","policyItems":[{"frequencyType":"daily","frequencyInterval":1,"retentionUnit":"days","retentionValue":14}]}]}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().UpdateSchedule(ctx, wGroup, "Cluster0", BackupSchedule{
					ClusterName: "read-only, not sent", ReferenceHourOfDay: ptr(3), UpdateSnapshots: ptr(true),
					Policies: []BackupPolicy{{ID: "5f0b1c2d3e4f5a6b7c8d9e00", PolicyItems: []PolicyItem{{FrequencyType: FrequencyDaily, FrequencyInterval: 1, RetentionUnit: RetentionDays, RetentionValue: 14}}}},
				})
			},
			check: func(t *testing.T, v any) {
				s := as[*BackupSchedule](t, v)
				checkSchedule(t, *s)
				assert.Equal(t, 3, *s.ReferenceHourOfDay)
			},
		},
		"deleteAllBackupSchedules": {
			path: cl + "/schedule",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().DeleteSchedules(ctx, wGroup, "Cluster0")
			},
			check: func(t *testing.T, v any) {
				s := as[*BackupSchedule](t, v)
				require.Len(t, s.Policies, 1)
				assert.Empty(t, s.Policies[0].PolicyItems)
			},
		},
		"listExportBuckets": {
			path: g + "/backup/exportBuckets", query: pagedQuery(),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().ExportBuckets(ctx, wGroup, wirePage)
			},
			check: func(t *testing.T, v any) {
				p := as[*Page[ExportBucket]](t, v)
				require.Len(t, p.Results, 2)
				checkBucket(t, p.Results[0])
				az := p.Results[1]
				assert.Equal(t, ProviderAzure, az.CloudProvider)
				assert.Equal(t, "https://acmeexports.blob.core.windows.net", az.ServiceURL)
				assert.Equal(t, wRole, az.RoleID)
			},
		},
		"getExportBucket": {
			path: g + "/backup/exportBuckets/" + wBucket,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().ExportBucket(ctx, wGroup, wBucket)
			},
			check: func(t *testing.T, v any) { checkBucket(t, *as[*ExportBucket](t, v)) },
		},
		"createExportBucket": {
			path: g + "/backup/exportBuckets", body: `{"bucketName":"acme-exports","cloudProvider":"AWS","iamRoleId":"` + wRole + `"}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().CreateExportBucket(ctx, wGroup, ExportBucket{BucketName: "acme-exports", CloudProvider: ProviderAWS, IAMRoleID: wRole})
			},
			check: func(t *testing.T, v any) { checkBucket(t, *as[*ExportBucket](t, v)) },
		},
		"deleteExportBucket": {
			path: g + "/backup/exportBuckets/" + wBucket,
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.Backups().DeleteExportBucket(ctx, wGroup, wBucket)
			},
		},
		"listBackupExportJobs": {
			path: cl + "/exports", query: pagedQuery(),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().ExportJobs(ctx, wGroup, "Cluster0", wirePage)
			},
			check: func(t *testing.T, v any) {
				p := as[*Page[ExportJob]](t, v)
				require.Len(t, p.Results, 1)
				j := p.Results[0]
				checkJob(t, j)
				assert.Equal(t, ExportInProgress, j.State)
				assert.False(t, j.Done())
				assert.Equal(t, 3, j.ExportStatus.ExportedCollections)
			},
		},
		"createBackupExportJob": {
			path: cl + "/exports",
			body: `{"snapshotId":"` + wSnapshot + `","exportBucketId":"` + wBucket + `","customData":[{"key":"ticket","value":"OPS-42"}]}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().CreateExportJob(ctx, wGroup, "Cluster0", ExportJobRequest{SnapshotID: wSnapshot, ExportBucketID: wBucket, CustomData: []Label{{Key: "ticket", Value: "OPS-42"}}})
			},
			check: func(t *testing.T, v any) {
				j := as[*ExportJob](t, v)
				checkJob(t, *j)
				assert.Equal(t, ExportQueued, j.State)
			},
		},
		"getBackupExportJob": {
			path: cl + "/exports/" + wExport,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().ExportJob(ctx, wGroup, "Cluster0", wExport)
			},
			check: func(t *testing.T, v any) {
				j := as[*ExportJob](t, v)
				checkJob(t, *j)
				assert.True(t, j.Done())
				require.NotNil(t, j.StateReason)
				assert.Equal(t, "EXPORT_BUCKET_ACCESS_DENIED", j.StateReason.ErrorCode)
			},
		},
		"getDataProtectionSettings": {
			path: g + "/backupCompliancePolicy",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().CompliancePolicy(ctx, wGroup)
			},
			check: func(t *testing.T, v any) {
				p := as[*CompliancePolicy](t, v)
				checkPolicy(t, *p)
				assert.Equal(t, ComplianceActive, p.State)
			},
		},
		"updateDataProtectionSettings": {
			path: g + "/backupCompliancePolicy", query: url.Values{"overwriteBackupPolicies": {"false"}},
			body: `{"authorizedEmail":"security@example.com","authorizedUserFirstName":"Ada","authorizedUserLastName":"Lovelace",
				"copyProtectionEnabled":true,"encryptionAtRestEnabled":false,"pitEnabled":true,"restoreWindowDays":7,
				"scheduledPolicyItems":[{"frequencyType":"daily","frequencyInterval":1,"retentionUnit":"days","retentionValue":7}]}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Backups().UpdateCompliancePolicy(ctx, wGroup, policy, false)
			},
			check: func(t *testing.T, v any) {
				p := as[*CompliancePolicy](t, v)
				checkPolicy(t, *p)
				assert.Equal(t, ComplianceUpdating, p.State)
			},
		},
		"disableDataProtectionSettings": {
			path: g + "/backupCompliancePolicy",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.Backups().DisableCompliancePolicy(ctx, wGroup)
			},
		},
	}
}

func searchCases() map[string]wireCase {
	base := "/groups/" + wGroup + "/clusters/Cluster0"
	si := base + "/search/indexes"
	fts := base + "/fts/indexes"
	// A name with a space and a slash must stay one escaped path segment.
	const odd = "by title/v2"
	const oddEscaped = "by%20title%2Fv2"
	checkIndex := func(t *testing.T, x SearchIndex) {
		assert.Equal(t, wIndex, x.IndexID)
		assert.Equal(t, IndexSearch, x.Type)
		assert.True(t, x.Queryable)
		require.NotNil(t, x.LatestDefinition)
		d := x.LatestDefinition
		assert.Equal(t, false, d.Mappings.Dynamic)
		assert.Contains(t, d.Mappings.Fields, "title")
		require.Len(t, d.Analyzers, 1)
		assert.Equal(t, "keyword", d.Analyzers[0].Tokenizer["type"])
		assert.Equal(t, "synonyms", d.Synonyms[0].Source.Collection)
		assert.JSONEq(t, `{"include":["title"]}`, string(d.StoredSource))
		assert.EqualValues(t, 2, x.LatestDefinitionVersion.Version)
		require.Len(t, x.StatusDetail, 1)
		h := x.StatusDetail[0]
		assert.Equal(t, IndexReady, h.MainIndex.Status)
		assert.Equal(t, IndexBuilding, h.StagedIndex.Status)
		assert.EqualValues(t, 3, h.StagedIndex.DefinitionVersion.Version)
		assert.Equal(t, SynonymReady, x.SynonymMappingStatusDetail[0]["words"].Status)
	}
	checkVector := func(t *testing.T, x SearchIndex) {
		assert.Equal(t, IndexVectorSearch, x.Type)
		require.Len(t, x.LatestDefinition.Fields, 2)
		f := x.LatestDefinition.Fields[0]
		assert.Equal(t, VectorField{Type: "vector", Path: "embedding", NumDimensions: 1536, Similarity: SimilarityCosine}, f)
		assert.Equal(t, VectorFieldFilter, x.LatestDefinition.Fields[1].Type)
	}
	checkList := func(t *testing.T, v any) {
		l := as[[]SearchIndex](t, v)
		require.Len(t, l, 2)
		checkIndex(t, l[0])
		checkVector(t, l[1])
	}
	checkFTS := func(t *testing.T, x FTSIndex) {
		assert.Equal(t, wIndex, x.IndexID)
		assert.Equal(t, "lucene.standard", x.Analyzer)
		assert.Equal(t, 2, x.NumPartitions)
		assert.Equal(t, true, x.Mappings.Dynamic)
		assert.Equal(t, "true", string(x.StoredSource))
	}
	textDef := IndexDefinition{
		Mappings:       &Mappings{Dynamic: false, Fields: map[string]any{"title": map[string]any{"type": "string", "analyzer": "lucene.english"}}},
		Analyzer:       "lucene.standard",
		SearchAnalyzer: "lowercaser",
		Analyzers:      []Analyzer{{Name: "lowercaser", Tokenizer: map[string]any{"type": "keyword"}, TokenFilters: []map[string]any{{"type": "lowercase"}}}},
	}
	textDefJSON := `{"mappings":{"dynamic":false,"fields":{"title":{"type":"string","analyzer":"lucene.english"}}},
		"analyzer":"lucene.standard","searchAnalyzer":"lowercaser",
		"analyzers":[{"name":"lowercaser","tokenizer":{"type":"keyword"},"tokenFilters":[{"type":"lowercase"}]}]}`
	flat := FTSIndex{IndexID: "read-only", Name: "default", Database: "shop", CollectionName: "products", Analyzer: "lucene.standard",
		Mappings: &Mappings{Dynamic: true}, NumPartitions: 2, StoredSource: json.RawMessage(`true`)}
	flatJSON := `{"name":"default","database":"shop","collectionName":"products","analyzer":"lucene.standard","mappings":{"dynamic":true},"numPartitions":2,"storedSource":true}`
	analyzers := []Analyzer{{Name: "lowercaser", CharFilters: []map[string]any{{"type": "htmlStrip", "ignoredTags": []any{"a"}}},
		Tokenizer: map[string]any{"type": "standard", "maxTokenLength": 200}, TokenFilters: []map[string]any{{"type": "lowercase"}}}}
	checkAnalyzers := func(t *testing.T, v any) {
		l := as[[]Analyzer](t, v)
		require.Len(t, l, 1)
		assert.Equal(t, "lowercaser", l[0].Name)
		assert.Equal(t, "htmlStrip", l[0].CharFilters[0]["type"])
		assert.EqualValues(t, 200, l[0].Tokenizer["maxTokenLength"])
	}
	return map[string]wireCase{
		"createAtlasSearchIndex": {
			path: si,
			body: `{"name":"vec","database":"shop","collectionName":"products","type":"vectorSearch","definition":{
				"fields":[{"type":"vector","path":"embedding","numDimensions":1536,"similarity":"cosine"},{"type":"filter","path":"category"}]}}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Search().Create(ctx, wGroup, "Cluster0", SearchIndexCreateRequest{
					Name: "vec", Database: "shop", CollectionName: "products", Type: IndexVectorSearch,
					Definition: IndexDefinition{Fields: []VectorField{
						{Type: VectorFieldVector, Path: "embedding", NumDimensions: 1536, Similarity: SimilarityCosine},
						{Type: VectorFieldFilter, Path: "category"},
					}},
				})
			},
			check: func(t *testing.T, v any) {
				x := as[*SearchIndex](t, v)
				checkVector(t, *x)
				assert.Equal(t, IndexPending, x.Status)
			},
		},
		"listAtlasSearchIndexes": {
			path: si + "/shop/products",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Search().List(ctx, wGroup, "Cluster0", "shop", "products")
			},
			check: checkList,
		},
		"listAtlasSearchIndexesCluster": {
			path: si,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Search().ListCluster(ctx, wGroup, "Cluster0")
			},
			check: checkList,
		},
		"getAtlasSearchIndex": {
			path: si + "/" + wIndex,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Search().Get(ctx, wGroup, "Cluster0", wIndex)
			},
			check: func(t *testing.T, v any) { checkIndex(t, *as[*SearchIndex](t, v)) },
		},
		"getAtlasSearchIndexByName": {
			path: si + "/shop/products/" + oddEscaped,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Search().GetByName(ctx, wGroup, "Cluster0", "shop", "products", odd)
			},
			check: func(t *testing.T, v any) { checkIndex(t, *as[*SearchIndex](t, v)) },
		},
		"updateAtlasSearchIndex": {
			path: si + "/" + wIndex, body: `{"definition":` + textDefJSON + `}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Search().Update(ctx, wGroup, "Cluster0", wIndex, IndexSearch, textDef)
			},
			check: func(t *testing.T, v any) { assert.Equal(t, IndexPending, as[*SearchIndex](t, v).Status) },
		},
		"updateAtlasSearchIndexByName": {
			path: si + "/shop/products/" + oddEscaped, body: `{"definition":` + textDefJSON + `}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Search().UpdateByName(ctx, wGroup, "Cluster0", "shop", "products", odd, IndexSearch, textDef)
			},
			check: func(t *testing.T, v any) { assert.Equal(t, IndexPending, as[*SearchIndex](t, v).Status) },
		},
		"deleteAtlasSearchIndex": {
			path: si + "/" + wIndex,
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.Search().Delete(ctx, wGroup, "Cluster0", wIndex)
			},
		},
		"deleteAtlasSearchIndexByName": {
			path: si + "/shop/products/" + oddEscaped,
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.Search().DeleteByName(ctx, wGroup, "Cluster0", "shop", "products", odd)
			},
		},
		"listAtlasSearchIndexesDeprecated": {
			path: fts + "/shop/products",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Search().ListFTS(ctx, wGroup, "Cluster0", "shop", "products")
			},
			check: func(t *testing.T, v any) {
				l := as[[]FTSIndex](t, v)
				require.Len(t, l, 1)
				checkFTS(t, l[0])
				assert.Equal(t, FTSSteady, l[0].Status)
			},
		},
		"createAtlasSearchIndexDeprecated": {
			path: fts, body: flatJSON,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Search().CreateFTS(ctx, wGroup, "Cluster0", flat)
			},
			check: func(t *testing.T, v any) {
				x := as[*FTSIndex](t, v)
				checkFTS(t, *x)
				assert.Equal(t, FTSInProgress, x.Status)
			},
		},
		"getAtlasSearchIndexDeprecated": {
			path: fts + "/" + wIndex,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Search().GetFTS(ctx, wGroup, "Cluster0", wIndex)
			},
			check: func(t *testing.T, v any) { checkFTS(t, *as[*FTSIndex](t, v)) },
		},
		"updateAtlasSearchIndexDeprecated": {
			path: fts + "/" + wIndex, body: flatJSON,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Search().UpdateFTS(ctx, wGroup, "Cluster0", wIndex, flat)
			},
			check: func(t *testing.T, v any) { checkFTS(t, *as[*FTSIndex](t, v)) },
		},
		"deleteAtlasSearchIndexDeprecated": {
			path: fts + "/" + wIndex,
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.Search().DeleteFTS(ctx, wGroup, "Cluster0", wIndex)
			},
		},
		"listAtlasSearchAnalyzers": {
			path: base + "/fts/analyzers",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Search().Analyzers(ctx, wGroup, "Cluster0")
			},
			check: checkAnalyzers,
		},
		"updateAtlasSearchAnalyzers": {
			path: base + "/fts/analyzers",
			body: `[{"name":"lowercaser","charFilters":[{"type":"htmlStrip","ignoredTags":["a"]}],"tokenizer":{"type":"standard","maxTokenLength":200},"tokenFilters":[{"type":"lowercase"}]}]`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Search().UpdateAnalyzers(ctx, wGroup, "Cluster0", analyzers)
			},
			check: checkAnalyzers,
		},
	}
}

func accessLogCases() map[string]wireCase {
	g := "/groups/" + wGroup
	start, end := ts("2025-03-01T09:00:00Z"), ts("2025-03-01T10:00:00Z")
	return map[string]wireCase{
		"listAccessLogsByClusterName": {
			path: g + "/dbAccessHistory/clusters/Cluster0",
			query: url.Values{"authResult": {"false"}, "start": {"1740819600000"}, "end": {"1740823200000"},
				"ipAddress": {"198.51.100.7"}, "nLogs": {"500"}},
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.AccessLogs().ByCluster(ctx, wGroup, "Cluster0", AccessLogsOptions{
					AuthResult: ptr(false), Start: &start, End: &end, IPAddress: "198.51.100.7", NLogs: ptr(500),
				})
			},
			check: func(t *testing.T, v any) {
				logs := as[[]AccessLog](t, v)
				require.Len(t, logs, 2)
				assert.True(t, logs[0].AuthResult)
				assert.Equal(t, "", logs[0].FailureReason)
				assert.Equal(t, "app", logs[0].Username)
				when, ok := logs[0].Time()
				require.True(t, ok)
				assert.True(t, when.Equal(ts("2025-03-01T10:00:00Z")))
				assert.False(t, logs[1].AuthResult)
				assert.Equal(t, "UserNotFound", logs[1].FailureReason)
				assert.Equal(t, "198.51.100.7", logs[1].IPAddress)
			},
		},
		"listAccessLogsByHostname": {
			path: g + "/dbAccessHistory/processes/" + wHost, query: url.Values{"authResult": {"true"}},
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.AccessLogs().ByHost(ctx, wGroup, wHost, AccessLogsOptions{AuthResult: ptr(true)})
			},
			check: func(t *testing.T, v any) {
				logs := as[[]AccessLog](t, v)
				require.Len(t, logs, 1)
				assert.Equal(t, "root", logs[0].Username)
				assert.Equal(t, "cluster0-shard-00-01.ab12c.mongodb.net", logs[0].Hostname)
				when, ok := logs[0].Time()
				require.True(t, ok)
				assert.Equal(t, 5, when.Second())
			},
		},
	}
}

func migrationCases() map[string]wireCase {
	g := "/groups/" + wGroup
	o := "/orgs/" + wOrg
	req := MigrationRequest{
		Source:              MigrationSource{ClusterName: "legacy-rs", GroupID: "5f1a2b3c4d5e6f7a8b9c0d20", ManagedAuthentication: false, SSL: true, Username: "migrator", Password: "s3cret"},
		Destination:         MigrationDestination{ClusterName: "Cluster0", GroupID: wGroup, HostnameSchemaType: HostnamePublic},
		MigrationHosts:      []string{"mig-1.example.com"},
		DropDestinationData: true,
		Sharding: &MigrationSharding{CreateSupportingIndexes: true, ShardingEntries: []ShardEntry{
			{Database: "shop", Collection: "orders", ShardCollection: ShardKey{Key: []map[string]any{{"customerId": 1}}}},
		}},
	}
	reqJSON := `{"source":{"clusterName":"legacy-rs","groupId":"5f1a2b3c4d5e6f7a8b9c0d20","managedAuthentication":false,"ssl":true,"username":"migrator","password":"s3cret"},
		"destination":{"clusterName":"Cluster0","groupId":"` + wGroup + `","hostnameSchemaType":"PUBLIC"},
		"migrationHosts":["mig-1.example.com"],"dropDestinationData":true,
		"sharding":{"createSupportingIndexes":true,"shardingEntries":[{"database":"shop","collection":"orders","shardCollection":{"key":[{"customerId":1}]}}]}}`
	return map[string]wireCase{
		"createPushMigration": {
			path: g + "/liveMigrations", body: reqJSON,
			call: func(ctx context.Context, c *Client) (any, error) { return c.Migration().Create(ctx, wGroup, req) },
			check: func(t *testing.T, v any) {
				m := as[*LiveMigration](t, v)
				assert.Equal(t, wMig, m.ID)
				assert.Equal(t, MigrationNew, m.Status)
				assert.False(t, m.Done())
			},
		},
		"validateMigration": {
			path: g + "/liveMigrations/validate", body: reqJSON,
			call: func(ctx context.Context, c *Client) (any, error) { return c.Migration().Validate(ctx, wGroup, req) },
			check: func(t *testing.T, v any) {
				val := as[*MigrationValidation](t, v)
				assert.Equal(t, wValid, val.ID)
				assert.Equal(t, ValidationPending, val.Status)
				assert.False(t, val.Done())
			},
		},
		"getValidationStatus": {
			path: g + "/liveMigrations/validate/" + wValid,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Migration().ValidationStatus(ctx, wGroup, wValid)
			},
			check: func(t *testing.T, v any) {
				val := as[*MigrationValidation](t, v)
				assert.Equal(t, ValidationFailed, val.Status)
				assert.Contains(t, val.ErrorMessage, "not supported")
				assert.True(t, val.Done())
			},
		},
		"getPushMigration": {
			path: g + "/liveMigrations/" + wMig,
			call: func(ctx context.Context, c *Client) (any, error) { return c.Migration().Get(ctx, wGroup, wMig) },
			check: func(t *testing.T, v any) {
				m := as[*LiveMigration](t, v)
				assert.Equal(t, MigrationWorking, m.Status)
				assert.True(t, m.ReadyForCutover)
				assert.EqualValues(t, 12, *m.LagTimeSeconds)
			},
		},
		"cutoverMigration": {
			path: g + "/liveMigrations/" + wMig + "/cutover",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.Migration().Cutover(ctx, wGroup, wMig)
			},
		},
		"listSourceProjects": {
			path: o + "/liveMigrations/availableProjects",
			call: func(ctx context.Context, c *Client) (any, error) { return c.Migration().SourceProjects(ctx, wOrg) },
			check: func(t *testing.T, v any) {
				l := as[[]AvailableProject](t, v)
				require.Len(t, l, 1)
				require.Len(t, l[0].Deployments, 1)
				d := l[0].Deployments[0]
				assert.Equal(t, "6.0.15", d.MongoDBVersion)
				assert.True(t, d.Managed)
				assert.True(t, d.TLSEnabled)
				assert.EqualValues(t, 53687091200, d.DBSizeBytes)
			},
		},
		"createLinkToken": {
			path: o + "/liveMigrations/linkTokens", body: `{"accessListIps":["203.0.113.10"]}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Migration().CreateLinkToken(ctx, wOrg, []string{"203.0.113.10"})
			},
			check: func(t *testing.T, v any) {
				assert.Equal(t, "eyJhbGciOiJIUzI1NiJ9.bGlua3Rva2Vu.c2lnbmF0dXJl", as[*LinkToken](t, v).LinkToken)
			},
		},
		"deleteLinkToken": {
			path: o + "/liveMigrations/linkTokens",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.Migration().DeleteLinkToken(ctx, wOrg)
			},
		},
	}
}

func settingsCases() map[string]wireCase {
	g := "/groups/" + wGroup
	checkAWS := func(t *testing.T, r AccessRole) {
		assert.Equal(t, ProviderAWS, r.ProviderName)
		assert.Equal(t, wRole, r.Key())
		assert.Equal(t, "arn:aws:iam::123456789012:role/atlas-export", r.IAMAssumedRoleARN)
		assert.Equal(t, "24be2c0c-3e5f-4d4a-9c39-d4b1f7e6c3a1", r.AtlasAssumedRoleExternalID)
		assert.True(t, r.Authorized())
		require.Len(t, r.FeatureUsage, 1)
		assert.Equal(t, "EXPORT_SNAPSHOT", r.FeatureUsage[0].FeatureType)
	}
	return map[string]wireCase{
		"getAuditingConfiguration": {
			path: g + "/auditLog",
			call: func(ctx context.Context, c *Client) (any, error) { return c.Settings().AuditLog(ctx, wGroup) },
			check: func(t *testing.T, v any) {
				a := as[*AuditLog](t, v)
				assert.True(t, a.Enabled)
				assert.Equal(t, AuditFilterJSON, a.ConfigurationType)
				assert.JSONEq(t, `{"atype":"authenticate"}`, a.AuditFilter)
			},
		},
		"updateAuditingConfiguration": {
			path: g + "/auditLog",
			body: `{"enabled":true,"auditFilter":"{\"atype\":{\"$in\":[\"authenticate\",\"dropDatabase\"]}}","auditAuthorizationSuccess":true}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Settings().UpdateAuditLog(ctx, wGroup, AuditLogUpdate{
					Enabled: ptr(true), AuditFilter: ptr(`{"atype":{"$in":["authenticate","dropDatabase"]}}`), AuditAuthorizationSuccess: ptr(true),
				})
			},
			check: func(t *testing.T, v any) { assert.True(t, as[*AuditLog](t, v).AuditAuthorizationSuccess) },
		},
		"getAwsCustomDns": {
			path:  g + "/awsCustomDNS",
			call:  func(ctx context.Context, c *Client) (any, error) { return c.Settings().CustomDNS(ctx, wGroup) },
			check: func(t *testing.T, v any) { assert.False(t, as[*AWSCustomDNS](t, v).Enabled) },
		},
		"toggleAwsCustomDns": {
			path: g + "/awsCustomDNS", body: `{"enabled":true}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Settings().ToggleCustomDNS(ctx, wGroup, true)
			},
			check: func(t *testing.T, v any) { assert.True(t, as[*AWSCustomDNS](t, v).Enabled) },
		},
		"listCloudProviderAccessRoles": {
			path: g + "/cloudProviderAccess",
			call: func(ctx context.Context, c *Client) (any, error) { return c.Settings().AccessRoles(ctx, wGroup) },
			check: func(t *testing.T, v any) {
				r := as[*AccessRoles](t, v)
				require.Len(t, r.AWSIAMRoles, 1)
				checkAWS(t, r.AWSIAMRoles[0])
				require.Len(t, r.AzureServicePrincipals, 1)
				az := r.AzureServicePrincipals[0]
				assert.Equal(t, "63ad0e1f2a3b4c5d6e7f8092", az.Key())
				assert.Equal(t, "4ea1b7b6-1234-4c6f-9b2d-0123456789ab", az.TenantID)
				require.Len(t, r.GCPServiceAccounts, 1)
				gcp := r.GCPServiceAccounts[0]
				assert.Equal(t, GCPInProgress, gcp.Status)
				assert.False(t, gcp.Authorized())
				assert.Len(t, r.All(), 3)
			},
		},
		"createCloudProviderAccessRole": {
			path: g + "/cloudProviderAccess", body: `{"providerName":"AWS"}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Settings().CreateAccessRole(ctx, wGroup, AccessRoleRequest{ProviderName: ProviderAWS})
			},
			check: func(t *testing.T, v any) {
				r := as[*AccessRole](t, v)
				assert.Equal(t, "arn:aws:iam::012345678901:root", r.AtlasAWSAccountARN)
				assert.False(t, r.Authorized())
			},
		},
		"getCloudProviderAccessRole": {
			path:  g + "/cloudProviderAccess/" + wRole,
			call:  func(ctx context.Context, c *Client) (any, error) { return c.Settings().AccessRole(ctx, wGroup, wRole) },
			check: func(t *testing.T, v any) { checkAWS(t, *as[*AccessRole](t, v)) },
		},
		"authorizeCloudProviderAccessRole": {
			path: g + "/cloudProviderAccess/" + wRole,
			body: `{"providerName":"AWS","iamAssumedRoleArn":"arn:aws:iam::123456789012:role/atlas-export"}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Settings().AuthorizeAccessRole(ctx, wGroup, wRole, AccessRoleRequest{ProviderName: ProviderAWS, IAMAssumedRoleARN: "arn:aws:iam::123456789012:role/atlas-export"})
			},
			check: func(t *testing.T, v any) { checkAWS(t, *as[*AccessRole](t, v)) },
		},
		"deauthorizeCloudProviderAccessRole": {
			path: g + "/cloudProviderAccess/AWS/" + wRole,
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.Settings().DeauthorizeAccessRole(ctx, wGroup, ProviderAWS, wRole)
			},
		},
	}
}

func otherCases() map[string]wireCase {
	g := "/groups/" + wGroup
	const ep = "6a7b8c9d0e1f2a3b4c5d6e7f"
	return map[string]wireCase{
		"getEncryptionAtRestPrivateEndpoint": {
			path: g + "/encryptionAtRest/AZURE/privateEndpoints/" + ep,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Settings().EncryptionPrivateEndpoint(ctx, wGroup, ProviderAzure, ep)
			},
			check: func(t *testing.T, v any) {
				e := as[*EncryptionPrivateEndpoint](t, v)
				assert.Equal(t, "PENDING_ACCEPTANCE", e.Status)
				assert.Equal(t, "US_EAST_2", e.RegionName)
			},
		},
		"requestEncryptionAtRestPrivateEndpointDeletion": {
			path: g + "/encryptionAtRest/AZURE/privateEndpoints/" + ep,
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.Settings().DeleteEncryptionPrivateEndpoint(ctx, wGroup, ProviderAzure, ep)
			},
		},
		"listServerlessPrivateEndpoints": {
			path: g + "/privateEndpoint/serverless/instance/serverless-1/endpoint",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Settings().ServerlessEndpoints(ctx, wGroup, "serverless-1")
			},
			check: func(t *testing.T, v any) {
				l := as[[]ServerlessEndpoint](t, v)
				require.Len(t, l, 1)
				assert.Equal(t, "vpce-0123456789abcdef0", l[0].CloudProviderEndpointID)
				assert.Equal(t, "AVAILABLE", l[0].Status)
			},
		},
		"createServerlessPrivateEndpoint": {
			path: g + "/privateEndpoint/serverless/instance/serverless-1/endpoint", body: `{"comment":"batch vpc"}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Settings().CreateServerlessEndpoint(ctx, wGroup, "serverless-1", "batch vpc")
			},
			check: func(t *testing.T, v any) {
				assert.Equal(t, "RESERVATION_REQUESTED", as[*ServerlessEndpoint](t, v).Status)
			},
		},
		"getDatabaseMeasurements": {
			path:  g + "/processes/" + wHost + ":27017/databases/shop/measurements",
			query: url.Values{"granularity": {"PT1M"}, "period": {"PT1H"}, "m": {"DATABASE_DATA_SIZE", "DATABASE_INDEX_SIZE"}},
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Clusters().DatabaseMeasurements(ctx, wGroup, wHost+":27017", "shop", MeasurementOptions{
					Granularity: "PT1M", Period: "PT1H", Metrics: []string{"DATABASE_DATA_SIZE", "DATABASE_INDEX_SIZE"},
				})
			},
			check: func(t *testing.T, v any) {
				m := as[*Measurements](t, v)
				require.Len(t, m.Measurements, 1)
				pts := m.Measurements[0].DataPoints
				require.Len(t, pts, 2)
				assert.Equal(t, 1048576.0, *pts[0].Value)
				assert.Nil(t, pts[1].Value, "a missing reading stays nil, not 0")
			},
		},
		"listDropIndexes": {
			path: g + "/clusters/Cluster0/performanceAdvisor/dropIndexSuggestions",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Clusters().DropIndexSuggestions(ctx, wGroup, "Cluster0")
			},
			check: func(t *testing.T, v any) {
				d := as[*DropIndexSuggestions](t, v)
				require.Len(t, d.RedundantIndexes, 1)
				assert.Equal(t, "sku_1", d.RedundantIndexes[0].Name)
				assert.EqualValues(t, 1, d.RedundantIndexes[0].Index[0]["sku"])
				require.Len(t, d.UnusedIndexes, 1)
				assert.EqualValues(t, 0, d.UnusedIndexes[0].AccessCount)
			},
		},
		"listClusterSuggestedIndexes": {
			path: g + "/clusters/Cluster0/performanceAdvisor/suggestedIndexes",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Clusters().SuggestedIndexes(ctx, wGroup, "Cluster0")
			},
			check: func(t *testing.T, v any) {
				s := as[*SuggestedIndexes](t, v)
				require.Len(t, s.SuggestedIndexes, 1)
				assert.Equal(t, []string{s.Shapes[0].ID}, s.SuggestedIndexes[0].Impact)
				assert.EqualValues(t, 420, s.Shapes[0].AvgMs)
			},
		},
	}
}
