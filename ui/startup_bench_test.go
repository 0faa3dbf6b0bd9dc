package ui

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// BenchmarkStartTo200ms is the start-up conversation against apisim with
// 200 ms added to every call, up to the first page of alerts decoded:
// who-am-I, the organizations, the projects, the clusters (asked for by
// id, as a remembered context is) and the alerts' page 1. It stops there:
// the process start, the rate limits the binary reads beside them, the
// merge of the page and the first frame are left out (the real binary's
// time to its first rows on screen is e2e's TestAlertsSpeed).
func BenchmarkStartTo200ms(b *testing.B) {
	srv, err := apisim.New(apisim.Options{Latency: 200 * time.Millisecond})
	require.NoError(b, err)
	ts := httptest.NewServer(srv.Handler())
	b.Cleanup(ts.Close)
	ctx := context.Background()
	for range b.N {
		c, err := apiclient.New(apiclient.Options{BaseURL: ts.URL, Service: "atlas",
			Auth: apiclient.DigestAuth("org-owner", "org-owner-secret"), MaxRetries: -1})
		require.NoError(b, err)
		t0 := time.Now()
		s, _, err := loadScope(ctx, c, want{project: apisim.DemoPaymentsID})
		require.NoError(b, err)
		_, err = c.Alerts().List(ctx, s.project.ID, apiclient.AlertListOptions{ListOptions: apiclient.ListOptions{PageNum: 1, ItemsPerPage: 500}})
		require.NoError(b, err)
		b.ReportMetric(time.Since(t0).Seconds(), "s-to-page-1-decoded")
	}
}
