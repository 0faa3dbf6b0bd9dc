package e2e

import (
	"strings"
	"testing"
	"time"
)

// The sequence of issue 15 (a), 20 times in a row, every key sent at once:
// help, esc, the palette, "backups", enter; then back to alerts.
func TestFastPaletteSequenceLosesNoKey(t *testing.T) {
	s := StartDemo(t, 120, 40, nil)
	s.WaitFor("ACK UNTIL", wait)
	for i := 0; i < 20; i++ {
		s.SendFast("?", "Escape", ":", "b", "a", "c", "k", "u", "p", "s", "Enter")
		s.WaitFor("Backups · pick a cluster", wait)
		s.SendFast("2")
		s.WaitFor("ACK UNTIL", wait)
	}
	screen := s.Capture()
	if containsAny(screen, "esc/? close", "no match; enter runs it") {
		t.Fatalf("a layer is still open:\n%s", screen)
	}
	s.SendFast("q")
	s.WaitExit(wait)
}

// Keys typed 20 ms after launch, long before the dashboard has connected,
// are kept and replayed: the palette switches to Backups.
func TestKeysTypedAtStartUpAreKept(t *testing.T) {
	s := Start(t, 120, 40, nil, "--demo", "--demo-listen", FreeLoopbackAddr(t))
	time.Sleep(20 * time.Millisecond)
	s.SendFast(":", "b", "a", "c", "k", "u", "p", "s", "Enter")
	s.WaitFor("Backups · pick a cluster", wait)
	s.SendFast("q")
	s.WaitExit(wait)
}

// Escape Escape in one write closes the palette (before, the two bytes
// were read as alt+esc: nothing closed and the next key was typed into the
// field); the next key is a pane key again.
func TestEscapeEscapeClosesThePalette(t *testing.T) {
	s := StartDemo(t, 120, 40, nil)
	s.WaitFor("ACK UNTIL", wait)
	for i := 0; i < 3; i++ {
		s.SendFast(":", "x")
		s.WaitFor("no match; enter runs it", wait)
		s.SendFast("Escape", "Escape", "3")
		s.WaitFor("Backups · pick a cluster", wait)
		s.WaitGone("no match; enter runs it", wait)
		s.SendFast("2")
		s.WaitFor("ACK UNTIL", wait)
	}
	s.SendFast("q")
	s.WaitExit(wait)
}

func containsAny(s string, subs ...string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}
