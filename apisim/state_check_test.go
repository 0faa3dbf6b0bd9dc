package apisim

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

// validState is the state file a fresh server writes at start.
func validState(t *testing.T) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "state.json")
	s, err := New(Options{StateFile: path, Clock: NewManualClock(testStart)})
	require.NoError(t, err)
	b, err := os.ReadFile(path)
	require.NoError(t, err, "the state file exists before any change")
	require.NoError(t, s.Close())
	return b
}

// Every corrupt state is refused at New, before anything listens, with a
// message that names the problem, and the file is left byte for byte.
func TestCorruptStateIsRefusedAndNeverRewritten(t *testing.T) {
	valid := validState(t)
	edit := func(f func(w map[string]any)) func() []byte {
		return func() []byte {
			var st map[string]any
			require.NoError(t, json.Unmarshal(valid, &st))
			f(st["world"].(map[string]any))
			b, err := json.Marshal(st)
			require.NoError(t, err)
			return b
		}
	}
	list := func(w map[string]any, k string) []any { return w[k].([]any) }
	first := func(w map[string]any, k string) map[string]any { return list(w, k)[0].(map[string]any) }
	nullIn := func(k string) func() []byte {
		return edit(func(w map[string]any) { w[k] = append(list(w, k), nil) })
	}
	dupIn := func(k string) func() []byte {
		return edit(func(w map[string]any) { w[k] = append(list(w, k), list(w, k)[0]) })
	}
	raw := func(s string) func() []byte { return func() []byte { return []byte(s) } }
	top := func(f func(st map[string]any)) func() []byte {
		return func() []byte {
			var st map[string]any
			require.NoError(t, json.Unmarshal(valid, &st))
			f(st)
			b, err := json.Marshal(st)
			require.NoError(t, err)
			return b
		}
	}
	badName := func() []byte {
		// A project's name with a byte that is not UTF-8, as a hand edit
		// in another encoding leaves it.
		var st struct {
			World struct {
				Projects []struct{ Name string } `json:"projects"`
			} `json:"world"`
		}
		require.NoError(t, json.Unmarshal(valid, &st))
		name := st.World.Projects[0].Name
		return bytes.Replace(valid, []byte(`"`+name+`"`), []byte(`"`+name+"\xe9"+`"`), 1)
	}
	cases := []struct {
		name  string
		state func() []byte
		want  string
	}{
		{"null in projects", nullIn("projects"), "world.projects["},
		{"null in clusters", nullIn("clusters"), "world.clusters["},
		{"null in hosts", nullIn("hosts"), "world.hosts["},
		{"null in alerts", nullIn("alerts"), "world.alerts["},
		{"null in alertConfigs", nullIn("alertConfigs"), "world.alertConfigs["},
		{"null in snapshots", nullIn("snapshots"), "world.snapshots["},
		{"null in searchIndexes", nullIn("searchIndexes"), "world.searchIndexes["},
		{"null in restoreJobs", edit(func(w map[string]any) { w["restoreJobs"] = []any{nil} }), "world.restoreJobs[0] is null"},
		{"projects null", edit(func(w map[string]any) { w["projects"] = nil }), "world.projects is null or missing"},
		{"alerts missing", edit(func(w map[string]any) { delete(w, "alerts") }), "world.alerts is null or missing"},
		{"org-only world", edit(func(w map[string]any) {
			for k := range w {
				if k != "org" && k != "nextId" && k != "seed" {
					delete(w, k)
				}
			}
		}), "is null or missing"},
		{"no projects", edit(func(w map[string]any) { w["projects"] = []any{}; w["clusters"] = []any{} }), "world.projects is empty"},
		{"nextId 0", edit(func(w map[string]any) { w["nextId"] = 0 }), "world.nextId is 0"},
		{"nextId behind its ids", edit(func(w map[string]any) { w["nextId"] = 1 }), "world.nextId 1 is behind"},
		{"duplicate project ids", dupIn("projects"), "repeats world.projects[0].id"},
		{"duplicate cluster ids", dupIn("clusters"), "repeats world.clusters[0].id"},
		{"duplicate alert ids", dupIn("alerts"), "repeats world.alerts[0].id"},
		{"missing snapshot id", edit(func(w map[string]any) { first(w, "snapshots")["id"] = "" }), "world.snapshots[0].id is missing"},
		{"cluster in no project", edit(func(w map[string]any) { first(w, "clusters")["groupId"] = "ffffffffffffffffffffffff" }), "names no project"},
		{"project of another org", edit(func(w map[string]any) { first(w, "projects")["orgId"] = "x" }), "is not world.org.id"},
		{"null schedule", edit(func(w map[string]any) { w["schedules"] = map[string]any{"c": nil} }), `world.schedules["c"] is null`},
		{"org without id", edit(func(w map[string]any) { w["org"] = map[string]any{} }), "world.org.id is missing"},
		{"name not UTF-8", badName, "is not valid UTF-8 (byte "},
		{"alert of an unknown project", edit(func(w map[string]any) { first(w, "alerts")["groupId"] = "ffffffffffffffffffffffff" }), "world.alerts[0].groupId"},
		{"alert configuration of an unknown project", edit(func(w map[string]any) { first(w, "alertConfigs")["groupId"] = "ffffffffffffffffffffffff" }), "world.alertConfigs[0].groupId"},
		{"snapshot of an unknown cluster", edit(func(w map[string]any) { first(w, "snapshots")["clusterName"] = "gone" }), `world.snapshots[0] names cluster "gone"`},
		{"host of an unknown cluster", edit(func(w map[string]any) { first(w, "hosts")["clusterName"] = "gone" }), `world.hosts[0] names cluster "gone"`},
		{"search index of an unknown cluster", edit(func(w map[string]any) { first(w, "searchIndexes")["clusterName"] = "gone" }), `world.searchIndexes[0] names cluster "gone"`},
		{"far-future clock", top(func(st map[string]any) { st["clock"] = "9999-12-31T00:00:00Z" }), "its clock 9999-12-31T00:00:00Z is past 9000-01-01"},
		{"truncated JSON", func() []byte { return valid[:len(valid)/2] }, "is corrupt"},
		{"empty file", raw(""), "is corrupt"},
		{"not JSON", raw("\x00\x01binary"), "is corrupt"},
		{"a JSON array", raw("[]"), "is corrupt"},
		{"world null", raw(`{"format":1,"world":null}`), "is not a dbadmin-sim state"},
		{"wrong format", raw(`{"format":7,"world":{}}`), "is not a dbadmin-sim state (format 7)"},
		{"over the size cap", func() []byte {
			return append(append([]byte(nil), valid...), bytes.Repeat([]byte(" "), 2<<20)...)
		}, "over the 1 MiB cap"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "state.json")
			content := tc.state()
			require.NoError(t, os.WriteFile(path, content, 0o600))
			before, err := os.Stat(path)
			require.NoError(t, err)
			s, err := New(Options{StateFile: path, StateMaxBytes: 1 << 20, Clock: NewManualClock(testStart)})
			if s != nil {
				_ = s.Close()
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Contains(t, err.Error(), "left untouched")
			after, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.True(t, bytes.Equal(content, after), "the refused file was rewritten")
			st, _ := os.Stat(path)
			assert.Equal(t, before.ModTime(), st.ModTime())
		})
	}
	// The valid file under a cap it fits is accepted.
	path := filepath.Join(t.TempDir(), "state.json")
	require.NoError(t, os.WriteFile(path, valid, 0o600))
	s, err := New(Options{StateFile: path, StateMaxBytes: 1 << 20, Clock: NewManualClock(testStart)})
	require.NoError(t, err)
	require.NoError(t, s.Close())
}

// A change made through the API is on disk when its answer arrives: a
// crash (no Close) right after loses nothing that was acknowledged.
func TestChangeIsPersistedBeforeItIsAcknowledged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	clock := NewManualClock(testStart)
	s, err := New(Options{StateFile: path, Clock: clock})
	require.NoError(t, err)
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	c, err := apiclient.New(apiclient.Options{BaseURL: ts.URL, Auth: apiclient.DigestAuth("project-owner", "project-owner-secret"), MaxRetries: -1})
	require.NoError(t, err)
	a := firstOpenUnacked(t, c, clock.Now())
	until := clock.Now().Add(time.Hour)
	_, err = c.Alerts().Acknowledge(context.Background(), DemoPaymentsID, a.ID,
		apiclient.AcknowledgeRequest{AcknowledgedUntil: &until, AcknowledgementComment: "acked-before-crash"})
	require.NoError(t, err)
	// A kill -9 now: the server is never closed and no timer has fired
	// (the manual clock does not move; the debounce is wall-clock 300 ms,
	// far longer than this test takes to read the file).
	saved, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(saved), "acked-before-crash")
	s2, err := New(Options{StateFile: path, Clock: clock})
	require.NoError(t, err)
	defer s2.Close()
	found := false
	for _, al := range s2.world.Alerts {
		found = found || (al.ID == a.ID && strings.Contains(string(mustJSON(al)), "acked-before-crash"))
	}
	assert.True(t, found, "the acknowledged change survived the crash")
}

// A write whose change cannot be saved is not applied: the 500 that says so
// is true, in memory as on disk, and a restart has what the client was told.
func TestWriteThatCannotBeSavedIsNotApplied(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	clock := NewManualClock(testStart)
	s, err := New(Options{StateFile: path, Clock: clock})
	require.NoError(t, err)
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	c, err := apiclient.New(apiclient.Options{BaseURL: ts.URL, Auth: apiclient.DigestAuth("project-owner", "project-owner-secret"), MaxRetries: -1})
	require.NoError(t, err)
	ctx := context.Background()
	cs := c.AlertConfigs()
	before, err := cs.ListAll(ctx, DemoPaymentsID)
	require.NoError(t, err)
	saved, err := os.ReadFile(path)
	require.NoError(t, err)

	// A clock whose derived times cannot be written (only code can set it:
	// the control API and the state file refuse it).
	clock.Set(time.Date(9999, 12, 31, 23, 59, 0, 0, time.UTC))
	zero := 0
	cfg := apiclient.AlertConfig{EventTypeName: "HOST_DOWN", Enabled: true,
		Notifications: []apiclient.Notification{{TypeName: apiclient.NotifyEmail, DelayMin: &zero, IntervalMin: 60, EmailAddress: "ops@example.com"}}}
	_, err = cs.Create(ctx, DemoPaymentsID, cfg)
	var ae *apiclient.Error
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, 500, ae.Status)
	assert.Contains(t, ae.Detail, "nothing was changed")

	clock.Set(testStart.Add(time.Hour))
	after, err := cs.ListAll(ctx, DemoPaymentsID)
	require.NoError(t, err)
	assert.Len(t, after, len(before), "the change that answered 500 is not in memory")
	assert.Equal(t, countConfigs(t, saved, DemoPaymentsID), countConfigs(t, readFile(t, path), DemoPaymentsID), "nor on disk")

	// The server goes on: the next write is applied and saved.
	_, err = cs.Create(ctx, DemoPaymentsID, cfg)
	require.NoError(t, err)
	after, err = cs.ListAll(ctx, DemoPaymentsID)
	require.NoError(t, err)
	assert.Len(t, after, len(before)+1)
	require.NoError(t, s.Close())
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return b
}

// countConfigs counts a project's alert configurations in a state file.
func countConfigs(t *testing.T, state []byte, groupID string) int {
	t.Helper()
	var st struct {
		World struct {
			AlertConfigs []struct {
				GroupID string `json:"groupId"`
			} `json:"alertConfigs"`
		} `json:"world"`
	}
	require.NoError(t, json.Unmarshal(state, &st))
	n := 0
	for _, a := range st.World.AlertConfigs {
		if a.GroupID == groupID {
			n++
		}
	}
	return n
}
