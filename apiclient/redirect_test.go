package apiclient

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// otherHost is a second loopback server (another port, so another host) that
// asks for credentials the way a hostile server would: a digest challenge
// and a bearer challenge. It records the Authorization headers it saw.
type otherHost struct {
	mu       sync.Mutex
	requests int
	auths    []string
}

func (o *otherHost) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	o.mu.Lock()
	o.requests++
	if a := r.Header.Get("Authorization"); a != "" {
		o.auths = append(o.auths, a)
	}
	o.mu.Unlock()
	w.Header().Add("WWW-Authenticate", `Digest realm="evil", nonce="abc", qop="auth", algorithm=MD5`)
	w.Header().Add("WWW-Authenticate", `Bearer realm="evil"`)
	w.WriteHeader(http.StatusUnauthorized)
}

// redirecting answers what inner would have answered with 200 by a 307 to
// target instead: it authenticates the caller first, then sends it away.
func redirecting(inner http.Handler, target *string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		inner.ServeHTTP(rec, r)
		if rec.Code == http.StatusOK && r.URL.Path != "/api/oauth/token" {
			http.Redirect(w, r, *target+r.URL.RequestURI(), http.StatusTemporaryRedirect)
			return
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	})
}

func TestCredentialsDoNotFollowARedirectToAnotherHost(t *testing.T) {
	bearerOK := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer the-token" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		_, _ = w.Write([]byte(`{}`))
	})
	cases := []struct {
		name  string
		auth  Auth
		inner http.Handler
	}{
		{"digest", DigestAuth("pub", "priv"), &digestServer{}},
		{"oauth", OAuthAuth("sa", "sa-secret"), &oauthServer{expiresIn: 3600}},
		{"bearer", BearerAuth("the-token"), bearerOK},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := &otherHost{}
			srvB := httptest.NewServer(b)
			defer srvB.Close()
			target := srvB.URL
			var seenAtA []string
			var mu sync.Mutex
			srvA := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				seenAtA = append(seenAtA, r.Header.Get("Authorization"))
				mu.Unlock()
				redirecting(tc.inner, &target).ServeHTTP(w, r)
			}))
			defer srvA.Close()
			c := newTestClient(t, srvA.URL, Options{Auth: tc.auth, MaxRetries: -1})
			_, err := c.Do(context.Background(), "getProject", Request{Params: map[string]string{"groupId": testGroup}}, &map[string]any{})
			require.Error(t, err)
			assert.True(t, IsUnauthorized(err), "B's 401 comes back as is: %v", err)

			b.mu.Lock()
			defer b.mu.Unlock()
			assert.Equal(t, 1, b.requests, "B's challenge is not answered")
			assert.Empty(t, b.auths, "B received credentials")
			mu.Lock()
			defer mu.Unlock()
			assert.NotEmpty(t, seenAtA[len(seenAtA)-1], "A, the named host, did get credentials")
		})
	}
}

func TestPlainHTTPIsRefusedOffLoopback(t *testing.T) {
	for _, base := range []string{"http://cloud.example.com", "http://10.0.0.5:8080", "http://[2001:db8::1]"} {
		_, err := New(Options{BaseURL: base})
		require.Error(t, err, base)
		assert.Contains(t, err.Error(), "--allow-http")
		_, err = New(Options{BaseURL: base, AllowHTTP: true})
		assert.NoError(t, err, base)
	}
	for _, base := range []string{"http://127.0.0.1:8484", "http://localhost:1", "http://[::1]:9", "https://cloud.example.com"} {
		_, err := New(Options{BaseURL: base})
		assert.NoError(t, err, base)
	}
}
