package ui

import (
	"flag"
	"math/rand/v2"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/keymap/keytest"
)

var monkeyKeys = flag.Int("monkey", 20000, "random key presses and resizes for TestMonkey")

// TestMonkey throws random keys and resizes at the root model on a
// simulator that is slow, fails with 5xx and 429 and sends malformed
// bodies. Nothing may panic, and the program must still quit on q.
func TestMonkey(t *testing.T) {
	if testing.Short() {
		t.Skip("monkey test skipped in -short mode")
	}
	// Random keys can save an access-log export under a random name: keep
	// it out of the package directory.
	t.Chdir(t.TempDir())
	sim, err := apisim.New(apisim.Options{Seed: 7, Speed: 60, Latency: time.Millisecond,
		FaultRate: 0.15, MalformedRate: 0.1, RateLimitPerMin: 600})
	require.NoError(t, err)
	base, err := sim.Start("127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { _ = sim.Close() })
	client, err := apiclient.New(apiclient.Options{BaseURL: base, Auth: apiclient.DigestAuth("org-owner", "org-owner-secret"),
		Gate: apiclient.NewGate(nil), MaxRetries: -1, Backoff: time.Millisecond})
	require.NoError(t, err)
	m, err := New(Options{Client: client, Profile: "monkey", Theme: "dark",
		State: &ContextStore{Path: t.TempDir() + "/context.json"}})
	require.NoError(t, err)

	d := newDriver(t, m, 120, 40)
	d.Settle()
	for i := 0; i < 30 && m.phase != phaseReady; i++ { // faults may fail the start: r retries
		d.Send(keytest.Press("r"))
		d.Settle()
	}
	require.Equal(t, phaseReady, m.phase, "connected despite faults")

	keys := monkeyKeyPool()
	rng := rand.New(rand.NewPCG(20250312, uint64(*monkeyKeys)))
	start := time.Now()
	ready := 0
	for i := 0; i < *monkeyKeys; i++ {
		if m.phase == phaseReady {
			ready++
		}
		if rng.IntN(20) == 0 {
			d.Send(tea.WindowSizeMsg{Width: rng.IntN(240), Height: rng.IntN(80)})
		} else {
			d.Send(keys[rng.IntN(len(keys))])
		}
		d.Drain()
		if i%25 == 0 {
			_ = m.View()
		}
	}
	t.Logf("%d events (%d while connected) in %v; %d quits asked on the way",
		*monkeyKeys, ready, time.Since(start).Round(time.Millisecond), d.Quits)

	// Let every request still out answer, back to a normal size, close
	// whatever is open, and quit.
	d.Settle()
	d.Send(tea.WindowSizeMsg{Width: 120, Height: 40})
	for i := 0; i < 10 && m.layers.len() > 0; i++ {
		d.Send(keytest.Press("esc"))
	}
	// The random keys may have started a migration or a restore: then q asks
	// first (default No), and y quits.
	if m.hold != nil {
		// Keys held for a dialog that never came: its parked deadline, as
		// the timer would deliver it.
		d.Send(holdExpiredMsg{gen: m.hold.gen})
		d.Settle()
		for i := 0; i < 10 && m.layers.len() > 0; i++ {
			d.Send(keytest.Press("esc"))
		}
	}
	_, cmd := m.Update(keytest.Press("q"))
	if busy := m.Busy(); len(busy) > 0 {
		require.Nil(t, cmd, "q with %v running asks instead of quitting", busy)
		require.Equal(t, 1, m.layers.len(), "the quit question is open")
		_, cmd = m.Update(keytest.Press("y"))
	}
	require.NotNil(t, cmd, "q answers")
	assert.Equal(t, tea.QuitMsg{}, cmd())
}

// monkeyKeyPool is every bound key plus letters, digits, punctuation,
// editing keys and some hostile text.
func monkeyKeyPool() []tea.KeyPressMsg {
	var out []tea.KeyPressMsg
	for _, a := range keymap.Default().Actions() {
		for _, k := range a.Keys() {
			out = append(out, keytest.Press(k))
		}
	}
	for _, r := range "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:/?@!-_ .é語" {
		out = append(out, keytest.Press(string(r)))
	}
	for _, k := range []string{"enter", "esc", "tab", "shift+tab", "backspace", "delete", "left", "right", "up", "down", "home", "end", "ctrl+o", "ctrl+w", "ctrl+u"} {
		out = append(out, keytest.Press(k), keytest.Press(k)) // weight the keys that move between layers
	}
	out = append(out, tea.KeyPressMsg{Code: 0x1b, Text: "\x1b]0;pwned\x07"}, tea.KeyPressMsg{Code: 'x', Text: "\x1b[2J"})
	return out
}
