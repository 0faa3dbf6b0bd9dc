package apiclient

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAccessLogTimeForms(t *testing.T) {
	want := time.Date(2025, 3, 1, 10, 0, 5, 0, time.UTC)
	for _, ts := range []string{
		"2025-03-01T10:00:05Z",
		"Sat Mar 01 2025 10:00:05 GMT+0000 (UTC)",
		"Sat Mar 1 2025 10:00:05 GMT+0000 (Coordinated Universal Time)",
		"Sat Mar 01 2025 11:00:05 GMT+0100",
		"Sat Mar 01 10:00:05 GMT 2025",
	} {
		got, ok := AccessLog{Timestamp: ts}.Time()
		if assert.True(t, ok, ts) {
			assert.True(t, got.Equal(want), "%s parsed as %s", ts, got)
		}
	}
	for _, ts := range []string{"", "yesterday", "Sat Mar 01 2025 (UTC)"} {
		_, ok := AccessLog{Timestamp: ts}.Time()
		assert.False(t, ok, ts)
	}
}

func TestAccessLogIPAddressMustBeIPv4(t *testing.T) {
	c, sent := countingClient(t)
	for _, ip := range []string{"10.0.0", "not-an-ip", "2001:db8::1"} {
		_, err := c.AccessLogs().ByCluster(context.Background(), wGroup, "Cluster0", AccessLogsOptions{IPAddress: ip})
		refused(t, sent, err, "ipAddress")
	}
	require.NoError(t, AccessLogsOptions{IPAddress: "198.51.100.7"}.Validate())
}
