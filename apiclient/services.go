package apiclient

import (
	"context"
	"errors"
	"fmt"
	"net/url"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/limits"
)

// The typed services: one per area, each a small value holding the client
// and returned by an accessor on Client (c.Alerts(), c.Backups(), ...), so a
// pane never spells an operation id, a path or a media type itself. This file
// holds what they share.

// ValidationError is a request refused locally, before anything is sent: it
// names the offending field as the API spells it. It is the limits package's
// error, so a spec limit refused here reads as the simulator's 400 does.
type ValidationError = limits.Error

// invalidField builds a *ValidationError.
func invalidField(field, format string, args ...any) error {
	return &ValidationError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// required refuses an empty value of a required field.
func required(field, value string) error {
	if value == "" {
		return invalidField(field, "required")
	}
	return nil
}

// firstError is the first failed check, so a list of checks reads in the
// order the user should fix them.
func firstError(checks ...error) error {
	for _, err := range checks {
		if err != nil {
			return err
		}
	}
	return nil
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

// groupParams are a project's path parameters, then more name/value pairs.
func groupParams(groupID string, more ...string) map[string]string {
	return pathParams(append([]string{"groupId", groupID}, more...)...)
}

// clusterParams are a cluster's (or a serverless or flex instance's) path
// parameters, then more name/value pairs.
func clusterParams(groupID, clusterName string, more ...string) map[string]string {
	return groupParams(groupID, append([]string{"clusterName", clusterName}, more...)...)
}

// getJSON calls an operation and decodes its body into a new T.
func getJSON[T any](ctx context.Context, c *Client, opID string, r Request) (*T, error) {
	out := new(T)
	if _, err := c.Do(ctx, opID, r, out); err != nil {
		return nil, err
	}
	return out, nil
}

// sendChecked refuses a request whose local check failed, naming what was
// being done (nothing is sent), and otherwise calls the operation and decodes
// its answer into a new T.
func sendChecked[T any](ctx context.Context, c *Client, what string, check error, opID string, r Request) (*T, error) {
	if check != nil {
		return nil, fmt.Errorf("%s: %w", what, check)
	}
	return getJSON[T](ctx, c, opID, r)
}

// getList calls an operation that answers a bare JSON array.
func getList[T any](ctx context.Context, c *Client, opID string, r Request) ([]T, error) {
	out := listBody[T]{max: MaxRows}
	if _, err := c.Do(ctx, opID, r, &out); err != nil {
		return nil, err
	}
	return out.Items, nil
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
