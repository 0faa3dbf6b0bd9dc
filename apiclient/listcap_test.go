package apiclient

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A list answered as one bare array (search indexes) holds no more than
// MaxRows either: the items past the cap are read past, and ShowingFirst
// says so. MaxRows is lowered here as the dashboard's tests lower it.
func TestUnpagedListHoldsAtMostTheRowCap(t *testing.T) {
	old := MaxRows
	MaxRows = 4
	t.Cleanup(func() { MaxRows = old })
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		items := make([]string, n)
		for i := range items {
			items[i] = fmt.Sprintf(`{"indexID":"ix%d","name":"n%d","mappings":{"fields":{"a":[{"type":"string"}]}}}`, i, i)
		}
		w.Header().Set("Content-Type", "application/vnd.atlas.2024-05-30+json")
		fmt.Fprint(w, "["+strings.Join(items, ",")+"]")
	}))
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL, Options{})
	for _, tc := range []struct{ served, held int }{{10, 4}, {4, 4}, {3, 3}, {0, 0}} {
		n = tc.served
		got, err := c.Search().ListCluster(context.Background(), testGroup, "c0")
		require.NoError(t, err, "served %d", tc.served)
		require.Len(t, got, tc.held, "served %d", tc.served)
		if tc.held > 0 {
			assert.Equal(t, fmt.Sprintf("ix%d", tc.held-1), got[tc.held-1].IndexID, "the first items, in order")
		}
		if tc.held == 4 {
			assert.Equal(t, "showing the first 4", ShowingFirst(len(got)))
		} else {
			assert.Empty(t, ShowingFirst(len(got)))
		}
	}
}

// One access-history answer holds no more than MaxRows records either.
func TestAccessLogAnswerHoldsAtMostTheRowCap(t *testing.T) {
	old := MaxRows
	MaxRows = 3
	t.Cleanup(func() { MaxRows = old })
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		items := make([]string, 10)
		for i := range items {
			items[i] = fmt.Sprintf(`{"hostname":"h%d","authResult":true}`, i)
		}
		w.Header().Set("Content-Type", "application/vnd.atlas.2023-01-01+json")
		fmt.Fprint(w, `{"accessLogs":[`+strings.Join(items, ",")+`]}`)
	}))
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL, Options{})
	got, err := c.AccessLogs().ByCluster(context.Background(), testGroup, "c0", AccessLogsOptions{})
	require.NoError(t, err)
	require.Len(t, got, 3)
	assert.Equal(t, "h2", got[2].Hostname)
}
