package apiclient

import (
	"context"
	"net/url"
)

// RateLimitSet is RateLimitEndpointSetResponse: one endpoint set's token
// bucket, kept per Scope (ORGANIZATION, PROJECT, USER or IP).
type RateLimitSet struct {
	EndpointSetID         string              `json:"endpointSetId"`
	EndpointSetName       string              `json:"endpointSetName"`
	Endpoints             []RateLimitEndpoint `json:"endpoints"`
	Capacity              RateLimitValue      `json:"capacity"`
	RefillRate            RateLimitValue      `json:"refillRate"`
	RefillDurationSeconds RateLimitValue      `json:"refillDurationSeconds"`
	Scope                 string              `json:"scope"`
}

// RateLimitEndpoint is one method and path template of a set.
type RateLimitEndpoint struct {
	Method string `json:"method"`
	Path   string `json:"path"`
}

// RateLimitValue is a value in force; DefaultValue is set when an override
// applies.
type RateLimitValue struct {
	Value        int  `json:"value"`
	DefaultValue *int `json:"defaultValue,omitempty"`
}

// Values is the set's bucket shape.
func (s RateLimitSet) Values() RateLimitValues {
	return RateLimitValues{Capacity: s.Capacity.Value, RefillRate: s.RefillRate.Value, RefillSeconds: s.RefillDurationSeconds.Value}
}

// RateLimitFilter selects endpoint sets: a scope filter lists that scope's
// sets (GroupID needs Project Read Only there, OrgID Organization Read
// Only; UserID and IPAddress must be the caller's own); Names and
// EndpointPaths narrow the list.
type RateLimitFilter struct {
	GroupID, OrgID, UserID, IPAddress string
	Names, EndpointPaths              []string
}

func (f RateLimitFilter) query() url.Values {
	q := queryOf("groupId", f.GroupID, "orgId", f.OrgID, "userId", f.UserID, "ipAddress", f.IPAddress)
	for _, n := range f.Names {
		q.Add("name", n)
	}
	for _, p := range f.EndpointPaths {
		q.Add("endpointPath", p)
	}
	if len(q) == 0 {
		return nil
	}
	return q
}

// RateLimitsService reads the service's published rate limits.
type RateLimitsService struct{ c *Client }

// RateLimits is the rate-limits service.
func (c *Client) RateLimits() RateLimitsService { return RateLimitsService{c} }

// List fetches one page of endpoint sets.
func (s RateLimitsService) List(ctx context.Context, f RateLimitFilter, o ListOptions) (*Page[RateLimitSet], error) {
	return getPage[RateLimitSet](ctx, s.c, "listRateLimits", Request{Query: f.query()}, o)
}

// All fetches every endpoint set the filter selects.
func (s RateLimitsService) All(ctx context.Context, f RateLimitFilter) ([]RateLimitSet, error) {
	return getAll[RateLimitSet](ctx, s.c, "listRateLimits", Request{Query: f.query()})
}

// Get fetches one endpoint set.
func (s RateLimitsService) Get(ctx context.Context, endpointSetID string, f RateLimitFilter) (*RateLimitSet, error) {
	if err := required("endpointSetId", endpointSetID); err != nil {
		return nil, err
	}
	return getJSON[RateLimitSet](ctx, s.c, "getRateLimit", Request{Params: pathParams("endpointSetId", endpointSetID), Query: f.query()})
}

// LearnRateLimits asks the service for its endpoint sets and gives them to
// the scheduler, so requests are paced by the real buckets from then on. A
// caller that may not read them (403, or the gate refuses) keeps learning
// from headers and 429s; that error is returned for the record.
func (c *Client) LearnRateLimits(ctx context.Context, f RateLimitFilter) error {
	sets, err := c.RateLimits().All(ctx, f)
	if err != nil {
		return err
	}
	c.sched.learn(c.service, sets)
	return nil
}
