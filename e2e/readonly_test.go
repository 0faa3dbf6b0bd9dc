package e2e

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/ui"
)

// paneKeys are every pane's action keys and the answers a dialog would take,
// pressed in every pane; q and ctrl+c are left out (they quit).
var paneKeys = []string{"Space", "a", "A", "u", "s", "c", "t", "d", "n", "N", "e", "E", "x", "R", "b",
	"z", "l", "v", "m", "D", "C", "P", "Tab", "Enter", "y", "Enter"}

// hammer presses every action key in every pane, each followed by y and
// Enter, then closes what opened.
func hammer(s *Session) {
	for i := range ui.Panes() {
		s.SendKeys(strconv.Itoa(i + 1))
		for _, k := range paneKeys {
			s.SendKeys(k, "y", "Enter")
		}
		s.SendKeys("Escape", "Escape")
	}
	s.SendKeys("2")
}

// noWrites fails when any write reached the demo's apisim, after giving
// what the keys started time to arrive.
func noWrites(t *testing.T, s *Session) {
	t.Helper()
	time.Sleep(2 * time.Second)
	if w := s.SimWrites(""); len(w) != 0 {
		t.Fatalf("writes reached the server in read-only mode: %v", w)
	}
	if !s.Alive() {
		t.Fatalf("the program ended: %s", s.Stderr())
	}
}

// TestReadOnlyFlagIsALockOnTheDemo: started with --read-only, :ro says the
// mode stays on and why, the lifting word does nothing, and no key sends a
// write to the simulator.
func TestReadOnlyFlagIsALockOnTheDemo(t *testing.T) {
	s := StartDemo(t, 160, 40, []string{"EDITOR=true", "VISUAL="}, "--read-only")
	s.WaitFor("▸  OPEN", wait)
	s.WaitFor("READ-ONLY", wait)
	s.SendKeys(":", "ro", "Enter")
	s.WaitFor("read-only mode stays on for this session: started with --read-only", wait)
	s.SendKeys("read-write", "Enter", "Escape", "Escape")
	s.SendKeys(":", "ro", "Enter", "read-write", "Enter", "Escape", "Escape")
	hammer(s)
	s.WaitFor("READ-ONLY", wait)
	noWrites(t, s)
}

// TestReadOnlyFromThePaletteOnTheDemo: :ro turns it on; asking to lift it
// and answering anything but the typed word keeps it on; no key sends a
// write.
func TestReadOnlyFromThePaletteOnTheDemo(t *testing.T) {
	s := StartDemo(t, 160, 40, []string{"EDITOR=true", "VISUAL="})
	s.WaitFor("▸  OPEN", wait)
	s.SendKeys(":", "ro", "Enter")
	s.WaitFor("READ-ONLY", wait)
	for _, answer := range []string{"y", "Enter", "rw"} {
		s.SendKeys(":", "ro", "Enter")
		s.WaitFor("Leave read-only mode?", wait)
		s.SendKeys(answer, "Enter", "Escape", "Escape")
		s.WaitGone("Leave read-only mode?", wait)
	}
	hammer(s)
	screen := s.WaitFor("READ-ONLY", wait)
	if strings.Contains(screen, "read-only mode off") {
		t.Fatalf("read-only mode was lifted:\n%s", screen)
	}
	noWrites(t, s)
}
