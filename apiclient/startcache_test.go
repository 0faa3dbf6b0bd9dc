package apiclient_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// TestStartCacheIsOwnerOnly: the cache directory is made 0700 and the file
// written 0600; a directory or file others may read is refused with the
// chmod that fixes it, and nothing is read from it.
func TestStartCacheIsOwnerOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	c, err := apiclient.OpenStartCache(dir, "https://example.test", "atlas", "key1")
	require.NoError(t, err)
	at := time.Date(2026, 11, 27, 11, 0, 0, 0, time.UTC)
	c.Put("orgs", []string{"a", "b"}, at)
	require.NoError(t, c.Save())
	fi, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), fi.Mode().Perm())
	fi, err = os.Stat(c.Path())
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())

	again, err := apiclient.OpenStartCache(dir, "https://example.test", "atlas", "key1")
	require.NoError(t, err)
	var got []string
	when, ok := again.Get("orgs", &got)
	require.True(t, ok)
	assert.Equal(t, []string{"a", "b"}, got)
	assert.True(t, when.Equal(at), "the entry keeps the time it was read")

	other, err := apiclient.OpenStartCache(dir, "https://example.test", "atlas", "key2")
	require.NoError(t, err)
	_, ok = other.Get("orgs", &got)
	assert.False(t, ok, "another key's cache is its own")

	require.NoError(t, os.Chmod(c.Path(), 0o644))
	_, err = apiclient.OpenStartCache(dir, "https://example.test", "atlas", "key1")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "chmod 0600")
	require.NoError(t, os.Chmod(c.Path(), 0o600))

	require.NoError(t, os.Chmod(dir, 0o755))
	_, err = apiclient.OpenStartCache(dir, "https://example.test", "atlas", "key1")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "chmod 0700")
}

// TestSchedulerStateCarriesIntoTheNextStart: one client spends all but the
// kept-back token of a 10-a-minute bucket and quits, and another tool takes
// that last token; the next start, given the first's state, waits for the
// refill instead of sending, so the server answers nothing 429. Without the
// state the next start meets a 429 on its first request.
func TestSchedulerStateCarriesIntoTheNextStart(t *testing.T) {
	for _, restore := range []bool{true, false} {
		t.Run(map[bool]string{true: "restored", false: "not restored"}[restore], func(t *testing.T) {
			base, throttled, _ := limitedSim(t, 10)
			first, err := apiclient.New(apiclient.Options{BaseURL: base, Auth: apiclient.DigestAuth("read-only", "read-only-secret"), MaxRetries: -1})
			require.NoError(t, err)
			ctx := context.Background()
			for range 9 {
				_, err := first.Alerts().List(ctx, apisim.DemoPaymentsID, apiclient.AlertListOptions{ListOptions: apiclient.ListOptions{ItemsPerPage: 1}})
				require.NoError(t, err)
			}
			// Another tool on the same key takes the token the first kept
			// back: the bucket is empty on the server.
			other, err := apiclient.New(apiclient.Options{BaseURL: base, Auth: apiclient.DigestAuth("read-only", "read-only-secret"), MaxRetries: -1})
			require.NoError(t, err)
			_, err = other.Alerts().List(ctx, apisim.DemoPaymentsID, apiclient.AlertListOptions{ListOptions: apiclient.ListOptions{ItemsPerPage: 1}})
			require.NoError(t, err)
			next := apiclient.NewScheduler()
			if restore {
				next.Restore(first.Scheduler().State())
			}
			second, err := apiclient.New(apiclient.Options{BaseURL: base, Auth: apiclient.DigestAuth("read-only", "read-only-secret"), MaxRetries: -1, Scheduler: next})
			require.NoError(t, err)
			for range 2 {
				short, cancel := context.WithTimeout(ctx, time.Second)
				_, err := second.Alerts().List(short, apisim.DemoPaymentsID, apiclient.AlertListOptions{ListOptions: apiclient.ListOptions{ItemsPerPage: 1}})
				cancel()
				if restore {
					assert.True(t, errors.Is(err, apiclient.ErrRateLimitWait), "waited for the refill, sent nothing: %v", err)
				}
			}
			if restore {
				assert.Zero(t, throttled.Load(), "429s answered")
				ws := next.Waiting()
				assert.Empty(t, ws, "nothing waits once the callers gave up")
			} else {
				assert.NotZero(t, throttled.Load(), "without the state the bucket is met empty")
			}
		})
	}
}
