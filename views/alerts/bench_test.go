package alerts

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// counting counts the requests and the response bytes that cross it.
type counting struct {
	next  http.RoundTripper
	reqs  atomic.Int64
	bytes atomic.Int64
}

func (c *counting) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := c.next.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	if r.Header.Get("Authorization") != "" {
		c.reqs.Add(1)
	}
	res.Body = &countBody{ReadCloser: res.Body, n: &c.bytes}
	return res, nil
}

type countBody struct {
	io.ReadCloser
	n *atomic.Int64
}

func (b *countBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n.Add(int64(n))
	return n, err
}

// bigPane is the pane against apisim with n more alerts in the payments
// project, through a client that counts, loaded by a full pass.
type bigPane struct {
	*viewstest.Driver
	sim *viewstest.Sim
	p   *Pane
	net *counting
}

func newBigPane(tb testing.TB, n int) *bigPane {
	sim := viewstest.NewSim(tb, viewstest.SimOptions{})
	require.NoError(tb, sim.Server.AddAlerts(apisim.DemoPaymentsID, n))
	net := &counting{next: http.DefaultTransport}
	client, err := apiclient.New(apiclient.Options{BaseURL: sim.URL, Service: "atlas", MaxRetries: -1,
		Auth: apiclient.DigestAuth("org-owner", "org-owner-secret"), HTTPClient: &http.Client{Transport: net}})
	require.NoError(tb, err)
	ctx := sim.Context(Registration)
	ctx.Client, ctx.Gate = client, nil
	b := &bigPane{sim: sim, net: net}
	b.p = New(ctx).(*Pane)
	b.Driver = viewstest.NewDriver(tb, b.p)
	b.p.SetSize(200, 50)
	return b
}

func heapMB() float64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapAlloc) / (1 << 20)
}

// peakHeap runs f while sampling the heap in use every millisecond (garbage
// not yet collected included) and returns the highest reading in MB.
func peakHeap(f func()) float64 {
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > peak.Load() {
				peak.Store(m.HeapAlloc)
			}
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	f()
	close(done)
	wg.Wait()
	return float64(peak.Load()) / (1 << 20)
}

// BenchmarkAlertsRefresh100k is one poll of the alerts pane holding
// 100,000 alerts (plus the seeded 172): the requests and response bytes it
// costs, and the time until its rows are current. The first full load is
// reported beside it. A full pass runs only when the counts call for one
// (when.go), not on a timer: BenchmarkAlertsIdleHour measures what an hour
// costs, passes included.
//
// requests/refresh counts 3 only while OPEN and TRACKING each fit a page
// (apisim's added alerts are about 0.4 % open, 400 of 100,000; a project
// with 35,000 open reads 70 pages a refresh). The loads run through the
// test driver one command after another: s/full-load is not the
// dashboard's time to its whole list with pages in flight side by side
// (e2e's TestAlertsSpeed is).
func BenchmarkAlertsRefresh100k(b *testing.B) {
	e := newBigPane(b, 100_000)
	t0 := time.Now()
	e.Run(e.p.Init())
	load := time.Since(t0)
	require.True(b, e.p.firstDone)
	require.Equal(b, min(100_172, apiclient.MaxRows), len(e.p.alerts)) // the rows the client keeps
	loadReqs, loadBytes := e.net.reqs.Load(), e.net.bytes.Load()
	e.net.reqs.Store(0)
	e.net.bytes.Store(0)
	b.ResetTimer()
	for range b.N {
		e.sim.Clock.Advance(15 * time.Second)
		e.Send(views.RefreshMsg{})
		if e.p.err != nil {
			b.Fatal(e.p.err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(e.net.reqs.Load())/float64(b.N), "requests/refresh")
	b.ReportMetric(float64(e.net.bytes.Load())/float64(b.N), "bytes/refresh")
	b.ReportMetric(float64(loadReqs), "requests/full-load")
	b.ReportMetric(float64(loadBytes)/(1<<20), "MB/full-load")
	b.ReportMetric(load.Seconds(), "s/full-load")
	per := float64(e.net.reqs.Load()) / float64(b.N)
	if per > 5 {
		b.Errorf("%.1f requests a refresh, over the budget of 5", per)
	}
}

// BenchmarkAlertsMemory reports what the pane holds at 1k, 10k and 100k
// alerts: retained heap after a GC once loaded (cold: after the first load
// and a frame; warm: after a refresh and a second full pass), and the
// highest heap in use (uncollected garbage included) during an incremental
// refresh and during a full pass over a loaded store. Each is the heap
// minus the same process's heap once the pane is dropped (the simulator
// and the test's own memory). The binary's soft memory limit is set as
// it sets it (56 MiB to start with): without it the heap in use before a
// collection, the peaks, would grow to twice what is live. What it leaves
// out: the binary's pages outside the heap (code, stacks, the runtime's
// own: about 15 MB of RSS) and the memory the runtime keeps from the
// system after a collection; the real binary's RSS is e2e's
// TestAlertsSpeed and TestAlertsRSS.
func BenchmarkAlertsMemory(b *testing.B) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(56 << 20))
	for _, n := range []int{1_000, 10_000, 100_000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			for range b.N {
				e := newBigPane(b, n-172)
				e.Run(e.p.Init())
				_ = e.p.View()
				cold := heapMB()
				refresh := peakHeap(func() { e.Send(views.RefreshMsg{}) })
				e.p.needFull = true
				full := peakHeap(func() { e.Send(views.RefreshMsg{}) })
				require.True(b, e.p.firstDone)
				_ = e.p.View()
				warm := heapMB()
				// The same process without the pane: what is left is the
				// simulator and the test's own.
				e.p, e.Driver = nil, nil
				base := heapMB()
				b.ReportMetric(cold-base, "MB-steady-cold")
				b.ReportMetric(warm-base, "MB-steady-warm")
				b.ReportMetric(refresh-base, "MB-peak-refresh")
				b.ReportMetric(full-base, "MB-peak-full-pass")
			}
		})
	}
}

// BenchmarkDecodeListedPage is a page of 500 alerts read through the client
// (body read, decoded, made safe to print) as the whole apiclient.Alert and
// as a full pass reads it (listedAlert), from a local server answering at
// once: the client's work on the page's goroutine. It leaves out the
// network, the service's time, the merge on the UI loop and the garbage
// collection the allocations cause later (B/op is that garbage).
func BenchmarkDecodeListedPage(b *testing.B) {
	at := time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC)
	page := make([]apiclient.Alert, 500)
	for i := range page {
		until, seen := at.Add(time.Hour), at.Add(time.Minute)
		page[i] = apiclient.Alert{ID: fmt.Sprintf("65b0c0ffee%014d", i), AlertConfigID: "65b0c0ffee00000000000c01",
			GroupID: apisim.DemoPaymentsID, OrgID: "65a0c0ffee00000000000001", Created: at.Add(time.Duration(i) * time.Minute),
			Updated: at, Status: apiclient.AlertClosed, EventTypeName: "OUTSIDE_METRIC_THRESHOLD", AcknowledgedUntil: &until,
			AcknowledgingUsername: "alice@example.com", LastNotified: &seen, Resolved: &seen, ClusterName: "payments-prod",
			HostnameAndPort: "payments-prod-shard-00-01.abcde.mongodb.net:27017", ReplicaSetName: "atlas-abc-shard-0",
			MetricName: "ASSERT_REGULAR", CurrentValue: &apiclient.CurrentValue{Number: 12.5, Units: "RAW"},
			Links: []apiclient.Link{{Href: "https://cloud.example/api/atlas/v2/groups/x/alerts/y", Rel: "self"}}}
	}
	body, err := json.Marshal(map[string]any{"results": page, "totalCount": 100_000})
	require.NoError(b, err)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		_, _ = w.Write(body)
	}))
	b.Cleanup(srv.Close)
	c, err := apiclient.New(apiclient.Options{BaseURL: srv.URL})
	require.NoError(b, err)
	req := apiclient.Request{Params: map[string]string{"groupId": apisim.DemoPaymentsID},
		List: &apiclient.ListOptions{PageNum: 1, ItemsPerPage: perPage}}
	ctx := context.Background()
	b.Run("whole", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			if pg, _, err := apiclient.ListPage[apiclient.Alert](ctx, c, "listAlerts", req); err != nil || len(pg.Results) != 500 {
				b.Fatal(err)
			}
		}
	})
	b.Run("listed", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			if pg, _, err := apiclient.ListPage[listedAlert](ctx, c, "listAlerts", req); err != nil || len(pg.Results) != 500 {
				b.Fatal(err)
			}
		}
	})
}
