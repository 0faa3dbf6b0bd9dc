// Package apiclient is the one client every pane uses: it builds requests from
// the operation catalog, authenticates (HTTP Digest, OAuth service accounts or
// a bearer token), sends each operation's resource version, retries what is
// safe to retry, pages, and turns every failure into a typed error.
package apiclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
	"github.com/dbadmin-tui/dbadmin-tui/apiclient/safetext"
)

// DefaultBaseURL is the real cloud's address.
const DefaultBaseURL = "https://cloud.mongodb.com"

// DefaultService is the API's path segment: /api/{service}/v2.
const DefaultService = "atlas"

// maxBody bounds what the client reads of any response.
const maxBody = 64 << 20

// Options configure a Client.
type Options struct {
	BaseURL    string // default DefaultBaseURL
	Service    string // default DefaultService
	AppVersion string // sent in User-Agent: dbadmin-tui/<version>
	Auth       Auth   // default NoAuth
	// HTTPClient supplies the underlying transport and timeouts; the client
	// wraps its Transport with authentication.
	HTTPClient *http.Client
	Logger     *slog.Logger // default: discard
	// MaxRetries bounds retries of idempotent calls (default 3; negative: none).
	MaxRetries int
	// Gate, when set, refuses operations the caller may not run before they
	// are sent, and learns from 403 answers.
	Gate *Gate
	// Backoff is the first retry delay (default 250ms); it doubles, with
	// jitter, up to 8s.
	Backoff time.Duration
	// Scheduler paces every request by the server's rate limits (default: a
	// new one for this client). Clients sharing one share its buckets.
	Scheduler *Scheduler
	// RetryBudget, when positive, bounds the total time one call spends
	// waiting between its retries: a wait that would pass it is not made.
	RetryBudget time.Duration
	// OnRetry, when set, is told of each wait before a retry.
	OnRetry func(op string, attempt int, wait time.Duration, err error)
	// RetryIf, when set, narrows what is retried: a failure the policy
	// would retry is retried only if RetryIf accepts it too.
	RetryIf func(err error) bool
	// AllowHTTP accepts a plain http:// base URL on a host other than
	// loopback (--allow-http). Without it such a URL is refused: the API
	// keys' digest answers, OAuth client secrets and bearer tokens would
	// cross the network readable and replayable.
	AllowHTTP bool
	// WarmLanes, under HTTP Digest, is how many connection lanes the
	// client readies at its first request, each with a challenge of its
	// own fetched by an unsigned HEAD, so the first burst of reads (a full
	// pass's pages) is signed at once (see digestLanes). 0: none, each
	// lane meets its challenge when first used. The dashboard sets
	// DefaultWarmLanes; a client that makes a few requests should not.
	WarmLanes int
}

// Client calls the Administration API. It is safe for concurrent use.
type Client struct {
	base      *url.URL
	service   string
	userAgent string
	auth      Auth
	http      *http.Client
	log       *slog.Logger
	retries   int
	backoff   time.Duration
	gate      *Gate
	sched     *Scheduler
	budget    time.Duration
	onRetry   func(op string, attempt int, wait time.Duration, err error)
	retryIf   func(err error) bool

	mu           sync.Mutex
	deprecations map[string]Deprecation

	knownMig knownMigrations // live migrations this session started or read

	// skew is the server's clock minus ours, in nanoseconds, from the Date
	// header of the latest answer (see Now).
	skew atomic.Int64
	// lastDate is the newest Date header and when it came (SentFloor).
	lastDate lastDate

	// share, actor and hook: see session.go.
	share *ReadShare
	actor Actor
	hook  WriteHook

	// copies: the start copies (startcopy.go); read on every request.
	copies atomic.Pointer[StartCopies]
	// ahead: the reads sent ahead, not taken yet (readahead.go).
	ahead readAheads
}

// Deprecation records a Deprecation or Sunset header the server sent.
type Deprecation struct {
	Op          string
	Version     string
	Deprecation string
	Sunset      string
}

// New validates the options and builds a client.
func New(o Options) (*Client, error) {
	raw := o.BaseURL
	if raw == "" {
		raw = DefaultBaseURL
	}
	u, err := url.Parse(strings.TrimRight(raw, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("malformed base URL %q: want http(s)://host[:port]", raw)
	}
	if u.Scheme == "http" && !o.AllowHTTP && !IsLoopbackHost(u.Hostname()) {
		return nil, fmt.Errorf("refusing plain http:// to %s: credentials would cross the network unencrypted; use https:// (or --allow-http if you must)", u.Host)
	}
	service := o.Service
	if service == "" {
		service = DefaultService
	}
	if strings.ContainsAny(service, "/?#% ") {
		return nil, fmt.Errorf("malformed service segment %q", service)
	}
	auth := o.Auth
	if auth == nil {
		auth = NoAuth()
	}
	hc := &http.Client{Timeout: 60 * time.Second}
	if o.HTTPClient != nil {
		copied := *o.HTTPClient
		hc = &copied
	}
	baseRT := hc.Transport
	if baseRT == nil {
		// Keep a connection per lane open between requests rather than
		// the default two, so a busy board does not open and close
		// connections for every request.
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = maxDigestLanes
		baseRT = t
	}
	// Credentials go only to the base URL's host: a redirect elsewhere is
	// followed without Authorization and without a digest answer.
	if d, ok := auth.(digestAuth); ok {
		d.warm = o.WarmLanes
		auth = d
	}
	hc.Transport = &hostGuard{host: u.Host, authed: auth.transport(baseRT, u.String()), plain: baseRT}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	retries := o.MaxRetries
	if retries == 0 {
		retries = 3
	}
	if retries < 0 {
		retries = 0
	}
	backoff := o.Backoff
	if backoff <= 0 {
		backoff = 250 * time.Millisecond
	}
	version := o.AppVersion
	if version == "" {
		version = "dev"
	}
	sched := o.Scheduler
	if sched == nil {
		sched = NewScheduler()
	}
	return &Client{
		base: u, service: service, userAgent: "dbadmin-tui/" + version, auth: auth,
		http: hc, log: log, retries: retries, backoff: backoff, gate: o.Gate,
		sched: sched, budget: o.RetryBudget, onRetry: o.OnRetry, retryIf: o.RetryIf,
		deprecations: map[string]Deprecation{},
	}, nil
}

// BaseURL is the service address the client talks to.
func (c *Client) BaseURL() string { return c.base.String() }

// Service is the path segment of /api/{service}/v2.
func (c *Client) Service() string { return c.service }

// AuthMode names the authentication scheme in use.
func (c *Client) AuthMode() string { return c.auth.Mode() }

// Principal is the caller's non-secret name (public key or client id).
func (c *Client) Principal() string { return c.auth.Principal() }

// Scheduler is the client's request scheduler.
func (c *Client) Scheduler() *Scheduler { return c.sched }

// Gate is the client's action gate (nil when none was configured).
func (c *Client) Gate() *Gate { return c.gate }

// Request is what varies between calls of one operation.
type Request struct {
	Params   map[string]string // path parameters: groupId, clusterName, ...
	Query    url.Values        // extra query parameters
	Body     any               // JSON-encoded with the operation's media type
	List     *ListOptions      // paging, for paged operations
	Envelope bool              // ask for envelope=true and unwrap it
}

// Response is a successful answer's metadata.
type Response struct {
	StatusCode         int
	Header             http.Header
	RateLimitLimit     int // -1 when not sent
	RateLimitRemaining int // -1 when not sent
	Attempts           int
}

// requestURL builds the full URL of an operation: the escaped path under
// /api/{service}/v2 (or v1.0), paging and envelope in the query.
func (c *Client) requestURL(op catalog.Op, r Request) (string, error) {
	path, err := op.Expand(r.Params)
	if err != nil {
		return "", err
	}
	version := "v2"
	if op.Legacy {
		version = "v1.0"
	}
	// path is already escaped by Expand; keep that form on the wire.
	raw := strings.TrimRight(c.base.EscapedPath(), "/") + "/api/" + c.service + "/" + version + path
	unescaped, err := url.PathUnescape(raw)
	if err != nil {
		return "", fmt.Errorf("%s: bad path: %w", op.ID, err)
	}
	u := *c.base
	u.Path, u.RawPath = unescaped, raw
	q := url.Values{}
	for k, v := range r.Query {
		q[k] = append([]string(nil), v...)
	}
	if r.List != nil && op.Paged {
		r.List.apply(q)
	}
	if r.Envelope {
		q.Set("envelope", "true")
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// Do calls the operation opID and decodes a successful body into out (which
// may be nil). Failures are *Error (non-2xx), *DecodeError (unreadable 2xx
// body), *DeniedError (refused by the gate, nothing sent) or a transport error;
// a write whose request left but whose answer was lost or unreadable is an
// *OutcomeUnknownError wrapping the last two, never resent.
func (c *Client) Do(ctx context.Context, opID string, r Request, out any) (resp *Response, err error) {
	op, ok := catalog.Get(opID)
	if !ok {
		return nil, fmt.Errorf("unknown operation %q", opID)
	}
	if c.hook != nil && op.Mutates() {
		// Told before Do returns: whoever shows the outcome shows it after.
		defer c.tellWrite(op, r, time.Now(), &resp, &err)
	}
	if c.gate != nil {
		if allowed, why := c.gate.AllowedIn(op, c.gate.target(r.Params)); !allowed {
			return nil, &DeniedError{Op: op.ID, Reason: why}
		}
	}
	if c.hook != nil && op.Mutates() {
		if err := c.hook.Before(c.actor, op, r.Params, r.Body); err != nil {
			return nil, &DeniedError{Op: op.ID, Reason: err.Error()}
		}
	}
	target, err := c.requestURL(op, r)
	if err != nil {
		return nil, err
	}
	mediaType, versionDate := c.mediaType(op)
	var body []byte
	if r.Body != nil {
		if body, err = json.Marshal(r.Body); err != nil {
			return nil, fmt.Errorf("%s: encode body: %w", op.ID, err)
		}
	}

	// A read-back checks the server; any other read may be the first
	// screen's, answered from what the last start kept (a copy that no
	// longer decodes is passed over: the service is asked).
	_, readBack := ctx.Value(retriesKey{}).(int)
	read := op.Method == http.MethodGet && !readBack
	copyKey := target + "\x00" + mediaType
	if read {
		if resp, ok := c.fromStartCopy(ctx, op, copyKey, r.Envelope, out); ok {
			return resp, nil
		}
	} else if s := c.StartCopies(); s != nil && op.Mutates() {
		s.stop()
	}

	schedule := newBackoff(c.backoff)
	var waited time.Duration
	for attempt := 1; ; attempt++ {
		// The server-judged time as the request leaves (SentFloor), taken
		// once the scheduler lets it go; a shared copy keeps the first.
		sent := c.SentFloor()
		res, data, fromCopy, err := c.exchange(ctx, op, r.Params, target, mediaType, body, &sent)
		if ae, ok := err.(errAcquire); ok {
			return nil, ae.error
		}
		if err != nil && !fromCopy {
			c.sched.observe(op, r.Params, nil, nil)
		}
		var result *Response
		if err == nil {
			result = newResponse(res, attempt)
			c.noteDeprecation(op, versionDate, res.Header)
			apiErr := answerError(op.ID, res, data)
			if !fromCopy {
				c.sched.observe(op, r.Params, res.Header, apiErr)
			}
			if apiErr != nil {
				err = apiErr
				if apiErr.Status == http.StatusForbidden && c.gate != nil {
					c.gate.Learn(op.ID, r.Params["groupId"], apiErr)
				}
			} else if err = decode(op, data, r.Envelope, out); err == nil {
				if read {
					c.keepStartCopy(ctx, copyKey, data)
				}
				return result, nil
			} else {
				err = &DecodeError{Op: op.ID, Status: res.StatusCode, Err: err}
			}
		}
		wait, retry := c.shouldRetry(op, attempt, retriesFor(ctx, c.retries), schedule.NextBackOff(), err)
		if retry && c.retryIf != nil && !c.retryIf(err) {
			retry = false
		}
		if retry && c.budget > 0 && waited+wait > c.budget {
			retry = false
		}
		if !retry {
			return result, outcomeUnknown(op.ID, op.Mutates(), sent, err)
		}
		waited += wait
		if c.onRetry != nil {
			c.onRetry(op.ID, attempt, wait, err)
		}
		c.log.Debug("retrying", "op", op.ID, "attempt", attempt, "wait", wait, "err", err)
		select {
		case <-ctx.Done():
			return result, fmt.Errorf("%s: %w (last error: %v)", op.ID, ctx.Err(), err)
		case <-time.After(wait):
		}
	}
}

// mediaType is what op's requests accept and its version's date (none for
// the legacy API's JSON).
func (c *Client) mediaType(op catalog.Op) (mediaType, versionDate string) {
	if op.Legacy {
		return "application/json", ""
	}
	v, _ := op.Current()
	return catalog.MediaType(c.service, v.Date), v.Date
}

func (c *Client) send(ctx context.Context, op catalog.Op, target, mediaType string, body []byte) (*http.Response, []byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, op.Method, target, rd)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", op.ID, err)
	}
	req.Header.Set("Accept", mediaType)
	req.Header.Set("User-Agent", c.userAgent)
	if body != nil {
		req.Header.Set("Content-Type", mediaType)
	}
	// Once the headers are written the server may act on the request, so a
	// write that fails after this point has an unknown outcome.
	var wrote atomic.Bool
	req = req.WithContext(httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		WroteHeaders: func() { wrote.Store(true) },
	}))
	start := time.Now()
	res, err := c.http.Do(req)
	if err != nil {
		return nil, nil, &TransportError{Op: op.ID, Err: err, afterSend: wrote.Load()}
	}
	defer res.Body.Close()
	c.observeDate(res.Header.Get("Date"), start, time.Now())
	data, err := readBody(res)
	if err != nil {
		return nil, nil, &TransportError{Op: op.ID, Err: fmt.Errorf("read body: %w", err), afterSend: true}
	}
	return res, data, nil
}

// readBody reads at most maxBody of an answer, into one buffer of the size
// the answer announces: io.ReadAll grows its buffer from 512 bytes, which
// for a page of 500 alerts is some twenty copies and twice its size in
// garbage.
func readBody(res *http.Response) ([]byte, error) {
	body := io.LimitReader(res.Body, maxBody)
	if n := res.ContentLength; n > 0 && n <= maxBody {
		// bytes.MinRead more than announced: ReadFrom grows a buffer with
		// less room left than that, so a body as long as announced is
		// read without growing it.
		buf := bytes.NewBuffer(make([]byte, 0, n+bytes.MinRead))
		_, err := buf.ReadFrom(body)
		return buf.Bytes(), err
	}
	return io.ReadAll(body)
}

// TransportError is a failure to get an answer at all.
type TransportError struct {
	Op        string
	Err       error
	afterSend bool
}

func (e *TransportError) Error() string { return e.Op + ": " + e.Err.Error() }
func (e *TransportError) Unwrap() error { return e.Err }

// neverSent reports whether the request surely did not reach the server: the
// connection could not even be opened.
func (e *TransportError) neverSent() bool {
	if e.afterSend {
		return false
	}
	var op *net.OpError
	return errors.As(e.Err, &op) && op.Op == "dial"
}

func newResponse(res *http.Response, attempt int) *Response {
	r := &Response{StatusCode: res.StatusCode, Header: res.Header, RateLimitLimit: -1, RateLimitRemaining: -1, Attempts: attempt}
	if v, err := strconv.Atoi(res.Header.Get("RateLimit-Limit")); err == nil {
		r.RateLimitLimit = v
	}
	if v, err := strconv.Atoi(res.Header.Get("RateLimit-Remaining")); err == nil {
		r.RateLimitRemaining = v
	}
	return r
}

func decode(op catalog.Op, data []byte, envelope bool, out any) error {
	if out == nil || len(bytes.TrimSpace(data)) == 0 {
		if out != nil && op.OK != http.StatusNoContent && op.OK != http.StatusAccepted && !(op.Method == "DELETE") {
			return errors.New("empty body")
		}
		return nil
	}
	if envelope {
		var env struct {
			Content json.RawMessage `json:"content"`
		}
		if err := json.Unmarshal(data, &env); err == nil && len(env.Content) > 0 {
			data = env.Content
		}
	}
	if err := unmarshal(data, out); err != nil {
		return err
	}
	// Every string the server sent is made safe to print here, once, so no
	// view can forget it (escape sequences, controls, bidi overrides).
	safetext.Strings(out)
	return nil
}

// retriesKey carries WithRetries' allowance in a context.
type retriesKey struct{}

// WithRetries lets the calls made with ctx retry an idempotent read up to n
// times instead of the client's MaxRetries (writes keep their rule): for a
// read that matters more than a poll, such as the read-back that settles a
// write whose answer was lost.
func WithRetries(ctx context.Context, n int) context.Context {
	return context.WithValue(ctx, retriesKey{}, n)
}

// retriesFor is ctx's retry allowance, else the client's.
func retriesFor(ctx context.Context, client int) int {
	if n, ok := ctx.Value(retriesKey{}).(int); ok {
		return n
	}
	return client
}

// shouldRetry decides whether to try again and how long to wait first.
// Idempotent reads are retried on transport errors, 5xx, 429 and malformed
// bodies. Writes are retried only when the request never left this machine.
func (c *Client) shouldRetry(op catalog.Op, attempt, retries int, wait time.Duration, err error) (time.Duration, bool) {
	if err == nil || attempt > retries {
		return 0, false
	}
	var te *TransportError
	if errors.As(err, &te) {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return 0, false
		}
		return wait, !op.Mutates() || te.neverSent()
	}
	if op.Mutates() {
		return 0, false
	}
	var de *DecodeError
	if errors.As(err, &de) {
		return wait, true
	}
	if apiErr, ok := AsError(err); ok {
		switch {
		case apiErr.Status == http.StatusTooManyRequests || apiErr.Status == http.StatusServiceUnavailable:
			if apiErr.RetryAfter > wait {
				wait = apiErr.RetryAfter
			}
			return wait, true
		case apiErr.Status >= 500:
			return wait, true
		}
	}
	return 0, false
}

func (c *Client) noteDeprecation(op catalog.Op, version string, h http.Header) {
	dep, sunset := h.Get("Deprecation"), h.Get("Sunset")
	if dep == "" && sunset == "" {
		return
	}
	key := op.ID + "@" + version
	c.mu.Lock()
	_, seen := c.deprecations[key]
	c.deprecations[key] = Deprecation{Op: op.ID, Version: version, Deprecation: dep, Sunset: sunset}
	c.mu.Unlock()
	if !seen {
		c.log.Warn("deprecated API version in use", "op", op.ID, "version", version, "deprecation", dep, "sunset", sunset)
	}
}

// Deprecations lists the Deprecation/Sunset headers seen so far, by operation.
func (c *Client) Deprecations() []Deprecation {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]Deprecation, 0, len(c.deprecations))
	for _, d := range c.deprecations {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Op != out[j].Op {
			return out[i].Op < out[j].Op
		}
		return out[i].Version < out[j].Version
	})
	return out
}
