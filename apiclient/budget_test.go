package apiclient_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// Budget knows nothing of a bucket before the rateLimits API or an answer
// told it; learned from either, it gives the capacity and the tokens left,
// one fewer for each request sent.
func TestSchedulerBudget(t *testing.T) {
	for _, learn := range []bool{false, true} {
		name := map[bool]string{false: "from headers", true: "from the rateLimits API"}[learn]
		t.Run(name, func(t *testing.T) {
			base, _, _ := limitedSim(t, 60)
			c, err := apiclient.New(apiclient.Options{BaseURL: base, Auth: apiclient.DigestAuth("read-only", "read-only-secret")})
			require.NoError(t, err)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			_, _, ok := c.Scheduler().Budget("listAlerts", apisim.DemoPaymentsID)
			require.False(t, ok, "nothing is known yet")
			if learn {
				require.NoError(t, c.LearnRateLimits(ctx, apiclient.RateLimitFilter{GroupID: apisim.DemoPaymentsID}))
				capacity, tokens, ok := c.Scheduler().Budget("listAlerts", apisim.DemoPaymentsID)
				require.True(t, ok)
				require.Equal(t, 60, capacity)
				require.InDelta(t, 59, tokens, 0.5, "the capacity less the token kept back")
			}
			for range 3 {
				_, err := c.Alerts().List(ctx, apisim.DemoPaymentsID, apiclient.AlertListOptions{ListOptions: apiclient.ListOptions{ItemsPerPage: 5}})
				require.NoError(t, err)
			}
			capacity, tokens, ok := c.Scheduler().Budget("listAlerts", apisim.DemoPaymentsID)
			require.True(t, ok)
			require.Equal(t, 60, capacity)
			require.InDelta(t, 56, tokens, 1, "three requests spent")
			_, _, ok = c.Scheduler().Budget("noSuchOperation", apisim.DemoPaymentsID)
			require.False(t, ok)
		})
	}
}
