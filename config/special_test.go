//go:build unix

package config

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// loadWithin runs Load and fails the test if it does not return in time
// (a FIFO would block an open; /dev/zero would be read for ever).
func (f *fixture) loadWithin(d time.Duration, opts LoadOptions) error {
	f.t.Helper()
	done := make(chan error, 1)
	go func() {
		_, err := f.load(opts)
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		f.t.Fatalf("Load did not return within %v", d)
		return nil
	}
}

// A config path that is not a regular file is refused at once, with what
// it is named: none of them is read, and none makes Load wait.
func TestConfigThatIsNotARegularFileIsRefused(t *testing.T) {
	f := newFixture(t)
	fifo := filepath.Join(f.home, "fifo.toml")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	zero := filepath.Join(f.home, "zero.toml")
	require.NoError(t, os.Symlink("/dev/zero", zero))
	fifoLink := filepath.Join(f.home, "fifo-link.toml")
	require.NoError(t, os.Symlink(fifo, fifoLink))
	dir := filepath.Join(f.home, "dir.toml")
	require.NoError(t, os.Mkdir(dir, 0o700))
	cases := []struct{ name, path, want string }{
		{"FIFO", fifo, "is a named pipe (FIFO), not a regular file"},
		{"symlink to a FIFO", fifoLink, "is a named pipe (FIFO), not a regular file"},
		{"symlink to /dev/zero", zero, "is a character device, not a regular file"},
		{"directory", dir, "is a directory, not a regular file"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f.t = t
			err := f.loadWithin(5*time.Second, LoadOptions{ConfigPath: tc.path})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.path)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	// The default path (no --config) too: our file is a FIFO.
	t.Run("own file at the default path", func(t *testing.T) {
		f.t = t
		require.NoError(t, os.MkdirAll(filepath.Dir(f.ownPath()), 0o700))
		require.NoError(t, syscall.Mkfifo(f.ownPath(), 0o600))
		err := f.loadWithin(5*time.Second, LoadOptions{})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "named pipe")
	})
}

// A config file over the cap is refused without being parsed.
func TestConfigOverTheSizeCapIsRefused(t *testing.T) {
	f := newFixture(t)
	big := f.write(filepath.Join(f.home, "big.toml"), "theme = \"mono\"\n"+strings.Repeat("# padding\n", MaxFileBytes/10+1), 0o600)
	err := f.loadWithin(5*time.Second, LoadOptions{ConfigPath: big})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is larger than 1024 KiB")
	// Just under the cap is read.
	ok := f.write(filepath.Join(f.home, "ok.toml"), "theme = \"mono\"\n"+strings.Repeat("# padding\n", MaxFileBytes/10-10), 0o600)
	r := f.mustLoad(LoadOptions{ConfigPath: ok})
	assert.Equal(t, "mono", r.Theme)
}
