package e2e

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// rssEnv runs TestAlertsRSS, a measurement of a few minutes.
const rssEnv = "DBADMIN_E2E_RSS"

// rssLimitKB is the budget of RSS with 100,000 alerts, steady and during
// refreshes: 120 MB (the log's MB are MiB).
const rssLimitKB = 120_000_000 / 1024

// pid is the dashboard's process id (tmux's pane process: the shell and env
// exec into the program).
func (s *Session) pid() int {
	s.t.Helper()
	out, err := s.tmux("display-message", "-p", "-t", s.name, "#{pane_pid}")
	if err != nil {
		s.t.Fatalf("pane pid: %v: %s", err, out)
	}
	n, err := strconv.Atoi(strings.TrimSpace(out))
	if err != nil {
		s.t.Fatalf("pane pid %q: %v", out, err)
	}
	return n
}

// memKB reads VmRSS and VmHWM (peak RSS) of a process, in KiB.
func memKB(t testing.TB, pid int) (rss, hwm int) {
	t.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatalf("read process status: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 {
			continue
		}
		switch fields[0] {
		case "VmRSS:":
			rss, _ = strconv.Atoi(fields[1])
		case "VmHWM:":
			hwm, _ = strconv.Atoi(fields[1])
		}
	}
	return rss, hwm
}

// cpuSeconds is the CPU time a process has used (user and system), from
// /proc/PID/stat at 100 ticks a second.
func cpuSeconds(t testing.TB, pid int) float64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatalf("read process stat: %v", err)
	}
	// The fields after the command name (in parentheses, which may hold spaces).
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	utime, _ := strconv.Atoi(f[11])
	stime, _ := strconv.Atoi(f[12])
	return float64(utime+stime) / 100
}

// TestAlertsRSS measures the real binary's memory with 1k, 10k and 100k
// alerts added to the demo project: the peak of the first load, the steady
// RSS after it, and the largest RSS over at least 45 s of 1 s refreshes,
// until a full pass (one every 40 refreshes) is among them; at 100,000
// alerts both must stay within 120 MB. Run it with
// DBADMIN_E2E_RSS=1 go test -run AlertsRSS -v ./e2e/
func TestAlertsRSS(t *testing.T) {
	if os.Getenv(rssEnv) == "" {
		t.Skip("a measurement of about three minutes: set " + rssEnv + "=1")
	}
	RequireTmux(t)
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte("[poll]\nalerts = \"1s\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1_000, 10_000, 100_000} {
		h := StartSimHost(t, apisim.Options{})
		if err := h.Server.AddAlerts(apisim.DemoPaymentsID, n); err != nil {
			t.Fatal(err)
		}
		s := StartAgainst(t, h, 120, 30, "--config", cfg, "--project", apisim.DemoPaymentsID)
		want := fmt.Sprintf("%d alerts · ", n+172)
		s.waitUntil(func(sc string) bool { return strings.Contains(sc, want) && !strings.Contains(sc, "loading ") },
			2*time.Minute, want+"with the list loaded")
		pid := s.pid()
		_, loadPeak := memKB(t, pid)
		time.Sleep(3 * time.Second)
		steady, _ := memKB(t, pid)
		passes := len(h.Hits("GET", "/alerts")) // requests so far
		pages := (n + 172 + 499) / 500          // a full pass's requests
		peak, reqs, start, cpu0 := 0, 0, time.Now(), cpuSeconds(t, pid)
		// 45 s of refreshes, longer until a full pass (every 40th) is among them.
		for time.Since(start) < 45*time.Second || reqs < pages && time.Since(start) < 3*time.Minute {
			rss, _ := memKB(t, pid)
			peak = max(peak, rss)
			reqs = len(h.Hits("GET", "/alerts")) - passes
			time.Sleep(100 * time.Millisecond)
		}
		after, hwm := memKB(t, pid)
		cpu := cpuSeconds(t, pid) - cpu0
		if reqs < pages {
			t.Errorf("%d alerts: %d requests in %v of refreshes, fewer than a full pass (%d)", n, reqs, time.Since(start).Round(time.Second), pages)
		}
		t.Logf("%6d alerts: first load peak %4d MB; steady %4d MB; over %v of refreshes (%d requests, a full pass among them; %.1f CPU s) max %4d MB, then %4d MB; peak since start %4d MB",
			n, loadPeak/1024, steady/1024, time.Since(start).Round(time.Second), reqs, cpu, peak/1024, after/1024, hwm/1024)
		if n == 100_000 && (steady > rssLimitKB || peak > rssLimitKB) {
			t.Errorf("100000 alerts: steady %d MiB, %d MiB at most during refreshes: over the budget of 120 MB", steady/1024, peak/1024)
		}
		s.SendKeys("q")
		s.WaitExit(wait)
	}
}
