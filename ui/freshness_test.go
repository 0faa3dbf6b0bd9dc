package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/alerts"
)

// Under --demo the world's clock runs faster than the wall clock; "updated
// Ns ago" still counts the user's seconds.
func TestFreshnessCountsWallClockSeconds(t *testing.T) {
	wall := fixedNow
	world := fixedNow
	d, _, _ := readyModel(t, func(o *Options) {
		o.Clock = func() time.Time { return world }
		o.Wall = func() time.Time { return wall }
	})
	d.Send(views.Result[struct{}]{Pane: alerts.ID})
	wall = wall.Add(9 * time.Second)
	world = world.Add(9 * time.Minute) // --demo-speed 60
	header := strings.SplitN(d.Screen(), "\n", 2)[0]
	assert.Contains(t, header, "updated 9s ago")
}

// The header's age reads as the tables' AGE columns do: days past two days.
func TestFreshnessPastTwoDaysReadsInDays(t *testing.T) {
	wall := fixedNow
	d, _, _ := readyModel(t, func(o *Options) { o.Wall = func() time.Time { return wall } })
	d.Send(views.Result[struct{}]{Pane: alerts.ID})
	wall = wall.Add(72 * time.Hour)
	header := strings.SplitN(d.Screen(), "\n", 2)[0]
	assert.Contains(t, header, "updated 3d ago")
}
