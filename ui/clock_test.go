package ui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The clock ticks every second while the screen changes, every
// clockIdleEvery once a tick's interval went by with the screen the same,
// and every second again as soon as another message comes; a tick of the
// loop that message replaced is dropped.
func TestClockSlowsWhileTheScreenIsStill(t *testing.T) {
	m := newModel(t, newFakeAPI(t, orgOwner()), nil)
	_ = m.Init() // starts the clock; its connect is not run: the screen stays "Connecting…"
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	tick := func() tea.Cmd {
		t.Helper()
		_ = m.View()
		_, cmd := m.Update(clockTickMsg{gen: m.ticks.gen})
		require.NotNil(t, cmd, "a tick of the current loop schedules the next")
		return cmd
	}

	tick()
	assert.Equal(t, time.Second, m.ticks.every, "the screen changed since the start")
	tick()
	assert.Equal(t, clockIdleEvery, m.ticks.every, "a whole second with the same screen")
	tick()
	assert.Equal(t, clockIdleEvery, m.ticks.every)

	slowGen := m.ticks.gen
	_, cmd := m.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
	require.NotNil(t, cmd)
	assert.Equal(t, time.Second, m.ticks.every, "another message: every second again at once")
	assert.Equal(t, slowGen+1, m.ticks.gen, "a new loop")
	_, cmd = m.Update(clockTickMsg{gen: slowGen})
	assert.Nil(t, cmd, "the slow loop's tick is dropped")
	assert.Equal(t, slowGen+1, m.ticks.gen)

	tick()
	assert.Equal(t, time.Second, m.ticks.every, "the resize changed the screen")
	tick()
	assert.Equal(t, clockIdleEvery, m.ticks.every)
	// The screen changes between two slow ticks: the next is a second away.
	m.Update(tea.WindowSizeMsg{Width: 110, Height: 40})
	tick()
	assert.Equal(t, time.Second, m.ticks.every)

	// A fast clock takes no new loop for every message.
	gen := m.ticks.gen
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	assert.Equal(t, gen, m.ticks.gen)
}

// Served sessions tick every ClockEvery (10 s) and never slower.
func TestClockEveryAboveTheIdleInterval(t *testing.T) {
	m := newModel(t, newFakeAPI(t, orgOwner()), func(o *Options) { o.ClockEvery = 10 * time.Second })
	_ = m.Init()
	assert.Equal(t, 10*time.Second, m.ticks.every)
	for range 3 {
		_ = m.View()
		m.Update(clockTickMsg{gen: m.ticks.gen})
		assert.Equal(t, 10*time.Second, m.ticks.every)
	}
	gen := m.ticks.gen
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	assert.Equal(t, gen, m.ticks.gen, "no faster loop to start")
}
