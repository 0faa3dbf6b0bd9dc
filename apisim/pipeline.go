package apisim

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
)

// call is one API request on its way through a handler.
type call struct {
	s       *Server
	r       *http.Request
	op      catalog.Op
	id      *Identity
	w       *World
	now     time.Time
	version catalog.Version // zero for legacy ops
	query   url.Values
	body    []byte
	project *Project    // set when the path has {groupId}
	paging  *listParams // set for a paged operation: the page asked for
	org     *Org        // the project's org, or {orgId}
	changed bool
}

func (c *call) param(name string) string { return c.r.PathValue(name) }

// markChanged tells persistence the world moved.
func (c *call) markChanged() { c.changed = true }

// decode strictly decodes the request body into v.
func (c *call) decode(v any) *apiError { return decodeJSON(c.body, v) }

// decodeToggle reads the {"enabled": bool} body of the toggle routes;
// enabled is required.
func (c *call) decodeToggle() (bool, *apiError) {
	var b struct {
		Enabled *bool `json:"enabled"`
	}
	if e := c.decode(&b); e != nil {
		return false, e
	}
	if b.Enabled == nil {
		return false, errMissing("enabled")
	}
	return *b.Enabled, nil
}

// opHandler decodes and validates, calls the store and returns the value to
// encode (nil for no body). Paged operations return a list.
type opHandler func(c *call) (any, error)

// list is what a paged or bare-list handler returns; the framework pages it.
type list []any

// pageList is what a paged handler may return instead of the whole list:
// the page asked for (call.paging) and the count of all the items, so a
// page of a long list costs a page.
type pageList struct {
	items list
	total int
}

func listOf[T any](xs []T, view func(T) any) list {
	out := make(list, 0, len(xs))
	for _, x := range xs {
		out = append(out, view(x))
	}
	return out
}

var opHandlers = map[string]opHandler{}

// handle registers the handler of a catalog operation; area files call it
// from init.
func handle(opID string, h opHandler) {
	if _, ok := catalog.Get(opID); !ok {
		panic("apisim: handler for unknown operation " + opID)
	}
	opHandlers[opID] = h
}

// serveOp is the pipeline every operation goes through: authenticate,
// negotiate the version, rate-limit, inject faults, resolve and authorize the
// target, read the body, run the handler, encode.
func (s *Server) serveOp(op catalog.Op, h opHandler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		pretty, perr := queryBool(q, "pretty", false)
		if perr != nil {
			writeError(w, perr, false)
			return
		}
		if e := s.sleep(r); e != nil {
			writeError(w, e, pretty)
			return
		}
		id, aerr := s.authenticate(w, r)
		if aerr != nil {
			writeError(w, aerr, pretty)
			return
		}
		setIdentity(r, id.PublicKey)
		if e := s.limiter.allow(w, r, op, id); e != nil {
			writeError(w, e, pretty)
			return
		}
		ver, verr := s.negotiate(w, r, op)
		if verr != nil {
			writeError(w, verr, pretty)
			return
		}
		if e := s.faults.fault(r.Method); e != nil {
			writeError(w, e, pretty)
			return
		}
		c := &call{s: s, r: r, op: op, id: id, version: ver, query: q}
		if e := validatePathParams(op, r.PathValue); e != nil {
			writeError(w, e, pretty)
			return
		}
		if e := s.readBody(w, r, c); e != nil {
			writeError(w, e, pretty)
			return
		}
		var lp listParams
		if op.Paged {
			var e *apiError
			if lp, e = parseListParams(q); e != nil {
				writeError(w, e, pretty)
				return
			}
		}
		envelope, e := queryBool(q, "envelope", false)
		if e != nil {
			writeError(w, e, pretty)
			return
		}
		if op.Paged {
			c.paging = &lp
		}
		val, err := s.run(c, h)
		if err != nil {
			var ae *apiError
			if !errors.As(err, &ae) {
				ae = newError(http.StatusInternalServerError, "UNEXPECTED_ERROR", "Unexpected error.")
			}
			writeError(w, ae, pretty)
			return
		}
		s.encode(w, r, c, val, lp, envelope, pretty)
	})
}

// run resolves the target, authorizes and runs the handler under the world
// lock.
//
// A call that changed the world is on disk (with --state) before it is
// answered: the snapshot is taken under the lock and written after it.
func (s *Server) run(c *call, h opHandler) (any, error) {
	v, snap, gen, err := s.runLocked(c, h)
	if snap != nil {
		if werr := s.persist.write(gen, snap); werr != nil {
			return nil, newError(http.StatusInternalServerError, "UNEXPECTED_ERROR", "The change was made but could not be saved: %v.", werr)
		}
	}
	return v, err
}

func (s *Server) runLocked(c *call, h opHandler) (v any, snap []byte, gen uint64, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c.w = s.world
	c.now = s.clock.Now().UTC().Truncate(time.Second)
	target, err := c.resolveTarget()
	if err != nil {
		return nil, nil, 0, err
	}
	if !catalog.Authorize(c.id.Roles, c.op, target) {
		return nil, nil, 0, newError(http.StatusForbidden, "USER_UNAUTHORIZED",
			"This API key does not have the role required for %s: %s.", c.op.ID, c.op.RolesText())
	}
	// With a state file, a write is applied only if it can be kept: the
	// world before it is held so that a change whose answer or save cannot
	// be made is undone before the failure is answered. (Without one,
	// nothing but the answer can fail, and the clock cannot be moved where
	// its times would not encode: maxClock.)
	var before []byte
	if s.persist != nil && c.r.Method != http.MethodGet && c.r.Method != http.MethodHead {
		if before, err = json.Marshal(s.world); err != nil {
			return nil, nil, 0, newError(http.StatusInternalServerError, "UNEXPECTED_ERROR", "The change could not be saved: %v; nothing was changed.", err)
		}
	}
	v, err = h(c)
	if err != nil {
		// Handlers validate before they change anything; a failing one
		// that marked a change is undone all the same.
		if c.changed && before != nil {
			s.restoreLocked(before)
		}
		return nil, nil, 0, err
	}
	// The answer is encoded from a copy made under the lock: the world's
	// objects change under later calls once the lock is released.
	if v, err = freeze(v, c.paging); err != nil {
		if c.changed && before != nil {
			s.restoreLocked(before)
		}
		if c.changed && before == nil {
			return nil, nil, 0, newError(http.StatusInternalServerError, "UNEXPECTED_ERROR", "The change was made but its answer could not be encoded: %v.", err)
		}
		return nil, nil, 0, newError(http.StatusInternalServerError, "UNEXPECTED_ERROR", "Could not encode the response: %v; nothing was changed.", err)
	}
	if c.changed && s.persist != nil {
		if snap, gen, err = s.snapshotLocked(); err != nil {
			if before != nil {
				s.restoreLocked(before)
			}
			return nil, nil, 0, newError(http.StatusInternalServerError, "UNEXPECTED_ERROR", "The change could not be saved: %v; nothing was changed.", err)
		}
	}
	return v, snap, gen, nil
}

// restoreLocked puts back the world marshalled in before (s.mu held).
func (s *Server) restoreLocked(before []byte) {
	var w World
	if err := json.Unmarshal(before, &w); err != nil {
		// The bytes were marshalled from a World a moment ago.
		panic("apisim: cannot restore the world: " + err.Error())
	}
	w.normalize()
	w.identities = s.world.identities
	*s.world = w
}

// freeze turns a handler's value into JSON made now: a list into a list of
// encoded items (the framework pages and links it), anything else into one
// encoded value. nil stays nil. Of a paged list only the page asked for is
// encoded (the rest is never answered; the list keeps its length for the
// count): a page out of 100,000 alerts costs a page, not the whole list.
func freeze(v any, paging *listParams) (any, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case list:
		if x == nil {
			return x, nil
		}
		if paging != nil {
			start, end := paging.window(len(x))
			items, err := freezeItems(x[start:end])
			return pageList{items: items, total: len(x)}, err
		}
		return freezeItems(x)
	case pageList:
		items, err := freezeItems(x.items)
		return pageList{items: items, total: x.total}, err
	case json.RawMessage:
		return x, nil
	}
	return marshalRaw(v)
}

func freezeItems(x list) (list, error) {
	out := make(list, len(x))
	for i, it := range x {
		b, err := marshalRaw(it)
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

// marshalRaw encodes v as the answer would (no HTML escaping).
func marshalRaw(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return json.RawMessage(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), nil
}

// resolveTarget finds the project and org the path names; 404 if missing.
func (c *call) resolveTarget() (catalog.Target, error) {
	var t catalog.Target
	if g := c.param("groupId"); g != "" && strings.Contains(c.op.Path, "{groupId}") {
		p := c.w.project(g)
		if p == nil {
			return t, errNotFound("GROUP_NOT_FOUND", "No group with ID %s exists.", g)
		}
		c.project = p
		t.GroupID, t.OrgID = p.ID, p.OrgID
		c.org = c.w.org(p.OrgID)
	}
	if o := c.param("orgId"); o != "" && strings.Contains(c.op.Path, "{orgId}") {
		org := c.w.org(o)
		if org == nil {
			return t, errNotFound("ORG_NOT_FOUND", "No organization with ID %s exists.", o)
		}
		c.org = org
		t.OrgID = org.ID
	}
	return t, nil
}

// authenticate accepts HTTP Digest for API keys and Bearer tokens for
// service accounts; otherwise it answers 401 with a digest challenge.
func (s *Server) authenticate(w http.ResponseWriter, r *http.Request) (*Identity, *apiError) {
	h := r.Header.Get("Authorization")
	fail := func(stale bool, code, detail string) (*Identity, *apiError) {
		e := newError(http.StatusUnauthorized, code, "%s", detail)
		e.Header = http.Header{"Www-Authenticate": s.digest.challenge(stale, clientOf(r))}
		return nil, e
	}
	switch {
	case h == "":
		return fail(false, "CREDENTIALS_REQUIRED", "You are not authorized for this resource: send HTTP Digest credentials or a Bearer token.")
	case len(h) > 7 && strings.EqualFold(h[:7], "Digest "):
		id, res, why := s.digest.verify(r, h, s.identity)
		switch res {
		case digestOK:
			return id, nil
		case digestStale:
			return fail(true, "STALE_NONCE", "The digest nonce has expired; retry with the new challenge.")
		case digestReplay:
			return fail(false, "NONCE_REPLAYED", "Digest authentication failed: "+why+".")
		}
		return fail(false, "INVALID_CREDENTIALS", "Digest authentication failed: "+why+".")
	case len(h) > 7 && strings.EqualFold(h[:7], "Bearer "):
		pub, expired := s.tokens.lookup(strings.TrimSpace(h[7:]))
		if expired {
			return fail(false, "TOKEN_EXPIRED", "The access token has expired; request a new one.")
		}
		if id := s.identity(pub); id != nil {
			return id, nil
		}
		return fail(false, "INVALID_TOKEN", "The access token is not valid.")
	}
	return fail(false, "INVALID_CREDENTIALS", "Unsupported Authorization scheme; use Digest or Bearer.")
}

// negotiate picks the resource version from the Accept header: the newest
// version of the operation on or before the requested date. Legacy v1.0
// routes speak application/json only.
func (s *Server) negotiate(w http.ResponseWriter, r *http.Request, op catalog.Op) (catalog.Version, *apiError) {
	accept := r.Header.Get("Accept")
	if op.Legacy {
		if n := len(op.Versions); n > 0 && op.Versions[n-1].Gone(s.clock.Now()) {
			// A v1.0 copy of an operation whose every version is sunset.
			return catalog.Version{}, newError(http.StatusGone, "VERSION_GONE",
				"%s was sunset on %s.", op.Source, op.Versions[n-1].Sunset)
		}
		if accept == "" || acceptsJSON(accept) {
			return catalog.Version{}, nil
		}
		return catalog.Version{}, newError(http.StatusNotAcceptable, "NOT_ACCEPTABLE",
			"The v1.0 API answers application/json only; got Accept %q.", accept)
	}
	date, found := "", false
	for _, part := range strings.Split(accept, ",") {
		mt := strings.TrimSpace(part)
		if i := strings.IndexByte(mt, ';'); i >= 0 {
			mt = strings.TrimSpace(mt[:i])
		}
		if d, ok := parseVendorType(strings.ToLower(mt), s.service); ok {
			date, found = d, true
			break
		}
	}
	if !found {
		return catalog.Version{}, newError(http.StatusNotAcceptable, "INVALID_VERSION",
			"Send Accept: application/vnd.%s.<YYYY-MM-DD>+json; got %q.", s.service, accept)
	}
	v, ok := op.Resolve(date)
	if !ok {
		return v, newError(http.StatusNotAcceptable, "INVALID_VERSION",
			"Version %s is older than every version of %s; the oldest is %s.", date, op.ID, op.Versions[0].Date)
	}
	if v.Sunset != "" {
		sunset, err := time.Parse("2006-01-02", v.Sunset)
		if err == nil {
			if v.Gone(s.clock.Now()) {
				return v, newError(http.StatusGone, "VERSION_GONE",
					"Version %s of %s was sunset on %s.", v.Date, op.ID, v.Sunset)
			}
			w.Header().Set("Deprecation", "true")
			w.Header().Set("Sunset", sunset.UTC().Format(http.TimeFormat))
		}
	}
	return v, nil
}

func acceptsJSON(accept string) bool {
	for _, part := range strings.Split(accept, ",") {
		mt := strings.TrimSpace(part)
		if i := strings.IndexByte(mt, ';'); i >= 0 {
			mt = strings.TrimSpace(mt[:i])
		}
		switch strings.ToLower(mt) {
		case "application/json", "*/*", "application/*":
			return true
		}
	}
	return false
}

// readBody enforces the size limit and the Content-Type, then keeps the body.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, c *call) *apiError {
	tooLarge := newError(http.StatusRequestEntityTooLarge, "REQUEST_TOO_LARGE",
		"The request body is larger than %d bytes.", maxBodyBytes)
	if r.ContentLength > maxBodyBytes {
		return tooLarge
	}
	if r.Body == nil || r.Body == http.NoBody {
		return nil
	}
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return tooLarge
		}
		return errBadRequest("MALFORMED_REQUEST", "Could not read the request body.")
	}
	if len(b) == 0 {
		return nil
	}
	if e := checkContentType(r.Header.Get("Content-Type"), s.service, c.op.Legacy); e != nil {
		return e
	}
	c.body = b
	return nil
}

type link struct {
	Href string `json:"href"`
	Rel  string `json:"rel"`
}

// encode writes a success: paging, envelope, links, pretty printing and the
// injected malformed body.
func (s *Server) encode(w http.ResponseWriter, r *http.Request, c *call, val any, lp listParams, envelope, pretty bool) {
	op := c.op
	status := op.OK
	if op.Legacy {
		w.Header().Set("Content-Type", "application/json")
	} else {
		w.Header().Set("Content-Type", catalog.MediaType(s.service, c.version.Date))
	}
	if val == nil && (status == http.StatusNoContent || status == http.StatusAccepted) {
		w.Header().Del("Content-Type")
		if s.faults.loseBodiless(w, r.Method) {
			return
		}
		w.WriteHeader(status)
		return
	}
	self := requestURL(r)
	var body any = val
	switch {
	case op.Paged:
		var pl pageList
		switch x := val.(type) {
		case pageList:
			pl = x
		case list: // a handler's list, not frozen (none is)
			start, end := lp.window(len(x))
			pl = pageList{items: x[start:end], total: len(x)}
		}
		body = s.page(pl, lp, r, envelope, status, op.Legacy)
	case op.BareList:
		if items, ok := val.(list); ok && items == nil {
			val = list{}
		}
		if envelope {
			body = map[string]any{"status": status, "content": val}
		}
	default:
		if op.Legacy {
			body = withLinks(val, []link{{Href: self, Rel: "self"}})
		}
		if envelope {
			body = map[string]any{"status": status, "content": body}
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if pretty {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(body); err != nil {
		writeError(w, newError(http.StatusInternalServerError, "UNEXPECTED_ERROR", "Could not encode the response."), pretty)
		return
	}
	out := s.faults.malform(w, r.Method, buf.Bytes())
	if out == nil {
		return // the answer was dropped
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(out)))
	w.WriteHeader(status)
	_, _ = w.Write(out)
}

// window is the part of a list of total items the page asked for.
func (lp listParams) window(total int) (start, end int) {
	start = (lp.PageNum - 1) * lp.ItemsPerPage
	if start > total || start < 0 {
		start = total
	}
	return start, min(start+lp.ItemsPerPage, total)
}

// page builds the list body of the page pl holds; legacy (v1.0) items get
// their own self links.
func (s *Server) page(pl pageList, lp listParams, r *http.Request, envelope bool, status int, legacy bool) any {
	total := pl.total
	_, end := lp.window(total)
	results := pl.items
	if legacy {
		results = itemLinks(results, r)
	}
	if results == nil {
		results = list{}
	}
	links := []link{{Href: requestURL(r), Rel: "self"}}
	if lp.PageNum > 1 {
		links = append(links, link{Href: pageURL(r, lp.PageNum-1), Rel: "previous"})
	}
	if end < total {
		links = append(links, link{Href: pageURL(r, lp.PageNum+1), Rel: "next"})
	}
	out := map[string]any{"results": results, "links": links}
	if lp.IncludeCount {
		out["totalCount"] = total
	}
	if envelope {
		out["status"] = status
	}
	return out
}

func requestURL(r *http.Request) string {
	return "http://" + r.Host + r.URL.RequestURI()
}

func pageURL(r *http.Request, page int) string {
	u := *r.URL
	q := u.Query()
	q.Set("pageNum", strconv.Itoa(page))
	u.RawQuery = q.Encode()
	return "http://" + r.Host + u.RequestURI()
}

// itemLinks gives each listed v1.0 object its own self link: the list's
// URL (without the query) followed by the item's id.
func itemLinks(items list, r *http.Request) list {
	base := "http://" + r.Host + strings.TrimSuffix(r.URL.EscapedPath(), "/")
	out := make(list, len(items))
	for i, it := range items {
		out[i] = it
		b, err := json.Marshal(it)
		if err != nil {
			continue
		}
		var m struct {
			ID  string `json:"id"`
			OID string `json:"_id"`
		}
		if json.Unmarshal(b, &m) != nil {
			continue
		}
		id := m.ID
		if id == "" {
			id = m.OID
		}
		href := base
		if id != "" {
			href += "/" + url.PathEscape(id)
		}
		out[i] = withLinks(it, []link{{Href: href, Rel: "self"}})
	}
	return out
}

// withLinks adds a links member to a JSON object value (legacy bodies).
func withLinks(v any, links []link) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil || m == nil {
		return v
	}
	lb, _ := json.Marshal(links)
	m["links"] = lb
	return m
}

// sleep applies the configured latency, giving up if the client leaves.
func (s *Server) sleep(r *http.Request) *apiError {
	if s.opts.Latency <= 0 {
		return nil
	}
	t := time.NewTimer(s.opts.Latency)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-r.Context().Done():
		return newError(http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE", "Request cancelled.")
	}
}

func fmtTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// setTime sets v[key] to t when t is known; the service omits an unknown
// time rather than sending null.
func setTime(v map[string]any, key string, t *time.Time) {
	if t != nil && !t.IsZero() {
		v[key] = fmtTime(*t)
	}
}
