package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/dbadmin-tui/dbadmin-tui/views"
)

func TestBadFlagsExitTwoWithOneLine(t *testing.T) {
	for _, args := range [][]string{
		{"--no-such-flag"},
		{"--theme", "pink"},
		{"--pane", "nowhere"},
		{"--demo-role", "root"},
		{"--demo-speed", "0"},
		{"--demo", "--base-url", "http://x"},
		{"extra"},
	} {
		var out, errOut bytes.Buffer
		code := run(args, &out, &errOut, func(string) string { return "" })
		assert.Equal(t, 2, code, "%v", args)
		lines := strings.Split(strings.TrimRight(errOut.String(), "\n"), "\n")
		assert.Len(t, lines, 1, "%v: %q", args, errOut.String())
		assert.True(t, strings.HasPrefix(lines[0], "dbadmin-tui: "), lines[0])
	}
}

func TestHelpAndVersion(t *testing.T) {
	var out, errOut bytes.Buffer
	assert.Equal(t, 0, run([]string{"--help"}, &out, &errOut, func(string) string { return "" }))
	assert.Contains(t, out.String(), "--demo-role")
	out.Reset()
	assert.Equal(t, 0, run([]string{"--version"}, &out, &errOut, func(string) string { return "" }))
	assert.Contains(t, out.String(), "dbadmin-tui")
}

func TestParseFlags(t *testing.T) {
	f, err := parseFlags([]string{"--demo", "--demo-role", "read-only", "--pane", "4", "--theme", "MONO", "--read-only", "--project", "payments"})
	assert.NoError(t, err)
	assert.True(t, f.demo)
	assert.Equal(t, "read-only", f.demoRole)
	assert.Equal(t, views.AccessLogs, f.pane)
	assert.Equal(t, "mono", f.theme)
	assert.True(t, f.readOnly)
	assert.Equal(t, "payments", f.project)
	assert.Equal(t, 10.0, f.demoSpeed)
}

func TestMissingCredentialsIsAClearError(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"HOME": dir, "XDG_CONFIG_HOME": dir, "XDG_STATE_HOME": dir}
	var out, errOut bytes.Buffer
	code := run(nil, &out, &errOut, func(k string) string { return env[k] })
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut.String(), "credentials")
}
