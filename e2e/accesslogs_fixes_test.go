package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAccessLogListKeysAnswer: the tester's path. A cluster viewed in the
// pane, esc back to its cluster list: there S, w, t, F and s each say why
// they do nothing (they are left out of the footer and greyed in help),
// s writes nothing, and the next cluster opened comes up as it always
// does (since 15m, wrap off, UTC, every record), not with keys pressed
// out of sight.
func TestAccessLogListKeysAnswer(t *testing.T) {
	state := t.TempDir()
	s := StartDemo(t, 150, 36, []string{"XDG_STATE_HOME=" + state}, "--demo-role", "monitoring-admin")
	s.WaitFor("2 Alerts", wait)
	s.SendKeys("5")
	s.WaitFor("no cluster selected", wait)
	s.WaitFor("payments-legacy", wait)
	s.SendKeys("Enter")
	s.WaitFor("Access log · cluster payments-legacy", wait)
	waitLines(t, s, 0)
	s.SendKeys("Escape")
	screen := s.WaitFor("no cluster selected", wait)

	footer := lastLines(screen, 2)
	for _, part := range []string{"w wrap", "t local/UTC", "F failures", "s save", "f follow"} {
		if strings.Contains(footer, part) {
			t.Errorf("the footer offers %q on the cluster list:\n%s", part, footer)
		}
	}
	for _, k := range []struct{ key, desc string }{
		{"S", "since 5m/15m/1h/24h"}, {"w", "wrap"}, {"t", "local/UTC"}, {"F", "failures only"}, {"s", "save to file"},
	} {
		s.SendKeys(k.key)
		s.WaitFor(k.desc+": pick a cluster first (enter on the list, or @)", wait)
	}
	if strings.Contains(s.Capture(), "Save access log") {
		t.Fatal("s on the cluster list opened the save dialog")
	}
	s.SendKeys("?")
	s.WaitFor("wrap — pick a cluster first", wait)
	s.SendKeys("Escape")
	s.WaitGone("wrap — pick a cluster first", wait)

	s.SendKeys("Enter") // payments-legacy again
	s.WaitFor("Access log · cluster payments-legacy · since 15m", wait)
	screen = s.WaitFor("following | wrap off | UTC", wait)
	if strings.Contains(screen, "| failures only") {
		t.Errorf("F pressed on the list filters the cluster opened:\n%s", screen)
	}
	var written []string
	_ = filepath.WalkDir(state, func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".jsonl") {
			written = append(written, path)
		}
		return nil
	})
	if len(written) > 0 {
		t.Errorf("s on the cluster list wrote %v", written)
	}
	s.SendKeys("q")
	s.WaitExit(wait)
}

// lastLines is the last n non-blank lines of a screen.
func lastLines(screen string, n int) string {
	var out []string
	lines := strings.Split(strings.TrimRight(screen, "\n "), "\n")
	for i := len(lines) - 1; i >= 0 && len(out) < n; i-- {
		if strings.TrimSpace(lines[i]) != "" {
			out = append([]string{lines[i]}, out...)
		}
	}
	return strings.Join(out, "\n")
}
