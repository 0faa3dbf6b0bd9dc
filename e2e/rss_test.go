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

// TestAlertsRSS measures the real binary's memory with 1k, 10k and 100k
// alerts added to the demo project: the peak of the first load, the steady
// RSS after it, and the largest RSS over 45 s of 1 s refreshes, which
// include a full pass (one every 40 refreshes). Run it with
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
		peak := 0
		for end := time.Now().Add(45 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
			rss, _ := memKB(t, pid)
			peak = max(peak, rss)
		}
		after, hwm := memKB(t, pid)
		reqs := len(h.Hits("GET", "/alerts")) - passes
		t.Logf("%6d alerts: first load peak %4d MB; steady %4d MB; over 45 s of refreshes (%d requests, a full pass among them) max %4d MB, then %4d MB; peak since start %4d MB",
			n, loadPeak/1024, steady/1024, reqs, peak/1024, after/1024, hwm/1024)
		s.SendKeys("q")
		s.WaitExit(wait)
	}
}
