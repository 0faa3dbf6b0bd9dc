package views

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A pane is found by what the screen shows of it: "5 Access" on a narrow
// tab row names Access logs; a first word two titles share names neither.
func TestByNameTakesATabsShortTitle(t *testing.T) {
	rs := Registry{
		{ID: "alerts", Title: "Alerts"},
		{ID: "accesslogs", Title: "Access logs", Aliases: []string{"log"}},
		{ID: "backup-a", Title: "Backup one"},
		{ID: "backup-b", Title: "Backup two"},
	}
	for in, want := range map[string]ID{"access": "accesslogs", "Access": "accesslogs", "log": "accesslogs", "2": "accesslogs", "alerts": "alerts"} {
		got, ok := rs.ByName(in)
		assert.True(t, ok, in)
		assert.Equal(t, want, got, in)
	}
	_, ok := rs.ByName("backup")
	assert.False(t, ok, "two titles start with it")
}
