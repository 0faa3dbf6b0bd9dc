package apisim

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
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
	// owned: the items are values the handler copied under the lock, that
	// nothing else holds or changes (no pointer in them is ever written
	// through): freeze passes them as they are and they are encoded after
	// the lock, so concurrent pages of one long list encode in parallel
	// instead of one at a time (BenchmarkAlertsPass10k).
	owned bool
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
		if x.owned {
			return x, nil
		}
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
