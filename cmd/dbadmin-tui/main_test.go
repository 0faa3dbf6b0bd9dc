package main

import (
	"bytes"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/views/accesslogs"
)

func TestBadFlagsExitTwoWithOneLine(t *testing.T) {
	for _, args := range [][]string{
		{"--no-such-flag"},
		{"--theme", "pink"},
		{"--pane", "nowhere"},
		{"--demo-role", "root"},
		{"--demo-speed", "0"},
		{"--demo", "--base-url", "http://x"},
		{"--demo-listen", "127.0.0.1:8484"},
		{"--demo", "--demo-listen", "0.0.0.0:8484"},
		{"--demo", "--demo-listen", ":8484"},
		{"--demo", "--demo-listen", "192.168.1.10:8484"},
		{"--demo", "--demo-listen", "127.0.0.1"},
		{"--demo", "--demo-listen", "127.0.0.1:http"},
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
	f, err := parseFlags([]string{"--demo", "--demo-role", "read-only", "--pane", "5", "--theme", "MONO", "--read-only", "--project", "payments"})
	assert.NoError(t, err)
	assert.True(t, f.demo)
	assert.Equal(t, "read-only", f.demoRole)
	assert.Equal(t, accesslogs.ID, f.pane)
	assert.Equal(t, "mono", f.theme)
	assert.True(t, f.readOnly)
	assert.Equal(t, "payments", f.project)
	assert.Equal(t, 10.0, f.demoSpeed)
	assert.Equal(t, "127.0.0.1:0", f.demoListen, "a free loopback port by default")
	for _, addr := range []string{"127.0.0.1:8484", "[::1]:0", "localhost:9000", "127.0.0.2:0"} {
		f, err = parseFlags([]string{"--demo", "--demo-listen", addr})
		assert.NoError(t, err, addr)
		assert.Equal(t, addr, f.demoListen)
	}
	f, err = parseFlags([]string{"--demo", "--demo-auth-bursts", "20"})
	assert.NoError(t, err)
	assert.Equal(t, 20, f.demoAuthBursts)
	_, err = parseFlags([]string{"--demo", "--demo-auth-bursts", "1"})
	assert.EqualError(t, err, "--demo-auth-bursts must be 2..10000 failed logins a minute (0: off)")
}

// --demo-auth-bursts reaches the board as the profile setting would.
func TestDemoAuthBurstsReachTheBoard(t *testing.T) {
	dir := t.TempDir()
	f, err := parseFlags([]string{"--demo", "--demo-auth-bursts", "20"})
	require.NoError(t, err)
	a, err := setup(f, func(k string) string { return map[string]string{"XDG_STATE_HOME": dir, "HOME": dir}[k] })
	require.NoError(t, err)
	defer a.close()
	assert.Equal(t, 20, a.opts.TriageAuthBursts)
}

// A non-loopback demo address is refused before anything starts, saying
// why in one line.
func TestDemoListenOffLoopbackSaysWhy(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"--demo", "--demo-listen", "0.0.0.0:8484"}, &out, &errOut, func(string) string { return "" })
	assert.Equal(t, 2, code)
	assert.Equal(t, "dbadmin-tui: --demo-listen 0.0.0.0:8484: not a loopback address; the demo keys are public, "+
		"so the demo server listens on loopback only (127.0.0.1, ::1, localhost) (see dbadmin-tui --help)\n", errOut.String())
	assert.Empty(t, out.String())
}

// The demo server listens where --demo-listen says (the e2e shell tour
// checks the help overlay shows it).
func TestDemoListensOnTheGivenAddress(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	f, err := parseFlags([]string{"--demo", "--demo-listen", addr})
	require.NoError(t, err)
	dir := t.TempDir()
	a, err := setup(f, func(k string) string { return map[string]string{"XDG_STATE_HOME": dir, "HOME": dir}[k] })
	require.NoError(t, err)
	defer a.close()
	res, err := http.Get("http://" + addr + "/api/atlas/v2")
	require.NoError(t, err)
	_ = res.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, res.StatusCode, "the simulator answers there and asks for a key")

	// The same address again is taken: a clear start-up error, exit 1.
	var out, errOut bytes.Buffer
	code := run([]string{"--demo", "--demo-listen", addr}, &out, &errOut, func(k string) string { return map[string]string{"XDG_STATE_HOME": dir, "HOME": dir}[k] })
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut.String(), "dbadmin-tui: demo: listen")
	assert.Contains(t, errOut.String(), "address already in use")
}

func TestMissingCredentialsIsAClearError(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"HOME": dir, "XDG_CONFIG_HOME": dir, "XDG_STATE_HOME": dir}
	var out, errOut bytes.Buffer
	code := run(nil, &out, &errOut, func(k string) string { return env[k] })
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut.String(), "credentials")
}

// The demo's world runs --demo-speed times faster; the dashboard reads its
// clock, so "acknowledge for 1h" means an hour of the simulator's time.
func TestDemoDashboardUsesTheSimulatorsClock(t *testing.T) {
	f, err := parseFlags([]string{"--demo", "--demo-speed", "36000"})
	require.NoError(t, err)
	dir := t.TempDir()
	a, err := setup(f, func(k string) string { return map[string]string{"XDG_STATE_HOME": dir, "HOME": dir}[k] })
	require.NoError(t, err)
	defer a.close()
	time.Sleep(200 * time.Millisecond)
	ahead := a.model.Now().Sub(time.Now())
	assert.Greater(t, ahead, 30*time.Minute, "at 10 h a second, 0.2 s is 2 h of simulator time")
}
