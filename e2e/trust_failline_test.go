package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// Issue 24 case 9: an acknowledgement sent while the server is away fails
// (nothing reaches it); its failure line is readable, and once the server
// answers the polls again it leaves the footer by itself, on every pane,
// rather than staying until some later task ends.
func TestFailedWriteLineGoesOnceTheServerIsBack(t *testing.T) {
	RequireTmux(t)
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte("[poll]\nalerts = \"5s\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, size := range [][2]int{{80, 24}, {200, 50}} {
		h := StartSimHost(t, apisim.Options{})
		s := StartAgainst(t, h, size[0], size[1], "--config", cfg, "--project", apisim.DemoPaymentsID)
		s.WaitFor("open (", wait)
		s.SendFast("j", "a") // the second alert is not acknowledged: no question
		s.WaitFor("Acknowledge until", wait)
		s.SendFast("gone-e2e")
		s.WaitFor("gone-e2e", wait)
		h.Stop()
		s.SendFast("Enter")
		s.WaitFor("✗ acknowledging", 45*time.Second)
		s.SendFast("Escape")
		s.WaitGone("Acknowledge until", wait)
		if !strings.Contains(s.Capture(), "✗ acknowledging") {
			t.Fatalf("%v: no failure line for the write:\n%s", size, s.Capture())
		}
		if n := len(h.Hits("PATCH", "/alerts/")); n != 0 {
			t.Fatalf("%v: %d PATCHes reached the server while it was away", size, n)
		}
		h.Restart()
		up := time.Now()
		s.WaitGone("✗ acknowledging", 60*time.Second)
		t.Logf("%v: the failure line left %v after the server came back", size, time.Since(up).Round(100*time.Millisecond))
		if n := len(h.Hits("GET", "/alerts")); n == 0 {
			t.Fatalf("%v: gone without a read from the server", size)
		}
		s.SendFast("q")
		s.WaitExit(wait)
	}
}
