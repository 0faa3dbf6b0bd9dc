package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestProfileAfter(t *testing.T) {
	dir := t.TempDir()
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }

	var stderr strings.Builder
	path := filepath.Join(dir, "bad.prof")
	startProfile(env(map[string]string{profileEnv: path, profileAfterEnv: "soon"}), &stderr)()
	assert.Contains(t, stderr.String(), `DBADMIN_CPUPROFILE_AFTER="soon" is not a duration`)
	assert.NoFileExists(t, path, "a delay that is not a duration makes no profile")

	// Stopped before the delay ran out: the file is made, no profile in it.
	stderr.Reset()
	path = filepath.Join(dir, "late.prof")
	startProfile(env(map[string]string{profileEnv: path, profileAfterEnv: "1h"}), &stderr)()
	assert.Empty(t, stderr.String())
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Zero(t, fi.Size(), "the profile had not started")

	path = filepath.Join(dir, "now.prof")
	startProfile(env(map[string]string{profileEnv: path}), &stderr)()
	assert.Empty(t, stderr.String())
	fi, err = os.Stat(path)
	require.NoError(t, err)
	assert.NotZero(t, fi.Size(), "a profile started at once is written at the stop")
}
