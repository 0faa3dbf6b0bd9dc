package apisim

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

// fakeWall is a host clock a test moves by hand.
type fakeWall struct {
	mu sync.Mutex
	t  time.Time
}

func (w *fakeWall) now() time.Time { w.mu.Lock(); defer w.mu.Unlock(); return w.t }
func (w *fakeWall) add(d time.Duration) {
	w.mu.Lock()
	w.t = w.t.Add(d)
	w.mu.Unlock()
}

// A resumed scaled clock reads the saved time at once (whatever the wall
// clock and the jumps made before) and runs on from it at its speed.
func TestScaledClockResumesAtTheSavedTime(t *testing.T) {
	wall := &fakeWall{t: testStart}
	c := newScaledClockOn(wall.now, 10)
	wall.add(time.Minute)
	assert.Equal(t, testStart.Add(10*time.Minute), c.Now(), "ten times the wall clock")
	c.Advance(time.Hour)
	assert.Equal(t, testStart.Add(70*time.Minute), c.Now(), "plus the jump")

	saved := testStart.Add(48 * time.Hour)
	c.resume(saved)
	assert.Equal(t, saved, c.Now(), "reads the saved time, not the wall clock's or the old jump's")
	wall.add(30 * time.Second)
	assert.Equal(t, saved.Add(5*time.Minute), c.Now(), "runs on at its speed")
}

// savedClock is the clock reading in a state file.
func savedClock(t *testing.T, path string) time.Time {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var st struct {
		Clock *time.Time `json:"clock"`
	}
	require.NoError(t, json.Unmarshal(b, &st))
	require.NotNil(t, st.Clock, "the state file holds the clock")
	return *st.Clock
}

// The tester's case: with --state and --speed 10, a migration seen WORKING
// 4m31s into its life came back NEW after a restart, because the clock
// started again at the wall clock's time. Now the world's clock resumes
// where it was saved: never earlier than before the restart, and the
// migration keeps its progress.
func TestRestartResumesTheWorldClock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	open := func() (*Server, *apiclient.Client) {
		t.Helper()
		s, err := New(Options{StateFile: path, Speed: 10})
		require.NoError(t, err)
		ts := httptest.NewServer(s.Handler())
		t.Cleanup(ts.Close)
		c, err := apiclient.New(apiclient.Options{BaseURL: ts.URL, Service: "atlas",
			Auth: apiclient.DigestAuth("org-owner", "org-owner-secret"), MaxRetries: -1})
		require.NoError(t, err)
		return s, c
	}
	ctx := context.Background()
	s, c := open()
	s.mu.Lock()
	src := s.world.SourceProjects[0].ProjectID
	s.mu.Unlock()
	m, err := c.Migration().Create(ctx, DemoPaymentsID, billingTo(src, "payments-prod"))
	require.NoError(t, err)
	s.clock.(advancer).Advance(migrationNewFor + 4*time.Minute + 31*time.Second)
	before, err := c.Migration().Get(ctx, DemoPaymentsID, m.ID)
	require.NoError(t, err)
	require.Equal(t, apiclient.MigrationWorking, before.Status)
	require.Equal(t, apiclient.PhaseInitialSync, before.Phase)
	seen := s.Now()
	require.NoError(t, s.Close())
	saved := savedClock(t, path)
	assert.False(t, saved.Before(seen), "the file holds the clock at Close (%s), not earlier than seen (%s)", saved, seen)

	s2, c2 := open()
	defer s2.Close()
	now := s2.Now()
	assert.False(t, now.Before(saved), "restored clock %s is before the saved %s", now, saved)
	assert.Less(t, now.Sub(saved), time.Hour, "the clock resumes at the saved time, it does not jump")
	after, err := c2.Migration().Get(ctx, DemoPaymentsID, m.ID)
	require.NoError(t, err)
	assert.Equal(t, apiclient.MigrationWorking, after.Status, "the migration keeps its progress")
	assert.NotEqual(t, apiclient.PhaseStarting, after.Phase)
	assert.LessOrEqual(t, lagOf(after), lagOf(before), "its lag goes on falling")
}

// A jump of the clock through the control API is saved like a change the
// world makes by itself: a crash (no Close) after it does not undo it.
func TestClockAdvanceIsSaved(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	s, err := New(Options{StateFile: path})
	require.NoError(t, err)
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	defer s.Close()
	e := &testEnv{t: t, srv: s, ts: ts}
	st, _, b := e.digest("org-owner", "MD5").do(t, rawReq{method: "POST", path: "/api/atlas/sim/clock/advance?d=72h"})
	require.Equal(t, 200, st, "%s", b)
	want := time.Now().Add(71 * time.Hour)
	require.Eventually(t, func() bool { return savedClock(t, path).After(want) }, 5*time.Second, 20*time.Millisecond,
		"the jump is in the state file without a Close")
	s2, err := New(Options{StateFile: path})
	require.NoError(t, err)
	defer s2.Close()
	assert.True(t, s2.Now().After(want), "a server started from the file is past the jump: %s", s2.Now())
}

// A state file written before the clock was saved still loads; its world
// starts at the clock's own reading.
func TestStateWithoutClockLoads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	var st map[string]any
	require.NoError(t, json.Unmarshal(validState(t), &st))
	require.Contains(t, st, "clock")
	delete(st, "clock")
	require.NoError(t, os.WriteFile(path, mustJSON(st), 0o600))
	wallBefore := time.Now()
	s, err := New(Options{StateFile: path})
	require.NoError(t, err)
	defer s.Close()
	assert.WithinDuration(t, wallBefore, s.Now(), time.Minute)
}
