package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// speedEnv runs TestAlertsSpeed, a measurement of about four minutes.
const speedEnv = "DBADMIN_E2E_SPEED"

// loadingOf is the list's header while a full pass is under way ("loading
// 500 of 10172"); the task line's "✓ loading alerts: done" lingers after
// it and says nothing of the list.
var loadingOf = regexp.MustCompile(`loading \d+ of \d+`)

// shownCount is the list's count, with its note once the client's cap on
// rows is reached ("100000 alerts (showing the first 100000) · ").
var shownCount = regexp.MustCompile(`(\d+) alerts (?:\(showing the first \d+\) )?· `)

// TestAlertsSpeed measures what a user waits for and what the process
// holds and spends, on the real binary in a 200x60 tmux window against apisim with
// 20 ms added to every call, at 10,000 and 100,000 alerts (plus the
// demo's 172): the time from the start to the first alert rows and to the
// whole list (the count on screen, the "loading" gone) and the CPU the
// process spent until then (apisim's is not in it); the RSS once loaded
// (steady, after 3 s), its peak since the start (VmHWM, the load
// included) and, after `r` asks for a refresh, the RSS and the peak again;
// at 100,000, the CPU the process spends idle (polls set to an hour),
// over 20 s while the header's "updated 12s ago" still changes every
// second (a frame a second), then over a minute once it reads "updated 1m
// ago" and nothing on screen changes but that once (the clock ticks every
// 5 s then: a View, no frame drawn; Bubble Tea's frame ticker still wakes
// 30 times a second).
//
// The alerts endpoint set is given 1,000 requests a minute (the
// simulator's default of 100 makes the full list of 201 pages a matter of
// the budget, not of the dashboard). What it leaves out: the terminal's
// own drawing (tmux's is not a user's), the screen is read every 10 ms
// until the whole list (the times are that coarse; each read is a tmux
// command, a few ms of CPU beside the binary's), and apisim runs in the test's process
// (its CPU and memory are not the binary's and are not counted).
// Run it with
//
//	DBADMIN_E2E_SPEED=1 go test -run AlertsSpeed -v ./e2e/
//
// and DBADMIN_E2E_BINARY=path to time a binary built elsewhere. With
// DBADMIN_E2E_SPEED_PROFILE=dir the binary writes a CPU profile of each
// run there (alerts-N.prof, DBADMIN_CPUPROFILE) and the test logs when
// each request of the first pass was answered, from the start;
// DBADMIN_E2E_SPEED_ENV="K=V ..." adds to the binary's environment;
// DBADMIN_E2E_SPEED_LOAD=1 stops each size at the whole list (the load
// times only: no RSS, refresh or idle figures), for runs of two binaries
// in turn. Every start is cold: each session has a fresh XDG_CACHE_HOME
// (Start), so no start copies are kept from an earlier run.
func TestAlertsSpeed(t *testing.T) {
	if os.Getenv(speedEnv) == "" {
		t.Skip("a measurement of about four minutes: set " + speedEnv + "=1")
	}
	RequireTmux(t)
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte("[poll]\nalerts = \"1h\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	Binary(t) // built before any clock starts
	for _, n := range []int{10_000, 100_000} {
		h := StartSimHost(t, apisim.Options{Latency: 20 * time.Millisecond, RateLimits: map[string]apisim.RateLimit{
			"alertsRead_group": {Capacity: 1000, RefillRate: 1000, RefillSeconds: 60},
		}})
		if err := h.Server.AddAlerts(apisim.DemoPaymentsID, n); err != nil {
			t.Fatal(err)
		}
		total := min(n+172, apiclient.MaxRows) // the rows the client keeps
		begin := time.Now()
		args := []string{"--config", cfg, "--project", apisim.DemoPaymentsID}
		profDir := os.Getenv(speedEnv + "_PROFILE")
		var s *Session
		if profDir != "" {
			env := []string{"MONGODB_ATLAS_PUBLIC_API_KEY=" + ownerKey, "MONGODB_ATLAS_PRIVATE_API_KEY=" + ownerSecret,
				"DBADMIN_CPUPROFILE=" + filepath.Join(profDir, fmt.Sprintf("alerts-%d.prof", n))}
			env = append(env, strings.Fields(os.Getenv(speedEnv+"_ENV"))...) // e.g. GODEBUG=gctrace=1
			s = Start(t, 200, 60, env, append([]string{"--base-url", h.URL()}, args...)...)
		} else {
			s = StartAgainst(t, h, 200, 60, args...)
		}
		hostAt := time.Since(h.start) - time.Since(begin) // the start, on the host's clock
		s.watch(func(sc string) bool { return shownCount.MatchString(sc) && strings.Contains(sc, "OPEN") },
			30*time.Second, "the first alert rows")
		first := time.Since(begin)
		screen := s.watch(func(sc string) bool {
			m := shownCount.FindStringSubmatch(sc)
			got := 0
			if m != nil {
				got, _ = strconv.Atoi(m[1])
			}
			return got == total && !loadingOf.MatchString(sc)
		}, 2*time.Minute, fmt.Sprintf("the whole list of %d", total))
		all := time.Since(begin)
		if profDir != "" {
			var b strings.Builder
			for _, x := range h.Log() {
				if x.At >= hostAt {
					fmt.Fprintf(&b, "%7.3fs %d %s %s\n", (x.At - hostAt).Seconds(), x.Status, x.Method, x.Path)
				}
			}
			t.Logf("%d alerts: requests answered, from the start (first rows seen at %.3fs, the whole list at %.3fs):\n%s",
				total, first.Seconds(), all.Seconds(), b.String())
		}
		if !strings.Contains(screen, "OPEN") {
			t.Errorf("%d alerts: no rows with the whole list:\n%s", total, screen)
		}
		pid := s.pid()
		loadCPU := cpuSeconds(t, pid)
		if os.Getenv(speedEnv+"_LOAD") != "" {
			t.Logf("%6d alerts: first rows %v, whole list %v (%.2f CPU-s)", total, first.Round(time.Millisecond), all.Round(time.Millisecond), loadCPU)
			s.SendKeys("q")
			s.WaitExit(wait)
			continue
		}
		time.Sleep(3 * time.Second)
		steady, loadPeak := memKB(t, pid)
		pages := len(h.Hits("GET", "/alerts"))
		s.SendKeys("r")
		deadline := time.Now().Add(time.Minute)
		for len(h.Hits("GET", "/alerts")) == pages && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		s.waitUntil(func(sc string) bool {
			m := shownCount.FindStringSubmatch(sc)
			return m != nil && m[1] == strconv.Itoa(total) && !strings.Contains(sc, "loading ")
		},
			time.Minute, "the list after a refresh")
		time.Sleep(2 * time.Second)
		after, peak := memKB(t, pid)
		idle := ""
		if n == 100_000 {
			// /proc counts CPU in 10 ms ticks: over 20 s a tick is 0.03
			// CPU-s a minute, over a minute 0.01.
			perMin := func(d time.Duration) float64 {
				cpu0, t0 := cpuSeconds(t, pid), time.Now()
				time.Sleep(d)
				return (cpuSeconds(t, pid) - cpu0) / time.Since(t0).Minutes()
			}
			ticking := perMin(20 * time.Second)
			// Once the header reads "updated 1m ago" it stays so for a
			// minute: nothing on screen changes.
			s.waitUntil(func(sc string) bool { return strings.Contains(sc, "updated 1m ago") }, 90*time.Second, "the header at a minute")
			idle = fmt.Sprintf("; idle %.3f CPU-s/min with the header's age ticking, %.3f with nothing changing", ticking, perMin(time.Minute))
		}
		t.Logf("%6d alerts: first rows %v, whole list %v (%.2f CPU-s); RSS steady %d MB (peak %d MB), after a refresh %d MB (peak %d MB)%s",
			total, first.Round(time.Millisecond), all.Round(time.Millisecond), loadCPU, steady/1024, loadPeak/1024, after/1024, peak/1024, idle)
		s.SendKeys("q")
		s.WaitExit(wait)
	}
}

// watch is waitUntil reading the screen every 10 ms instead of 50: the
// load times are read off the screen, and at 50 ms a read they were up to
// 50 ms late, 25 on average.
func (s *Session) watch(ok func(string) bool, timeout time.Duration, what string) string {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		screen := s.Capture()
		if ok(screen) {
			return screen
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("waited %v for %s; screen:\n%s%s", timeout, what, screen, s.ended())
		}
		time.Sleep(10 * time.Millisecond)
	}
}
