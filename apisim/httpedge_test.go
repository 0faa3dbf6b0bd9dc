package apisim

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func startServer(t testing.TB, opts Options) (*Server, string) {
	t.Helper()
	if opts.Clock == nil {
		opts.Clock = NewManualClock(testStart)
	}
	s, err := New(opts)
	require.NoError(t, err)
	base, err := s.Start("127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return s, base
}

// rawExchange writes raw bytes on a fresh connection and reads until the
// server closes it (or the deadline passes).
func rawExchange(t *testing.T, base, raw string, deadline time.Duration) (*http.Response, []byte, time.Duration) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	require.NoError(t, err)
	defer conn.Close()
	start := time.Now()
	_ = conn.SetDeadline(start.Add(deadline))
	go func() { _, _ = io.WriteString(conn, raw) }()
	br := bufio.NewReader(conn)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		return nil, nil, time.Since(start)
	}
	body, _ := io.ReadAll(res.Body)
	return res, body, time.Since(start)
}

func TestUnfinishedRequestsDoNotHoldAConnection(t *testing.T) {
	_, base := startServer(t, Options{ReadHeaderTimeout: 200 * time.Millisecond, ReadTimeout: 400 * time.Millisecond})
	addr := strings.TrimPrefix(base, "http://")
	for name, raw := range map[string]string{
		"headers never end": "GET /api/atlas/v2 HTTP/1.1\r\nHost: x\r\nX-Slow: ",
		"body never comes":  "POST /api/atlas/v2/groups HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"na",
	} {
		conn, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		_, err = io.WriteString(conn, raw)
		require.NoError(t, err)
		_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		start := time.Now()
		_, _ = io.Copy(io.Discard, conn) // returns when the server closes
		held := time.Since(start)
		conn.Close()
		assert.Less(t, held, 5*time.Second, "%s: the server held the connection %v", name, held)
	}
}

// What net/http would answer in plain text comes in the API's error shape.
func TestPreHandlerErrorsUseTheErrorShape(t *testing.T) {
	_, base := startServer(t, Options{MaxHeaderBytes: 4096})
	cases := []struct {
		name, raw string
		status    int
		code      string
	}{
		{"path over the header limit", "GET /api/atlas/v2/" + strings.Repeat("a", 64<<10) + " HTTP/1.1\r\nHost: x\r\n\r\n", 431, "REQUEST_HEADER_FIELDS_TOO_LARGE"},
		{"control byte in a header name", "GET /api/atlas/v2 HTTP/1.1\r\nHost: x\r\nBad\x01Name: v\r\n\r\n", 400, "INVALID_REQUEST"},
		{"control byte in a header value", "GET /api/atlas/v2 HTTP/1.1\r\nHost: x\r\nX-A: a\x00b\r\n\r\n", 400, "INVALID_REQUEST"},
		{"malformed request line", "NOT A REQUEST\r\n\r\n", 400, "INVALID_REQUEST"},
		{"missing Host", "GET /api/atlas/v2 HTTP/1.1\r\n\r\n", 400, "INVALID_REQUEST"},
		{"unknown transfer encoding", "POST /api/atlas/v2/groups HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: zip\r\n\r\n", 501, "UNSUPPORTED_TRANSFER_ENCODING"},
		{"Expect other than 100-continue", "GET /api/atlas/v2 HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n\r\n", 417, "EXPECTATION_FAILED"},
		{"Expect on a POST with a body", "POST /api/atlas/v2/groups HTTP/1.1\r\nHost: x\r\nExpect: foo\r\nContent-Length: 2\r\n\r\n{}", 417, "EXPECTATION_FAILED"},
		{"Expect in HTTP/1.0", "GET /api/atlas/v2 HTTP/1.0\r\nHost: x\r\nExpect: x\r\n\r\n", 417, "EXPECTATION_FAILED"},
		{"HTTP version 2 without the preface", "GET /api/atlas/v2 HTTP/2.0\r\nHost: x\r\n\r\n", 505, "INVALID_REQUEST"},
		{"HTTP version 3", "GET /api/atlas/v2 HTTP/3.1\r\nHost: x\r\n\r\n", 505, "INVALID_REQUEST"},
		{"two Content-Lengths", "POST /api/atlas/v2/groups HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}", 400, "INVALID_REQUEST"},
		{"bad Content-Length", "POST /api/atlas/v2/groups HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", 400, "INVALID_REQUEST"},
		{"two Hosts", "GET /api/atlas/v2 HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", 400, "INVALID_REQUEST"},
		{"header line without colon", "GET /api/atlas/v2 HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n", 400, "INVALID_REQUEST"},
		{"bad Host", "GET /api/atlas/v2 HTTP/1.1\r\nHost: a b\r\n\r\n", 400, "INVALID_REQUEST"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, body, _ := rawExchange(t, base, tc.raw, 5*time.Second)
			require.NotNil(t, res, "no HTTP answer")
			assert.Equal(t, tc.status, res.StatusCode)
			assert.Equal(t, "application/json", res.Header.Get("Content-Type"))
			var e errorBody
			require.NoError(t, json.Unmarshal(body, &e), "%q", body)
			assert.Equal(t, tc.status, e.Error)
			assert.Equal(t, tc.code, e.ErrorCode)
			assert.Equal(t, http.StatusText(tc.status), e.Reason)
			assert.NotEmpty(t, e.Detail)
		})
	}
	// An ordinary answer passes through untouched.
	res, body, _ := rawExchange(t, base, "GET /api/atlas/v2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 5*time.Second)
	require.NotNil(t, res)
	assert.Equal(t, 401, res.StatusCode)
	assert.Contains(t, string(body), `"errorCode":"CREDENTIALS_REQUIRED"`)
}

// A flood of unauthenticated requests cannot evict a nonce an honest
// client is signing with, from the same address or from many others.
func TestNonceFloodDoesNotEvictLiveNonces(t *testing.T) {
	e := newEnv(t, Options{})
	d := e.digest("org-owner", "MD5")
	st, _, b := d.do(t, rawReq{method: "GET", path: "/api/atlas/v2/groups"})
	require.Equal(t, 200, st, "%s", b)

	// Real requests over HTTP from the same loopback address...
	for i := 0; i < 200; i++ {
		res, err := http.Get(e.ts.URL + "/api/atlas/v2/groups")
		require.NoError(t, err)
		res.Body.Close()
		require.Equal(t, 401, res.StatusCode)
	}
	// ...then 50,000 more challenges from it and 60,000 spread over many
	// addresses, straight into the store.
	for i := 0; i < 50000; i++ {
		e.srv.digest.challenge(false, "127.0.0.1")
	}
	for i := 0; i < 60000; i++ {
		e.srv.digest.challenge(false, fmt.Sprintf("10.0.%d.%d", i/250%250, i%250))
	}
	e.srv.digest.mu.Lock()
	stored := len(e.srv.digest.nonces)
	e.srv.digest.mu.Unlock()
	assert.LessOrEqual(t, stored, maxNonces, "the store stays bounded")

	nonce := d.nonce
	st, _, b = d.do(t, rawReq{method: "GET", path: "/api/atlas/v2/groups"})
	assert.Equal(t, 200, st, "the honest client's nonce was evicted: %s", b)
	assert.Equal(t, nonce, d.nonce, "no new challenge was needed")
}

// A client that sends nothing after its answer is closed after the idle
// timeout, not held.
func TestIdleConnectionIsClosed(t *testing.T) {
	_, base := startServer(t, Options{IdleTimeout: 300 * time.Millisecond})
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	require.NoError(t, err)
	defer conn.Close()
	_, err = io.WriteString(conn, "GET /api/atlas/v2 HTTP/1.1\r\nHost: x\r\n\r\n")
	require.NoError(t, err)
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	br := bufio.NewReader(conn)
	res, err := http.ReadResponse(br, nil)
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	start := time.Now()
	_, err = br.ReadByte() // returns when the server closes
	held := time.Since(start)
	require.Error(t, err)
	assert.NotErrorIs(t, err, os.ErrDeadlineExceeded, "the idle connection was held")
	assert.Less(t, held, 5*time.Second)
}

// A client that asks and never reads cannot hold a connection: once the
// answers fill the socket, the write timeout closes it and the rest of the
// asked-for answers are never sent. (Without the timeout all of them come
// once the client reads.)
func TestClientThatStopsReadingIsCut(t *testing.T) {
	s, base := startServer(t, Options{WriteTimeout: 300 * time.Millisecond, RateLimitPerMin: 1 << 20})
	require.NoError(t, s.AddAlerts(DemoPaymentsID, 2000))
	d := &digestClient{base: base, user: "org-owner", pass: "org-owner-secret", alg: "MD5"}
	d.challenge(t)
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	require.NoError(t, err)
	defer conn.Close()
	// A small receive buffer while nothing is read: the server's writes
	// block after a few answers however slowly it makes them (a loaded
	// machine, -race).
	require.NoError(t, conn.(*net.TCPConn).SetReadBuffer(4096))
	// Pipelined requests whose answers, together, are far larger than what
	// the sockets hold.
	const n = 60
	var req strings.Builder
	uri := "/api/atlas/v2/groups/" + DemoPaymentsID + "/alerts?itemsPerPage=500&pretty=true"
	for range n {
		d.nc++
		fmt.Fprintf(&req, "GET %s HTTP/1.1\r\nHost: x\r\nAccept: application/vnd.atlas.2023-01-01+json\r\nAuthorization: %s\r\n\r\n",
			uri, d.authorization("GET", uri, d.nc))
	}
	go func() { _, _ = io.WriteString(conn, req.String()) }()
	// Read nothing until well past the write timeout, with room for a slow
	// server to fill the sockets first; then read at full speed.
	time.Sleep(5 * time.Second)
	require.NoError(t, conn.(*net.TCPConn).SetReadBuffer(4<<20))
	_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	br := bufio.NewReader(conn)
	complete := 0
	var readErr error
	for range n {
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Logf("after %d answers: %v", complete, err)
			readErr = err
			break
		}
		_, err = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if err != nil {
			t.Logf("after %d answers: %v", complete, err)
			readErr = err
			break
		}
		require.Equal(t, 200, res.StatusCode)
		complete++
	}
	t.Logf("%d of %d answers arrived", complete, n)
	// The server closed the connection (a reset, since the client's
	// requests were still unread): the answers still owed never come.
	assert.Less(t, complete, n, "the server waited for the reader instead of closing")
	assert.NotErrorIs(t, readErr, os.ErrDeadlineExceeded, "the server held the connection open")
}
