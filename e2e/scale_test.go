package e2e

import (
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// scaleEnv runs TestTriageScale200Projects, a measurement of about three
// minutes.
const scaleEnv = "DBADMIN_E2E_SCALE"

var (
	alertsCoverage = regexp.MustCompile(`alerts (\d+)/(\d+)`)
	alertRow       = regexp.MustCompile(`(?m)^\s+[A-Z]+\s+alert\s+\S`)
)

// TestTriageScale200Projects measures the real binary's Triage board over
// 200 projects in 4 organizations at 20 ms a request, under apisim's
// default endpoint sets (the service's documented bucket and conservative
// values elsewhere): the first alert rows, the complete board, the requests
// of each refresh that follows (every project's alerts every 30 s; a
// project's rest every fourth poll while something there is under way,
// else every twentieth, the quiet projects spread over the polls), the RSS,
// and not one 429. Run it with
// DBADMIN_E2E_SCALE=1 go test -run TriageScale -v ./e2e/
func TestTriageScale200Projects(t *testing.T) {
	if os.Getenv(scaleEnv) == "" {
		t.Skip("a measurement of about three minutes: set " + scaleEnv + "=1")
	}
	RequireTmux(t)
	h := StartSimHost(t, apisim.Options{Projects: 200, Orgs: 4, Latency: 20 * time.Millisecond})
	Binary(t) // built before the clock starts
	begin := time.Now()
	s := StartAgainst(t, h, 200, 60, "--pane", "triage")
	s.waitUntil(func(sc string) bool {
		m := alertsCoverage.FindStringSubmatch(sc)
		n := 0
		if m != nil {
			n, _ = strconv.Atoi(m[1])
		}
		return n > 0 && alertRow.MatchString(sc)
	}, time.Minute, "the first alert rows")
	first := time.Since(begin)
	s.WaitFor("200 of 200 projects", 3*time.Minute)
	complete := time.Since(begin)
	loaded := len(h.Log())
	pid := s.pid()
	_, loadPeak := memKB(t, pid)

	// Two and a half minutes of refreshes: five alert polls, each with the
	// rest of the projects due (see the comment above).
	peak := 0
	for end := time.Now().Add(150 * time.Second); time.Now().Before(end); time.Sleep(time.Second) {
		rss, _ := memKB(t, pid)
		peak = max(peak, rss)
		if !s.Alive() {
			t.Fatalf("the dashboard ended:\n%s", s.Capture())
		}
	}
	steady, hwm := memKB(t, pid)
	screen := s.Capture()

	log := h.Log()
	var limited, learned int
	for _, x := range log {
		if x.Status == http.StatusTooManyRequests {
			limited++
			if limited <= 5 {
				t.Errorf("429 for %s %s at %v", x.Method, x.Path, x.At)
			}
		}
		if strings.HasSuffix(x.Path, "/rateLimits") && x.Status == http.StatusOK {
			learned++
		}
	}
	// The refreshes after the complete board: bursts of requests apart by
	// more than 5 s of silence.
	var bursts []string
	n := 0
	for i := loaded; i < len(log); i++ {
		if n > 0 && log[i].At-log[i-1].At > 5*time.Second {
			bursts = append(bursts, strconv.Itoa(n))
			n = 0
		}
		n++
	}
	if n > 0 {
		bursts = append(bursts, strconv.Itoa(n))
	}
	t.Logf("200 projects, 20 ms latency, default budgets: first alert rows %v, complete board %v (%d requests, rateLimits read %d times); refreshes after it: %s requests; 429s %d; RSS peak while loading %d MB, max over the refreshes %d MB, at the end %d MB, peak since start %d MB",
		first.Round(time.Millisecond), complete.Round(time.Millisecond), loaded, learned, strings.Join(bursts, ", "),
		limited, loadPeak/1024, peak/1024, steady/1024, hwm/1024)
	if limited > 0 {
		t.Errorf("%d requests answered 429", limited)
	}
	if len(bursts) < 4 {
		t.Errorf("only %d refreshes in 150 s of 30 s polls", len(bursts))
	}
	if strings.Contains(screen, "429") || strings.Contains(screen, "stale") {
		t.Errorf("the board shows a failure:\n%s", screen)
	}
	s.SendKeys("q")
	s.WaitExit(wait)
}
