package apisim

import (
	"net/http"
	"sync/atomic"
)

// StatusRecorder passes an answer on to its ResponseWriter and keeps its
// status: the code of the first WriteHeader, or 200 when the body is
// written first. Status is 0 until either happens.
type StatusRecorder struct {
	http.ResponseWriter
	Status int
}

// Unwrap lets http.ResponseController reach the ResponseWriter beneath
// (to take over a connection whose answer a fault drops, faults.go).
func (w *StatusRecorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *StatusRecorder) WriteHeader(code int) {
	if w.Status == 0 {
		w.Status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *StatusRecorder) Write(b []byte) (int, error) {
	if w.Status == 0 {
		w.Status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// RequestCounter counts what a handler answers, for tests that measure a
// client's traffic (Wrap).
type RequestCounter struct {
	// Sent counts the requests that carried credentials (an Authorization
	// header): a digest client's unsigned first try, answered with a
	// challenge, is not one.
	Sent atomic.Int64
	// Throttled counts the requests answered 429 Too Many Requests. apisim
	// authenticates before it rate-limits, so each of them is also in Sent.
	Throttled atomic.Int64
}

// Wrap returns h counting each request it answers into c.
func (c *RequestCounter) Wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &StatusRecorder{ResponseWriter: w}
		h.ServeHTTP(rec, r)
		if r.Header.Get("Authorization") != "" {
			c.Sent.Add(1)
		}
		if rec.Status == http.StatusTooManyRequests {
			c.Throttled.Add(1)
		}
	})
}
