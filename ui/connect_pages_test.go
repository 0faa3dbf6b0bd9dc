package ui

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// TestStartReadsProjectPagesUntilItsProject: with 1,200 projects (three
// pages of 500), a start that names no project reads one page of the
// project list, one naming a project of the second page two, and only one
// naming a project nobody has reads them all (and says so); the first two
// leave the lists partial, for the background load after the start. The
// pages come from the tightest bucket (10, 5 a minute): 5,000 projects'
// ten pages held a start past its timeout, and every retry spent them
// again.
func TestStartReadsProjectPagesUntilItsProject(t *testing.T) {
	srv, err := apisim.New(apisim.Options{Clock: apisim.NewManualClock(time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)),
		Projects: 1200, Orgs: 3, RateLimitPerMin: 1 << 20})
	require.NoError(t, err)
	var pages atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/atlas/v2/groups" && r.Header.Get("Authorization") != "" {
			pages.Add(1)
		}
		srv.Handler().ServeHTTP(w, r)
	}))
	t.Cleanup(func() { ts.Close(); _ = srv.Close() })
	c, err := apiclient.New(apiclient.Options{BaseURL: ts.URL, Auth: apiclient.DigestAuth("org-owner", "org-owner-secret")})
	require.NoError(t, err)
	second := ""
	for name, id := range srv.World().Projects {
		if id == apisim.ProjectIDAt(700) {
			second = name
		}
	}
	require.NotEmpty(t, second)

	for _, tc := range []struct {
		name    string
		want    want
		pages   int64
		partial bool
		warn    string
	}{
		{"none asked", want{}, 1, true, ""},
		{"a project of page 2", want{project: second}, 2, true, ""},
		{"a project nobody has", want{project: "nope"}, 3, false, `project "nope" not found`},
	} {
		pages.Store(0)
		s, warn, err := loadScopeFull(context.Background(), c, tc.want)
		require.NoError(t, err, tc.name)
		assert.Equal(t, tc.pages, pages.Load(), "%s: pages of the project list read", tc.name)
		assert.Equal(t, tc.partial, s.partialLists, "%s: lists partial", tc.name)
		assert.Equal(t, tc.warn, warn, tc.name)
		if tc.want.project != "nope" {
			assert.NotEmpty(t, s.project.ID, tc.name)
		}
		if tc.want.project == second {
			assert.Equal(t, apisim.ProjectIDAt(700), s.project.ID)
		}
	}
}
