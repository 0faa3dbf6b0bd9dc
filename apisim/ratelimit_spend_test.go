package apisim

import (
	"encoding/json"
	"testing"
	"time"
)

// TestAnotherClientSpendsABucket: the control API takes tokens at once and
// then at a rate a minute of server time from one project's bucket, as a
// teammate's script on the same project would; the dashboard's next answer
// shows it in RateLimit-Remaining. perMinute 0 stops it; a set or scope it
// cannot name is refused.
func TestAnotherClientSpendsABucket(t *testing.T) {
	e := newEnv(t, Options{RateLimits: map[string]RateLimit{"alertsRead_group": {Capacity: 10, RefillRate: 10, RefillSeconds: 60}}})
	owner := e.digest("org-owner", "MD5")
	spend := func(body string) (int, map[string]any) {
		t.Helper()
		st, _, b := owner.do(t, rawReq{method: "PUT", path: "/api/atlas/sim/ratelimits/spend", body: []byte(body), ctype: "application/json"})
		var out map[string]any
		_ = json.Unmarshal(b, &out)
		return st, out
	}
	reader := e.digest("read-only", "MD5")
	remaining := func() string {
		t.Helper()
		st, h, b := reader.do(t, rawReq{method: "GET", path: "/api/atlas/v2/groups/" + DemoPaymentsID + "/alerts"})
		if st != 200 {
			t.Fatalf("alerts: %d %s", st, b)
		}
		return h.Get("RateLimit-Remaining")
	}

	st, out := spend(`{"endpointSetId":"alertsRead_group","groupId":"` + DemoPaymentsID + `","now":4}`)
	if st != 200 || out["remaining"] != 6.0 || out["scope"] != "group:"+DemoPaymentsID {
		t.Fatalf("spend 4 now: %d %v", st, out)
	}
	if r := remaining(); r != "5" {
		t.Errorf("after the other client took 4 and we 1: remaining %s, want 5", r)
	}
	if st, out = spend(`{"endpointSetId":"alertsRead_group","groupId":"` + DemoPaymentsID + `","perMinute":6}`); st != 200 {
		t.Fatalf("spend 6 a minute: %d %v", st, out)
	}
	// 30 s refill 5 (to the capacity, 10); the other client takes 3.
	e.clock.Advance(30 * time.Second)
	e.srv.limiter.spendDue(e.clock.Now())
	if r := remaining(); r != "6" {
		t.Errorf("after 30 s at 6 a minute: remaining %s, want 6", r)
	}
	if st, out = spend(`{"endpointSetId":"alertsRead_group","groupId":"` + DemoPaymentsID + `","perMinute":0}`); st != 200 {
		t.Fatalf("stop: %d %v", st, out)
	}
	e.clock.Advance(30 * time.Second)
	e.srv.limiter.spendDue(e.clock.Now())
	if r := remaining(); r != "9" {
		t.Errorf("after the other client stopped: remaining %s, want 9", r)
	}
	for _, bad := range []string{
		`{"endpointSetId":"nope","groupId":"` + DemoPaymentsID + `"}`,
		`{"endpointSetId":"alertsRead_group"}`,
		`{"endpointSetId":"alertsRead_group","groupId":"` + DemoPaymentsID + `","perMinute":-1}`,
	} {
		if st, out := spend(bad); st != 400 {
			t.Errorf("%s: %d %v, want 400", bad, st, out)
		}
	}
}
