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

// via is tc reached through another call: the same exchange on the wire and
// the same answer, as a legacy operation and its current twin share them.
func (tc wireCase) via(call func(ctx context.Context, c *Client) (any, error)) wireCase {
	tc.call = call
	return tc
}

func as[T any](t *testing.T, v any) T {
	t.Helper()
	out, ok := v.(T)
	require.True(t, ok, "result is %T", v)
	return out
}

// results asserts that v is a page of n results and returns them.
func results[T any](t *testing.T, v any, n int) []T {
	t.Helper()
	p := as[*Page[T]](t, v)
	require.Len(t, p.Results, n)
	return p.Results
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

// wireAreas lists each area's wire cases; an area's cases live in
// wire_<area>_test.go, and TestWireCasesSitInTheirArea keeps them there.
var wireAreas = []struct {
	area  catalog.Area
	cases func() map[string]wireCase
}{
	{catalog.AreaProjects, projectCases},
	{catalog.AreaClusters, clusterCases},
	{catalog.AreaClusters, clusterInsightCases},
	{catalog.AreaRateLimits, rateLimitCases},
	{catalog.AreaAccessLogs, accessLogCases},
	{catalog.AreaAlerts, alertCases},
	{catalog.AreaSearch, searchCases},
	{catalog.AreaSettings, settingsCases},
	{catalog.AreaSettings, privateEndpointCases},
	{catalog.AreaBackups, backupCases},
	{catalog.AreaMigration, migrationCases},
}

func wireCases() map[string]wireCase {
	cases := map[string]wireCase{}
	for _, a := range wireAreas {
		for k, v := range a.cases() {
			if _, dup := cases[k]; dup {
				panic("duplicate wire case " + k)
			}
			cases[k] = v
		}
	}
	return cases
}

// TestWireCasesSitInTheirArea: each wire case is listed under its
// operation's catalog area, so the per-area files stay per area.
func TestWireCasesSitInTheirArea(t *testing.T) {
	for _, a := range wireAreas {
		for id := range a.cases() {
			if op, ok := catalog.Get(id); ok {
				assert.Equal(t, op.Area, a.area, "wire case %s is listed under %s", id, a.area)
			}
		}
	}
}
