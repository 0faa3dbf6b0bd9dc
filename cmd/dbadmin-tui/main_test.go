package main

import (
	"bytes"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/ui"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/accesslogs"
	"github.com/dbadmin-tui/dbadmin-tui/views/triage"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
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

// triageSees runs the app setup builds for f, with the Triage pane's
// factory recording the views.Context it is made with, until the panes
// are made, and returns what the board was given.
func triageSees(t *testing.T, f flags, env map[string]string) views.Context {
	t.Helper()
	var got *views.Context
	panes := slices.Clone(ui.Panes())
	for i, r := range panes {
		if r.ID == triage.Registration.ID {
			panes[i].New = func(ctx views.Context) views.Pane {
				got = &ctx
				return r.New(ctx)
			}
		}
	}
	a, err := setup(f, func(k string) string { return env[k] }, panes)
	require.NoError(t, err)
	t.Cleanup(a.close)
	d := viewstest.NewLiveModelDriver(t, a.model, 120, 40)
	d.Settle()
	require.NotNil(t, got, "the Triage pane was made")
	return *got
}

// --demo-auth-bursts reaches the board as the profile setting would.
func TestDemoAuthBurstsReachTheBoard(t *testing.T) {
	dir := t.TempDir()
	f, err := parseFlags([]string{"--demo", "--demo-auth-bursts", "20"})
	require.NoError(t, err)
	ctx := triageSees(t, f, map[string]string{"XDG_STATE_HOME": dir, "HOME": dir})
	assert.Equal(t, 20, ctx.TriageAuthBursts)
}

// The profile's triage_orgs, triage_projects and auth-burst settings reach
// the board.
func TestProfileTriageSettingsReachTheBoard(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	require.NoError(t, os.WriteFile(path, []byte(`[default]
triage_orgs = ["Demo-Org"]
triage_projects = ["payments", "`+apisim.DemoPaymentsID+`"]
triage_auth_bursts = true
triage_auth_burst_threshold = 30
`), 0o600))
	f, err := parseFlags([]string{"--config", path})
	require.NoError(t, err)
	ctx := triageSees(t, f, map[string]string{"XDG_STATE_HOME": dir, "XDG_CONFIG_HOME": dir, "HOME": dir,
		"MONGODB_ATLAS_PUBLIC_API_KEY": "read-only", "MONGODB_ATLAS_PRIVATE_API_KEY": "read-only-secret",
		"MONGODB_ATLAS_OPS_MANAGER_URL": startSim(t)})
	assert.Equal(t, []string{"Demo-Org"}, ctx.TriageOrgs)
	assert.Equal(t, []string{"payments", apisim.DemoPaymentsID}, ctx.TriageProjects)
	assert.Equal(t, 30, ctx.TriageAuthBursts)
}

// Closing the app stops learning the rate limits: the start-up request
// does not outlive the app.
func TestClosingStopsLearningRateLimits(t *testing.T) {
	arrived, cancelled := make(chan struct{}, 1), make(chan struct{}, 1)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || !strings.Contains(r.URL.Path, "rateLimits") {
			// (The HEADs that ready the digest lanes ahead are no start-up
			// request: one arriving first must not stand for it.)
			http.NotFound(w, r)
			return
		}
		select {
		case arrived <- struct{}{}:
		default:
		}
		select {
		case <-r.Context().Done():
			select {
			case cancelled <- struct{}{}:
			default:
			}
		case <-time.After(8 * time.Second):
		}
	}))
	defer ts.Close()
	dir := t.TempDir()
	env := map[string]string{"XDG_STATE_HOME": dir, "XDG_CONFIG_HOME": dir, "HOME": dir,
		"MONGODB_ATLAS_PUBLIC_API_KEY": "k", "MONGODB_ATLAS_PRIVATE_API_KEY": "s", "MONGODB_ATLAS_OPS_MANAGER_URL": ts.URL}
	f, err := parseFlags(nil)
	require.NoError(t, err)
	a, err := setup(f, func(k string) string { return env[k] }, ui.Panes())
	require.NoError(t, err)
	select {
	case <-arrived:
	case <-time.After(5 * time.Second):
		t.Fatal("the rate limits were not asked for")
	}
	a.close()
	select {
	case <-cancelled:
	case <-time.After(3 * time.Second):
		t.Fatal("the request for the rate limits outlived the app")
	}
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
	a, err := setup(f, func(k string) string { return map[string]string{"XDG_STATE_HOME": dir, "HOME": dir}[k] }, ui.Panes())
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
	a, err := setup(f, func(k string) string { return map[string]string{"XDG_STATE_HOME": dir, "HOME": dir}[k] }, ui.Panes())
	require.NoError(t, err)
	defer a.close()
	time.Sleep(200 * time.Millisecond)
	ahead := a.model.Now().Sub(time.Now())
	assert.Greater(t, ahead, 30*time.Minute, "at 10 h a second, 0.2 s is 2 h of simulator time")
}
