package apisim

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
)

// TestRoleMatrix: for every operation and every demo identity, driven by the
// shared client, the server allows (success status) exactly when
// catalog.Authorize does, and otherwise answers 403. Each case runs on a
// fresh world so that deletes and state changes do not leak.
func TestRoleMatrix(t *testing.T) {
	var current atomic.Pointer[http.Handler]
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		(*current.Load()).ServeHTTP(w, r)
	}))
	defer ts.Close()
	for _, id := range DemoIdentities() {
		auth := apiclient.DigestAuth(id.PublicKey, id.PrivateKey)
		if id.Kind == KindServiceAccount {
			auth = apiclient.OAuthAuth(id.PublicKey, id.PrivateKey)
		}
		allowed, denied := 0, 0
		for _, op := range catalog.All() {
			s, err := New(Options{Clock: NewManualClock(testStart)})
			if err != nil {
				t.Fatal(err)
			}
			h := s.Handler()
			current.Store(&h)
			fx := fixtures(s)[op.ID]
			fx.prepareOn(s)
			// A new client per world: nonces and tokens belong to one server.
			c, err := apiclient.New(apiclient.Options{BaseURL: ts.URL, Service: "atlas", Auth: auth, MaxRetries: -1})
			if err != nil {
				t.Fatal(err)
			}
			var out any
			res, err := c.Do(context.Background(), op.ID, apiclient.Request{Params: fx.params, Query: fx.query, Body: fx.body}, &out)
			want := catalog.Authorize(id.Roles, op, fx.target())
			switch {
			case want && err == nil && res.StatusCode == op.OK:
				allowed++
			case !want && err != nil:
				if ae, ok := apiclient.AsError(err); ok && ae.Status == http.StatusForbidden {
					denied++
					break
				}
				t.Errorf("%s as %s: want 403, got %v", op.ID, id.PublicKey, err)
			default:
				t.Errorf("%s as %s: Authorize=%v, got res=%v err=%v", op.ID, id.PublicKey, want, res, err)
			}
			_ = s.Close()
		}
		t.Logf("%-18s allowed %3d, denied %3d", id.PublicKey, allowed, denied)
	}
}
