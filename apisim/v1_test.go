package apisim

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
)

// v1Req is a request for an operation under /api/atlas/v1.0.
func v1Req(t *testing.T, op catalog.Op, fx fixture) rawReq {
	t.Helper()
	path, err := op.Expand(fx.params)
	if err != nil {
		t.Fatal(err)
	}
	r := rawReq{method: op.Method, path: "/api/atlas/v1.0" + path, accept: "application/json", ctype: "application/json"}
	if fx.query != nil {
		r.path += "?" + fx.query.Encode()
	}
	if fx.body != nil {
		r.body = mustJSON(v1Body(op, fx.body))
	}
	return r
}

// v1Body turns a v2 fixture body into the legacy shape where they differ:
// a live migration's dropDestinationData was dropEnabled.
func v1Body(op catalog.Op, body any) any {
	m, ok := body.(map[string]any)
	if !ok || (op.Source != "createPushMigration" && op.Source != "validateMigration") {
		return body
	}
	out := map[string]any{}
	for k, v := range m {
		if k == "dropDestinationData" {
			k = "dropEnabled"
		}
		out[k] = v
	}
	return out
}

// checkLinks asserts the v1.0 body shape: links with self on objects and
// lists; results and totalCount on paged lists; a bare array otherwise.
func checkLinks(t *testing.T, op catalog.Op, body []byte) {
	t.Helper()
	if op.BareList {
		var arr []json.RawMessage
		if err := json.Unmarshal(body, &arr); err != nil {
			t.Fatalf("bare list: %v: %s", err, body)
		}
		return
	}
	var m struct {
		Links []struct {
			Href, Rel string
		} `json:"links"`
		Results    *[]json.RawMessage `json:"results"`
		TotalCount *int               `json:"totalCount"`
	}
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("not a JSON object: %v: %s", err, body)
	}
	if len(m.Links) == 0 || m.Links[0].Rel != "self" || !strings.Contains(m.Links[0].Href, "/api/atlas/v1.0") {
		t.Errorf("no self link under v1.0: %s", body)
	}
	if op.Paged && (m.Results == nil || m.TotalCount == nil) {
		t.Errorf("paged v1.0 body lacks results or totalCount: %s", body)
	}
}

// TestV1Surface drives every v1.0 operation, area by area, over HTTP: as
// the org owner it answers the operation's success status in the v1.0 shape
// (application/json, links), and as each other demo key it is allowed
// exactly when catalog.Authorize says so and otherwise 403.
func TestV1Surface(t *testing.T) {
	ops := catalog.V1()
	for _, op := range catalog.All() {
		if op.Legacy {
			ops = append(ops, op)
		}
	}
	areas := map[catalog.Area]int{}
	for _, op := range ops {
		areas[op.Area]++
		t.Run(op.Area.String()+"/"+op.ID, func(t *testing.T) {
			e := newEnv(t, Options{})
			fx := preparedFixture(t, e.srv, op)
			st, h, body := e.digest("org-owner", "MD5").do(t, v1Req(t, op, fx))
			if st != op.OK {
				t.Fatalf("%s %s: status %d, want %d: %s", op.Method, op.Path, st, op.OK, body)
			}
			if len(body) > 0 {
				if ct := h.Get("Content-Type"); ct != "application/json" {
					t.Errorf("Content-Type %q", ct)
				}
				checkLinks(t, op, body)
			}
			if op.Mutates() {
				return // the world changed; roles are checked on reads and in TestV1RolesOnWrites
			}
			for _, id := range DemoIdentities() {
				if id.Kind != KindAPIKey || id.PublicKey == "org-owner" {
					continue
				}
				st, h, body := e.digest(id.PublicKey, "MD5").do(t, v1Req(t, op, fx))
				if catalog.Authorize(id.Roles, op, fx.target()) {
					if st != op.OK {
						t.Errorf("as %s: status %d, want %d: %s", id.PublicKey, st, op.OK, body)
					}
				} else {
					wantError(t, st, h, body, 403, "USER_UNAUTHORIZED")
				}
			}
		})
	}
	for _, a := range catalog.Areas() {
		if areas[a] == 0 && a != catalog.AreaRateLimits { // the rate-limit API is v2 only
			t.Errorf("area %s has no v1.0 operation", a)
		}
	}
}

// TestV1RolesOnWrites: every v1.0 write refused to a key without the role
// is 403 USER_UNAUTHORIZED.
func TestV1RolesOnWrites(t *testing.T) {
	e := newEnv(t, Options{})
	ro := e.digest("read-only", "MD5")
	for _, op := range catalog.V1() {
		if !op.Mutates() {
			continue
		}
		fx, _ := fixtureFor(e.srv, op)
		if catalog.Authorize(DemoIdentities()[2].Roles, op, fx.target()) {
			continue
		}
		st, h, body := ro.do(t, v1Req(t, op, fx))
		wantError(t, st, h, body, 403, "USER_UNAUTHORIZED")
	}
}

// TestV1PagingAndLimits: v1.0 lists page with previous/next links, and the
// spec's limits are 400 on v1.0 as on v2.
func TestV1PagingAndLimits(t *testing.T) {
	e := newEnv(t, Options{})
	d := e.digest("org-owner", "MD5")
	base := "/api/atlas/v1.0/groups/" + DemoPaymentsID
	st, _, body := d.do(t, rawReq{method: "GET", path: base + "/alertConfigs?itemsPerPage=1&pageNum=2", accept: "application/json"})
	if st != 200 {
		t.Fatalf("page 2: %d %s", st, body)
	}
	var page struct {
		Links      []struct{ Href, Rel string }
		Results    []map[string]any
		TotalCount int
	}
	if err := json.Unmarshal(body, &page); err != nil {
		t.Fatal(err)
	}
	rels := map[string]string{}
	for _, l := range page.Links {
		rels[l.Rel] = l.Href
	}
	if len(page.Results) != 1 || page.TotalCount < 3 || !strings.Contains(rels["previous"], "pageNum=1") || !strings.Contains(rels["next"], "pageNum=3") {
		t.Errorf("page 2 of alert configurations: %s", body)
	}
	for _, l := range page.Results[0]["links"].([]any) {
		if l.(map[string]any)["rel"] == "self" {
			goto linked
		}
	}
	t.Errorf("a listed item lacks its own self link: %v", page.Results[0])
linked:

	st, h, body := d.do(t, rawReq{method: "GET", path: base + "/alerts?itemsPerPage=501", accept: "application/json"})
	wantError(t, st, h, body, 400, "")
	var alertID string
	for _, a := range e.srv.world.Alerts {
		if a.GroupID == DemoPaymentsID && a.Status == "OPEN" {
			alertID = a.ID
			break
		}
	}
	long := strings.Repeat("x", 201)
	st, h, body = d.do(t, rawReq{method: "PATCH", path: base + "/alerts/" + alertID, accept: "application/json", ctype: "application/json",
		body: mustJSON(map[string]any{"acknowledgedUntil": e.clock.Now().Add(time.Hour).Format(time.RFC3339), "acknowledgementComment": long})})
	wantError(t, st, h, body, 400, "")
	st, h, body = d.do(t, rawReq{method: "POST", path: base + "/backup/exportBuckets", accept: "application/json", ctype: "application/json",
		body: mustJSON(map[string]any{"bucketName": "ab", "cloudProvider": "AWS", "iamRoleId": e.srv.world.AccessRoles[0].ID})})
	wantError(t, st, h, body, 400, "")
}

// TestV1AckSeenThroughV2: one world behind both surfaces.
func TestV1AckSeenThroughV2(t *testing.T) {
	e := newEnv(t, Options{})
	d := e.digest("org-owner", "MD5")
	var alertID string
	for _, a := range e.srv.world.Alerts {
		if a.GroupID == DemoPaymentsID && a.Status == "OPEN" && a.AcknowledgedUntil == nil {
			alertID = a.ID
			break
		}
	}
	path := "/groups/" + DemoPaymentsID + "/alerts/" + alertID
	until := e.clock.Now().Add(2 * time.Hour).UTC().Format(time.RFC3339)
	st, _, body := d.do(t, rawReq{method: "PATCH", path: "/api/atlas/v1.0" + path, accept: "application/json", ctype: "application/json",
		body: mustJSON(map[string]any{"acknowledgedUntil": until, "acknowledgementComment": "v1 ack"})})
	if st != 200 {
		t.Fatalf("v1.0 ack: %d %s", st, body)
	}
	read := func() map[string]any {
		st, b := d.get(t, "/api/atlas/v2"+path)
		if st != 200 {
			t.Fatalf("v2 get: %d %s", st, b)
		}
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		return m
	}
	if a := read(); a["acknowledgedUntil"] != until || a["acknowledgementComment"] != "v1 ack" {
		t.Errorf("v2 does not see the v1.0 ack: %v", a)
	}
	// v1.0: a body without acknowledgedUntil unacknowledges.
	st, _, body = d.do(t, rawReq{method: "PATCH", path: "/api/atlas/v1.0" + path, accept: "application/json", ctype: "application/json",
		body: mustJSON(map[string]any{"acknowledgementComment": "not yet"})})
	if st != 200 {
		t.Fatalf("v1.0 unack: %d %s", st, body)
	}
	if a := read(); a["acknowledgedUntil"] != nil {
		t.Errorf("v2 still sees an ack: %v", a)
	}
}

// TestSunsetsApplyToEveryOperation: past 2026-01-22 the serverless
// private-endpoint and serverless backup operations answer 410, on v2 and
// on their v1.0 copies.
func TestSunsetsApplyToEveryOperation(t *testing.T) {
	e := newEnv(t, Options{})
	e.clock.Set(time.Date(2026, 1, 22, 0, 0, 1, 0, time.UTC))
	d := e.digest("org-owner", "MD5")
	for _, root := range []string{"/api/atlas/v2", "/api/atlas/v1.0"} {
		for _, p := range []string{"/privateEndpoint/serverless/instance/payments-serverless/endpoint", "/serverless/payments-serverless/backup/snapshots"} {
			r := rawReq{method: "GET", path: root + "/groups/" + DemoPaymentsID + p, accept: catalog.MediaType("atlas", "2023-01-01")}
			if root == "/api/atlas/v1.0" {
				r.accept = "application/json"
			}
			st, h, body := d.do(t, r)
			wantError(t, st, h, body, 410, "VERSION_GONE")
		}
	}
	// An operation without a sunset still answers.
	if st, b := d.get(t, "/api/atlas/v2/groups/"+DemoPaymentsID+"/alerts?"+url.Values{"status": {"OPEN"}}.Encode()); st != 200 {
		t.Errorf("alerts after the serverless sunset: %d %s", st, b)
	}
}
