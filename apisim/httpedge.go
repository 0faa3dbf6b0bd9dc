package apisim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strconv"
	"time"
)

// The edges of HTTP that net/http answers before any handler runs: a
// request whose headers never finish, a body that never arrives, a client
// that stops reading its answers or sends nothing more, headers over
// MaxHeaderBytes (431), malformed request lines or header bytes (400), an
// HTTP version other than 1.x (505), an unknown transfer coding (501) and an
// Expect header other than 100-continue (417). Timeouts bound the first
// four; a wrapping listener rewrites the answers net/http gives for the
// others into the API's error body, so a client parses every answer the
// same way.

// Defaults of the HTTP server's limits (Options overrides them).
const (
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultReadTimeout       = 30 * time.Second
	// DefaultWriteTimeout bounds a request from its headers to the end of
	// its answer: a client that stops reading cannot hold a connection.
	DefaultWriteTimeout = 30 * time.Second
	// DefaultIdleTimeout closes a kept-alive connection nothing is sent on.
	DefaultIdleTimeout    = 30 * time.Second
	DefaultMaxHeaderBytes = 1 << 20
)

func (s *Server) newHTTPServer() *http.Server {
	o := s.opts
	pick := func(v, def time.Duration) time.Duration {
		if v > 0 {
			return v
		}
		return def
	}
	maxHeader := o.MaxHeaderBytes
	if maxHeader <= 0 {
		maxHeader = DefaultMaxHeaderBytes
	}
	return &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: pick(o.ReadHeaderTimeout, DefaultReadHeaderTimeout),
		ReadTimeout:       pick(o.ReadTimeout, DefaultReadTimeout),
		WriteTimeout:      pick(o.WriteTimeout, DefaultWriteTimeout),
		IdleTimeout:       pick(o.IdleTimeout, DefaultIdleTimeout),
		MaxHeaderBytes:    maxHeader,
		ErrorLog:          log.New(io.Discard, "", 0),
	}
}

// shapedListener hands out connections whose pre-handler error answers are
// rewritten into the API's error shape.
type shapedListener struct{ net.Listener }

func (l shapedListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &shapedConn{Conn: c}, nil
}

type shapedConn struct{ net.Conn }

// plainErrorHeaders is what net/http puts between the status line and the
// body of the answers it writes itself (net/http server.go, conn.serve).
const plainErrorHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

func (c *shapedConn) Write(p []byte) (int, error) {
	if shaped, ok := shapePlainError(p); ok {
		if _, err := c.Conn.Write(shaped); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return c.Conn.Write(p)
}

// shapePlainError turns one of net/http's own plain-text answers into the
// same status with the API's JSON error body; anything else is left alone.
func shapePlainError(p []byte) ([]byte, bool) {
	if shaped, ok := shapeExpectationFailed(p); ok {
		return shaped, true
	}
	if !bytes.HasPrefix(p, []byte("HTTP/1.1 ")) || len(p) < 12 {
		return nil, false
	}
	i := bytes.Index(p, []byte(plainErrorHeaders))
	if i < 0 || bytes.IndexByte(p[:i], '\n') >= 0 {
		return nil, false
	}
	code, err := strconv.Atoi(string(p[9:12]))
	if err != nil || code < 400 || code > 599 {
		return nil, false
	}
	detail := string(p[i+len(plainErrorHeaders):])
	errorCode := "INVALID_REQUEST"
	switch code {
	case http.StatusRequestHeaderFieldsTooLarge:
		errorCode = "REQUEST_HEADER_FIELDS_TOO_LARGE"
		detail = "The request line and headers are larger than the server accepts."
	case http.StatusNotImplemented:
		errorCode = "UNSUPPORTED_TRANSFER_ENCODING"
	case http.StatusBadRequest:
		detail = "The request could not be parsed: " + detail + "."
	}
	return shapedAnswer("HTTP/1.1", code, errorCode, detail), true
}

// shapeExpectationFailed rewrites the empty 417 net/http sends for an
// Expect header other than 100-continue (the API never answers 417 itself).
// It arrives as one header block without a body.
func shapeExpectationFailed(p []byte) ([]byte, bool) {
	var proto string
	switch {
	case bytes.HasPrefix(p, []byte("HTTP/1.1 417 ")):
		proto = "HTTP/1.1"
	case bytes.HasPrefix(p, []byte("HTTP/1.0 417 ")):
		proto = "HTTP/1.0"
	default:
		return nil, false
	}
	if !bytes.HasSuffix(p, []byte("\r\n\r\n")) || !bytes.Contains(p, []byte("\r\nContent-Length: 0\r\n")) {
		return nil, false
	}
	return shapedAnswer(proto, http.StatusExpectationFailed, "EXPECTATION_FAILED",
		"The Expect header names an expectation the server does not meet: only 100-continue is supported."), true
}

// shapedAnswer is a whole answer with the API's error body; the connection
// is closed after it.
func shapedAnswer(proto string, code int, errorCode, detail string) []byte {
	body, _ := json.Marshal(errorBody{Detail: detail, Error: code, ErrorCode: errorCode,
		Reason: http.StatusText(code), Parameters: []any{}})
	body = append(body, '\n')
	return []byte(fmt.Sprintf("%s %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
		proto, code, http.StatusText(code), len(body), body))
}
