package e2e

import (
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// scale1000Env runs TestTriageIdle1000Projects, a measurement of about
// five minutes.
const scale1000Env = "DBADMIN_E2E_SCALE1000"

// TestTriageIdle1000Projects measures the real binary's Triage board over
// 1,000 projects in 5 organizations at 20 ms a request under apisim's
// default endpoint sets: the time to the complete board, then two minutes
// of polls with the world going on: the requests and the dashboard's CPU
// seconds a minute, its RSS peak, the 401s and 429s. Run it with
// DBADMIN_E2E_SCALE1000=1 go test -run TriageIdle1000 -v ./e2e/
func TestTriageIdle1000Projects(t *testing.T) {
	if os.Getenv(scale1000Env) == "" {
		t.Skip("a measurement of about five minutes: set " + scale1000Env + "=1")
	}
	RequireTmux(t)
	h := StartSimHost(t, apisim.Options{Projects: 1000, Orgs: 5, Latency: 20 * time.Millisecond})
	Binary(t) // built before the clock starts
	begin := time.Now()
	s := StartAgainst(t, h, 200, 60, "--pane", "triage")
	s.WaitFor("1000 of 1000 projects", 5*time.Minute)
	complete := time.Since(begin)
	loaded := len(h.Log())
	pid := s.pid()
	_, loadPeak := memKB(t, pid)

	const idle = 2 * time.Minute
	cpu0 := cpuSeconds(t, pid)
	for end := time.Now().Add(idle); time.Now().Before(end); time.Sleep(time.Second) {
		if !s.Alive() {
			t.Fatalf("the dashboard ended:\n%s", s.Capture())
		}
	}
	cpu := cpuSeconds(t, pid) - cpu0
	steady, hwm := memKB(t, pid)
	log := h.Log()
	count := func(from int, status int) int {
		n := 0
		for _, x := range log[from:] {
			if x.Status == status {
				n++
			}
		}
		return n
	}
	minutes := idle.Minutes()
	t.Logf("1000 projects, 5 organizations, 20 ms latency, default budgets: complete board %v (%d requests, %d answered 401, %d 429); idle %.0f requests/min, %.2f CPU s/min (%d 401, %d 429); RSS peak while loading %d MB, at the end %d MB, peak since start %d MB",
		complete.Round(time.Millisecond), loaded, count(0, http.StatusUnauthorized)-count(loaded, http.StatusUnauthorized), count(0, http.StatusTooManyRequests)-count(loaded, http.StatusTooManyRequests),
		float64(len(log)-loaded)/minutes, cpu/minutes, count(loaded, http.StatusUnauthorized), count(loaded, http.StatusTooManyRequests),
		loadPeak/1024, steady/1024, hwm/1024)
	s.SendKeys("q")
	s.WaitExit(wait)
}
