package apisim

import (
	"context"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

// logClient is the shared client as the monitoring admin, against e.
func (e *testEnv) logClient(t *testing.T) *apiclient.Client {
	t.Helper()
	c, err := apiclient.New(apiclient.Options{BaseURL: e.ts.URL, Service: "atlas",
		Auth: apiclient.DigestAuth("monitoring-admin", "monitoring-admin-secret"), MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func logTime(t *testing.T, l apiclient.AccessLog) time.Time {
	t.Helper()
	at, ok := l.Time()
	if !ok {
		t.Fatalf("timestamp %q does not parse", l.Timestamp)
	}
	return at
}

func window(from, to time.Time) apiclient.AccessLogsOptions {
	return apiclient.AccessLogsOptions{Start: &from, End: &to}
}

// The stream: newest first, second-resolution timestamps that repeat, only
// the cluster's own hosts, both outcomes with their fields, and it grows as
// the clock runs.
func TestAccessLogStreamGrowsOnTheClock(t *testing.T) {
	e := newEnv(t, Options{})
	c, ctx := e.logClient(t), context.Background()
	hosts := map[string]bool{}
	for _, h := range e.srv.world.Hosts {
		if h.ClusterName == "payments-rs" {
			hosts[h.Hostname] = true
		}
	}
	logs, err := c.AccessLogs().ByCluster(ctx, DemoPaymentsID, "payments-rs", apiclient.AccessLogsOptions{NLogs: ptrTo(2000)})
	if err != nil {
		t.Fatal(err)
	}
	if len(logs) != 2000 {
		t.Fatalf("got %d records, want 2000", len(logs))
	}
	var ok, failed, sameSecond int
	for i, l := range logs {
		at := logTime(t, l)
		if at.Nanosecond() != 0 {
			t.Errorf("timestamp %q has sub-second precision", l.Timestamp)
		}
		if i > 0 {
			prev := logTime(t, logs[i-1])
			if at.After(prev) {
				t.Fatalf("record %d (%s) is newer than record %d (%s): not newest first", i, at, i-1, prev)
			}
			if at.Equal(prev) {
				sameSecond++
			}
		}
		if at.After(testStart) {
			t.Errorf("record at %s is after the server clock %s", at, testStart)
		}
		if !hosts[l.Hostname] {
			t.Errorf("host %s is not a payments-rs host", l.Hostname)
		}
		if l.GroupID != DemoPaymentsID || l.Username == "" || l.IPAddress == "" || l.AuthSource == "" || !strings.Contains(l.LogLine, `"c":"ACCESS"`) {
			t.Errorf("incomplete record %+v", l)
		}
		if l.AuthResult {
			ok++
			if l.FailureReason != "" {
				t.Errorf("success with a failure reason: %+v", l)
			}
		} else {
			failed++
			if l.FailureReason == "" || !strings.Contains(l.LogLine, "Authentication failed") {
				t.Errorf("failure without its reason: %+v", l)
			}
		}
	}
	if ok == 0 || failed == 0 || sameSecond == 0 {
		t.Errorf("want successes, failures and shared timestamps; got %d, %d, %d", ok, failed, sameSecond)
	}
	newest := logTime(t, logs[0])
	e.clock.Advance(2 * time.Minute)
	later, err := c.AccessLogs().ByCluster(ctx, DemoPaymentsID, "payments-rs", apiclient.AccessLogsOptions{NLogs: ptrTo(50)})
	if err != nil {
		t.Fatal(err)
	}
	if got := logTime(t, later[0]); !got.After(newest.Add(time.Minute)) {
		t.Errorf("after two minutes the newest record is %s, was %s", got, newest)
	}
}

// Records show up a few seconds after they happen, so the same window read
// later can hold more, never fewer.
func TestAccessLogLateRecords(t *testing.T) {
	e := newEnv(t, Options{})
	c, ctx := e.logClient(t), context.Background()
	grew := 0
	for range 30 {
		now := e.clock.Now()
		w := window(now.Add(-5*time.Second), now)
		before, err := c.AccessLogs().ByCluster(ctx, DemoPaymentsID, "payments-prod", w)
		if err != nil {
			t.Fatal(err)
		}
		e.clock.Advance(accessMaxLag + time.Second)
		after, err := c.AccessLogs().ByCluster(ctx, DemoPaymentsID, "payments-prod", w)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, l := range after {
			seen[l.LogLine] = true
		}
		for _, l := range before {
			if !seen[l.LogLine] {
				t.Fatalf("record %s vanished from its window", l.LogLine)
			}
		}
		if len(after) > len(before) {
			grew++
		}
	}
	if grew == 0 {
		t.Error("no window ever gained a late record")
	}
}

// Now and then one outside address fails many times in a minute.
func TestAccessLogFailureBursts(t *testing.T) {
	e := newEnv(t, Options{})
	c, ctx := e.logClient(t), context.Background()
	now := e.clock.Now()
	fails, err := c.AccessLogs().ByCluster(ctx, DemoPaymentsID, "payments-rs", apiclient.AccessLogsOptions{
		AuthResult: ptrTo(false), Start: ptrTo(now.Add(-2 * time.Hour)), End: &now})
	if err != nil {
		t.Fatal(err)
	}
	perMinute := map[string]int{}
	for _, l := range fails {
		if l.AuthResult {
			t.Fatalf("authResult=false returned a success: %+v", l)
		}
		perMinute[l.IPAddress+" "+logTime(t, l).Truncate(time.Minute).String()]++
	}
	bursts := 0
	for k, n := range perMinute {
		if n >= 20 {
			bursts++
			if !strings.HasPrefix(k, "203.0.113.") && !strings.HasPrefix(k, "198.51.100.") {
				t.Errorf("burst from an inside address: %s", k)
			}
		}
	}
	if bursts == 0 {
		t.Errorf("no burst of 20+ failures a minute from one address in two hours: %v", perMinute)
	}
	ip := fails[0].IPAddress
	byIP, err := c.AccessLogs().ByCluster(ctx, DemoPaymentsID, "payments-rs", apiclient.AccessLogsOptions{IPAddress: ip, NLogs: ptrTo(100)})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range byIP {
		if l.IPAddress != ip {
			t.Fatalf("ipAddress=%s returned %s", ip, l.IPAddress)
		}
	}
	oks, err := c.AccessLogs().ByCluster(ctx, DemoPaymentsID, "payments-rs", apiclient.AccessLogsOptions{AuthResult: ptrTo(true), NLogs: ptrTo(500)})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range oks {
		if !l.AuthResult {
			t.Fatalf("authResult=true returned a failure: %+v", l)
		}
	}
}

// start and end bound the records (inclusive, epoch ms); the cluster keeps a
// bounded window, whatever start asks for.
func TestAccessLogWindowAndRetention(t *testing.T) {
	e := newEnv(t, Options{})
	c, ctx := e.logClient(t), context.Background()
	now := e.clock.Now()
	from, to := now.Add(-10*time.Minute), now.Add(-5*time.Minute)
	logs, err := c.AccessLogs().ByCluster(ctx, DemoPaymentsID, "payments-rs", window(from, to))
	if err != nil {
		t.Fatal(err)
	}
	if len(logs) == 0 {
		t.Fatal("no records in a five-minute window")
	}
	for _, l := range logs {
		if at := logTime(t, l); at.Before(from.Truncate(time.Second)) || at.After(to) {
			t.Errorf("record at %s outside [%s, %s]", at, from, to)
		}
	}
	e.clock.Advance(3 * 24 * time.Hour)
	now = e.clock.Now()
	old, err := c.AccessLogs().ByCluster(ctx, DemoPaymentsID, "payments-rs", window(now.Add(-72*time.Hour), now.Add(-30*time.Hour)))
	if err != nil {
		t.Fatal(err)
	}
	if len(old) != 0 {
		t.Errorf("records older than the retention window are still served: %d", len(old))
	}
	all, err := c.AccessLogs().ByCluster(ctx, DemoPaymentsID, "payments-rs", apiclient.AccessLogsOptions{AuthResult: ptrTo(false)})
	if err != nil {
		t.Fatal(err)
	}
	if oldest := logTime(t, all[len(all)-1]); oldest.Before(now.Add(-accessLogRetention - time.Second)) {
		t.Errorf("oldest record %s is older than the retention window", oldest)
	}
	none, err := c.AccessLogs().ByCluster(ctx, DemoPaymentsID, "payments-rs", apiclient.AccessLogsOptions{NLogs: ptrTo(0)})
	if err != nil || len(none) != 0 {
		t.Errorf("nLogs=0: %d records, %v", len(none), err)
	}
}

// A host's history is the cluster's, restricted to that host, by hostname or
// hostname:port.
func TestAccessLogByHost(t *testing.T) {
	e := newEnv(t, Options{})
	c, ctx := e.logClient(t), context.Background()
	var host *Process
	for _, h := range e.srv.world.Hosts {
		if h.ClusterName == "payments-rs" && h.TypeName == "REPLICA_PRIMARY" {
			host = h
		}
	}
	cluster, err := c.AccessLogs().ByCluster(ctx, DemoPaymentsID, "payments-rs", apiclient.AccessLogsOptions{NLogs: ptrTo(3000)})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, l := range cluster {
		if l.Hostname == host.Hostname {
			want = append(want, l.LogLine)
		}
	}
	oldest := logTime(t, cluster[len(cluster)-1])
	for _, name := range []string{host.Hostname, host.ID} {
		logs, err := c.AccessLogs().ByHost(ctx, DemoPaymentsID, name, window(oldest, e.clock.Now()))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range logs {
			if l.Hostname != host.Hostname {
				t.Fatalf("host route returned %s", l.Hostname)
			}
			if !logTime(t, l).Equal(oldest) {
				got = append(got, l.LogLine)
			}
		}
		trimmed := want[:0:0]
		for _, w := range want {
			if !strings.Contains(w, oldest.Format("2006-01-02T15:04:05.")) {
				trimmed = append(trimmed, w)
			}
		}
		sort.Strings(got)
		sort.Strings(trimmed)
		if strings.Join(got, "\n") != strings.Join(trimmed, "\n") {
			t.Errorf("%s: %d records, want the cluster's %d for the host", name, len(got), len(trimmed))
		}
	}
	_, err = c.AccessLogs().ByHost(ctx, DemoPaymentsID, "nope.example.net", apiclient.AccessLogsOptions{})
	if ae, ok := apiclient.AsError(err); !ok || ae.Status != 404 || ae.ErrorCode != "HOST_NOT_FOUND" {
		t.Errorf("unknown host: %v", err)
	}
}

// Tenant tiers, flex and serverless have no access history: 400 saying so.
func TestAccessLogRefusals(t *testing.T) {
	e := newEnv(t, Options{})
	c, ctx := e.logClient(t), context.Background()
	for _, tc := range []struct{ group, cluster, code, says string }{
		{DemoAnalyticsID, "sandbox-m0", "TENANT_CLUSTER_UNSUPPORTED", "M0"},
		{DemoAnalyticsID, "reports-m2", "TENANT_CLUSTER_UNSUPPORTED", "M2"},
		{DemoStagingID, "staging-m5", "TENANT_CLUSTER_UNSUPPORTED", "M5"},
		{DemoPaymentsID, "payments-serverless", "SERVERLESS_INSTANCE_UNSUPPORTED", "serverless"},
		{DemoPaymentsID, "payments-flex", "FLEX_CLUSTER_UNSUPPORTED", "flex"},
	} {
		_, err := c.AccessLogs().ByCluster(ctx, tc.group, tc.cluster, apiclient.AccessLogsOptions{})
		ae, ok := apiclient.AsError(err)
		if !ok || ae.Status != 400 || ae.ErrorCode != tc.code || !strings.Contains(ae.Detail, tc.says) {
			t.Errorf("%s: %v", tc.cluster, err)
		}
	}
	for _, h := range e.srv.world.Hosts {
		if h.ClusterName == "sandbox-m0" {
			_, err := c.AccessLogs().ByHost(ctx, DemoAnalyticsID, h.Hostname, apiclient.AccessLogsOptions{})
			if ae, ok := apiclient.AsError(err); !ok || ae.ErrorCode != "TENANT_CLUSTER_UNSUPPORTED" {
				t.Errorf("host of a tenant cluster: %v", err)
			}
			break
		}
	}
	_, err := c.AccessLogs().ByCluster(ctx, DemoPaymentsID, "no-such", apiclient.AccessLogsOptions{})
	if ae, ok := apiclient.AsError(err); !ok || ae.Status != 404 {
		t.Errorf("unknown cluster: %v", err)
	}
}

// Bad query parameters are 400 VALIDATION_ERROR naming the parameter, on both
// routes (sent raw: the shared client refuses them before sending).
func TestAccessLogQueryValidation(t *testing.T) {
	e := newEnv(t, Options{})
	d := e.digest("monitoring-admin", "MD5")
	var host string
	for _, h := range e.srv.world.Hosts {
		if h.ClusterName == "payments-rs" {
			host = h.Hostname
		}
	}
	base := "/api/atlas/v2/groups/" + DemoPaymentsID + "/dbAccessHistory/"
	for _, route := range []string{base + "clusters/payments-rs", base + "processes/" + url.PathEscape(host)} {
		for q, field := range map[string]string{
			"start=1700000000000": "end", "end=1700000000000": "start", "nLogs=20001": "nLogs", "nLogs=-1": "nLogs",
			"nLogs=ten": "nLogs", "start=5&end=4": "end", "start=x&end=5": "start", "authResult=maybe": "authResult",
			"ipAddress=10.0.0": "ipAddress", "ipAddress=2001:db8::1": "ipAddress",
		} {
			st, h, b := d.do(t, rawReq{method: "GET", path: route + "?" + q})
			eb := wantError(t, st, h, b, 400, "VALIDATION_ERROR")
			if len(eb.BadRequestDetail.Fields) == 0 || eb.BadRequestDetail.Fields[0].Field != field || !strings.Contains(eb.Detail, field) {
				t.Errorf("%s: want the error to name %s, got %s", q, field, b)
			}
		}
		for _, q := range []string{"nLogs=0", "nLogs=20000", "start=1700000000000&end=1700000000000", "authResult=true&ipAddress=10.1.2.3"} {
			if st, b := d.get(t, route+"?"+q); st != 200 {
				t.Errorf("%s: status %d %s", q, st, b)
			}
		}
	}
}

// The same seed and clock give the same stream.
func TestAccessLogDeterministic(t *testing.T) {
	read := func() []apiclient.AccessLog {
		e := newEnv(t, Options{Seed: 7})
		logs, err := e.logClient(t).AccessLogs().ByCluster(context.Background(), DemoPaymentsID, "payments-prod", apiclient.AccessLogsOptions{NLogs: ptrTo(300)})
		if err != nil {
			t.Fatal(err)
		}
		return logs
	}
	a, b := read(), read()
	if len(a) != len(b) {
		t.Fatalf("%d vs %d records", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("record %d differs: %+v vs %+v", i, a[i], b[i])
		}
	}
}

func ptrTo[T any](v T) *T { return &v }
