package apiclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type item struct {
	ID string `json:"id"`
}

// pagedServer serves n items with the spec's paging rules, after latency.
type pagedServer struct {
	n         int
	latency   time.Duration
	noCount   bool
	claim     int // totalCount to send instead of n (a lying server)
	firstPage int // items page 1 holds whatever itemsPerPage asked (a lying server)
	once      sync.Once
	big       []byte
	alerts    bool // realistic alert bodies instead of bare ids
	bytes     atomic.Int64
	requests  atomic.Int32
	inFlight  atomic.Int32
	maxFlight atomic.Int32
}

func (p *pagedServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.requests.Add(1)
	cur := p.inFlight.Add(1)
	defer p.inFlight.Add(-1)
	for {
		m := p.maxFlight.Load()
		if cur <= m || p.maxFlight.CompareAndSwap(m, cur) {
			break
		}
	}
	time.Sleep(p.latency)
	q := r.URL.Query()
	per, num := 100, 1
	if v := q.Get("itemsPerPage"); v != "" {
		per, _ = strconv.Atoi(v)
	}
	if v := q.Get("pageNum"); v != "" {
		num, _ = strconv.Atoi(v)
	}
	if per < 1 || per > 500 || num < 1 {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"error":400,"errorCode":"VALIDATION_ERROR","reason":"Bad Request"}`))
		return
	}
	results := []any{}
	from, to := (num-1)*per, min(num*per, p.n)
	if p.firstPage > 0 {
		// Made once, outside the measured client's work as far as possible.
		p.once.Do(func() {
			var b bytes.Buffer
			b.WriteString(`{"results":[`)
			for i := range p.firstPage {
				if i > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, `{"id":"a%07d"}`, i)
			}
			fmt.Fprintf(&b, `],"totalCount":%d}`, p.claim)
			p.big = b.Bytes()
		})
		if num == 1 {
			_, _ = w.Write(p.big)
			return
		}
		from, to = 0, 0
	}
	for i := from; i < to; i++ {
		if p.alerts {
			results = append(results, realisticAlert(i))
		} else {
			results = append(results, item{ID: fmt.Sprintf("a%05d", i)})
		}
	}
	body := map[string]any{"results": results}
	if !p.noCount {
		body["totalCount"] = p.n
		if p.claim > 0 {
			body["totalCount"] = p.claim
		}
	}
	data, _ := json.Marshal(body)
	p.bytes.Add(int64(len(data)))
	_, _ = w.Write(data)
}

// realisticAlert is alert i as the service sends it: a host metric alert
// with its variant members, acknowledged one time in five, closed one time
// in three, with its self link.
func realisticAlert(i int) Alert {
	created := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute)
	id := fmt.Sprintf("6%023x", i)
	a := Alert{
		ID: id, AlertConfigID: fmt.Sprintf("5%023x", i%40), GroupID: testGroup, OrgID: "5e0a1b2c3d4e5f6a7b8c9d0e",
		Created: created, Updated: created.Add(5 * time.Minute), Status: AlertOpen,
		EventTypeName: "OUTSIDE_METRIC_THRESHOLD", LastNotified: ptrTo(created.Add(time.Minute)),
		ClusterName: fmt.Sprintf("cluster-%d", i%37), ReplicaSetName: fmt.Sprintf("atlas-%06x-shard-0", i%37),
		HostnameAndPort: fmt.Sprintf("cluster-%d-shard-00-%02d.ab12c.mongodb.net:27017", i%37, i%3),
		MetricName:      "ASSERT_REGULAR", CurrentValue: &CurrentValue{Number: float64(i%1000) / 7, Units: "RAW"},
		Links: []Link{{Href: "https://cloud.mongodb.com/api/atlas/v2/groups/" + testGroup + "/alerts/" + id, Rel: "self"}},
	}
	if i%3 == 0 {
		a.Status, a.Resolved = AlertClosed, ptrTo(created.Add(30*time.Minute))
	}
	if i%5 == 0 {
		a.AcknowledgedUntil = ptrTo(created.Add(24 * time.Hour))
		a.AcknowledgementComment = "Known: nightly batch job; ticket OPS-" + strconv.Itoa(1000+i%500)
		a.AcknowledgingUsername = "oncall@example.com"
	}
	return a
}

func ptrTo[T any](v T) *T { return &v }

// pagedClient serves p until the test ends and returns a client of it.
func pagedClient(t testing.TB, p *pagedServer) *Client {
	t.Helper()
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	c, err := New(Options{BaseURL: srv.URL})
	require.NoError(t, err)
	return c
}

func listAllAlerts(t testing.TB, c *Client, o AllOptions) []item {
	all, err := ListAll[item](context.Background(), c, "listAlerts", Request{Params: map[string]string{"groupId": testGroup}}, o)
	require.NoError(t, err)
	return all
}

func TestListAllFetchesEveryPageInOrder(t *testing.T) {
	for _, tc := range []struct {
		name    string
		n       int
		noCount bool
		conc    int
	}{
		{"concurrent", 1234, false, 4},
		{"sequential", 1234, false, 1},
		{"no total count", 1234, true, 4},
		{"exact multiple", 1000, false, 4},
		{"empty", 0, false, 4},
		{"one short page", 7, false, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &pagedServer{n: tc.n, noCount: tc.noCount, latency: time.Millisecond}
			all := listAllAlerts(t, pagedClient(t, p), AllOptions{PerPage: 100, Concurrency: tc.conc})
			require.Len(t, all, tc.n)
			for i, it := range all {
				require.Equal(t, fmt.Sprintf("a%05d", i), it.ID)
			}
			assert.LessOrEqual(t, p.maxFlight.Load(), int32(max(tc.conc, 1)))
		})
	}
}

func TestListAllBoundsConcurrency(t *testing.T) {
	p := &pagedServer{n: 5000, latency: 5 * time.Millisecond}
	all := listAllAlerts(t, pagedClient(t, p), AllOptions{PerPage: 100})
	assert.Len(t, all, 5000)
	assert.Equal(t, int32(4), p.maxFlight.Load(), "default is 4 pages in flight")
	assert.EqualValues(t, 50, p.requests.Load())
}

func TestListPageRejectsOutOfRangeOptionsLocally(t *testing.T) {
	p := &pagedServer{n: 10}
	c := pagedClient(t, p)
	_, _, err := ListPage[item](context.Background(), c, "listAlerts", Request{Params: map[string]string{"groupId": testGroup}, List: &ListOptions{ItemsPerPage: 501}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "itemsPerPage")
	assert.EqualValues(t, 0, p.requests.Load())
}

func TestIterateStopsWhenTheCallerBreaks(t *testing.T) {
	p := &pagedServer{n: 1000}
	c := pagedClient(t, p)
	seen := 0
	for it, err := range Iterate[item](context.Background(), c, "listAlerts", Request{Params: map[string]string{"groupId": testGroup}}, 100) {
		require.NoError(t, err)
		require.Equal(t, fmt.Sprintf("a%05d", seen), it.ID)
		seen++
		if seen == 250 {
			break
		}
	}
	assert.Equal(t, 250, seen)
	assert.EqualValues(t, 3, p.requests.Load())
}

// BenchmarkListAllAlerts compares fetching 10,000 realistic alerts (every
// member the service sends, ~0.9 KB each), 500 a page, decoded into Alert,
// from a server that adds 20 ms to every request: concurrently (4 in flight)
// against page by page. Reported per full listing, with the bytes received.
func BenchmarkListAllAlerts(b *testing.B) {
	p := &pagedServer{n: 10000, latency: 20 * time.Millisecond, alerts: true}
	c := pagedClient(b, p)
	for _, bc := range []struct {
		name string
		conc int
	}{{"concurrent", 4}, {"sequential", 1}} {
		b.Run(bc.name, func(b *testing.B) {
			p.bytes.Store(0)
			b.ReportAllocs()
			for b.Loop() {
				all, err := ListAll[Alert](context.Background(), c, "listAlerts", Request{Params: map[string]string{"groupId": testGroup}}, AllOptions{PerPage: 500, Concurrency: bc.conc})
				if err != nil || len(all) != 10000 || all[9999].HostnameAndPort == "" {
					b.Fatalf("got %d alerts, err %v", len(all), err)
				}
			}
			b.ReportMetric(float64(p.bytes.Load())/float64(b.N), "bytes-received/op")
		})
	}
}

// A server whose totalCount claims a million items while its pages after
// the first are empty (or whose first page holds far more than asked)
// costs a handful of requests and bounded memory: the pages decide where
// the list ends, and no list holds more than MaxRows.
func TestListAllBelievesPagesNotTheClaimedCount(t *testing.T) {
	for _, tc := range []struct {
		name        string
		srv         *pagedServer
		wantItems   int
		maxRequests int32
	}{
		{"a full first page, then empty pages", &pagedServer{n: 500, claim: 1_000_000, alerts: true}, 500, 5},
		{"an empty first page", &pagedServer{n: 0, claim: 1_000_000}, 0, 1},
		{"a short first page", &pagedServer{n: 120, claim: 1_000_000}, 120, 1},
		{"a short middle page", &pagedServer{n: 1700, claim: 1_000_000}, 1700, 5},
		{"a first page of a million", &pagedServer{firstPage: 1_000_000, claim: 1_000_000}, MaxRows, 1},
		{"no count, one full page then empty", &pagedServer{n: 500, noCount: true}, 500, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := pagedClient(t, tc.srv)
			stop := peakHeap()
			all, err := ListAll[Alert](context.Background(), c, "listAlerts", Request{Params: map[string]string{"groupId": testGroup}}, AllOptions{})
			peak := stop()
			require.NoError(t, err)
			assert.Len(t, all, tc.wantItems)
			assert.LessOrEqual(t, tc.srv.requests.Load(), tc.maxRequests)
			t.Logf("%d requests, %d items, heap peak %.1f MB (test server included)", tc.srv.requests.Load(), len(all), float64(peak)/(1<<20))
			assert.Less(t, peak, uint64(200<<20), "heap peak %d MB", peak>>20)
			if tc.wantItems == MaxRows {
				assert.Equal(t, "showing the first 100000", ShowingFirst(len(all)))
			} else {
				assert.Empty(t, ShowingFirst(len(all)))
			}
		})
	}
}

// peakHeap samples the live heap every millisecond until the returned stop
// is called, which gives the highest reading.
func peakHeap() (stop func() uint64) {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak atomic.Uint64
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-finished
		return peak.Load()
	}
}

// elementsBound never counts fewer results than a page holds, whatever
// they are (objects, strings with brackets and escapes, numbers, nulls), so
// a page over the cap never takes the one-pass path.
func TestElementsBoundIsAnUpperBound(t *testing.T) {
	for _, tc := range []struct {
		body string
		n    int
	}{
		{`{"results":[]}`, 0},
		{`{"results":[{}]}`, 1},
		{`{"results":[{},{},{}],"totalCount":3}`, 3},
		{`{"totalCount":2,"results":["a]\",[{","b"],"links":[]}`, 2},
		{`{"results":[1,22,null,true,{"x":[1,2]},[3]]}`, 6},
		{` { "results" : [ { "id" : "a" } , { "id" : "b" } ] } `, 2},
	} {
		assert.GreaterOrEqual(t, elementsBound([]byte(tc.body)), tc.n, tc.body)
		p := pageBody[json.RawMessage]{max: 1}
		require.NoError(t, json.Unmarshal([]byte(tc.body), &p), tc.body)
		assert.Len(t, p.Results, min(tc.n, 1), tc.body)
	}
}

// BenchmarkDecodeAlertPage decodes one answer of 500 realistic alerts into
// a page, as a full pass does 200 times at 100,000 alerts (on its
// goroutines, off the UI loop). It leaves out the network and the making
// of strings safe to print (safetext), which every answer pays.
func BenchmarkDecodeAlertPage(b *testing.B) {
	results := make([]Alert, 500)
	for i := range results {
		results[i] = realisticAlert(i)
	}
	data, err := json.Marshal(map[string]any{"results": results, "totalCount": 100_000, "links": []Link{{Href: "http://x/alerts?pageNum=2", Rel: "next"}}})
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		dec  func([]byte, any) error
	}{{"unmarshal", unmarshal}, {"encoding-json", json.Unmarshal}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				raw := pageBody[Alert]{max: MaxRows}
				if err := bc.dec(data, &raw); err != nil || len(raw.Results) != 500 {
					b.Fatalf("%d results, %v", len(raw.Results), err)
				}
			}
		})
	}
}

// elementsAtDepthByByte is elementsAtDepth as it was, byte by byte: the
// reference the skipping one must agree with.
func elementsAtDepthByByte(b []byte, d int) int {
	n, depth, inString, escaped := 0, 0, false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			if depth == d+1 {
				n++
			}
			continue
		case c == '}' || c == ']':
			depth--
			continue
		case c == ',' && depth == d:
			n++
			continue
		default:
			if depth == d && c > ' ' {
				n++
			}
			continue
		}
		if depth == d {
			n++
		}
	}
	return n
}

func TestElementsAtDepthSkipsStringsAsByByte(t *testing.T) {
	cases := []string{
		`{"results":[{"id":"a\"],[","x":1},{"id":"b\\"},"s\\\"",3,[1,2]],"links":[{"href":"h"}],"totalCount":2}`,
		`{"results":["\\\\","\\\\\"]"," ",  7 , true,null,{"a":"\"{"}]}`,
		`{"results":["unterminated`,
		`{"results":["ends in a backslash\`,
		`[1,"two",{"three":[3]},"\"",[]]`,
		`{"results":[],"links":[]}`,
		``,
	}
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte(`{}[],:"\ab1 `)
	for range 2000 {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		cases = append(cases, string(b))
	}
	for _, c := range cases {
		for d := 1; d <= 2; d++ {
			require.Equal(t, elementsAtDepthByByte([]byte(c), d), elementsAtDepth([]byte(c), d), "depth %d of %q", d, c)
		}
	}
}
