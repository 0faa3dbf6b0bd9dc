package apiclient

import (
	"context"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rateLimitCases are the RateLimits area.
func rateLimitCases() map[string]wireCase {
	return map[string]wireCase{
		"listRateLimits": {
			path: "/rateLimits", query: pagedQuery("groupId", wGroup, "endpointPath", "/api/atlas/v2/groups/{groupId}/clusters"),
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.RateLimits().List(ctx, RateLimitFilter{GroupID: wGroup, EndpointPaths: []string{"/api/atlas/v2/groups/{groupId}/clusters"}}, wirePage)
			},
			check: func(t *testing.T, v any) {
				p := as[*Page[RateLimitSet]](t, v)
				require.Len(t, p.Results, 2)
				assert.Equal(t, 52, p.TotalCount)
				assert.Equal(t, RateLimitValues{Capacity: 100, RefillRate: 10, RefillSeconds: 60}, p.Results[0].Values())
				assert.Equal(t, "GROUP", p.Results[0].Scope)
				assert.Equal(t, RateLimitEndpoint{Method: "GET", Path: "/api/atlas/v2/orgs"}, p.Results[1].Endpoints[0])
			},
		},
		"getRateLimit": {
			path: "/rateLimits/rateLimitsInspection_group", query: url.Values{"userId": {wClient}},
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.RateLimits().Get(ctx, "rateLimitsInspection_group", RateLimitFilter{UserID: wClient})
			},
			check: func(t *testing.T, v any) {
				s := as[*RateLimitSet](t, v)
				assert.Equal(t, "rateLimitsInspection_group", s.EndpointSetID)
				assert.Equal(t, 20, s.Capacity.Value)
				require.NotNil(t, s.Capacity.DefaultValue)
				assert.Equal(t, 10, *s.Capacity.DefaultValue)
				assert.Nil(t, s.RefillRate.DefaultValue)
				assert.Len(t, s.Endpoints, 2)
			},
		},
	}
}
