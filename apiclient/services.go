package apiclient

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"unicode/utf8"
)

// The typed services: one per area, each a small value holding the client
// and returned by an accessor on Client (c.Alerts(), c.Backups(), ...), so a
// pane never spells an operation id, a path or a media type itself. This file
// holds what they share.

// ValidationError is a request refused locally, before anything is sent: it
// names the offending field as the API spells it.
type ValidationError struct {
	Field  string
	Reason string
}

func (e *ValidationError) Error() string { return e.Field + ": " + e.Reason }

// invalidField builds a *ValidationError.
func invalidField(field, format string, args ...any) error {
	return &ValidationError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// IsValidation reports whether err is a local validation failure (nothing was sent).
func IsValidation(err error) bool {
	var v *ValidationError
	return errors.As(err, &v)
}

// pathParams builds path parameters from name/value pairs, as the catalog names them.
func pathParams(pairs ...string) map[string]string {
	m := make(map[string]string, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		m[pairs[i]] = pairs[i+1]
	}
	return m
}

// getJSON calls an operation and decodes its body into a new T.
func getJSON[T any](ctx context.Context, c *Client, opID string, r Request) (*T, error) {
	out := new(T)
	if _, err := c.Do(ctx, opID, r, out); err != nil {
		return nil, err
	}
	return out, nil
}

// getList calls an operation that answers a bare JSON array.
func getList[T any](ctx context.Context, c *Client, opID string, r Request) ([]T, error) {
	var out []T
	if _, err := c.Do(ctx, opID, r, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// callNoBody calls an operation whose answer has no body worth reading.
func callNoBody(ctx context.Context, c *Client, opID string, r Request) error {
	_, err := c.Do(ctx, opID, r, nil)
	return err
}

// getPage fetches one page of a paged operation with the given list options.
func getPage[T any](ctx context.Context, c *Client, opID string, r Request, o ListOptions) (*Page[T], error) {
	r.List = &o
	p, _, err := ListPage[T](ctx, c, opID, r)
	return p, err
}

// getAll fetches every page of a paged operation.
func getAll[T any](ctx context.Context, c *Client, opID string, r Request) ([]T, error) {
	return ListAll[T](ctx, c, opID, r, AllOptions{})
}

// maxRunes checks a text limit the API counts in characters.
func maxRunes(field, s string, n int) error {
	if got := utf8.RuneCountInString(s); got > n {
		return invalidField(field, "at most %d characters, got %d", n, got)
	}
	return nil
}

// queryOf builds url.Values from name/value pairs, skipping empty values.
func queryOf(pairs ...string) url.Values {
	q := url.Values{}
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] != "" {
			q.Set(pairs[i], pairs[i+1])
		}
	}
	return q
}
