package apiclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
	"github.com/dbadmin-tui/dbadmin-tui/apiclient/limits"
	fastjson "github.com/segmentio/encoding/json"
	"golang.org/x/sync/errgroup"
)

// Paging limits from the spec (section 8).
const (
	MaxItemsPerPage     = limits.MaxItemsPerPage
	DefaultItemsPerPage = 100
	defaultConcurrency  = 4
)

// ListOptions select one page of a paged list.
type ListOptions struct {
	PageNum      int   // >= 1; 0 means 1
	ItemsPerPage int   // 1..500; 0 means the server's default (100)
	IncludeCount *bool // nil: server default (true)
}

func (o *ListOptions) apply(q url.Values) {
	if o.PageNum > 0 {
		q.Set("pageNum", strconv.Itoa(o.PageNum))
	}
	if o.ItemsPerPage > 0 {
		q.Set("itemsPerPage", strconv.Itoa(o.ItemsPerPage))
	}
	if o.IncludeCount != nil {
		q.Set("includeCount", strconv.FormatBool(*o.IncludeCount))
	}
}

// validate checks the members that are set (0 means the server's default)
// with the spec's limits, the same rule apisim answers 400 with.
func (o *ListOptions) validate() error {
	if o.PageNum != 0 {
		if err := limits.PageNum(o.PageNum); err != nil {
			return err
		}
	}
	if o.ItemsPerPage != 0 {
		return limits.ItemsPerPage(o.ItemsPerPage)
	}
	return nil
}

// Link is a legacy/hypermedia link.
type Link struct {
	Href string `json:"href"`
	Rel  string `json:"rel"`
}

// Page is one page of a paged list.
type Page[T any] struct {
	Results    []T    `json:"results"`
	TotalCount int    `json:"totalCount"`
	Links      []Link `json:"links,omitempty"`
	// HasCount is false when the server did not send totalCount.
	HasCount bool `json:"-"`
}

// ListPage fetches one page.
func ListPage[T any](ctx context.Context, c *Client, opID string, r Request) (*Page[T], *Response, error) {
	if r.List != nil {
		if err := r.List.validate(); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", opID, err)
		}
	}
	raw := pageBody[T]{max: MaxRows}
	res, err := c.Do(ctx, opID, r, &raw)
	if err != nil {
		return nil, res, err
	}
	p := &Page[T]{Results: raw.Results, Links: raw.Links}
	if raw.TotalCount != nil {
		p.TotalCount, p.HasCount = *raw.TotalCount, true
	}
	return p, res, nil
}

// MaxRows is how many items ListAll holds of one list unless told
// otherwise (AllOptions.MaxItems): a list that reaches it is shown as "showing
// the first N" (ShowingFirst). A server that sends more, or claims more,
// cannot make the client hold more. It is a variable so tests can lower it
// (to a handful of rows) instead of serving a hundred thousand.
var MaxRows = 100_000

// pageBody decodes a list answer holding at most max results: what a page
// holds past that (a server that ignores itemsPerPage) is read past, never
// decoded, so one answer cannot make the client hold more than MaxRows.
type pageBody[T any] struct {
	Results    []T
	TotalCount *int
	Links      []Link
	max        int
}

// unmarshal is json.Unmarshal, but a page (pageBody) is handed the answer
// itself: encoding/json would first validate the bytes and find the
// value's end, two passes over 500 alerts before UnmarshalJSON decodes
// (and validates) them again (BenchmarkDecodeAlertPage).
func unmarshal(data []byte, out any) error {
	if p, ok := out.(interface{ decodeAnswer([]byte) error }); ok {
		return p.decodeAnswer(data)
	}
	return json.Unmarshal(data, out)
}

// decodeAnswer decodes a whole answer: the common case in one pass (which
// validates it), any other through encoding/json as before.
func (p *pageBody[T]) decodeAnswer(b []byte) error {
	if elementsBound(b) <= p.max {
		return p.decodeWhole(b)
	}
	return json.Unmarshal(b, p)
}

// decodeWhole decodes a page known to hold no more than max results, in
// one pass, with segmentio's encoding/json (the standard library's API and
// behaviour, validation included): a page of 500 alerts decodes in a
// fifth of the standard library's time (BenchmarkDecodeListedPage), and a
// full pass decodes hundreds of them.
func (p *pageBody[T]) decodeWhole(b []byte) error {
	var raw struct {
		Results    []T    `json:"results"`
		TotalCount *int   `json:"totalCount"`
		Links      []Link `json:"links"`
	}
	if err := fastjson.Unmarshal(b, &raw); err != nil {
		return err
	}
	p.Results, p.TotalCount, p.Links = raw.Results, raw.TotalCount, raw.Links
	return nil
}

func (p *pageBody[T]) UnmarshalJSON(b []byte) error {
	if elementsBound(b) <= p.max {
		return p.decodeWhole(b) // the common case
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil {
		return err
	} else if d, ok := t.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("a list answer must be a JSON object, got %v", t)
	}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := kt.(string)
		switch {
		case strings.EqualFold(key, "results"):
			if err := p.decodeResults(dec); err != nil {
				return fmt.Errorf("results: %w", err)
			}
		case strings.EqualFold(key, "totalCount"):
			if err := dec.Decode(&p.TotalCount); err != nil {
				return fmt.Errorf("totalCount: %w", err)
			}
		case strings.EqualFold(key, "links"):
			if err := dec.Decode(&p.Links); err != nil {
				return fmt.Errorf("links: %w", err)
			}
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return err
			}
		}
	}
	_, err := dec.Token() // the closing brace
	return err
}

// elementsBound is at least the number of elements of the arrays directly
// inside the top-level object (results, links), by one pass over the bytes
// that follows strings and nesting only.
func elementsBound(b []byte) int { return elementsAtDepth(b, 2) }

// elementsAtDepth is at least the number of elements of the arrays whose
// elements sit at depth d (1: the top-level array itself). A string is
// skipped to its closing quote with bytes.IndexByte (most of an answer is
// strings): byte by byte, this pass cost a page of 500 alerts a fifth of
// its decoding.
func elementsAtDepth(b []byte, d int) int {
	n, depth := 0, 0
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			if depth == d {
				n++ // a string element
			}
			end := closingQuote(b, i+1)
			if end < 0 {
				return n // unterminated: the decoder says so
			}
			i = end
		case c == '{' || c == '[':
			depth++
			if depth == d+1 {
				n++ // an object or array element of a depth-d array
			}
		case c == '}' || c == ']':
			depth--
		case c == ',' && depth == d:
			n++
		case depth == d && c > ' ':
			n++ // a scalar element (counted once per byte: a bound)
		}
	}
	return n
}

// closingQuote is the index of the quote that ends the string whose
// contents start at from (one not escaped: after an even run of
// backslashes), or -1.
func closingQuote(b []byte, from int) int {
	for j := from; j < len(b); j++ {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1
		}
		j += k
		escapes := 0
		for m := j - 1; m >= from && b[m] == '\\'; m-- {
			escapes++
		}
		if escapes%2 == 0 {
			return j
		}
	}
	return -1
}

func (p *pageBody[T]) decodeResults(dec *json.Decoder) error {
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if t == nil {
		return nil // null
	}
	if d, ok := t.(json.Delim); !ok || d != '[' {
		return fmt.Errorf("want a list, got %v", t)
	}
	p.Results = make([]T, 0)
	for dec.More() {
		if len(p.Results) < p.max {
			var v T
			if err := dec.Decode(&v); err != nil {
				return err
			}
			p.Results = append(p.Results, v)
			continue
		}
		var skip struct{}
		if err := dec.Decode(&skip); err != nil {
			var te *json.UnmarshalTypeError
			if !errors.As(err, &te) {
				return err
			}
		}
	}
	_, err = dec.Token() // ]
	return err
}

// listBody decodes an unpaged list answer (a JSON array) holding at most
// max items: what the array holds past that is read past, never decoded.
type listBody[T any] struct {
	Items []T
	max   int
}

func (l *listBody[T]) UnmarshalJSON(b []byte) error {
	if elementsAtDepth(b, 1) <= l.max {
		return json.Unmarshal(b, &l.Items)
	}
	p := pageBody[T]{max: l.max}
	if err := p.decodeResults(json.NewDecoder(bytes.NewReader(b))); err != nil {
		return err
	}
	l.Items = p.Results
	return nil
}

// AllOptions tune ListAll.
type AllOptions struct {
	PerPage     int // items per page, default 500
	Concurrency int // pages in flight, default 4; 1 fetches one by one
	// MaxItems stops after this many items (0: MaxRows).
	MaxItems int
}

// ShowingFirst is the note for a list of n items read with ListAll's
// default cap: "showing the first 100000" once the cap was reached (there
// may be more), else "".
func ShowingFirst(n int) string {
	if n >= MaxRows {
		return fmt.Sprintf("showing the first %d", MaxRows)
	}
	return ""
}

// ListAll fetches every item of a paged list, in order, up to MaxItems.
// The pages decide where the list ends: an empty or short page is the
// last. totalCount, which the service calls an estimate, only sizes the
// next batch of pages fetched concurrently (bounded, a batch at a time) and
// can end the list early; a server that claims a million items and sends
// empty pages costs one batch, not a request per claimed page.
func ListAll[T any](ctx context.Context, c *Client, opID string, r Request, o AllOptions) ([]T, error) {
	op, ok := catalog.Get(opID)
	if !ok {
		return nil, fmt.Errorf("unknown operation %q", opID)
	}
	if !op.Paged {
		all := listBody[T]{max: MaxRows}
		if o.MaxItems > 0 {
			all.max = min(o.MaxItems, MaxRows)
		}
		_, err := c.Do(ctx, opID, r, &all)
		return all.Items, err
	}
	per := o.PerPage
	if per <= 0 || per > MaxItemsPerPage {
		per = MaxItemsPerPage
	}
	workers := o.Concurrency
	if workers <= 0 {
		workers = defaultConcurrency
	}
	max := o.MaxItems
	if max <= 0 {
		max = MaxRows
	}
	pageReq := func(n int) Request {
		cp := r
		cp.List = &ListOptions{PageNum: n, ItemsPerPage: per}
		return cp
	}
	first, _, err := ListPage[T](ctx, c, opID, pageReq(1))
	if err != nil {
		return nil, err
	}
	all := capItems(first.Results, max)
	if len(first.Results) < per || len(all) >= max {
		return all, nil
	}
	if !first.HasCount || workers == 1 {
		return listRest(ctx, c, opID, pageReq, all, per, max, first.TotalCount)
	}
	total := min(first.TotalCount, max)
	for next := 2; len(all) < total; {
		// A batch of the pages the count says are left, at most workers.
		batch := min(workers, (total-len(all)+per-1)/per)
		results := make([][]T, batch)
		g, gctx := errgroup.WithContext(ctx)
		for i := range batch {
			n := next + i
			g.Go(func() error {
				p, _, err := ListPage[T](gctx, c, opID, pageReq(n))
				if err != nil {
					return fmt.Errorf("page %d: %w", n, err)
				}
				results[i] = p.Results
				return nil
			})
		}
		if err := g.Wait(); err != nil {
			return nil, err
		}
		next += batch
		for _, rs := range results {
			all = append(all, rs...)
			if len(rs) < per || len(all) >= max {
				// A short page is the last; what a later page of the
				// batch holds is not the list's.
				return capItems(all, max), nil
			}
		}
	}
	return capItems(all, max), nil
}

// listRest fetches pages one by one after the first until a short page, the
// known total, or the item cap.
func listRest[T any](ctx context.Context, c *Client, opID string, pageReq func(int) Request, all []T, per, max, total int) ([]T, error) {
	more := len(all) == per
	for n := 2; more; n++ {
		if (max > 0 && len(all) >= max) || (total > 0 && len(all) >= total) {
			break
		}
		p, _, err := ListPage[T](ctx, c, opID, pageReq(n))
		if err != nil {
			return nil, fmt.Errorf("page %d: %w", n, err)
		}
		all = append(all, p.Results...)
		more = len(p.Results) == per
	}
	return capItems(all, max), nil
}

// capItems keeps the first max items; a cut list is copied, so the items
// past the cap are not held through the backing array.
func capItems[T any](all []T, max int) []T {
	if max > 0 && len(all) > max {
		return slices.Clone(all[:max])
	}
	return all
}

// Iterate yields every item of a paged list, one page at a time, stopping at
// the first error (yielded with a zero item) or when the caller breaks.
func Iterate[T any](ctx context.Context, c *Client, opID string, r Request, perPage int) iter.Seq2[T, error] {
	if perPage <= 0 || perPage > MaxItemsPerPage {
		perPage = DefaultItemsPerPage
	}
	return func(yield func(T, error) bool) {
		seen := 0
		for n := 1; ; n++ {
			cp := r
			cp.List = &ListOptions{PageNum: n, ItemsPerPage: perPage}
			p, _, err := ListPage[T](ctx, c, opID, cp)
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, it := range p.Results {
				if !yield(it, nil) {
					return
				}
			}
			seen += len(p.Results)
			if len(p.Results) < perPage || (p.HasCount && seen >= p.TotalCount) {
				return
			}
		}
	}
}
