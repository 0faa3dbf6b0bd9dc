package ui

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

var update = flag.Bool("update", false, "rewrite the golden screens under testdata/")

// goldenDir holds the shell's screens at the repository root.
var goldenDir = filepath.Join("..", "testdata", "shell")

// requireGolden compares a screen with testdata/shell/<name>.golden, or
// rewrites it with -update.
func requireGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join(goldenDir, name+".golden")
	got = trimRight(got)
	if *update {
		require.NoError(t, os.MkdirAll(goldenDir, 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./ui -update to create it")
	assert.Equal(t, string(want), got, "screen %s differs (go test ./ui -update rewrites it)", name)
}

// trimRight drops trailing blanks per line, which terminals do not show.
func trimRight(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n") + "\n"
}

func TestShellGolden(t *testing.T) {
	for _, theme := range []string{"dark", "light", "mono"} {
		for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
			name := fmt.Sprintf("%s_%dx%d", theme, size[0], size[1])
			t.Run(name, func(t *testing.T) {
				api := newFakeAPI(t, orgOwner())
				m := newModel(t, api, func(o *Options) { o.Theme = theme })
				d := newDriver(t, m, size[0], size[1])
				d.settle()
				require.Equal(t, phaseReady, m.phase)
				screen := d.screen()
				assert.Equal(t, size[1], strings.Count(screen, "\n")+1, "fills the height")
				requireGolden(t, name, screen)
			})
		}
	}
}

func TestSmallScreensGolden(t *testing.T) {
	api := newFakeAPI(t, orgOwner())
	m := newModel(t, api, nil)
	d := newDriver(t, m, 50, 12)
	d.settle()
	requireGolden(t, "too_small_50x12", d.screen())

	d.send(teaSize(0, 0))
	assert.Contains(t, d.screen(), "starting", "a sane screen before the first size")
}

func TestConnectFailureShowsReasonAndRetries(t *testing.T) {
	api := newFakeAPI(t, orgOwner())
	url := api.srv.URL
	api.srv.Close()
	c, err := apiclient.New(apiclient.Options{BaseURL: url, Gate: apiclient.NewGate(nil), MaxRetries: -1})
	require.NoError(t, err)
	m, err := New(Options{Client: c, Profile: "test", Clock: fixedClock, Theme: "dark"})
	require.NoError(t, err)
	d := newDriver(t, m, 80, 24)
	d.settle()
	require.Equal(t, phaseFailed, m.phase)
	screen := d.screen()
	assert.Contains(t, screen, "Cannot connect")
	assert.Contains(t, screen, "connection refused")
	assert.Contains(t, screen, "r retry")
	d.key(press("r"))
	assert.Equal(t, phaseFailed, m.phase, "still down")
	assert.Equal(t, 2, m.attempt, "r retried")
}
