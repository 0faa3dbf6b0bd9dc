package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// The dashboard's clock: a tick that only asks for a frame, so that the
// times on screen ("updated 12s ago", "next refresh in 8 s", a detail's
// "(3m ago)") move. Each tick wakes the process and draws the screen again
// (about a millisecond of CPU with the wake-up), so the clock slows down
// while nothing on screen changes:
//
//   - every ClockEvery (one second by default) while the screen changed
//     over the last interval (a seconds count is on it, or anything else
//     moved);
//   - every clockIdleEvery once a whole interval went by with the screen
//     the same (only minutes or hours on it, or no time at all), so a
//     minute count ("updated 3m ago") moves at most that late;
//   - back to every ClockEvery at once when any other message comes (a
//     key, an answer), which may put a seconds count on screen.
//
// Whether the screen changed is the last View's text against the one the
// previous tick found: the root keeps its screen while nothing changes, so
// this is a compare of the same string.
const clockIdleEvery = 5 * time.Second

// clockTickMsg is one tick of the clock's loop gen; a tick of a loop
// replaced by a faster one is dropped.
type clockTickMsg struct{ gen int }

// clockState is the clock's loop and what it last saw.
type clockState struct {
	gen   int           // the loop whose ticks count
	every time.Duration // the loop's interval
	slow  bool          // every is the idle interval
	shown string        // the screen the last View drew
	seen  string        // the screen as the last tick found it
}

// fastEvery and idleEvery are the clock's intervals for these options.
func (m *Model) fastEvery() time.Duration { return max(m.opts.ClockEvery, time.Second) }
func (m *Model) idleEvery() time.Duration { return max(m.fastEvery(), clockIdleEvery) }

// startClock starts a new loop of ticks (the one a tick of an older loop
// no longer continues).
func (m *Model) startClock(slow bool) tea.Cmd {
	m.ticks.gen++
	m.ticks.slow = slow && m.idleEvery() > m.fastEvery() // else no loop to replace
	m.ticks.every = m.fastEvery()
	if slow {
		m.ticks.every = m.idleEvery()
	}
	gen := m.ticks.gen
	return tea.Tick(m.ticks.every, func(time.Time) tea.Msg { return clockTickMsg{gen: gen} })
}

// clockTicked continues the loop, at the idle interval when the screen is
// what the last tick found.
func (m *Model) clockTicked(msg clockTickMsg) tea.Cmd {
	if msg.gen != m.ticks.gen {
		return nil
	}
	still := m.ticks.shown == m.ticks.seen
	m.ticks.seen = m.ticks.shown
	return m.startClock(still)
}

// wakeClock puts a slowed clock back to its fast interval: any message but
// its own tick may have put a seconds count on screen.
func (m *Model) wakeClock() tea.Cmd {
	if !m.ticks.slow {
		return nil
	}
	return m.startClock(false)
}
