package apisim

import (
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/icholy/digest"
	"golang.org/x/sync/errgroup"
)

const loadClients = 32

// unlimited is for tests that hammer the server on purpose, measuring
// throughput, not the rate limits: every endpoint set gets a bucket far
// larger than they use (the default sets allow 100 a minute per project).
const unlimited = 1 << 30

// listClient is one of the concurrent callers: its own digest transport
// (so its own cached challenge and nonce counts).
func listClient(base string) func() (int, error) {
	tr := &digest.Transport{Username: "read-only", Password: "read-only-secret",
		Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	c := &http.Client{Transport: tr}
	url := base + "/api/atlas/v2/groups/" + DemoPaymentsID + "/alerts?itemsPerPage=20"
	return func() (int, error) {
		req, _ := http.NewRequest("GET", url, nil)
		req.Header.Set("Accept", "application/vnd.atlas.2023-01-01+json")
		res, err := c.Do(req)
		if err != nil {
			return 0, err
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode, nil
	}
}

// TestDigestLoad sends 2,000 digest-authenticated list requests from 32
// concurrent clients over loopback and logs the rate.
func TestDigestLoad(t *testing.T) {
	_, base := startServer(t, Options{RateLimitPerMin: unlimited})
	const total = 2000
	var next, failed atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range loadClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			get := listClient(base)
			for next.Add(1) <= total {
				if st, err := get(); err != nil || st != 200 {
					failed.Add(1)
					t.Errorf("status %d err %v", st, err)
				}
			}
		}()
	}
	wg.Wait()
	el := time.Since(start)
	if failed.Load() > 0 {
		t.Fatalf("%d of %d requests failed", failed.Load(), total)
	}
	t.Logf("%d digest list requests from %d clients in %v: %.0f requests/s", total, loadClients, el.Round(time.Millisecond), total/el.Seconds())
}

// BenchmarkDigestList measures digest-authenticated list requests with 32
// concurrent clients (run with -bench DigestList).
func BenchmarkDigestList(b *testing.B) {
	_, base := startServer(b, Options{RateLimitPerMin: unlimited})
	b.SetParallelism((loadClients + 1) / 2) // x GOMAXPROCS goroutines; 32 on 2 cores
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		get := listClient(base)
		for pb.Next() {
			if st, err := get(); err != nil || st != 200 {
				b.Errorf("status %d err %v", st, err)
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
}

// BenchmarkAlertsPage100k measures the server's cost of one page of 500
// alerts (the last page) out of 100,000 in a project, over loopback with
// digest: what a client's full pass pays per page on apisim's side. It
// leaves out the latency and the rate limits (none set).
func BenchmarkAlertsPage100k(b *testing.B) {
	s, base := startServer(b, Options{RateLimitPerMin: unlimited})
	if err := s.AddAlerts(DemoPaymentsID, 100_000); err != nil {
		b.Fatal(err)
	}
	tr := &digest.Transport{Username: "read-only", Password: "read-only-secret", Transport: &http.Transport{}}
	c := &http.Client{Transport: tr}
	url := base + "/api/atlas/v2/groups/" + DemoPaymentsID + "/alerts?itemsPerPage=500&pageNum=200"
	b.ResetTimer()
	for b.Loop() {
		req, _ := http.NewRequest("GET", url, nil)
		req.Header.Set("Accept", "application/vnd.atlas.2023-01-01+json")
		res, err := c.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || n < 100_000 {
			b.Fatalf("status %d, %d bytes", res.StatusCode, n)
		}
	}
}

// BenchmarkAlertsPass10k measures the server's side of a client's full
// pass at 10,000 alerts: the 21 pages of 500 asked for at once, each on its
// own connection (as a client with that many lanes does), over loopback
// with digest; one op is the whole pass. Pages encoded one at a time under
// the world lock make it as slow as 21 pages in a row; what it leaves out:
// latency, rate limits and the client's decoding.
func BenchmarkAlertsPass10k(b *testing.B) {
	s, base := startServer(b, Options{RateLimitPerMin: unlimited})
	if err := s.AddAlerts(DemoPaymentsID, 10_000); err != nil {
		b.Fatal(err)
	}
	const pages = 21
	clients := make([]*http.Client, pages)
	for i := range clients {
		clients[i] = &http.Client{Transport: &digest.Transport{Username: "read-only", Password: "read-only-secret", Transport: &http.Transport{}}}
	}
	get := func(c *http.Client, page int) error {
		req, _ := http.NewRequest("GET", fmt.Sprintf("%s/api/atlas/v2/groups/%s/alerts?itemsPerPage=500&pageNum=%d", base, DemoPaymentsID, page), nil)
		req.Header.Set("Accept", "application/vnd.atlas.2023-01-01+json")
		res, err := c.Do(req)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		n, _ := io.Copy(io.Discard, res.Body)
		if res.StatusCode != 200 || (page < pages && n < 100_000) {
			return fmt.Errorf("page %d: status %d, %d bytes", page, res.StatusCode, n)
		}
		return nil
	}
	pass := func() error {
		var g errgroup.Group
		for i, c := range clients {
			g.Go(func() error { return get(c, i+1) })
		}
		return g.Wait()
	}
	if err := pass(); err != nil { // the digest nonces, then warm
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if err := pass(); err != nil {
			b.Fatal(err)
		}
	}
}
