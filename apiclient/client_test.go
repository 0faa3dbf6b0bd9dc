package apiclient

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const testGroup = "5e2211c17a3e5a48f5497de4"

func newTestClient(t *testing.T, url string, o Options) *Client {
	t.Helper()
	o.BaseURL = url
	if o.Backoff == 0 {
		o.Backoff = time.Millisecond
	}
	c, err := New(o)
	require.NoError(t, err)
	return c
}

func TestNewRejectsMalformedBaseURL(t *testing.T) {
	for _, raw := range []string{"ht!tp://x", "cloud.mongodb.com", "ftp://host", "http://", "://"} {
		_, err := New(Options{BaseURL: raw})
		require.Error(t, err, raw)
		assert.Contains(t, err.Error(), "malformed base URL")
	}
	c, err := New(Options{})
	require.NoError(t, err)
	assert.Equal(t, DefaultBaseURL, c.BaseURL())
	assert.Equal(t, "atlas", c.Service())
}

func TestRequestCarriesVersionUserAgentAndPath(t *testing.T) {
	var got *http.Request
	var body string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Clone(context.Background())
		b := make([]byte, r.ContentLength)
		_, _ = r.Body.Read(b)
		body = string(b)
		w.Header().Set("Content-Type", "application/vnd.atlas.2024-05-30+json")
		_, _ = w.Write([]byte(`{"id":"a1","status":"OPEN","acknowledgementComment":"on it"}`))
	}))
	defer srv.Close()
	c := newTestClient(t, srv.URL, Options{Service: "svc", AppVersion: "1.2.3"})
	var out struct {
		ID      string `json:"id"`
		Comment string `json:"acknowledgementComment"`
	}
	_, err := c.Do(context.Background(), "acknowledgeAlert", Request{
		Params: map[string]string{"groupId": testGroup, "alertId": "a1"},
		Body:   map[string]string{"acknowledgementComment": "on it"},
	}, &out)
	require.NoError(t, err)
	assert.Equal(t, "PATCH", got.Method)
	assert.Equal(t, "/api/svc/v2/groups/"+testGroup+"/alerts/a1", got.URL.Path)
	assert.Equal(t, "application/vnd.svc.2024-05-30+json", got.Header.Get("Accept"))
	assert.Equal(t, "application/vnd.svc.2024-05-30+json", got.Header.Get("Content-Type"))
	assert.Equal(t, "dbadmin-tui/1.2.3", got.Header.Get("User-Agent"))
	assert.JSONEq(t, `{"acknowledgementComment":"on it"}`, body)
	assert.Equal(t, "on it", out.Comment)
}

func TestLegacyOperationUsesV1AndPlainJSON(t *testing.T) {
	var accept, path string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		accept, path = r.Header.Get("Accept"), r.URL.Path
		_, _ = w.Write([]byte(`[]`))
	}))
	defer srv.Close()
	c := newTestClient(t, srv.URL, Options{})
	var out []map[string]any
	_, err := c.Do(context.Background(), "listAtlasSearchAnalyzers", Request{Params: map[string]string{"groupId": testGroup, "clusterName": "c0"}}, &out)
	require.NoError(t, err)
	assert.Equal(t, "application/json", accept)
	assert.Equal(t, "/api/atlas/v1.0/groups/"+testGroup+"/clusters/c0/fts/analyzers", path)
}

func TestPathParametersAreEscaped(t *testing.T) {
	var raw string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw = r.URL.EscapedPath()
		_, _ = w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	c := newTestClient(t, srv.URL, Options{})
	_, err := c.Do(context.Background(), "getAtlasSearchIndexByName", Request{Params: map[string]string{
		"groupId": testGroup, "clusterName": "c0", "databaseName": "db", "collectionName": "a/b", "indexName": "x?y",
	}}, &map[string]any{})
	require.NoError(t, err)
	assert.Equal(t, "/api/atlas/v2/groups/"+testGroup+"/clusters/c0/search/indexes/db/a%2Fb/x%3Fy", raw)
}

func TestMissingPathParameterIsALocalError(t *testing.T) {
	c := newTestClient(t, "http://127.0.0.1:1", Options{})
	_, err := c.Do(context.Background(), "listAlerts", Request{}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "missing path parameter groupId")
}

// digestServer is a minimal RFC 7616 MD5 server: enough to count round trips
// and to expire a nonce. The HEAD requests that ready lanes ahead
// (warmLanes) are counted apart, in heads.
type digestServer struct {
	mu        sync.Mutex
	nonce     string
	nonceGen  int
	requests  int
	challenge int
	heads     int
}

func (d *digestServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if r.Method == http.MethodHead && r.Header.Get("Authorization") == "" {
		d.heads++
		if d.nonce == "" {
			d.nonceGen++
			d.nonce = fmt.Sprintf("nonce%d", d.nonceGen)
		}
		w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Digest realm="MMS Public API", domain="", nonce="%s", algorithm=MD5, qop="auth", stale=false`, d.nonce))
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	d.requests++
	if d.nonce == "" {
		d.nonceGen++
		d.nonce = fmt.Sprintf("nonce%d", d.nonceGen)
	}
	h := r.Header.Get("Authorization")
	params := parseDigest(h)
	if !strings.HasPrefix(h, "Digest ") || params["username"] != "pub" {
		d.deny(w, false)
		return
	}
	if params["nonce"] != d.nonce {
		d.deny(w, true)
		return
	}
	ha1 := md5hex("pub:MMS Public API:priv")
	ha2 := md5hex(r.Method + ":" + params["uri"])
	want := md5hex(strings.Join([]string{ha1, params["nonce"], params["nc"], params["cnonce"], "auth", ha2}, ":"))
	if params["response"] != want {
		d.deny(w, false)
		return
	}
	_, _ = w.Write([]byte(`{"results":[],"totalCount":0}`))
}

func (d *digestServer) deny(w http.ResponseWriter, stale bool) {
	d.challenge++
	w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Digest realm="MMS Public API", domain="", nonce="%s", algorithm=MD5, qop="auth", stale=%v`, d.nonce, stale))
	w.WriteHeader(http.StatusUnauthorized)
	_, _ = w.Write([]byte(`{"error":401,"errorCode":"UNAUTHORIZED","reason":"Unauthorized","detail":"digest required"}`))
}

func (d *digestServer) expireNonce() {
	d.mu.Lock()
	d.nonce = ""
	d.mu.Unlock()
}

// digestClient is a client signing as pub with privateKey, against a
// digestServer that lives until the test ends.
func digestClient(t *testing.T, privateKey string) (*Client, *digestServer) {
	t.Helper()
	d := &digestServer{}
	srv := httptest.NewServer(d)
	t.Cleanup(srv.Close)
	return newTestClient(t, srv.URL, Options{Auth: DigestAuth("pub", privateKey)}), d
}

func parseDigest(h string) map[string]string {
	out := map[string]string{}
	for _, part := range strings.Split(strings.TrimPrefix(h, "Digest "), ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if ok {
			out[k] = strings.Trim(v, `"`)
		}
	}
	return out
}

func md5hex(s string) string { sum := md5.Sum([]byte(s)); return hex.EncodeToString(sum[:]) }

func TestDigestCostsOneRoundTripAfterTheFirstChallenge(t *testing.T) {
	c, d := digestClient(t, "priv")
	for i := 0; i < 10; i++ {
		_, err := c.Do(context.Background(), "listAlerts", Request{Params: map[string]string{"groupId": testGroup}}, nil)
		require.NoError(t, err)
	}
	assert.Equal(t, 11, d.requests, "first request is challenged once; the other nine reuse the challenge")
	assert.Equal(t, 1, d.challenge)
}

func TestDigestRecoversFromAStaleNonce(t *testing.T) {
	c, d := digestClient(t, "priv")
	ctx := context.Background()
	req := Request{Params: map[string]string{"groupId": testGroup}}
	_, err := c.Do(ctx, "listAlerts", req, nil)
	require.NoError(t, err)
	d.expireNonce()
	_, err = c.Do(ctx, "listAlerts", req, nil)
	require.NoError(t, err, "a stale nonce is answered with a new challenge and the request succeeds")
	assert.Equal(t, 2, d.challenge)
}

func TestDigestWrongKeyIsUnauthorized(t *testing.T) {
	c, _ := digestClient(t, "wrong")
	_, err := c.Do(context.Background(), "listAlerts", Request{Params: map[string]string{"groupId": testGroup}}, nil)
	require.Error(t, err)
	assert.True(t, IsUnauthorized(err), err)
	e, _ := AsError(err)
	assert.Equal(t, "UNAUTHORIZED", e.ErrorCode)
}

type oauthServer struct {
	tokens    atomic.Int32
	expiresIn int
	revoked   atomic.Value // string: a token the API refuses
	calls     atomic.Int32
}

func (o *oauthServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/api/oauth/token" {
		id, secret, ok := r.BasicAuth()
		if !ok || id != "sa" || secret != "sa-secret" || r.FormValue("grant_type") != "client_credentials" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		n := o.tokens.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": fmt.Sprintf("tok%d", n), "token_type": "Bearer", "expires_in": o.expiresIn})
		return
	}
	o.calls.Add(1)
	auth := r.Header.Get("Authorization")
	if rev, _ := o.revoked.Load().(string); !strings.HasPrefix(auth, "Bearer tok") || auth == "Bearer "+rev {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	_, _ = w.Write([]byte(`{}`))
}

func TestOAuthTokenIsFetchedOnceForManyRequests(t *testing.T) {
	o := &oauthServer{expiresIn: 3600}
	srv := httptest.NewServer(o)
	defer srv.Close()
	c := newTestClient(t, srv.URL, Options{Auth: OAuthAuth("sa", "sa-secret")})
	for i := 0; i < 20; i++ {
		_, err := c.Do(context.Background(), "getProject", Request{Params: map[string]string{"groupId": testGroup}}, &map[string]any{})
		require.NoError(t, err)
	}
	assert.EqualValues(t, 1, o.tokens.Load())
	assert.EqualValues(t, 20, o.calls.Load())
}

func TestOAuthTokenIsRefreshedOnExpiryAndOn401(t *testing.T) {
	// expires_in below oauth2's 10 s early-expiry margin: every call needs a fresh token.
	o := &oauthServer{expiresIn: 5}
	srv := httptest.NewServer(o)
	defer srv.Close()
	c := newTestClient(t, srv.URL, Options{Auth: OAuthAuth("sa", "sa-secret")})
	req := Request{Params: map[string]string{"groupId": testGroup}}
	for i := 0; i < 3; i++ {
		_, err := c.Do(context.Background(), "getProject", req, &map[string]any{})
		require.NoError(t, err)
	}
	assert.EqualValues(t, 3, o.tokens.Load(), "an expired token is replaced before use")

	o2 := &oauthServer{expiresIn: 3600}
	srv2 := httptest.NewServer(o2)
	defer srv2.Close()
	c2 := newTestClient(t, srv2.URL, Options{Auth: OAuthAuth("sa", "sa-secret")})
	_, err := c2.Do(context.Background(), "getProject", req, &map[string]any{})
	require.NoError(t, err)
	o2.revoked.Store("tok1")
	_, err = c2.Do(context.Background(), "getProject", req, &map[string]any{})
	require.NoError(t, err, "a refused token is replaced and the call sent again")
	assert.EqualValues(t, 2, o2.tokens.Load())
}

func TestRetryAfterDelaysTheRetry(t *testing.T) {
	var mu sync.Mutex
	var arrivals []time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		arrivals = append(arrivals, time.Now())
		n := len(arrivals)
		mu.Unlock()
		if n == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte(`{"error":429,"errorCode":"RATE_LIMITED","reason":"Too Many Requests"}`))
			return
		}
		_, _ = w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	c := newTestClient(t, srv.URL, Options{})
	res, err := c.Do(context.Background(), "getProject", Request{Params: map[string]string{"groupId": testGroup}}, &map[string]any{})
	require.NoError(t, err)
	require.Len(t, arrivals, 2)
	assert.GreaterOrEqual(t, arrivals[1].Sub(arrivals[0]), time.Second)
	assert.Equal(t, 2, res.Attempts)
}

func TestPostThatGot500IsNotResent(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte(`{"error":500,"errorCode":"UNEXPECTED_ERROR","reason":"Internal Server Error"}`))
	}))
	defer srv.Close()
	c := newTestClient(t, srv.URL, Options{})
	_, err := c.Do(context.Background(), "takeSnapshot", Request{
		Params: map[string]string{"groupId": testGroup, "clusterName": "c0"},
		Body:   map[string]any{"retentionInDays": 1},
	}, &map[string]any{})
	require.Error(t, err)
	assert.EqualValues(t, 1, calls.Load())
	e, ok := AsError(err)
	require.True(t, ok)
	assert.Equal(t, "UNEXPECTED_ERROR", e.ErrorCode)
}

func TestGetAfterConnectionResetIsRetried(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				if tc, ok := conn.(*net.TCPConn); ok {
					_ = tc.SetLinger(0) // RST instead of FIN
				}
				conn.Close()
			}
			return
		}
		_, _ = w.Write([]byte(`{"name":"p"}`))
	}))
	defer srv.Close()
	c := newTestClient(t, srv.URL, Options{HTTPClient: &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}})
	var out struct{ Name string }
	_, err := c.Do(context.Background(), "getProject", Request{Params: map[string]string{"groupId": testGroup}}, &out)
	require.NoError(t, err)
	assert.Equal(t, "p", out.Name)
	assert.EqualValues(t, 2, calls.Load())
}

func TestPostIsRetriedOnlyWhenItNeverLeft(t *testing.T) {
	// The connection cannot even be opened: the request surely never
	// reached a server, so a write is tried again (1 + MaxRetries dials).
	var dials atomic.Int32
	refuse := &http.Transport{DialContext: func(context.Context, string, string) (net.Conn, error) {
		dials.Add(1)
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	}}
	c := newTestClient(t, "http://127.0.0.1:1", Options{MaxRetries: 2, HTTPClient: &http.Client{Transport: refuse}})
	req := Request{Params: map[string]string{"groupId": testGroup, "clusterName": "c0"}, Body: map[string]any{}}
	_, err := c.Do(context.Background(), "takeSnapshot", req, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "connection refused")
	assert.EqualValues(t, 3, dials.Load())

	// The request was sent and the connection then died: the server may
	// have acted on it, so the write is not sent again.
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			conn.Close()
		}
	}))
	defer srv.Close()
	c = newTestClient(t, srv.URL, Options{MaxRetries: 2, HTTPClient: &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}})
	_, err = c.Do(context.Background(), "takeSnapshot", req, nil)
	require.Error(t, err)
	assert.EqualValues(t, 1, calls.Load(), "a write that reached the server is never re-sent")
}

func TestNonAPIErrorBodiesStillGiveAClearError(t *testing.T) {
	cases := map[string]struct {
		status int
		ctype  string
		body   string
		want   string
	}{
		"html proxy page": {502, "text/html", "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>", "502 Bad Gateway"},
		"truncated json":  {500, "application/json", `{"error":500,"errorCo`, "unexpected response body"},
		"empty":           {503, "", "", "empty response body"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tc.ctype != "" {
					w.Header().Set("Content-Type", tc.ctype)
				}
				w.WriteHeader(tc.status)
				_, _ = w.Write([]byte(tc.body))
			}))
			defer srv.Close()
			c := newTestClient(t, srv.URL, Options{MaxRetries: -1})
			_, err := c.Do(context.Background(), "getProject", Request{Params: map[string]string{"groupId": testGroup}}, &map[string]any{})
			e, ok := AsError(err)
			require.True(t, ok, err)
			assert.Equal(t, tc.status, e.Status)
			assert.True(t, e.NotAPIShape)
			assert.Contains(t, e.Error(), tc.want)
		})
	}
}

func TestMalformedSuccessBodyIsADecodeErrorAndGetsRetried(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			_, _ = w.Write([]byte(`{"results":[{"id":`))
			return
		}
		_, _ = w.Write([]byte(`{"results":[{"id":"x"}],"totalCount":1}`))
	}))
	defer srv.Close()
	c := newTestClient(t, srv.URL, Options{})
	p, _, err := ListPage[struct{ ID string }](context.Background(), c, "listAlerts", Request{Params: map[string]string{"groupId": testGroup}})
	require.NoError(t, err)
	assert.Equal(t, "x", p.Results[0].ID)

	c = newTestClient(t, srv.URL, Options{MaxRetries: -1})
	calls.Store(0)
	_, _, err = ListPage[struct{ ID string }](context.Background(), c, "listAlerts", Request{Params: map[string]string{"groupId": testGroup}})
	var de *DecodeError
	require.ErrorAs(t, err, &de)
	assert.Contains(t, err.Error(), "malformed response body")
}

func TestDeprecationHeadersAreRecorded(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Deprecation", "true")
		w.Header().Set("Sunset", "Thu, 22 Jan 2026 00:00:00 GMT")
		_, _ = w.Write([]byte(`{"results":[],"totalCount":0}`))
	}))
	defer srv.Close()
	c := newTestClient(t, srv.URL, Options{})
	_, err := c.Do(context.Background(), "listServerlessBackups", Request{Params: map[string]string{"groupId": testGroup, "clusterName": "s1"}}, nil)
	require.NoError(t, err)
	deps := c.Deprecations()
	require.Len(t, deps, 1)
	assert.Equal(t, Deprecation{Op: "listServerlessBackups", Version: "2023-01-01", Deprecation: "true", Sunset: "Thu, 22 Jan 2026 00:00:00 GMT"}, deps[0])
}

func TestEnvelopeIsUnwrapped(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		assert.Equal(t, "true", r.URL.Query().Get("envelope"))
		_, _ = w.Write([]byte(`{"status":200,"content":{"name":"payments"}}`))
	}))
	defer srv.Close()
	c := newTestClient(t, srv.URL, Options{})
	var out struct{ Name string }
	_, err := c.Do(context.Background(), "getProject", Request{Params: map[string]string{"groupId": testGroup}, Envelope: true}, &out)
	require.NoError(t, err)
	assert.Equal(t, "payments", out.Name)
}

func TestGateRefusesBeforeSendingAndLearnsFrom403(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write([]byte(`{"error":403,"errorCode":"USER_UNAUTHORIZED","reason":"Forbidden","detail":"needs Project Owner"}`))
	}))
	defer srv.Close()
	readOnly := []catalog.Assignment{{RoleName: catalog.GroupReadOnly, GroupID: testGroup}}
	gate := NewGate(readOnly)
	c := newTestClient(t, srv.URL, Options{Gate: gate})
	ack := Request{Params: map[string]string{"groupId": testGroup, "alertId": "a1"}, Body: map[string]any{}}
	_, err := c.Do(context.Background(), "acknowledgeAlert", ack, nil)
	var denied *DeniedError
	require.ErrorAs(t, err, &denied)
	assert.Contains(t, denied.Reason, "Project Owner")
	assert.EqualValues(t, 0, calls.Load(), "a denied action is never sent")

	// Roles unknown (service account): allowed until the server says 403.
	gate.SetRoles(nil)
	_, err = c.Do(context.Background(), "acknowledgeAlert", ack, nil)
	assert.True(t, IsForbidden(err))
	assert.EqualValues(t, 1, calls.Load())
	ok, why := gate.Allowed("acknowledgeAlert", testGroup)
	assert.False(t, ok)
	assert.Contains(t, why, "403")
	_, err = c.Do(context.Background(), "acknowledgeAlert", ack, nil)
	require.ErrorAs(t, err, &denied)
	assert.EqualValues(t, 1, calls.Load(), "learned denial is not sent again")

	gate.SetRoles(nil) // a refresh forgets it
	ok, _ = gate.Allowed("acknowledgeAlert", testGroup)
	assert.True(t, ok)
}
