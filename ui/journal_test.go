package ui

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/journal"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

type presenceStub struct{ others []string }

func (p presenceStub) Others() []string                       { return p.others }
func (p presenceStub) Acting(groupID, alertID string) string  { return "" }
func (p presenceStub) AckedBy(groupID, alertID string) string { return "" }
func (p presenceStub) Doing(string, []views.AlertRef)         {}

// `:journal` shows this shift's writes, newest first; `a` shows them all.
// Under serve the header names who else is here.
func TestJournalOverlayAndPresence(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := journal.Open(path)
	require.NoError(t, err)
	now := time.Now()
	require.NoError(t, j.Append(journal.Entry{Time: now.Add(-10 * time.Hour), Who: "carol", Op: "takeSnapshot", Outcome: "applied"}))
	require.NoError(t, j.Append(journal.Entry{Time: now.Add(-time.Hour), Who: "alice", Op: "acknowledgeAlert",
		Targets: map[string]string{"alertId": "a1"}, Outcome: "applied", Status: 200}))
	require.NoError(t, j.Append(journal.Entry{Time: now.Add(-time.Minute), Who: "bob", Op: "acknowledgeAlert",
		Targets: map[string]string{"alertId": "a1"}, Outcome: "not sent", Error: "alice acknowledged this 59 min ago"}))
	require.NoError(t, j.Close())

	d, _, _ := readyModel(t, func(o *Options) {
		o.JournalPath = path
		o.Presence = presenceStub{others: []string{"bob", "carol"}}
	})
	assert.Contains(t, d.Screen(), "with bob, carol")
	palette(d, "journal")
	screen := d.Screen()
	assert.Contains(t, screen, "Journal: this shift")
	assert.Contains(t, screen, "alice      acknowledgeAlert alertId=a1 → applied 200")
	assert.Contains(t, screen, "bob        acknowledgeAlert alertId=a1 → not sent: alice acknowledged")
	assert.NotContains(t, screen, "carol      takeSnapshot", "older than the shift")
	assert.Less(t, strings.Index(screen, "bob        acknowledgeAlert"), strings.Index(screen, "alice      acknowledgeAlert"), "newest first")
	d.Press("a")
	d.Settle()
	assert.Contains(t, d.Screen(), "carol      takeSnapshot")
	d.Press("esc")
	d.Settle()
	assert.NotContains(t, d.Screen(), "Journal:")
}
