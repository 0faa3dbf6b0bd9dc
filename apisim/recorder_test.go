package apisim

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestRequestCounterCountsSignedRequestsAndThrottled: of a digest client's
// challenge and three signed reads against a bucket of two, the counter
// counts the three reads as sent and the third as throttled.
func TestRequestCounterCountsSignedRequestsAndThrottled(t *testing.T) {
	e := newEnv(t, Options{RateLimits: map[string]RateLimit{"alertsRead_group": {Capacity: 2, RefillRate: 1, RefillSeconds: 30}}})
	var n RequestCounter
	ts := httptest.NewServer(n.Wrap(e.srv.Handler()))
	t.Cleanup(ts.Close)
	d := &digestClient{base: ts.URL, user: "org-owner", pass: "org-owner-secret", alg: "MD5"}
	d.challenge(t)
	var got []int
	for range 3 {
		st, _, _ := d.do(t, rawReq{method: "GET", path: "/api/atlas/v2/groups/" + DemoPaymentsID + "/alerts"})
		got = append(got, st)
	}
	if got[0] != 200 || got[1] != 200 || got[2] != 429 {
		t.Fatalf("statuses %v, want 200 200 429", got)
	}
	if s, th := n.Sent.Load(), n.Throttled.Load(); s != 3 || th != 1 {
		t.Errorf("sent %d, throttled %d; want 3 and 1", s, th)
	}
}

// TestStatusRecorderKeepsTheFirstStatus: the first WriteHeader's code, or
// 200 when the body is written first.
func TestStatusRecorderKeepsTheFirstStatus(t *testing.T) {
	for _, c := range []struct {
		name  string
		write func(http.ResponseWriter)
		want  int
	}{
		{"nothing written", func(http.ResponseWriter) {}, 0},
		{"header", func(w http.ResponseWriter) { w.WriteHeader(429) }, 429},
		{"header twice", func(w http.ResponseWriter) { w.WriteHeader(503); w.WriteHeader(200) }, 503},
		{"body first", func(w http.ResponseWriter) { _, _ = w.Write([]byte("{}")); w.WriteHeader(500) }, 200},
	} {
		rec := &StatusRecorder{ResponseWriter: httptest.NewRecorder()}
		c.write(rec)
		if rec.Status != c.want {
			t.Errorf("%s: status %d, want %d", c.name, rec.Status, c.want)
		}
	}
}
