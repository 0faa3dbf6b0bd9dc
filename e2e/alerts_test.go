package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// demoBaseURL finds the address the program's embedded simulator listens
// on: the one listening TCP socket the process holds (Linux /proc).
func demoBaseURL(t *testing.T, s *Session) string {
	t.Helper()
	out, err := s.tmux("display-message", "-p", "-t", s.name, "#{pane_pid}")
	if err != nil {
		t.Fatalf("pane pid: %v %s", err, out)
	}
	pid := strings.TrimSpace(out)
	fds, err := filepath.Glob("/proc/" + pid + "/fd/*")
	if err != nil || len(fds) == 0 {
		t.Skip("no /proc: cannot find the demo server's port")
	}
	inodes := map[string]bool{}
	for _, fd := range fds {
		if l, err := os.Readlink(fd); err == nil && strings.HasPrefix(l, "socket:[") {
			inodes[strings.TrimSuffix(strings.TrimPrefix(l, "socket:["), "]")] = true
		}
	}
	for _, table := range []string{"/proc/" + pid + "/net/tcp", "/proc/" + pid + "/net/tcp6"} {
		b, _ := os.ReadFile(table)
		for _, line := range strings.Split(string(b), "\n")[1:] {
			f := strings.Fields(line)
			if len(f) < 10 || f[3] != "0A" || !inodes[f[9]] { // 0A: LISTEN
				continue
			}
			_, hexPort, _ := strings.Cut(f[1], ":")
			port, err := strconv.ParseUint(hexPort, 16, 16)
			if err == nil {
				return fmt.Sprintf("http://127.0.0.1:%d", port)
			}
		}
	}
	t.Fatalf("no listening socket in process %s", pid)
	return ""
}

// curlJSON GETs a path of the simulator with a demo key (HTTP Digest).
func curlJSON(t *testing.T, base, identity, path string, v any) {
	t.Helper()
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl is not installed")
	}
	out, err := exec.Command("curl", "-sS", "--fail-with-body", "--digest", "-u", identity+":"+identity+"-secret",
		"-H", "Accept: application/vnd.atlas.2025-03-12+json", base+path).Output()
	if err != nil {
		t.Fatalf("curl %s: %v\n%s", path, err, out)
	}
	if err := json.Unmarshal(out, v); err != nil {
		t.Fatalf("curl %s: %v\n%s", path, err, out)
	}
}

type simAlert struct {
	ID                     string    `json:"id"`
	Status                 string    `json:"status"`
	AcknowledgedUntil      time.Time `json:"acknowledgedUntil"`
	AcknowledgementComment string    `json:"acknowledgementComment"`
	AcknowledgingUsername  string    `json:"acknowledgingUsername"`
}

// TestAcknowledgeFirstOpenAlertOnTheDemo acknowledges the first open alert
// for 1h with a comment and reads it back from the simulator.
func TestAcknowledgeFirstOpenAlertOnTheDemo(t *testing.T) {
	s := Start(t, 160, 40, nil, "--demo")
	s.WaitFor("STATUS", wait)
	s.WaitFor("▸  OPEN", wait) // open alerts are on top, the cursor on the first
	base := demoBaseURL(t, s)

	comment := fmt.Sprintf("e2e ack %d", time.Now().UnixNano()%1_000_000)
	s.SendKeys("a")
	s.WaitFor("Acknowledge until", wait)
	s.WaitFor("(•) 1h", wait)
	s.SendKeys(comment) // the cursor starts in the comment
	s.WaitFor(comment, wait)
	s.SendKeys("Enter")
	s.WaitFor("acknowledged until", wait)
	s.WaitFor("by org-owner", wait)

	var page struct{ Results []simAlert }
	curlJSON(t, base, "org-owner", "/api/atlas/v2/groups/"+apisim.DemoPaymentsID+"/alerts?itemsPerPage=500", &page)
	var clock struct{ Now time.Time }
	curlJSON(t, base, "org-owner", "/api/atlas/sim/clock", &clock)
	var got *simAlert
	for i, a := range page.Results {
		if a.AcknowledgementComment == comment {
			got = &page.Results[i]
		}
	}
	if got == nil {
		t.Fatalf("no alert carries the comment %q", comment)
	}
	if got.Status != "OPEN" || got.AcknowledgingUsername != "org-owner" {
		t.Errorf("acknowledged alert: %+v", *got)
	}
	// 1h from when it was sent; the demo clock runs 10x, so allow for the
	// seconds since.
	if left := got.AcknowledgedUntil.Sub(clock.Now); left <= 50*time.Minute || left > time.Hour {
		t.Errorf("acknowledged until %v, %v from the server's now: want about 1h", got.AcknowledgedUntil, left)
	}
	s.SendKeys("q")
	s.WaitExit(wait)
}

// TestReadOnlyCannotAcknowledgeOnTheDemo repeats it as read-only: refused
// on screen with the role needed, and the simulator saw no write.
func TestReadOnlyCannotAcknowledgeOnTheDemo(t *testing.T) {
	s := Start(t, 160, 40, nil, "--demo", "--demo-role", "read-only")
	s.WaitFor("STATUS", wait)
	s.WaitFor("▸  OPEN", wait)
	base := demoBaseURL(t, s)
	s.SendKeys("a")
	screen := s.WaitFor("acknowledge needs", wait)
	if strings.Contains(screen, "Acknowledge until") {
		t.Fatalf("a dialog opened for read-only:\n%s", screen)
	}
	s.SendKeys("u")
	s.WaitFor("unacknowledge needs", wait)

	var log struct {
		Requests []struct {
			Method, Path, Identity string
		}
	}
	curlJSON(t, base, "org-owner", "/api/atlas/sim/requests", &log)
	reads := 0
	for _, r := range log.Requests {
		if r.Identity != "read-only" {
			continue
		}
		if r.Method != "GET" {
			t.Errorf("read-only sent %s %s", r.Method, r.Path)
		}
		reads++
	}
	if reads == 0 {
		t.Fatal("the request log shows no request from read-only at all: the check proves nothing")
	}
	s.SendKeys("q")
	s.WaitExit(wait)
}
