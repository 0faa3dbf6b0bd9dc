// Package catalog is the one table of Administration API operations. The
// client builds requests from it, apisim registers its routes from it, and the
// dashboard's gate asks it which roles an action needs.
package catalog

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"
)

// ResourceVersion is the API release this project targets. Each operation
// sends the newest of its own versions on or before this date.
const ResourceVersion = "2025-03-12"

// Version is one dated resource version of an operation.
type Version struct {
	Date   string // YYYY-MM-DD, as in application/vnd.{service}.{date}+json
	Sunset string // YYYY-MM-DD after which the server answers 410; empty if none
}

// Gone reports whether the version no longer works at now: from 00:00 UTC on
// its sunset date the server answers 410 VERSION_GONE. apisim and the gate
// use this one rule.
func (v Version) Gone(now time.Time) bool {
	return v.Sunset != "" && now.UTC().Format("2006-01-02") >= v.Sunset
}

// Gone reports whether the version this project sends is past its sunset.
func (o Op) Gone(now time.Time) bool {
	v, ok := o.Current()
	return ok && v.Gone(now)
}

// Scope says where an operation's roles are checked.
type Scope int

const (
	ScopeNone  Scope = iota // no role needed beyond being authenticated
	ScopeOrg                // roles held on {orgId}
	ScopeGroup              // roles held on {groupId} (or on its org, for org owners)
)

// Op is one operation of the Administration API.
type Op struct {
	ID       string    // the spec's operation name
	Area     Area      // the part of the API, and so the client service, it belongs to
	Method   string    // GET, POST, PUT, PATCH, DELETE
	Path     string    // template under the root, e.g. /groups/{groupId}/alerts
	Legacy   bool      // served under /api/{service}/v1.0 with application/json
	Versions []Version // ascending by date; empty for legacy ops
	Paged    bool      // accepts itemsPerPage/pageNum/includeCount and answers {results,totalCount}
	BareList bool      // answers a bare JSON array
	Roles    []Role    // any one of these (or a role covering it) allows the call; empty: any caller
	OK       int       // success status
	Summary  string    // one line for help and `check`
	Source   string    // for a derived v1.0 copy (see V1): the v2 operation it copies
}

// Mutates reports whether the operation changes state on the server.
func (o Op) Mutates() bool { return o.Method != "GET" }

// Scope derives where the operation's roles are checked from its path.
func (o Op) Scope() Scope {
	switch {
	case len(o.Roles) == 0:
		return ScopeNone
	case strings.Contains(o.Path, "{groupId}"):
		return ScopeGroup
	case strings.Contains(o.Path, "{orgId}"):
		return ScopeOrg
	}
	return ScopeNone
}

// Current is the version this project sends: the newest on or before
// ResourceVersion. Legacy operations have none.
func (o Op) Current() (Version, bool) { return o.Resolve(ResourceVersion) }

// Resolve returns the newest version on or before date (YYYY-MM-DD).
func (o Op) Resolve(date string) (Version, bool) {
	var best Version
	found := false
	for _, v := range o.Versions {
		if v.Date <= date {
			best, found = v, true
		}
	}
	return best, found
}

// Params lists the path parameters of the template, in order.
func (o Op) Params() []string {
	var out []string
	rest := o.Path
	for {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return out
		}
		out = append(out, rest[i+1:i+j])
		rest = rest[i+j+1:]
	}
}

// Expand fills the path template. Every parameter must be given and non-empty;
// values are path-escaped so a hostname or index name cannot change the route.
func (o Op) Expand(params map[string]string) (string, error) {
	path := o.Path
	for _, p := range o.Params() {
		v, ok := params[p]
		if !ok || v == "" {
			return "", fmt.Errorf("%s: missing path parameter %s", o.ID, p)
		}
		path = strings.Replace(path, "{"+p+"}", url.PathEscape(v), 1)
	}
	return path, nil
}

// Pattern is the net/http ServeMux pattern for this operation under the given
// service segment, e.g. "GET /api/atlas/v2/groups/{groupId}/alerts". The
// root operation (getSystemStatus) has the empty path: "GET /api/atlas/v2".
func (o Op) Pattern(service string) string {
	root := "/api/" + service + "/v2"
	if o.Legacy {
		root = "/api/" + service + "/v1.0"
	}
	return o.Method + " " + root + o.Path
}

// RolesText names the roles that allow the call, for a disabled action's reason.
func (o Op) RolesText() string {
	if len(o.Roles) == 0 {
		return "any role"
	}
	names := make([]string, len(o.Roles))
	for i, r := range o.Roles {
		names[i] = r.Label()
	}
	return strings.Join(names, " or ")
}

// MediaType is the Accept (and body Content-Type) value for a version.
func MediaType(service, date string) string {
	return "application/vnd." + service + "." + date + "+json"
}

var byID = func() map[string]Op {
	m := make(map[string]Op, len(ops))
	for _, o := range ops {
		if _, dup := m[o.ID]; dup {
			panic("catalog: duplicate operation " + o.ID)
		}
		m[o.ID] = o
	}
	return m
}()

// Get returns the operation with that id.
func Get(id string) (Op, bool) { o, ok := byID[id]; return o, ok }

// MustGet returns the operation with that id and panics if the catalog lacks
// it: for ids written in code, which tests cover.
func MustGet(id string) Op {
	o, ok := byID[id]
	if !ok {
		panic("catalog: unknown operation " + id)
	}
	return o
}

// All returns every operation, sorted by area then id.
func All() []Op {
	out := make([]Op, len(ops))
	copy(out, ops)
	sort.SliceStable(out, func(i, j int) bool {
		if a, b := out[i].Area.String(), out[j].Area.String(); a != b {
			return a < b
		}
		return out[i].ID < out[j].ID
	})
	return out
}
