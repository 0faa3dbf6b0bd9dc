package apisim

import (
	"bytes"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
)

// signedRequest builds op's fixture request, signed by d (not safe for
// concurrent use: one digestClient per goroutine).
func signedRequest(d *digestClient, op catalog.Op, fx fixture) (*http.Request, error) {
	path, err := op.Expand(fx.params)
	if err != nil {
		return nil, err
	}
	root, accept := "/api/atlas/v2", ""
	if op.Legacy {
		root, accept = "/api/atlas/v1.0", "application/json"
	} else {
		v, _ := op.Current()
		accept = catalog.MediaType("atlas", v.Date)
	}
	path = root + path
	if fx.query != nil {
		path += "?" + fx.query.Encode()
	}
	var body io.Reader
	if fx.body != nil {
		body = bytes.NewReader(mustJSON(fx.body))
	}
	req, err := http.NewRequest(op.Method, d.base+path, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", accept)
	if fx.body != nil {
		req.Header.Set("Content-Type", accept)
	}
	d.nc++
	req.Header.Set("Authorization", d.authorization(op.Method, req.URL.RequestURI(), d.nc))
	return req, nil
}

// Every operation at once, reads and writes of every resource kind, several
// times over: under -race no answer may be encoded from a world object a
// later write changes (the answer is a copy made under the lock).
func TestConcurrentWritesAndListsOfEveryKind(t *testing.T) {
	e := newEnv(t, Options{RateLimitPerMin: 1 << 20})
	ops := catalog.All()
	fixes := make([]fixture, len(ops))
	for i, op := range ops {
		fixes[i] = preparedFixture(t, e.srv, op)
	}
	rounds := 2
	if testing.Short() {
		rounds = 1
	}
	var (
		wg       sync.WaitGroup
		ok, sent atomic.Int64
	)
	// Each worker goes through every operation from its own offset, so
	// writes and lists of each kind overlap.
	const workers = 12
	start := make(chan struct{})
	for w := range workers {
		d := e.digest("org-owner", "MD5")
		d.challenge(t)
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for r := range rounds * len(ops) {
				i := (w*len(ops)/workers + r) % len(ops)
				op := ops[i]
				req, err := signedRequest(d, op, fixes[i])
				if err != nil {
					t.Errorf("%s: %v", op.ID, err)
					return
				}
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Errorf("%s: %v", op.ID, err)
					return
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				sent.Add(1)
				if res.StatusCode < 300 {
					ok.Add(1)
				}
			}
		}()
	}
	close(start)
	wg.Wait()
	t.Logf("%d requests, %d answered 2xx", sent.Load(), ok.Load())
	if ok.Load() < sent.Load()/2 {
		t.Errorf("only %d of %d requests succeeded: the test did not exercise the handlers", ok.Load(), sent.Load())
	}
}
