package apisim

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
)

// TestEveryOperationAnswers: every catalog operation is routed and, for a
// valid request by the org owner, answers its success status (so no 404,
// 405 or 501 anywhere).
func TestEveryOperationAnswers(t *testing.T) {
	for _, op := range catalog.All() {
		t.Run(op.ID, func(t *testing.T) {
			e := newEnv(t, Options{})
			fx := preparedFixture(t, e.srv, op)
			path, err := op.Expand(fx.params)
			if err != nil {
				t.Fatal(err)
			}
			root := "/api/atlas/v2"
			r := rawReq{method: op.Method}
			if op.Legacy {
				root, r.accept, r.ctype = "/api/atlas/v1.0", "application/json", "application/json"
			} else {
				v, _ := op.Current()
				r.accept = catalog.MediaType("atlas", v.Date)
				r.ctype = r.accept
			}
			r.path = root + path
			if fx.query != nil {
				r.path += "?" + fx.query.Encode()
			}
			if fx.body != nil {
				r.body = mustJSON(fx.body)
			}
			st, _, body := e.digest("org-owner", "MD5").do(t, r)
			if st != op.OK {
				t.Fatalf("%s %s: status %d, want %d: %s", op.Method, r.path, st, op.OK, body)
			}
		})
	}
}

func TestUnknownPathAndWrongMethod(t *testing.T) {
	e := newEnv(t, Options{})
	d := e.digest("org-owner", "MD5")
	st, h, b := d.do(t, rawReq{method: "GET", path: "/api/atlas/v2/nothing/here"})
	wantError(t, st, h, b, http.StatusNotFound, "RESOURCE_NOT_FOUND")
	st, h, b = d.do(t, rawReq{method: "POST", path: "/api/atlas/v2/groups"})
	wantError(t, st, h, b, http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED")
	if h.Get("Allow") == "" {
		t.Error("405 without Allow")
	}
	st, h, b = d.do(t, rawReq{method: "GET", path: "/api/atlas/v3/groups"})
	wantError(t, st, h, b, http.StatusNotFound, "")
}

var _ = url.Values{}
