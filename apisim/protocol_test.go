package apisim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/icholy/digest"
)

func TestDigestAuth(t *testing.T) {
	e := newEnv(t, Options{})
	for _, alg := range []string{"MD5", "SHA-256"} {
		t.Run(alg, func(t *testing.T) {
			e := e
			if alg == "SHA-256" {
				e = newEnv(t, Options{DigestSHA256: true})
			}
			d := e.digest("org-owner", alg)
			h := d.challenge(t)
			vals := h.Values("WWW-Authenticate")
			want := `Digest realm="MMS Public API", domain="", nonce="` + d.nonce + `", algorithm=` + alg + `, qop="auth", stale=false`
			if len(vals) != 1 || vals[0] != want {
				t.Errorf("challenges %q\nwant one  %q", vals, want)
			}
			for i := range 5 { // the nonce is reusable with increasing counts
				if st, b := d.get(t, "/api/atlas/v2/groups"); st != 200 {
					t.Fatalf("request %d: %d %s", i, st, b)
				}
			}
			// Only the offered algorithm is accepted.
			other := "SHA-256"
			if alg == "SHA-256" {
				other = "MD5"
			}
			o := e.digest("org-owner", other)
			o.nonce, o.nc = d.nonce, d.nc
			st, h2, b := o.do(t, rawReq{method: "GET", path: "/api/atlas/v2/groups"})
			wantError(t, st, h2, b, 401, "INVALID_CREDENTIALS")
		})
	}
	t.Run("no credentials", func(t *testing.T) {
		st, h, b := e.digest("org-owner", "MD5").do(t, rawReq{method: "GET", path: "/api/atlas/v2/groups", noAuth: true})
		wantError(t, st, h, b, 401, "CREDENTIALS_REQUIRED")
		if !strings.HasPrefix(h.Get("WWW-Authenticate"), "Digest ") {
			t.Error("401 without a digest challenge")
		}
	})
	t.Run("wrong password", func(t *testing.T) {
		d := e.digest("org-owner", "MD5")
		d.pass = "nope"
		st, h, b := d.do(t, rawReq{method: "GET", path: "/api/atlas/v2/groups"})
		wantError(t, st, h, b, 401, "INVALID_CREDENTIALS")
	})
	t.Run("unknown user", func(t *testing.T) {
		d := e.digest("mallory", "MD5")
		st, h, b := d.do(t, rawReq{method: "GET", path: "/api/atlas/v2/groups"})
		wantError(t, st, h, b, 401, "INVALID_CREDENTIALS")
	})
	t.Run("service account may not use digest", func(t *testing.T) {
		st, h, b := e.digest("demo-sa", "MD5").do(t, rawReq{method: "GET", path: "/api/atlas/v2/groups"})
		wantError(t, st, h, b, 401, "INVALID_CREDENTIALS")
	})
	t.Run("garbage header", func(t *testing.T) {
		st, h, b := e.digest("org-owner", "MD5").do(t, rawReq{method: "GET", path: "/api/atlas/v2/groups", noAuth: true,
			header: http.Header{"Authorization": {`Digest ,,,=="`}}})
		wantError(t, st, h, b, 401, "INVALID_CREDENTIALS")
	})
	t.Run("uri mismatch", func(t *testing.T) {
		d := e.digest("org-owner", "MD5")
		d.challenge(t)
		st, h, b := d.do(t, rawReq{method: "GET", path: "/api/atlas/v2/groups", noAuth: true,
			header: http.Header{"Authorization": {d.authorization("GET", "/api/atlas/v2/orgs", 1)}}})
		wantError(t, st, h, b, 401, "INVALID_CREDENTIALS")
	})
	t.Run("replayed nonce count", func(t *testing.T) {
		d := e.digest("org-owner", "MD5")
		if st, _, b := d.do(t, rawReq{method: "GET", path: "/api/atlas/v2/groups", nc: 7}); st != 200 {
			t.Fatalf("first use: %d %s", st, b)
		}
		st, h, b := d.do(t, rawReq{method: "GET", path: "/api/atlas/v2/groups", nc: 7})
		wantError(t, st, h, b, 401, "NONCE_REPLAYED")
		// Reordered but unused counts are fine; very old ones are not.
		if st, _, b := d.do(t, rawReq{method: "GET", path: "/api/atlas/v2/groups", nc: 5}); st != 200 {
			t.Fatalf("reordered count: %d %s", st, b)
		}
		if st, _, _ := d.do(t, rawReq{method: "GET", path: "/api/atlas/v2/groups", nc: 2000}); st != 200 {
			t.Fatal("jump ahead refused")
		}
		st, h, b = d.do(t, rawReq{method: "GET", path: "/api/atlas/v2/groups", nc: 6})
		wantError(t, st, h, b, 401, "NONCE_REPLAYED")
	})
	t.Run("stale nonce", func(t *testing.T) {
		d := e.digest("org-owner", "MD5")
		d.challenge(t)
		e.clock.Advance(nonceLifetime + time.Second)
		st, h, b := d.do(t, rawReq{method: "GET", path: "/api/atlas/v2/groups"})
		wantError(t, st, h, b, 401, "STALE_NONCE")
		if !strings.HasSuffix(h.Get("WWW-Authenticate"), "stale=true") {
			t.Errorf("challenge %q lacks stale=true", h.Get("WWW-Authenticate"))
		}
		// An unknown nonce with a correct response is stale as well.
		d.nonce = "0123456789abcdef0123456789abcdef"
		st, h, b = d.do(t, rawReq{method: "GET", path: "/api/atlas/v2/groups"})
		wantError(t, st, h, b, 401, "STALE_NONCE")
	})
}

// TestIcholyDigestReuse: the client the dashboard uses caches the challenge
// and increments nc; many requests, some concurrent, must all pass.
func TestIcholyDigestReuse(t *testing.T) {
	e := newEnv(t, Options{RateLimitPerMin: unlimited}) // ~90 requests on one user-scoped bucket
	tr := &digest.Transport{Username: "read-only", Password: "read-only-secret"}
	cl := &http.Client{Transport: tr}
	get := func() int {
		req, _ := http.NewRequest("GET", e.ts.URL+"/api/atlas/v2/groups", nil)
		req.Header.Set("Accept", "application/vnd.atlas.2023-01-01+json")
		res, err := cl.Do(req)
		if err != nil {
			t.Error(err)
			return 0
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode
	}
	for range 20 {
		if st := get(); st != 200 {
			t.Fatalf("status %d", st)
		}
	}
	done := make(chan int, 64)
	for range 64 {
		go func() { done <- get() }()
	}
	for range 64 {
		if st := <-done; st != 200 {
			t.Errorf("concurrent status %d", st)
		}
	}
	// Every 401 is the client's first contact (one per challenge), not a failure.
	n401 := 0
	for _, r := range e.srv.reqlog.recent() {
		if r.Status == 401 {
			n401++
		}
	}
	if n401 > 2 {
		t.Errorf("%d challenges for 84 requests: the nonce is not being reused", n401)
	}
}

func TestOAuth(t *testing.T) {
	e := newEnv(t, Options{})
	token := func(user, pass, grant string) (int, map[string]any) {
		req, _ := http.NewRequest("POST", e.ts.URL+"/api/oauth/token", strings.NewReader("grant_type="+grant))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.SetBasicAuth(user, pass)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var m map[string]any
		_ = json.NewDecoder(res.Body).Decode(&m)
		return res.StatusCode, m
	}
	if st, m := token("demo-sa", "wrong", "client_credentials"); st != 401 || m["error"] != "invalid_client" {
		t.Fatalf("bad secret: %d %v", st, m)
	}
	if st, m := token("org-owner", "org-owner-secret", "client_credentials"); st != 401 {
		t.Fatalf("API key got a token: %d %v", st, m)
	}
	if st, m := token("demo-sa", "demo-sa-secret", "password"); st != 400 || m["error"] != "unsupported_grant_type" {
		t.Fatalf("bad grant: %d %v", st, m)
	}
	st, m := token("demo-sa", "demo-sa-secret", "client_credentials")
	if st != 200 || m["token_type"] != "Bearer" || m["expires_in"] != 3600.0 || m["access_token"] == "" {
		t.Fatalf("token: %d %v", st, m)
	}
	bearer := func() (int, http.Header, []byte) {
		d := e.digest("x", "MD5")
		return d.do(t, rawReq{method: "GET", path: "/api/atlas/v2", noAuth: true,
			header: http.Header{"Authorization": {"Bearer " + m["access_token"].(string)}}})
	}
	st, _, b := bearer()
	if st != 200 {
		t.Fatalf("bearer: %d %s", st, b)
	}
	var who map[string]any
	_ = json.Unmarshal(b, &who)
	if v, ok := who["apiKey"]; !ok || v != nil {
		t.Errorf("service account who-am-I apiKey = %v, want null", v)
	}
	e.clock.Advance(59 * time.Minute)
	if st, _, _ := bearer(); st != 200 {
		t.Fatalf("token refused before expiry: %d", st)
	}
	e.clock.Advance(2 * time.Minute)
	st, h, b := bearer()
	wantError(t, st, h, b, 401, "TOKEN_EXPIRED")
}

func TestVersioning(t *testing.T) {
	e := newEnv(t, Options{})
	d := e.digest("org-owner", "MD5")
	groups := "/api/atlas/v2/groups"
	for _, accept := range []string{"", "application/json", "application/vnd.atlas.2025-13-45+json", "application/vnd.atlas.latest+json", "application/vnd.other.2025-03-12+json"} {
		st, h, b := d.do(t, rawReq{method: "GET", path: groups, accept: accept, header: http.Header{"Accept": {accept}}})
		wantError(t, st, h, b, http.StatusNotAcceptable, "INVALID_VERSION")
	}
	st, h, b := d.do(t, rawReq{method: "GET", path: groups, accept: "application/vnd.atlas.2022-12-31+json"})
	wantError(t, st, h, b, http.StatusNotAcceptable, "INVALID_VERSION")
	// Both an operation's own date and the release date resolve.
	for _, date := range []string{"2023-01-01", "2025-03-12", "2030-01-01"} {
		st, h, _ := d.do(t, rawReq{method: "GET", path: groups, accept: "application/vnd.atlas." + date + "+json"})
		if st != 200 || h.Get("Content-Type") != "application/vnd.atlas.2023-01-01+json" {
			t.Errorf("date %s: %d %q", date, st, h.Get("Content-Type"))
		}
	}
	// A deprecated version carries Deprecation and Sunset.
	st, h, _ = d.do(t, rawReq{method: "GET", path: "/api/atlas/v2/groups/" + DemoPaymentsID + "/clusters", accept: "application/vnd.atlas.2023-02-01+json"})
	if st != 200 || h.Get("Deprecation") == "" || h.Get("Sunset") != "Thu, 01 Jul 2027 00:00:00 GMT" {
		t.Errorf("deprecated version: %d Deprecation=%q Sunset=%q", st, h.Get("Deprecation"), h.Get("Sunset"))
	}
	st, h, _ = d.do(t, rawReq{method: "GET", path: "/api/atlas/v2/groups/" + DemoPaymentsID + "/clusters", accept: "application/vnd.atlas.2024-08-05+json"})
	if st != 200 || h.Get("Deprecation") != "" {
		t.Errorf("current version marked deprecated")
	}
	// v1.0 speaks application/json.
	st, h, b = d.do(t, rawReq{method: "GET", path: "/api/atlas/v1.0/groups", accept: "application/vnd.atlas.2025-03-12+json"})
	wantError(t, st, h, b, http.StatusNotAcceptable, "NOT_ACCEPTABLE")
}

func TestServerlessSunset(t *testing.T) {
	e := newEnv(t, Options{})
	d := e.digest("org-owner", "MD5")
	path := "/api/atlas/v2/groups/" + DemoPaymentsID + "/serverless/payments-serverless/backup/snapshots"
	st, h, b := d.do(t, rawReq{method: "GET", path: path, accept: "application/vnd.atlas.2023-01-01+json"})
	if st != 200 || h.Get("Sunset") != "Thu, 22 Jan 2026 00:00:00 GMT" {
		t.Fatalf("before sunset: %d Sunset=%q %s", st, h.Get("Sunset"), b)
	}
	e.clock.Set(time.Date(2026, 1, 22, 0, 0, 1, 0, time.UTC))
	d.challenge(t) // the old nonce is long expired
	st, h, b = d.do(t, rawReq{method: "GET", path: path, accept: "application/vnd.atlas.2025-03-12+json"})
	wantError(t, st, h, b, http.StatusGone, "VERSION_GONE")
}

func TestRequestBodies(t *testing.T) {
	e := newEnv(t, Options{})
	d := e.digest("org-owner", "MD5")
	cfgs := "/api/atlas/v2/groups/" + DemoPaymentsID + "/alertConfigs"
	ok := mustJSON(map[string]any{"eventTypeName": "HOST_DOWN", "notifications": []any{map[string]any{"typeName": "GROUP"}}})
	st, h, b := d.do(t, rawReq{method: "POST", path: cfgs, body: ok, ctype: "text/plain"})
	wantError(t, st, h, b, http.StatusUnsupportedMediaType, "UNSUPPORTED_MEDIA_TYPE")
	if st, _, b := d.do(t, rawReq{method: "POST", path: cfgs, body: ok, ctype: "application/json"}); st != 200 {
		t.Errorf("application/json body refused: %d %s", st, b)
	}
	big := append([]byte(`{"eventTypeName":"`), bytes.Repeat([]byte("A"), maxBodyBytes+10)...)
	st, h, b = d.do(t, rawReq{method: "POST", path: cfgs, body: big})
	wantError(t, st, h, b, http.StatusRequestEntityTooLarge, "REQUEST_TOO_LARGE")
	for _, bad := range []string{`{"eventTypeName":`, `not json`, `{"a":1}{"b":2}`, `[1,2]`} {
		st, h, b := d.do(t, rawReq{method: "POST", path: cfgs, body: []byte(bad)})
		if st != 400 {
			t.Errorf("%q: %d %s", bad, st, b)
		}
		wantError(t, st, h, b, 400, "")
	}
	st, h, b = d.do(t, rawReq{method: "POST", path: cfgs, body: []byte(`{"eventTypeName":"HOST_DOWN","notifications":[],"bogus":1}`)})
	e1 := wantError(t, st, h, b, 400, "INVALID_ATTRIBUTE")
	if e1.BadRequestDetail == nil || e1.BadRequestDetail.Fields[0].Field != "bogus" {
		t.Errorf("unknown attribute not named: %s", b)
	}
	st, h, b = d.do(t, rawReq{method: "POST", path: cfgs, body: []byte(`{"eventTypeName":7}`)})
	e2 := wantError(t, st, h, b, 400, "VALIDATION_ERROR")
	if !strings.Contains(e2.Detail, "eventTypeName") {
		t.Errorf("type error does not name the field: %s", b)
	}
	// Limits of the spec's section 8 name the field.
	alert := firstOpenAlert(e)
	long := strings.Repeat("x", 201)
	st, h, b = d.do(t, rawReq{method: "PATCH", path: "/api/atlas/v2/groups/" + DemoPaymentsID + "/alerts/" + alert,
		body: mustJSON(map[string]any{"acknowledgedUntil": "2030-01-01T00:00:00Z", "acknowledgementComment": long})})
	if e := wantError(t, st, h, b, 400, "VALIDATION_ERROR"); e.BadRequestDetail.Fields[0].Field != "acknowledgementComment" {
		t.Errorf("wrong field: %s", b)
	}
	buckets := "/api/atlas/v2/groups/" + DemoPaymentsID + "/backup/exportBuckets"
	st, h, b = d.do(t, rawReq{method: "POST", path: buckets, body: mustJSON(map[string]any{"bucketName": "ab", "cloudProvider": "AWS", "iamRoleId": "x"})})
	if e := wantError(t, st, h, b, 400, "VALIDATION_ERROR"); e.BadRequestDetail.Fields[0].Field != "bucketName" {
		t.Errorf("wrong field: %s", b)
	}
	logs := "/api/atlas/v2/groups/" + DemoPaymentsID + "/dbAccessHistory/clusters/payments-rs"
	for q, field := range map[string]string{"nLogs=20001": "nLogs", "start=1": "end", "end=5": "start", "nLogs=abc": "nLogs"} {
		st, h, b := d.do(t, rawReq{method: "GET", path: logs + "?" + q})
		if e := wantError(t, st, h, b, 400, "VALIDATION_ERROR"); e.BadRequestDetail.Fields[0].Field != field {
			t.Errorf("%s: field %v", q, e.BadRequestDetail.Fields)
		}
	}
}

func firstOpenAlert(e *testEnv) string {
	e.srv.mu.Lock()
	defer e.srv.mu.Unlock()
	for _, a := range e.srv.world.Alerts {
		if a.Status == "OPEN" {
			return a.ID
		}
	}
	return ""
}

func TestIDsAndPaging(t *testing.T) {
	e := newEnv(t, Options{})
	d := e.digest("org-owner", "MD5")
	for path, want := range map[string]int{
		"/api/atlas/v2/groups/not-an-id":                                                400,
		"/api/atlas/v2/groups/" + strings.Repeat("a", 24):                               404,
		"/api/atlas/v2/groups/" + strings.ToUpper(DemoPaymentsID):                       400,
		"/api/atlas/v2/groups/" + DemoPaymentsID + "/alerts/zz":                         400,
		"/api/atlas/v2/groups/" + DemoPaymentsID + "/alerts/" + strings.Repeat("b", 24): 404,
		"/api/atlas/v2/groups/" + DemoPaymentsID + "/clusters/-bad":                     400,
		"/api/atlas/v2/groups/" + DemoPaymentsID + "/clusters/nope":                     404,
		"/api/atlas/v2/groups/" + DemoPaymentsID + "/clusters/payments-flex":            400,
		"/api/atlas/v2/groups/" + DemoPaymentsID + "/clusters/%00x":                     400,
	} {
		st, h, b := d.do(t, rawReq{method: "GET", path: path})
		wantError(t, st, h, b, want, "")
	}
	alerts := "/api/atlas/v2/groups/" + DemoPaymentsID + "/alerts"
	for q, field := range map[string]string{
		"itemsPerPage=0": "itemsPerPage", "itemsPerPage=501": "itemsPerPage", "itemsPerPage=x": "itemsPerPage",
		"pageNum=0": "pageNum", "pageNum=-3": "pageNum", "pageNum=1.5": "pageNum", "includeCount=maybe": "includeCount",
		"status=BROKEN": "status", "envelope=2": "envelope",
	} {
		st, h, b := d.do(t, rawReq{method: "GET", path: alerts + "?" + q})
		e := wantError(t, st, h, b, 400, "VALIDATION_ERROR")
		if e.BadRequestDetail == nil || e.BadRequestDetail.Fields[0].Field != field || !strings.Contains(e.Detail, field) {
			t.Errorf("%s: %s", q, b)
		}
	}
	// Paging: 170-odd alerts, newest open ones beyond page 1.
	var page struct {
		Results    []Alert `json:"results"`
		TotalCount *int    `json:"totalCount"`
		Links      []link  `json:"links"`
		Status     *int    `json:"status"`
	}
	st, b := d.get(t, alerts)
	if st != 200 || json.Unmarshal(b, &page) != nil || page.TotalCount == nil || *page.TotalCount < 150 || len(page.Results) != 100 {
		t.Fatalf("page 1: %d total=%v n=%d", st, page.TotalCount, len(page.Results))
	}
	total := *page.TotalCount
	st, b = d.get(t, alerts+"?pageNum=2&itemsPerPage=100&includeCount=false&envelope=true")
	page.TotalCount = nil
	if st != 200 || json.Unmarshal(b, &page) != nil || page.TotalCount != nil || len(page.Results) != total-100 || page.Status == nil || *page.Status != 200 {
		t.Fatalf("page 2: %d %s", st, b)
	}
	if page.Results[len(page.Results)-1].Status != "OPEN" {
		t.Errorf("newest alert is %s; the demo wants open alerts past page 1", page.Results[len(page.Results)-1].Status)
	}
	st, b = d.get(t, alerts+"?pageNum=99")
	if st != 200 || !strings.Contains(string(b), `"results":[]`) {
		t.Errorf("page past the end: %d %s", st, b)
	}
	// pretty and envelope on a single resource.
	st, b = d.get(t, "/api/atlas/v2/groups/"+DemoPaymentsID+"?pretty=true&envelope=true")
	if st != 200 || !strings.Contains(string(b), "\n  \"content\": {") || !strings.Contains(string(b), `"status": 200`) {
		t.Errorf("pretty envelope: %s", b)
	}
	// bare list
	st, b = d.get(t, "/api/atlas/v2/alertConfigs/matchers/fieldNames")
	if st != 200 || !strings.HasPrefix(string(b), `["`) {
		t.Errorf("bare list: %s", b)
	}
	// legacy shapes with links
	st, _, b = d.do(t, rawReq{method: "GET", path: "/api/atlas/v1.0/groups/" + DemoPaymentsID + "/clusters/payments-rs", accept: "application/json"})
	if st != 200 || !strings.Contains(string(b), `"instanceSizeName":"M30"`) || !strings.Contains(string(b), `"links":[`) {
		t.Errorf("legacy cluster: %s", b)
	}
}

func TestWhoAmIAndRoles(t *testing.T) {
	e := newEnv(t, Options{})
	st, b := e.digest("project-owner", "MD5").get(t, "/api/atlas/v2")
	var who struct {
		AppName string `json:"appName"`
		APIKey  struct {
			PublicKey string `json:"publicKey"`
			Roles     []struct {
				RoleName, OrgID, GroupID string
			} `json:"roles"`
		} `json:"apiKey"`
	}
	if st != 200 || json.Unmarshal(b, &who) != nil || who.APIKey.PublicKey != "project-owner" || len(who.APIKey.Roles) != DefaultProjects+DefaultOrgs {
		t.Fatalf("who am I: %d %s", st, b)
	}
	st, h, b2 := e.digest("read-only", "MD5").do(t, rawReq{method: "DELETE", path: "/api/atlas/v2/groups/" + DemoPaymentsID + "/alertConfigs/" + strings.Repeat("c", 24)})
	er := wantError(t, st, h, b2, 403, "USER_UNAUTHORIZED")
	if !strings.Contains(er.Detail, "Project Owner") {
		t.Errorf("403 does not name the role: %s", er.Detail)
	}
}

func TestRateLimitAndFaults(t *testing.T) {
	e := newEnv(t, Options{RateLimitPerMin: 3})
	d := e.digest("org-owner", "MD5")
	for i := range 3 {
		st, h, _ := d.do(t, rawReq{method: "GET", path: "/api/atlas/v2/groups"})
		if st != 200 || h.Get("RateLimit-Limit") != "3" || h.Get("RateLimit-Remaining") != string(rune('2'-i)) {
			t.Fatalf("request %d: %d limit=%s remaining=%s", i, st, h.Get("RateLimit-Limit"), h.Get("RateLimit-Remaining"))
		}
	}
	st, h, b := d.do(t, rawReq{method: "GET", path: "/api/atlas/v2/groups"})
	wantError(t, st, h, b, 429, "RATE_LIMITED_TOKEN_BUCKET")
	if h.Get("Retry-After") != "20" || h.Get("RateLimit-Remaining") != "0" {
		t.Errorf("429 headers: %v", h)
	}
	e.clock.Advance(20 * time.Second)
	if st, _, _ := d.do(t, rawReq{method: "GET", path: "/api/atlas/v2/groups"}); st != 200 {
		t.Errorf("after one refill interval: %d", st)
	}

	f := newEnv(t, Options{FaultRate: 1})
	st, h, b = f.digest("org-owner", "MD5").do(t, rawReq{method: "GET", path: "/api/atlas/v2/groups"})
	if st != 500 && st != 503 {
		t.Fatalf("fault: %d", st)
	}
	wantError(t, st, h, b, st, "")

	m := newEnv(t, Options{MalformedRate: 1})
	st, _, b = m.digest("org-owner", "MD5").do(t, rawReq{method: "GET", path: "/api/atlas/v2/groups"})
	if st != 200 || json.Valid(b) {
		t.Errorf("malformed: %d valid=%v", st, json.Valid(b))
	}
}

func TestStateMachines(t *testing.T) {
	e := newEnv(t, Options{})
	d := e.digest("org-owner", "MD5")
	base := "/api/atlas/v2/groups/" + DemoPaymentsID + "/clusters/payments-rs"
	getField := func(path, field string) any {
		t.Helper()
		d.challenge(t) // the clock jumps past nonce lifetimes
		st, b := d.get(t, path)
		if st != 200 {
			t.Fatalf("%s: %d %s", path, st, b)
		}
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		return m[field]
	}
	// statusAfter advances the clock by by and checks the resource's status.
	statusAfter := func(what string, by time.Duration, path, want string) {
		t.Helper()
		e.clock.Advance(by)
		if s := getField(path, "status"); s != want {
			t.Errorf("%s: status %v, want %s", what, s, want)
		}
	}
	st, _, b := d.do(t, rawReq{method: "POST", path: base + "/backup/snapshots", body: []byte(`{"description":"t","retentionInDays":3}`)})
	var snap map[string]any
	if st != 200 || json.Unmarshal(b, &snap) != nil || snap["status"] != "queued" {
		t.Fatalf("take snapshot: %d %s", st, b)
	}
	// A second on-demand snapshot must wait for the first.
	if st, _, _ := d.do(t, rawReq{method: "POST", path: base + "/backup/snapshots", body: []byte(`{"retentionInDays":3}`)}); st != 409 {
		t.Errorf("second on-demand snapshot: %d", st)
	}
	sp := base + "/backup/snapshots/" + snap["id"].(string)
	statusAfter("snapshot after 15s", 15*time.Second, sp, "inProgress")
	statusAfter("snapshot after 75s", time.Minute, sp, "completed")
	st, _, b = d.do(t, rawReq{method: "POST", path: base + "/backup/restoreJobs", body: mustJSON(map[string]any{"deliveryType": "download", "snapshotId": snap["id"]})})
	var job map[string]any
	if st != 200 || json.Unmarshal(b, &job) != nil || job["finishedAt"] != nil {
		t.Fatalf("restore: %d %s", st, b)
	}
	e.clock.Advance(3 * time.Minute)
	jp := base + "/backup/restoreJobs/" + job["id"].(string)
	if getField(jp, "finishedAt") == nil || len(getField(jp, "deliveryUrl").([]any)) != 1 {
		t.Errorf("restore did not finish with a delivery URL")
	}
	st, _, b = d.do(t, rawReq{method: "POST", path: base + "/search/indexes", body: mustJSON(map[string]any{"name": "sm", "database": "d", "collectionName": "c",
		"definition": map[string]any{"mappings": map[string]any{"dynamic": true}}})})
	var ix map[string]any
	if st != 201 || json.Unmarshal(b, &ix) != nil || ix["status"] != "PENDING" {
		t.Fatalf("index: %d %s", st, b)
	}
	ip := base + "/search/indexes/" + ix["indexID"].(string)
	statusAfter("index after 10s", 10*time.Second, ip, "BUILDING")
	statusAfter("index after 70s", time.Minute, ip, "READY")
	// Search refuses clusters before 4.2.
	st, h, b := d.do(t, rawReq{method: "GET", path: "/api/atlas/v2/groups/" + DemoPaymentsID + "/clusters/payments-legacy/search/indexes"})
	wantError(t, st, h, b, 400, "SEARCH_UNSUPPORTED_MONGODB_VERSION")

	// Migration: ready, cut over, complete.
	var mig string
	e.srv.mu.Lock()
	for _, m := range e.srv.world.Migrations {
		if m.GroupID == DemoPaymentsID {
			mig = m.ID
		}
	}
	e.srv.mu.Unlock()
	mp := "/api/atlas/v2/groups/" + DemoPaymentsID + "/liveMigrations/" + mig
	if getField(mp, "readyForCutover") != true {
		t.Fatal("seeded migration not ready for cutover")
	}
	if st, _, b := d.do(t, rawReq{method: "PUT", path: mp + "/cutover"}); st != 202 {
		t.Fatalf("cutover: %d %s", st, b)
	}
	statusAfter("migration after cutover", time.Minute, mp, "COMPLETE")
}

func TestControlAPI(t *testing.T) {
	e := newEnv(t, Options{})
	d := e.digest("org-owner", "MD5")
	st, _, b := d.do(t, rawReq{method: "POST", path: "/api/atlas/sim/incidents", ctype: "application/json",
		body: mustJSON(map[string]string{"groupId": DemoStagingID, "eventTypeName": "HOST_DOWN", "clusterName": "staging-rs"})})
	if st != 201 || !strings.Contains(string(b), `"status":"OPEN"`) {
		t.Fatalf("incident: %d %s", st, b)
	}
	st, _, b = d.do(t, rawReq{method: "POST", path: "/api/atlas/sim/clock/advance?d=90s"})
	if st != 200 || !e.clock.Now().Equal(testStart.Add(90*time.Second)) {
		t.Fatalf("advance: %d %s", st, b)
	}
	d.challenge(t)
	st, _, b = d.do(t, rawReq{method: "GET", path: "/api/atlas/sim/requests"})
	if st != 200 || !strings.Contains(string(b), `"identity":"org-owner"`) {
		t.Fatalf("requests: %d %s", st, b)
	}
	st, h, b := e.digest("read-only", "MD5").do(t, rawReq{method: "GET", path: "/api/atlas/sim/requests"})
	wantError(t, st, h, b, 403, "USER_UNAUTHORIZED")
}

func TestPersistence(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state.json")
	clock := NewManualClock(testStart)
	s, err := New(Options{StateFile: state, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	s.world.fireIncident(DemoPaymentsID, "PERSISTED_EVENT", "", clock.Now())
	s.mu.Unlock()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(state)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("state file: %v %v", err, fi)
	}
	s2, err := New(Options{StateFile: state, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, a := range s2.world.Alerts {
		found = found || a.EventTypeName == "PERSISTED_EVENT"
	}
	_ = s2.Close()
	if !found {
		t.Error("incident lost across restart")
	}
	bad := filepath.Join(dir, "bad.json")
	_ = os.WriteFile(bad, []byte(`{"format":1,"world":{`), 0o600)
	if _, err := New(Options{StateFile: bad}); err == nil || !strings.Contains(err.Error(), "corrupt") {
		t.Fatalf("corrupt state accepted: %v", err)
	}
	if b, _ := os.ReadFile(bad); string(b) != `{"format":1,"world":{` {
		t.Error("corrupt state file was overwritten")
	}
}

func TestLoopbackOnlyWithDemoKeys(t *testing.T) {
	s, err := New(Options{Clock: NewManualClock(testStart)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Start("0.0.0.0:0"); err == nil {
		t.Fatal("demo keys served on a non-loopback address")
	}
	base, err := s.Start("127.0.0.1:0")
	if err != nil || !strings.HasPrefix(base, "http://127.0.0.1:") {
		t.Fatalf("Start: %q %v", base, err)
	}
	res, err := http.Get(base + "/api/atlas/v2")
	if err != nil || res.StatusCode != 401 {
		t.Fatalf("live server: %v %v", err, res)
	}
	res.Body.Close()
}

var _ = url.Values{}

// TestAlertPagesAreTheListInOrder reads the alerts of a project page by
// page (an odd page size, with and without a status) and checks that the
// pages, put together, are the project's alerts in the world's order, each
// page with the count of all and a next link but on the last: a page is
// built from the list asked for, not from one it cut short.
func TestAlertPagesAreTheListInOrder(t *testing.T) {
	e := newEnv(t, Options{RateLimitPerMin: unlimited})
	if err := e.srv.AddAlerts(DemoPaymentsID, 300); err != nil {
		t.Fatal(err)
	}
	d := e.digest("org-owner", "MD5")
	base := "/api/atlas/v2/groups/" + DemoPaymentsID + "/alerts?itemsPerPage=7"
	for _, status := range []string{"", "OPEN", "CLOSED"} {
		var want []string
		e.srv.mu.Lock()
		for _, a := range e.srv.world.Alerts {
			if a.GroupID == DemoPaymentsID && (status == "" || a.Status == status) {
				want = append(want, a.ID)
			}
		}
		e.srv.mu.Unlock()
		var got []string
		for n := 1; ; n++ {
			var page struct {
				Results    []Alert `json:"results"`
				TotalCount int     `json:"totalCount"`
				Links      []link  `json:"links"`
			}
			path := fmt.Sprintf("%s&pageNum=%d", base, n)
			if status != "" {
				path += "&status=" + status
			}
			st, b := d.get(t, path)
			if st != 200 || json.Unmarshal(b, &page) != nil {
				t.Fatalf("%s: %d %s", path, st, b)
			}
			if page.TotalCount != len(want) {
				t.Fatalf("%s: totalCount %d, want %d", path, page.TotalCount, len(want))
			}
			for _, a := range page.Results {
				got = append(got, a.ID)
			}
			hasNext := slices.ContainsFunc(page.Links, func(l link) bool { return l.Rel == "next" })
			if last := len(got) >= len(want); hasNext == last {
				t.Fatalf("%s: next link %v with %d of %d read", path, hasNext, len(got), len(want))
			}
			if len(page.Results) == 0 || len(got) >= len(want) {
				break
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("status %q: the pages hold %d alerts, not the %d of the list in order", status, len(got), len(want))
		}
	}
}
