package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

func TestShellGolden(t *testing.T) {
	for _, theme := range []string{"dark", "light", "mono"} {
		for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
			name := fmt.Sprintf("%s_%dx%d", theme, size[0], size[1])
			t.Run(name, func(t *testing.T) {
				api := newFakeAPI(t, orgOwner())
				m := newModel(t, api, func(o *Options) { o.Theme = theme })
				d := newDriver(t, m, size[0], size[1])
				d.Settle()
				require.Equal(t, phaseReady, m.phase)
				screen := d.Screen()
				assert.Equal(t, size[1], strings.Count(screen, "\n")+1, "fills the height")
				viewstest.Golden(t, "shell/"+name, viewstest.Screen(screen))
			})
		}
	}
}

func TestSmallScreensGolden(t *testing.T) {
	api := newFakeAPI(t, orgOwner())
	m := newModel(t, api, nil)
	d := newDriver(t, m, 50, 12)
	d.Settle()
	viewstest.Golden(t, "shell/too_small_50x12", viewstest.Screen(d.Screen()))

	d.Send(tea.WindowSizeMsg{Width: 0, Height: 0})
	assert.Contains(t, d.Screen(), "starting", "a sane screen before the first size")
}

func TestConnectFailureShowsReasonAndRetries(t *testing.T) {
	api := newFakeAPI(t, orgOwner())
	api.srv.Close()
	m := newModel(t, api, nil)
	d := newDriver(t, m, 80, 24)
	d.Settle()
	require.Equal(t, phaseFailed, m.phase)
	screen := d.Screen()
	assert.Contains(t, screen, "Cannot connect")
	assert.Contains(t, screen, "connection refused")
	assert.Contains(t, screen, "r retry")
	d.Press("r")
	assert.Equal(t, phaseFailed, m.phase, "still down")
	assert.Equal(t, 2, m.attempt, "r retried")
}
