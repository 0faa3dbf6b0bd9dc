package apiclient

import (
	"context"
	"fmt"
	"iter"
	"net/url"
	"strconv"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
	"github.com/dbadmin-tui/dbadmin-tui/apiclient/limits"
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
	var raw struct {
		Results    []T    `json:"results"`
		TotalCount *int   `json:"totalCount"`
		Links      []Link `json:"links"`
	}
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

// AllOptions tune ListAll.
type AllOptions struct {
	PerPage     int // items per page, default 500
	Concurrency int // pages in flight, default 4; 1 fetches one by one
	// MaxItems stops after this many items (0: no limit).
	MaxItems int
}

// ListAll fetches every item of a paged list. Once the first page gives the
// total, the remaining pages are fetched concurrently (bounded) and returned
// in order. Without a total it falls back to fetching until a short page.
func ListAll[T any](ctx context.Context, c *Client, opID string, r Request, o AllOptions) ([]T, error) {
	op, ok := catalog.Get(opID)
	if !ok {
		return nil, fmt.Errorf("unknown operation %q", opID)
	}
	if !op.Paged {
		var all []T
		_, err := c.Do(ctx, opID, r, &all)
		return all, err
	}
	per := o.PerPage
	if per <= 0 || per > MaxItemsPerPage {
		per = MaxItemsPerPage
	}
	workers := o.Concurrency
	if workers <= 0 {
		workers = defaultConcurrency
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
	all := first.Results
	if !first.HasCount || workers == 1 {
		return listRest(ctx, c, opID, pageReq, all, per, o.MaxItems, first.TotalCount)
	}
	total := first.TotalCount
	if o.MaxItems > 0 && total > o.MaxItems {
		total = o.MaxItems
	}
	pages := (total + per - 1) / per
	if pages <= 1 {
		return capItems(all, o.MaxItems), nil
	}
	results := make([][]T, pages+1)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	for n := 2; n <= pages; n++ {
		g.Go(func() error {
			p, _, err := ListPage[T](gctx, c, opID, pageReq(n))
			if err != nil {
				return fmt.Errorf("page %d: %w", n, err)
			}
			results[n] = p.Results
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	for n := 2; n <= pages; n++ {
		all = append(all, results[n]...)
	}
	return capItems(all, o.MaxItems), nil
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

func capItems[T any](all []T, max int) []T {
	if max > 0 && len(all) > max {
		return all[:max]
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
