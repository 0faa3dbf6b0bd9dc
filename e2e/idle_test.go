package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// idleEnv runs TestIdleSpeed, a measurement of about two and a half minutes.
const idleEnv = "DBADMIN_E2E_IDLE"

// TestIdleSpeed measures only the CPU the real binary spends idle, the
// part of TestAlertsSpeed at 100,000 alerts, at 10,000 (plus the demo's
// 172) in a 200x60 tmux window against apisim with 20 ms added to every
// call and polls set to an hour: over 20 s right after the list is whole,
// while the header's "updated 3s ago" changes every second (a frame a
// second), then over a minute once it reads "updated 1m ago" and nothing
// on screen changes. What it leaves out: the load, the memory and the
// refresh (TestAlertsSpeed has them), and what the terminal spends
// drawing. With DBADMIN_E2E_SPEED_PROFILE=dir the binary writes a CPU
// profile of its idle minute there (idle.prof; it starts 70 s after the
// start, when the header has read "1m ago" for some seconds, and runs to
// the quit). Run it with
//
//	DBADMIN_E2E_IDLE=1 go test -run IdleSpeed -v -count=1 ./e2e/
func TestIdleSpeed(t *testing.T) {
	if os.Getenv(idleEnv) == "" {
		t.Skip("a measurement of about two and a half minutes: set " + idleEnv + "=1")
	}
	RequireTmux(t)
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte("[poll]\nalerts = \"1h\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	Binary(t)
	const n = 10_000
	h := StartSimHost(t, apisim.Options{Latency: 20 * time.Millisecond, RateLimits: map[string]apisim.RateLimit{
		"alertsRead_group": {Capacity: 1000, RefillRate: 1000, RefillSeconds: 60},
	}})
	if err := h.Server.AddAlerts(apisim.DemoPaymentsID, n); err != nil {
		t.Fatal(err)
	}
	env := []string{"MONGODB_ATLAS_PUBLIC_API_KEY=" + ownerKey, "MONGODB_ATLAS_PRIVATE_API_KEY=" + ownerSecret}
	if dir := os.Getenv(speedEnv + "_PROFILE"); dir != "" {
		env = append(env, "DBADMIN_CPUPROFILE="+filepath.Join(dir, "idle.prof"), "DBADMIN_CPUPROFILE_AFTER=70s")
	}
	env = append(env, strings.Fields(os.Getenv(speedEnv+"_ENV"))...)
	s := Start(t, 200, 60, env, "--base-url", h.URL(), "--config", cfg, "--project", apisim.DemoPaymentsID)
	s.waitUntil(func(sc string) bool {
		m := shownCount.FindStringSubmatch(sc)
		return m != nil && m[1] == strconv.Itoa(n+172) && !loadingOf.MatchString(sc) && strings.Contains(sc, "updated")
	}, 2*time.Minute, "the whole list")
	pid := s.pid()
	ticking := cpuPerMinute(t, pid, 20*time.Second)
	s.waitUntil(func(sc string) bool { return strings.Contains(sc, "updated 1m ago") }, 90*time.Second, "the header at a minute")
	still := cpuPerMinute(t, pid, time.Minute)
	t.Logf("%d alerts idle: %.3f CPU-s/min with the header's age ticking, %.3f with nothing changing", n+172, ticking, still)
	s.SendKeys("q")
	s.WaitExit(wait)
}

// cpuPerMinute is the CPU pid spends over d, in CPU-s a minute. /proc
// counts in 10 ms ticks: over 20 s a tick is 0.03 CPU-s a minute, over a
// minute 0.01.
func cpuPerMinute(t testing.TB, pid int, d time.Duration) float64 {
	t.Helper()
	cpu0, t0 := cpuSeconds(t, pid), time.Now()
	time.Sleep(d)
	return (cpuSeconds(t, pid) - cpu0) / time.Since(t0).Minutes()
}
