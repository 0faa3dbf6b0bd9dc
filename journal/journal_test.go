package journal

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

func TestAppendReadAndOwnerOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "journal.jsonl")
	j, err := Open(path)
	require.NoError(t, err)
	_, err = os.Stat(path)
	require.ErrorIs(t, err, os.ErrNotExist, "a session that writes nothing leaves no journal")

	old := time.Now().Add(-10 * time.Hour)
	require.NoError(t, j.Append(Entry{Time: old, Who: "carol", Op: "acknowledgeAlert", Method: "PATCH", Outcome: "applied"}))
	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	dir, err := os.Stat(filepath.Dir(path))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), dir.Mode().Perm())
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			Hook{J: j}.After(apiclient.WriteEvent{Actor: apiclient.Actor{Name: "alice", Fingerprint: "SHA256:k"},
				Op: "acknowledgeAlert", Method: "PATCH", Params: map[string]string{"groupId": "g", "alertId": string(rune('a' + i))},
				Body: []byte(`{"acknowledgementComment":"on it"}`), Outcome: "applied", Status: 200, Sent: time.Now()})
		}()
	}
	wg.Wait()
	require.NoError(t, j.Close())
	require.Error(t, j.Append(Entry{Op: "x"}), "closed")

	// A torn last line (a crash mid-write) is skipped, the rest read.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, _ = f.WriteString(`{"time":"2026-`)
	require.NoError(t, f.Close())

	all, bad, err := Read(path, time.Time{})
	require.NoError(t, err)
	assert.Equal(t, 1, bad)
	assert.Len(t, all, 21)
	shift, _, err := Read(path, time.Now().Add(-8*time.Hour))
	require.NoError(t, err)
	require.Len(t, shift, 20)
	assert.Equal(t, "SHA256:k", shift[0].Key)
	assert.JSONEq(t, `{"acknowledgementComment":"on it"}`, string(shift[0].Values))

	require.NoError(t, os.Chmod(path, 0o644))
	_, err = Open(path)
	require.ErrorContains(t, err, "open to others")
}

func TestSummary(t *testing.T) {
	at := time.Date(2026, 11, 27, 3, 4, 5, 0, time.UTC)
	es := []Entry{
		{Time: at, Who: "alice", Op: "acknowledgeAlert", Targets: map[string]string{"groupId": "g", "alertId": "a1"}, Outcome: "applied", Status: 200},
		{Time: at.Add(time.Minute), Who: "bob", Op: "acknowledgeAlert", Targets: map[string]string{"groupId": "g", "alertId": "a1"}, Outcome: "not sent", Error: "alice acknowledged this 40 s ago"},
		{Time: at.Add(2 * time.Minute), Who: "alice", Op: "takeSnapshot", Outcome: "unknown", Error: "answer lost"},
		{Time: at.Add(3 * time.Minute), Who: "bob", Op: "acknowledgeAlert", Targets: map[string]string{"groupId": "g", "alertId": "a2"}, Outcome: "unknown", Error: "answer lost"},
		{Time: at.Add(4 * time.Minute), Who: "bob", Op: "acknowledgeAlert", Targets: map[string]string{"groupId": "g", "alertId": "a2"}, Outcome: "verified: applied"},
	}
	s := Summary(es, at.Add(-time.Hour), time.UTC)
	for _, want := range []string{
		"Writes since 2026-11-27 02:04: 4",
		"By: alice 2, bob 2",
		"Applied: acknowledgeAlert 2",
		"Not applied or unknown (2) — check these first:",
		"11-27 03:05:05  bob        acknowledgeAlert alertId=a1 groupId=g → not sent: alice acknowledged this 40 s ago",
		"→ unknown: answer lost",
		"11-27 03:04:05  alice      acknowledgeAlert alertId=a1 groupId=g → applied 200",
	} {
		assert.Contains(t, s, want)
	}
	assert.NotContains(t, s[:strings.Index(s, "All writes")], "a2", "an unknown a read-back settled is not to check")
	assert.True(t, strings.HasSuffix(Summary(nil, at, time.UTC), ": 0\n"))
}
