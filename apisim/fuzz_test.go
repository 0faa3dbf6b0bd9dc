package apisim

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
)

// FuzzDecodeRequest drives request decoding and validation (path ids, paging
// and other query parameters, JSON bodies) through the whole handler for an
// operation picked by index. Whatever the input, the server must not panic
// or answer 500, and every error must be the spec's JSON error body.
func FuzzDecodeRequest(f *testing.F) {
	f.Add(uint16(0), "", "", []byte(nil))
	f.Add(uint16(17), "65a0c0ffee0000000000b001", "itemsPerPage=500&pageNum=2", []byte(nil))
	f.Add(uint16(30), "zz", "pageNum=0", []byte(`{"eventTypeName":"HOST_DOWN","notifications":[{"typeName":"GROUP"}]}`))
	f.Add(uint16(44), "payments-rs", "envelope=true&pretty=true", []byte(`{"definition":{"mappings":{"dynamic":true}}}`))
	f.Add(uint16(60), "%00", "nLogs=-1", []byte(`{"deliveryType":"pointInTime","oplogTs":1,"oplogInc":0}`))

	ops := catalog.All()
	s, err := New(Options{Clock: NewManualClock(testStart)})
	if err != nil {
		f.Fatal(err)
	}
	defer s.Close()
	fx := fixtures(s)
	token := s.tokens.issue("org-owner")
	h := s.Handler()
	runs := 0

	f.Fuzz(func(t *testing.T, opIndex uint16, pathValue, rawQuery string, body []byte) {
		// The pure parsers first.
		if q, err := url.ParseQuery(rawQuery); err == nil {
			if lp, e := parseListParams(q); e == nil && (lp.ItemsPerPage < 1 || lp.ItemsPerPage > 500 || lp.PageNum < 1) {
				t.Fatalf("accepted out-of-range paging %+v", lp)
			} else if e != nil && (e.Status != 400 || len(e.Fields) != 1) {
				t.Fatalf("paging error without a field: %+v", e)
			}
		}
		var anyBody map[string]any
		if e := decodeJSON(body, &anyBody); e != nil && e.Status != 400 {
			t.Fatalf("decode error status %d", e.Status)
		}

		// Creates pile up over a long run; start from a fresh world now and then.
		if runs++; runs%2000 == 0 {
			s.mu.Lock()
			s.world = seedWorld(1, s.clock.Now())
			s.world.identities = s.idents
			s.mu.Unlock()
		}
		op := ops[int(opIndex)%len(ops)]
		params := map[string]string{}
		for k, v := range fx[op.ID].params {
			params[k] = v
		}
		if ps := op.Params(); len(ps) > 0 && pathValue != "" {
			params[ps[int(opIndex/uint16(len(ops)))%len(ps)]] = pathValue
		}
		path, err := op.Expand(params)
		if err != nil {
			return
		}
		root := "/api/atlas/v2"
		accept := catalog.MediaType("atlas", catalog.ResourceVersion)
		if op.Legacy {
			root, accept = "/api/atlas/v1.0", "application/json"
		}
		target := root + path
		if rawQuery != "" && !strings.ContainsAny(rawQuery, "# ") {
			target += "?" + rawQuery
		}
		u, err := url.ParseRequestURI(target)
		if err != nil {
			return
		}
		req := httptest.NewRequest(op.Method, "http://sim.test"+u.RequestURI(), bytes.NewReader(body))
		req.Header.Set("Accept", accept)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("%s %s: %d %s", op.Method, target, rec.Code, rec.Body.String())
		}
		if rec.Code >= 400 {
			var e errorBody
			if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Error != rec.Code || e.ErrorCode == "" {
				t.Fatalf("%s %s: error body %q", op.Method, target, rec.Body.String())
			}
			return
		}
		// 3xx: ServeMux redirects unclean paths such as "/a/./b".
		if rec.Code < 300 && rec.Code != http.StatusNoContent && rec.Code != http.StatusAccepted && !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("%s %s: invalid JSON success body", op.Method, target)
		}
	})
}
