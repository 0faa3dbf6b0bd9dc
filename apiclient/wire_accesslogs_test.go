package apiclient

import (
	"context"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func accessLogCases() map[string]wireCase {
	g := "/groups/" + wGroup
	start, end := ts("2025-03-01T09:00:00Z"), ts("2025-03-01T10:00:00Z")
	return map[string]wireCase{
		"listAccessLogsByClusterName": {
			path: g + "/dbAccessHistory/clusters/Cluster0",
			query: url.Values{"authResult": {"false"}, "start": {"1740819600000"}, "end": {"1740823200000"},
				"ipAddress": {"198.51.100.7"}, "nLogs": {"500"}},
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.AccessLogs().ByCluster(ctx, wGroup, "Cluster0", AccessLogsOptions{
					AuthResult: ptr(false), Start: &start, End: &end, IPAddress: "198.51.100.7", NLogs: ptr(500),
				})
			},
			check: func(t *testing.T, v any) {
				logs := as[[]AccessLog](t, v)
				require.Len(t, logs, 2)
				assert.True(t, logs[0].AuthResult)
				assert.Equal(t, "", logs[0].FailureReason)
				assert.Equal(t, "app", logs[0].Username)
				when, ok := logs[0].Time()
				require.True(t, ok)
				assert.True(t, when.Equal(ts("2025-03-01T10:00:00Z")))
				assert.False(t, logs[1].AuthResult)
				assert.Equal(t, "UserNotFound", logs[1].FailureReason)
				assert.Equal(t, "198.51.100.7", logs[1].IPAddress)
			},
		},
		"listAccessLogsByHostname": {
			path: g + "/dbAccessHistory/processes/" + wHost, query: url.Values{"authResult": {"true"}},
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.AccessLogs().ByHost(ctx, wGroup, wHost, AccessLogsOptions{AuthResult: ptr(true)})
			},
			check: func(t *testing.T, v any) {
				logs := as[[]AccessLog](t, v)
				require.Len(t, logs, 1)
				assert.Equal(t, "root", logs[0].Username)
				assert.Equal(t, "cluster0-shard-00-01.ab12c.mongodb.net", logs[0].Hostname)
				when, ok := logs[0].Time()
				require.True(t, ok)
				assert.Equal(t, 5, when.Second())
			},
		},
	}
}
