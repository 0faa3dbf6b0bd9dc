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

func fmtTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// setTime sets v[key] to t when t is known; the service omits an unknown
// time rather than sending null.
func setTime(v map[string]any, key string, t *time.Time) {
	if t != nil && !t.IsZero() {
		v[key] = fmtTime(*t)
	}
}
