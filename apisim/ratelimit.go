package apisim

import (
	"fmt"
	"math"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
	"golang.org/x/time/rate"
)

// Rate limits as the service applies them: a token bucket per endpoint set
// and scope (organization, project, user or IP address). Every operation
// belongs to exactly one endpoint set; a request takes one token from the
// bucket of its set and scope, or is answered 429 RATE_LIMITED_TOKEN_BUCKET
// with Retry-After. The sets are published at GET /rateLimits.

// RateScope is what an endpoint set's buckets are kept per.
type RateScope string

const (
	ScopeOrganization RateScope = "ORGANIZATION"
	ScopeProject      RateScope = "GROUP" // the spec's name for a project scope
	ScopeUser         RateScope = "USER"
	ScopeIP           RateScope = "IP"
)

// RateLimit is one bucket's shape: Capacity tokens at most, RefillRate
// tokens added every RefillSeconds.
type RateLimit struct {
	Capacity      int
	RefillRate    int
	RefillSeconds int
}

func (l RateLimit) valid() bool { return l.Capacity > 0 && l.RefillRate > 0 && l.RefillSeconds > 0 }

// perSecond is the refill as a continuous rate.
func (l RateLimit) perSecond() rate.Limit {
	return rate.Limit(float64(l.RefillRate) / float64(l.RefillSeconds))
}

// EndpointSet is a group of operations sharing a bucket per scope.
type EndpointSet struct {
	ID      string // e.g. alertsRead_group
	Name    string
	Scope   RateScope
	Default RateLimit
	match   func(catalog.Op) bool
}

// defaultEndpointSets are the simulator's sets, in match order: the first
// set whose rule accepts an operation owns it. Without --rate-limit (or
// Options.RateLimits) these values apply, chosen to be like the service's:
//
//   - Documented: the service's rate-limit page shows one bucket's numbers,
//     in its sample 429 for GET /api/atlas/v2/orgs: capacity 10, refill 5
//     per 60 seconds. accountRead_user, the set holding that endpoint here,
//     has exactly those values.
//   - Documented too: the scope names (GROUP, ORGANIZATION, USER, IP, the
//     spec's enum of RateLimitEndpointSetResponse.scope) and the id form
//     (rateLimitsInspection_group, the spec's example).
//   - Assumed: the service publishes no other numbers, and which endpoints
//     share a set is not documented either. The other values are
//     conservative guesses in the same style (a refill per minute, writes
//     tighter than reads): a project's reads 100 a minute (what the
//     dashboard must live within at 100,000 alerts, issue 16), its writes
//     and an organization's 20 to 50, everything else 10 to 20.
func defaultEndpointSets() []EndpointSet {
	has := func(o catalog.Op, p string) bool { return strings.Contains(o.Path, "{"+p+"}") }
	read := func(o catalog.Op) bool { return o.Method == http.MethodGet }
	return []EndpointSet{
		{ID: "rateLimitsInspection_user", Name: "Rate limits inspection", Scope: ScopeUser,
			Default: RateLimit{20, 10, 60}, match: func(o catalog.Op) bool { return strings.HasPrefix(o.Path, "/rateLimits") }},
		{ID: "alertsRead_group", Name: "Alerts read", Scope: ScopeProject,
			Default: RateLimit{100, 100, 60}, match: func(o catalog.Op) bool {
				return read(o) && has(o, "groupId") && (o.Area == catalog.AreaAlerts || (o.Legacy && strings.Contains(o.Path, "/alerts")))
			}},
		{ID: "projectRead_group", Name: "Project read", Scope: ScopeProject,
			Default: RateLimit{100, 100, 60}, match: func(o catalog.Op) bool { return read(o) && has(o, "groupId") }},
		{ID: "projectWrite_group", Name: "Project write", Scope: ScopeProject,
			Default: RateLimit{20, 10, 60}, match: func(o catalog.Op) bool { return has(o, "groupId") }},
		{ID: "organizationRead_org", Name: "Organization read", Scope: ScopeOrganization,
			Default: RateLimit{50, 25, 60}, match: func(o catalog.Op) bool { return read(o) && has(o, "orgId") }},
		{ID: "organizationWrite_org", Name: "Organization write", Scope: ScopeOrganization,
			Default: RateLimit{20, 10, 60}, match: func(o catalog.Op) bool { return has(o, "orgId") }},
		{ID: "accountRead_user", Name: "Account read", Scope: ScopeUser,
			Default: RateLimit{10, 5, 60}, match: read},
		{ID: "anyWrite_ip", Name: "Other writes", Scope: ScopeIP,
			Default: RateLimit{10, 5, 60}, match: func(catalog.Op) bool { return true }},
	}
}

// DefaultEndpointSetIDs lists the simulator's endpoint sets by id.
func DefaultEndpointSetIDs() []string {
	var out []string
	for _, s := range defaultEndpointSets() {
		out = append(out, s.ID)
	}
	return out
}

// ParseRateLimits reads the --rate-limit flag: "N/min" sets every endpoint
// set to N tokens per minute per scope (capacity N); "SET=N/min" (comma
// separated, repeatable) sets one set. Also accepted: N/s, N/h.
func ParseRateLimits(spec string) (all int, perSet map[string]RateLimit, err error) {
	bad := func(part string) error {
		return fmt.Errorf("--rate-limit %q: want a positive count per minute such as 100/min, or SET=100/min with SET one of %s", part, strings.Join(DefaultEndpointSetIDs(), ", "))
	}
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		set, amount, named := strings.Cut(part, "=")
		if !named {
			amount, set = set, ""
		}
		n, unit, ok := strings.Cut(strings.TrimSpace(amount), "/")
		count, cerr := strconv.Atoi(strings.TrimSpace(n))
		secs := map[string]int{"s": 1, "sec": 1, "min": 60, "m": 60, "h": 3600, "hour": 3600}[strings.TrimSpace(unit)]
		if !ok || cerr != nil || count <= 0 || secs == 0 {
			return 0, nil, bad(part)
		}
		if !named {
			if secs != 60 {
				return 0, nil, bad(part)
			}
			all = count
			continue
		}
		if !slices.Contains(DefaultEndpointSetIDs(), set) {
			return 0, nil, bad(part)
		}
		if perSet == nil {
			perSet = map[string]RateLimit{}
		}
		perSet[set] = RateLimit{Capacity: count, RefillRate: count, RefillSeconds: secs}
	}
	if all == 0 && perSet == nil {
		return 0, nil, bad(spec)
	}
	return all, perSet, nil
}

// activeSet is an endpoint set with the values in force.
type activeSet struct {
	EndpointSet
	limit     RateLimit
	overriden bool
	endpoints []endpointRef
}

type endpointRef struct {
	Method string `json:"method"`
	Path   string `json:"path"`
}

type bucketKey struct{ set, scope string }

// tokenBuckets enforces the endpoint sets on the server clock.
type tokenBuckets struct {
	clock   Clock
	sets    []*activeSet
	byOp    map[string]*activeSet
	enforce bool // values were set explicitly (reported as "throttling")
	mu      sync.Mutex
	buckets map[bucketKey]*rate.Limiter
	// spenders play another client on a bucket (ratelimit_spend.go);
	// stop ends their loop.
	spenders map[bucketKey]*spender
	stop     chan struct{}
}

func newTokenBuckets(c Clock, service string, perMin int, perSet map[string]RateLimit) (*tokenBuckets, error) {
	tb := &tokenBuckets{clock: c, byOp: map[string]*activeSet{}, buckets: map[bucketKey]*rate.Limiter{},
		spenders: map[bucketKey]*spender{}, enforce: perMin > 0 || len(perSet) > 0}
	for _, es := range defaultEndpointSets() {
		a := &activeSet{EndpointSet: es, limit: es.Default}
		if perMin > 0 {
			a.limit, a.overriden = RateLimit{perMin, perMin, 60}, true
		}
		if l, ok := perSet[es.ID]; ok {
			if !l.valid() {
				return nil, fmt.Errorf("rate limit of %s: capacity, refill rate and refill seconds must be positive", es.ID)
			}
			a.limit, a.overriden = l, true
		}
		tb.sets = append(tb.sets, a)
	}
	for id := range perSet {
		if !slices.Contains(DefaultEndpointSetIDs(), id) {
			return nil, fmt.Errorf("rate limit for unknown endpoint set %q", id)
		}
	}
	for _, op := range catalog.All() {
		for _, a := range tb.sets {
			if a.match(op) {
				tb.byOp[op.ID] = a
				root := "/api/" + service + "/v2"
				if op.Legacy {
					root = "/api/" + service + "/v1.0"
				}
				a.endpoints = append(a.endpoints, endpointRef{Method: op.Method, Path: root + op.Path})
				break
			}
		}
	}
	return tb, nil
}

// scopeKey is the bucket a request draws from within its set.
func scopeKey(scope RateScope, r *http.Request, id *Identity) string {
	switch scope {
	case ScopeProject:
		if g := r.PathValue("groupId"); g != "" {
			return "group:" + g
		}
	case ScopeOrganization:
		if o := r.PathValue("orgId"); o != "" {
			return "org:" + o
		}
	case ScopeIP:
		return "ip:" + remoteIP(r)
	}
	return "user:" + id.PublicKey
}

func remoteIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// allow takes one token for the request and sets RateLimit-Limit and
// RateLimit-Remaining; an empty bucket is a 429 with Retry-After.
func (tb *tokenBuckets) allow(w http.ResponseWriter, r *http.Request, op catalog.Op, id *Identity) *apiError {
	set := tb.byOp[op.ID]
	if set == nil {
		return nil
	}
	now := tb.clock.Now()
	tb.mu.Lock()
	lim := tb.bucketLocked(set, scopeKey(set.Scope, r, id))
	res := lim.ReserveN(now, 1)
	delay := res.DelayFrom(now)
	if delay > 0 {
		res.CancelAt(now)
	}
	remaining := int(math.Floor(lim.TokensAt(now)))
	tb.mu.Unlock()
	remaining = max(remaining, 0)
	w.Header().Set("RateLimit-Limit", strconv.Itoa(set.limit.Capacity))
	w.Header().Set("RateLimit-Remaining", strconv.Itoa(remaining))
	if delay <= 0 {
		return nil
	}
	secs := max(int((delay+time.Second-1)/time.Second), 1)
	path := strings.TrimPrefix(r.URL.Path, "/")
	l := set.limit
	e := newError(http.StatusTooManyRequests, "RATE_LIMITED_TOKEN_BUCKET",
		"Rate limit exceeded for %s. Please retry after %d seconds. Request capacity: %d. Refill rate: %d per %d seconds.",
		path, secs, l.Capacity, l.RefillRate, l.RefillSeconds)
	e.Params = []any{path, secs, l.Capacity, l.RefillRate, l.RefillSeconds}
	e.Header = http.Header{"Retry-After": {strconv.Itoa(secs)}}
	return e
}

// The Rate Limiting operations.

type rlValue struct {
	Value        int  `json:"value"`
	DefaultValue *int `json:"defaultValue,omitempty"`
}

type endpointSetView struct {
	EndpointSetID         string        `json:"endpointSetId"`
	EndpointSetName       string        `json:"endpointSetName"`
	Endpoints             []endpointRef `json:"endpoints"`
	Capacity              rlValue       `json:"capacity"`
	RefillRate            rlValue       `json:"refillRate"`
	RefillDurationSeconds rlValue       `json:"refillDurationSeconds"`
	Scope                 RateScope     `json:"scope"`
}

// maxEndpointsShown is the spec's bound on endpoints[] of one set.
const maxEndpointsShown = 100

func (a *activeSet) view() endpointSetView {
	val := func(v, def int) rlValue {
		out := rlValue{Value: v}
		if a.overriden {
			out.DefaultValue = &def
		}
		return out
	}
	eps := a.endpoints
	if len(eps) > maxEndpointsShown {
		eps = eps[:maxEndpointsShown]
	}
	return endpointSetView{
		EndpointSetID: a.ID, EndpointSetName: a.Name, Endpoints: append([]endpointRef{}, eps...),
		Capacity:              val(a.limit.Capacity, a.Default.Capacity),
		RefillRate:            val(a.limit.RefillRate, a.Default.RefillRate),
		RefillDurationSeconds: val(a.limit.RefillSeconds, a.Default.RefillSeconds),
		Scope:                 a.Scope,
	}
}

// rateLimitScopes reads the scope filters: which scopes to list (nil: all),
// after checking the caller may read each one.
func (c *call) rateLimitScopes() (map[RateScope]bool, error) {
	var scopes map[RateScope]bool
	add := func(s RateScope) {
		if scopes == nil {
			scopes = map[RateScope]bool{}
		}
		scopes[s] = true
	}
	if g := c.query.Get("groupId"); g != "" {
		p := c.w.project(g)
		if p == nil {
			return nil, errNotFound("GROUP_NOT_FOUND", "No group with ID %s exists.", g)
		}
		op := catalog.Op{Path: "/groups/{groupId}", Roles: []catalog.Role{catalog.GroupReadOnly}}
		if !catalog.Authorize(c.id.Roles, op, catalog.Target{GroupID: p.ID, OrgID: p.OrgID}) {
			return nil, newError(http.StatusForbidden, "USER_UNAUTHORIZED", "Listing the rate limits of project %s needs Project Read Only there.", g)
		}
		add(ScopeProject)
	}
	if o := c.query.Get("orgId"); o != "" {
		if c.w.org(o) == nil {
			return nil, errNotFound("ORG_NOT_FOUND", "No organization with ID %s exists.", o)
		}
		op := catalog.Op{Path: "/orgs/{orgId}", Roles: []catalog.Role{catalog.OrgReadOnly}}
		if !catalog.Authorize(c.id.Roles, op, catalog.Target{OrgID: o}) {
			return nil, newError(http.StatusForbidden, "USER_UNAUTHORIZED", "Listing the rate limits of organization %s needs Organization Read Only there.", o)
		}
		add(ScopeOrganization)
	}
	if u := c.query.Get("userId"); u != "" {
		if u != c.id.PublicKey {
			return nil, newError(http.StatusForbidden, "USER_UNAUTHORIZED", "userId must be the caller's own id.")
		}
		add(ScopeUser)
	}
	if ip := c.query.Get("ipAddress"); ip != "" {
		if net.ParseIP(ip) == nil {
			return nil, errField("ipAddress", "must be an IP address, got %q", ip)
		}
		if ip != remoteIP(c.r) {
			return nil, newError(http.StatusForbidden, "USER_UNAUTHORIZED", "ipAddress must be the caller's own address.")
		}
		add(ScopeIP)
	}
	return scopes, nil
}

func init() {
	handle("listRateLimits", func(c *call) (any, error) {
		scopes, err := c.rateLimitScopes()
		if err != nil {
			return nil, err
		}
		names, paths := c.query["name"], c.query["endpointPath"]
		var out list
		for _, a := range c.s.limiter.sets {
			if scopes != nil && !scopes[a.Scope] {
				continue
			}
			if len(names) > 0 && !slices.Contains(names, a.Name) && !slices.Contains(names, a.ID) {
				continue
			}
			if len(paths) > 0 && !slices.ContainsFunc(a.endpoints, func(e endpointRef) bool { return slices.Contains(paths, e.Path) }) {
				continue
			}
			out = append(out, a.view())
		}
		return out, nil
	})
	handle("getRateLimit", func(c *call) (any, error) {
		scopes, err := c.rateLimitScopes()
		if err != nil {
			return nil, err
		}
		id := c.param("endpointSetId")
		for _, a := range c.s.limiter.sets {
			if a.ID == id && (scopes == nil || scopes[a.Scope]) {
				return a.view(), nil
			}
		}
		return nil, errNotFound("RESOURCE_NOT_FOUND", "No rate-limit endpoint set %s.", id)
	})
}
