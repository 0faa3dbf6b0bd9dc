package apisim

import (
	"bytes"
	"crypto/md5"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
)

// testStart is before the serverless sunset (2026-01-22).
var testStart = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

type testEnv struct {
	t     *testing.T
	srv   *Server
	clock *ManualClock
	ts    *httptest.Server
}

func newEnv(t testing.TB, opts Options) *testEnv {
	t.Helper()
	clock := NewManualClock(testStart)
	if opts.Clock == nil {
		opts.Clock = clock
	}
	s, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() { ts.Close(); _ = s.Close() })
	tt, _ := t.(*testing.T)
	return &testEnv{t: tt, srv: s, clock: clock, ts: ts}
}

// digestClient is a minimal independent RFC 7616 client: it fetches a
// challenge, then signs requests with an explicit nonce count.
type digestClient struct {
	base, user, pass, alg string
	nonce                 string
	nc                    int
}

func (e *testEnv) digest(user, alg string) *digestClient {
	return &digestClient{base: e.ts.URL, user: user, pass: user + "-secret", alg: alg}
}

// challenge asks for a fresh nonce with an unauthenticated request.
func (d *digestClient) challenge(t testing.TB) http.Header {
	t.Helper()
	res, err := http.Get(d.base + "/api/atlas/v2")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 401 {
		t.Fatalf("challenge: status %d", res.StatusCode)
	}
	for _, h := range res.Header.Values("WWW-Authenticate") {
		if strings.Contains(h, "algorithm="+d.alg+",") {
			d.nonce = parseAuthParams(h)["nonce"]
			d.nc = 0
			return res.Header
		}
	}
	t.Fatalf("no %s challenge in %v", d.alg, res.Header.Values("WWW-Authenticate"))
	return nil
}

func (d *digestClient) authorization(method, uri string, nc int) string {
	var h hash.Hash = md5.New()
	if d.alg == "SHA-256" {
		h = sha256.New()
	}
	hx := func(s string) string { h.Reset(); io.WriteString(h, s); return hex.EncodeToString(h.Sum(nil)) }
	var cb [8]byte
	_, _ = rand.Read(cb[:])
	cnonce := hex.EncodeToString(cb[:])
	ncs := fmt.Sprintf("%08x", nc)
	ha1 := hx(d.user + ":" + digestRealm + ":" + d.pass)
	resp := hx(ha1 + ":" + d.nonce + ":" + ncs + ":" + cnonce + ":auth:" + hx(method+":"+uri))
	return fmt.Sprintf(`Digest username="%s", realm="%s", nonce="%s", uri="%s", algorithm=%s, qop=auth, nc=%s, cnonce="%s", response="%s"`,
		d.user, digestRealm, d.nonce, uri, d.alg, ncs, cnonce, resp)
}

type rawReq struct {
	method, path string
	accept       string // default: vnd 2025-03-12
	ctype        string // default when body set: vnd 2025-03-12
	body         []byte
	nc           int // 0: next
	noAuth       bool
	header       http.Header
}

// do sends a signed request and returns status, headers and body.
func (d *digestClient) do(t testing.TB, r rawReq) (int, http.Header, []byte) {
	t.Helper()
	if d.nonce == "" {
		d.challenge(t)
	}
	var body io.Reader
	if r.body != nil {
		body = bytes.NewReader(r.body)
	}
	req, err := http.NewRequest(r.method, d.base+r.path, body)
	if err != nil {
		t.Fatal(err)
	}
	if r.accept == "" {
		r.accept = catalog.MediaType("atlas", catalog.ResourceVersion)
	}
	req.Header.Set("Accept", r.accept)
	if r.body != nil {
		if r.ctype == "" {
			r.ctype = catalog.MediaType("atlas", catalog.ResourceVersion)
		}
		req.Header.Set("Content-Type", r.ctype)
	}
	for k, vs := range r.header {
		req.Header[k] = vs
	}
	if !r.noAuth {
		nc := r.nc
		if nc == 0 {
			d.nc++
			nc = d.nc
		}
		req.Header.Set("Authorization", d.authorization(r.method, req.URL.RequestURI(), nc))
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	record(r.method, r.path, res.StatusCode, b)
	return res.StatusCode, res.Header, b
}

// get is a GET with the current resource version.
func (d *digestClient) get(t testing.TB, path string) (int, []byte) {
	st, _, b := d.do(t, rawReq{method: "GET", path: path})
	return st, b
}

// wantError checks an error answer: status, JSON error body, error code.
func wantError(t testing.TB, status int, h http.Header, body []byte, wantStatus int, wantCode string) errorBody {
	t.Helper()
	if status != wantStatus {
		t.Fatalf("status %d, want %d; body %s", status, wantStatus, body)
	}
	if ct := h.Get("Content-Type"); ct != "application/json" {
		t.Errorf("error Content-Type %q", ct)
	}
	var e errorBody
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatalf("error body is not JSON: %v: %s", err, body)
	}
	if e.Error != wantStatus || e.Reason != http.StatusText(wantStatus) || e.Detail == "" {
		t.Errorf("error body %+v", e)
	}
	if wantCode != "" && e.ErrorCode != wantCode {
		t.Errorf("errorCode %q, want %q (%s)", e.ErrorCode, wantCode, e.Detail)
	}
	return e
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
