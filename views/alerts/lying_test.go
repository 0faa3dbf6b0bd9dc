package alerts

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// A server whose alert lists claim a million alerts (totalCount, which the
// service calls an estimate) while every page after the first is empty:
// the pane reads what the pages hold, ends at the short or empty page, and
// stays within a couple of hundred requests and megabytes, first pass and
// refresh alike.
func TestLyingAlertCountIsNotBelieved(t *testing.T) {
	for _, tc := range []struct {
		name  string
		extra int // alerts added to the demo project's 172
	}{
		{"short first page", 0},
		{"full first page, then empty pages", 1000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sim := viewstest.NewSim(t, viewstest.SimOptions{})
			if tc.extra > 0 {
				require.NoError(t, sim.Server.AddAlerts(apisim.DemoPaymentsID, tc.extra))
			}
			var lists atomic.Int64
			sim.Intercept(func(w http.ResponseWriter, r *http.Request, server http.Handler) bool {
				if r.Method != http.MethodGet || !strings.HasSuffix(r.URL.Path, "/alerts") {
					return false
				}
				lists.Add(1)
				page := r.URL.Query().Get("pageNum")
				w.Header().Set("Content-Type", "application/vnd.atlas.2023-01-01+json")
				if page != "" && page != "1" {
					_, _ = w.Write([]byte(`{"results":[],"totalCount":1000000,"links":[]}`))
					return true
				}
				rec := httptest.NewRecorder()
				server.ServeHTTP(rec, r)
				var body map[string]any
				require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &body))
				body["totalCount"] = 1_000_000
				b, _ := json.Marshal(body)
				w.Header().Set("Content-Type", rec.Header().Get("Content-Type"))
				_, _ = w.Write(b)
				return true
			})
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			ctx := sim.Context(Registration)
			p := New(ctx).(*Pane)
			d := viewstest.NewDriver(t, p)
			p.SetSize(120, 30)
			d.Run(p.Init())
			require.True(t, p.firstDone, "the first pass ended")
			d.Send(views.RefreshMsg{})
			runtime.ReadMemStats(&after)
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Logf("%d list requests, %d alerts held, %.1f MB allocated (the simulator's included)", lists.Load(), len(p.alerts), float64(alloc)/(1<<20))
			// Page 1 of the pass, and the open and tracking ones the refresh
			// read: what the pages held, never rows the count made up.
			assert.GreaterOrEqual(t, len(p.alerts), min(172+tc.extra, perPage))
			assert.LessOrEqual(t, len(p.alerts), 172+tc.extra)
			assert.LessOrEqual(t, lists.Load(), int64(200))
			assert.Less(t, alloc, uint64(200<<20))
			assert.NotContains(t, d.Screen(), "showing the first")
		})
	}
}

// A list at the cap says so in its header: the store holds no more than
// apiclient.MaxRows alerts, and the header says "showing the first" them.
func TestAlertListAtTheCapSaysShowingTheFirst(t *testing.T) {
	e := newPaneEnv(t)
	assert.NotContains(t, e.P.listHeader(), "showing the first")
	as := make([]apiclient.Alert, apiclient.MaxRows)
	created := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range as {
		as[i] = apiclient.Alert{ID: fmt.Sprintf("6%023x", i), GroupID: apisim.DemoPaymentsID, Status: apiclient.AlertClosed,
			EventTypeName: "HOST_DOWN", Created: created.Add(time.Duration(i) * time.Second)}
	}
	fill(e.P, as)
	assert.Contains(t, e.P.listHeader(), "100000 alerts (showing the first 100000)")
}
