package apisim

import (
	"encoding/json"
	"net/url"
	"strconv"
	"testing"
	"time"
)

// The buckets, the 429 body and the rateLimits operations, over HTTP.

func TestTokenBucketPerEndpointSetAndScope(t *testing.T) {
	e := newEnv(t, Options{RateLimits: map[string]RateLimit{"alertsRead_group": {Capacity: 2, RefillRate: 1, RefillSeconds: 30}}})
	d := e.digest("org-owner", "MD5")
	alerts := "/api/atlas/v2/groups/" + DemoPaymentsID + "/alerts"
	for i := range 2 {
		st, h, b := d.do(t, rawReq{method: "GET", path: alerts})
		if st != 200 || h.Get("RateLimit-Limit") != "2" || h.Get("RateLimit-Remaining") != strconv.Itoa(1-i) {
			t.Fatalf("request %d: %d %v %s", i, st, h, b)
		}
	}
	st, h, b := d.do(t, rawReq{method: "GET", path: alerts})
	er := wantError(t, st, h, b, 429, "RATE_LIMITED_TOKEN_BUCKET")
	if h.Get("Retry-After") != "30" {
		t.Errorf("Retry-After %q, want 30", h.Get("Retry-After"))
	}
	want := []any{"api/atlas/v2/groups/" + DemoPaymentsID + "/alerts", 30.0, 2.0, 1.0, 30.0}
	if len(er.Parameters) != len(want) {
		t.Fatalf("parameters %v, want %v", er.Parameters, want)
	}
	for i := range want {
		if er.Parameters[i] != want[i] {
			t.Errorf("parameter %d: %v, want %v", i, er.Parameters[i], want[i])
		}
	}
	if er.Detail != "Rate limit exceeded for api/atlas/v2/groups/"+DemoPaymentsID+"/alerts. Please retry after 30 seconds. Request capacity: 2. Refill rate: 1 per 30 seconds." {
		t.Errorf("detail %q", er.Detail)
	}
	// Another set, and another project in the same set, have their own buckets.
	if st, _, b := d.do(t, rawReq{method: "GET", path: "/api/atlas/v2/groups/" + DemoPaymentsID + "/clusters"}); st != 200 {
		t.Errorf("another endpoint set: %d %s", st, b)
	}
	if st, _, b := d.do(t, rawReq{method: "GET", path: "/api/atlas/v2/groups/" + DemoAnalyticsID + "/alerts"}); st != 200 {
		t.Errorf("another project: %d %s", st, b)
	}
	// A refused request takes no token: after 29 s still empty, after 30 s one token.
	e.clock.Advance(29 * time.Second)
	if st, _, _ := d.do(t, rawReq{method: "GET", path: alerts}); st != 429 {
		t.Errorf("before the refill: %d", st)
	}
	e.clock.Advance(time.Second)
	if st, _, _ := d.do(t, rawReq{method: "GET", path: alerts}); st != 200 {
		t.Errorf("after the refill: %d", st)
	}
}

func TestUserScopedBucketIsPerIdentity(t *testing.T) {
	e := newEnv(t, Options{RateLimitPerMin: 1})
	if st, _, _ := e.digest("org-owner", "MD5").do(t, rawReq{method: "GET", path: "/api/atlas/v2/orgs"}); st != 200 {
		t.Fatal(st)
	}
	if st, _, _ := e.digest("read-only", "MD5").do(t, rawReq{method: "GET", path: "/api/atlas/v2/orgs"}); st != 200 {
		t.Errorf("a second identity shares the first one's bucket: %d", st)
	}
	if st, _, _ := e.digest("org-owner", "MD5").do(t, rawReq{method: "GET", path: "/api/atlas/v2/orgs"}); st != 429 {
		t.Errorf("the first identity's bucket is not empty: %d", st)
	}
}

func TestListRateLimits(t *testing.T) {
	e := newEnv(t, Options{RateLimitPerMin: 100})
	d := e.digest("org-owner", "MD5")
	get := func(q url.Values) (int, []byte) {
		st, _, b := d.do(t, rawReq{method: "GET", path: "/api/atlas/v2/rateLimits?" + q.Encode()})
		return st, b
	}
	type set struct {
		EndpointSetID string `json:"endpointSetId"`
		Endpoints     []struct{ Method, Path string }
		Capacity      struct {
			Value        int  `json:"value"`
			DefaultValue *int `json:"defaultValue"`
		} `json:"capacity"`
		RefillRate            struct{ Value int } `json:"refillRate"`
		RefillDurationSeconds struct{ Value int } `json:"refillDurationSeconds"`
		Scope                 string              `json:"scope"`
	}
	var page struct {
		Results    []set `json:"results"`
		TotalCount int   `json:"totalCount"`
	}
	st, b := get(url.Values{"groupId": {DemoPaymentsID}})
	if st != 200 {
		t.Fatalf("%d %s", st, b)
	}
	if err := json.Unmarshal(b, &page); err != nil {
		t.Fatal(err)
	}
	if page.TotalCount != 3 || len(page.Results) != 3 {
		t.Fatalf("project-scoped sets: %+v", page)
	}
	for _, s := range page.Results {
		if s.Scope != "GROUP" || s.Capacity.Value != 100 || s.RefillRate.Value != 100 || s.RefillDurationSeconds.Value != 60 || s.Capacity.DefaultValue == nil {
			t.Errorf("set %+v", s)
		}
		if len(s.Endpoints) == 0 || len(s.Endpoints) > 100 {
			t.Errorf("%s has %d endpoints", s.EndpointSetID, len(s.Endpoints))
		}
	}
	st, b = get(url.Values{"endpointPath": {"/api/atlas/v2/groups/{groupId}/alerts"}})
	if st != 200 || json.Unmarshal(b, &page) != nil || page.TotalCount != 1 || page.Results[0].EndpointSetID != "alertsRead_group" {
		t.Errorf("endpointPath filter: %d %s", st, b)
	}
	st, b = get(url.Values{"name": {"accountRead_user", "Project write"}, "itemsPerPage": {"1"}})
	if st != 200 || json.Unmarshal(b, &page) != nil || page.TotalCount != 2 || len(page.Results) != 1 {
		t.Errorf("name filter and paging: %d %s", st, b)
	}
	st, h, b := e.digest("read-only", "MD5").do(t, rawReq{method: "GET", path: "/api/atlas/v2/rateLimits?orgId=" + DemoOrgID})
	wantError(t, st, h, b, 403, "USER_UNAUTHORIZED")
	st, h, b = d.do(t, rawReq{method: "GET", path: "/api/atlas/v2/rateLimits?userId=someone-else"})
	wantError(t, st, h, b, 403, "USER_UNAUTHORIZED")

	st, _, b = d.do(t, rawReq{method: "GET", path: "/api/atlas/v2/rateLimits/alertsRead_group"})
	var one set
	if st != 200 || json.Unmarshal(b, &one) != nil || one.EndpointSetID != "alertsRead_group" || one.Scope != "GROUP" {
		t.Errorf("get: %d %s", st, b)
	}
	st, h, b = d.do(t, rawReq{method: "GET", path: "/api/atlas/v2/rateLimits/alertsRead_group?orgId=" + DemoOrgID})
	wantError(t, st, h, b, 404, "RESOURCE_NOT_FOUND")
	st, h, b = d.do(t, rawReq{method: "GET", path: "/api/atlas/v2/rateLimits/nothing"})
	wantError(t, st, h, b, 404, "RESOURCE_NOT_FOUND")
}

func TestDefaultSetsWithoutOverrideHaveNoDefaultValue(t *testing.T) {
	e := newEnv(t, Options{})
	st, _, b := e.digest("org-owner", "MD5").do(t, rawReq{method: "GET", path: "/api/atlas/v2/rateLimits/projectRead_group"})
	var one struct {
		Capacity map[string]int `json:"capacity"`
	}
	if st != 200 || json.Unmarshal(b, &one) != nil {
		t.Fatalf("%d %s", st, b)
	}
	if _, ok := one.Capacity["defaultValue"]; ok || one.Capacity["value"] != 100 {
		t.Errorf("capacity %v", one.Capacity)
	}
}

func TestParseRateLimits(t *testing.T) {
	all, sets, err := ParseRateLimits("100/min")
	if err != nil || all != 100 || sets != nil {
		t.Errorf("100/min: %d %v %v", all, sets, err)
	}
	all, sets, err = ParseRateLimits("alertsRead_group=100/min, projectRead_group=5/s")
	if err != nil || all != 0 || sets["alertsRead_group"] != (RateLimit{100, 100, 60}) || sets["projectRead_group"] != (RateLimit{5, 5, 1}) {
		t.Errorf("per set: %d %v %v", all, sets, err)
	}
	for _, bad := range []string{"", "lots", "0/min", "-1/min", "100/day", "nope=1/min", "100/s"} {
		if _, _, err := ParseRateLimits(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
