package e2e

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMain removes the binary Binary built, once every test has run.
func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" && !binGiven {
		_ = os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}
