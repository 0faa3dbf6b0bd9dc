package viewstest

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	// The golden package defines -update; teatest links it too, so a flag
	// of our own under that name would panic in any test using teatest.
	_ "github.com/charmbracelet/x/exp/golden"
	"github.com/stretchr/testify/require"
)

// updating reports whether the test binary runs with -update.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// Golden compares got with testdata/<name>.golden at the repository root
// (name is "<pane>/<screen>"), or rewrites that file under -update. The
// comparison is exact: callers pass the text the file holds (see Screen).
func Golden(t testing.TB, name, got string) {
	t.Helper()
	path := filepath.Join(repoRoot(t), "testdata", filepath.FromSlash(name)+".golden")
	if updating() {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "go test -update creates %s", name)
	require.Equal(t, string(want), got, "screen %s differs (go test -update rewrites it)", name)
}

// Screen is a view as a terminal shows it: styling stripped and the
// blanks at the end of each line dropped, ending in a newline.
func Screen(view string) string {
	lines := strings.Split(ansi.Strip(view), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n") + "\n"
}

// repoRoot is the nearest directory above the test's working directory
// that holds go.mod.
func repoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	require.NoError(t, err)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		require.NotEqual(t, dir, parent, "no go.mod above the test's directory")
		dir = parent
	}
}
