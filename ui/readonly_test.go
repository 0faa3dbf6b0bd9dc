package ui

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// palette runs one `:` command.
func palette(d *driver, cmd string) {
	d.Press(":")
	d.Type(cmd)
	d.Press("enter")
	d.Settle()
}

// Read-only set at start is a lock: `:ro`, typed as often as one likes and
// followed by the lifting word, leaves it on, says why on screen, and no key
// path sends a write.
func TestReadOnlyFromStartCannotBeLifted(t *testing.T) {
	api := newFakeAPI(t, orgOwner())
	m := newModel(t, api, func(o *Options) {
		o.ReadOnly, o.ReadOnlyBy = true, "started with --read-only"
		o.Panes = recPanes(true, nil)
	})
	d := newDriver(t, m, 120, 40)
	d.Settle()
	require.Equal(t, phaseReady, m.phase)

	for range 2 {
		palette(d, "ro")
		assert.True(t, m.gate.ReadOnly())
		assert.Equal(t, 0, m.layers.len(), "no way out is even offered")
		assert.Contains(t, d.Screen(), "read-only mode stays on for this session: started with --read-only")
		d.Type(liftReadOnlyWord)
		d.Press("enter")
		d.Settle()
		assert.True(t, m.gate.ReadOnly())
	}
	assert.Contains(t, d.Screen(), "READ-ONLY")
	driveEveryActionKey(t, d)
	assert.True(t, m.gate.ReadOnly())
	assert.Zero(t, api.mutations.Load(), "mutating requests: %v", api.mutated)
}

// Read-only turned on in the session is lifted only by typing the word;
// anything else keeps it on.
func TestReadOnlyFromTheSessionIsLiftedOnlyByTypingTheWord(t *testing.T) {
	api := newFakeAPI(t, orgOwner())
	m := newModel(t, api, func(o *Options) { o.Panes = recPanes(true, nil) })
	d := newDriver(t, m, 120, 40)
	d.Settle()
	require.False(t, m.gate.ReadOnly())

	palette(d, "ro")
	require.True(t, m.gate.ReadOnly())
	assert.Contains(t, d.Screen(), "read-only mode on")
	assert.True(t, m.ctx.ReadOnly, "the panes are told")

	// :ro again asks; y, enter or a wrong word do not lift it.
	for _, answer := range [][]string{{"y"}, {"enter"}, {"r", "w", "enter"}, {"esc"}} {
		palette(d, "ro")
		require.Equal(t, 1, m.layers.len(), "a typed confirmation opens")
		assert.Contains(t, d.Screen(), "Leave read-only mode?")
		d.Press(answer...)
		d.Settle()
		for m.layers.len() > 0 {
			d.Press("esc")
		}
		assert.True(t, m.gate.ReadOnly(), "after %v", answer)
	}
	driveEveryActionKey(t, d)
	assert.Zero(t, api.mutations.Load(), "mutating requests: %v", api.mutated)

	palette(d, "ro")
	d.Type(liftReadOnlyWord)
	d.Press("enter")
	d.Settle()
	assert.False(t, m.gate.ReadOnly())
	assert.False(t, m.ctx.ReadOnly)
	assert.Contains(t, d.Screen(), "read-only mode off")
}
