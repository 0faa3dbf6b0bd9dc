//go:build unix

package apisim

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A state path that is not a regular file (a FIFO, /dev/zero through a
// symlink, a directory) is refused at once with what it is, never read,
// never waited on, never replaced.
func TestStateThatIsNotARegularFileIsRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	zero := filepath.Join(dir, "zero.json")
	require.NoError(t, os.Symlink("/dev/zero", zero))
	sub := filepath.Join(dir, "dir.json")
	require.NoError(t, os.Mkdir(sub, 0o700))
	for name, path := range map[string]string{"FIFO": fifo, "symlink to /dev/zero": zero, "directory": sub} {
		t.Run(name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() {
				s, err := New(Options{StateFile: path, Clock: NewManualClock(testStart)})
				if s != nil {
					_ = s.Close()
				}
				done <- err
			}()
			select {
			case err := <-done:
				require.Error(t, err)
				assert.Contains(t, err.Error(), "is not a regular file")
				assert.Contains(t, err.Error(), "left untouched")
			case <-time.After(5 * time.Second):
				t.Fatal("New did not return")
			}
			fi, err := os.Lstat(path)
			require.NoError(t, err)
			assert.False(t, fi.Mode().IsRegular(), "not replaced by a state file")
		})
	}
}
