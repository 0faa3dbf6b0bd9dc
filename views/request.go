package views

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"
)

// RequestTimeout bounds one request a pane makes through views.Load, Get or
// Write, and one request of the root's pickers.
const RequestTimeout = 30 * time.Second

// Seq numbers a pane's requests so an answer to an older one can be dropped.
// The zero value is ready to use.
type Seq struct{ n uint64 }

// Next starts a new request and returns its number.
func (s *Seq) Next() uint64 { s.n++; return s.n }

// Latest reports whether n is the most recent request; older answers are
// stale.
func (s Seq) Latest(n uint64) bool { return n == s.n }

func taskID(pane ID, key string, seq uint64) string {
	return fmt.Sprintf("%s/%s#%d", pane, key, seq)
}

// Poller runs a pane's poll loop. Each Arm starts a new generation, so a tick
// of an earlier loop is recognised by Current and dropped: a manual refresh
// or a pane switch never leaves two loops. The zero value is stopped.
type Poller struct {
	gen   uint64
	armed bool
	pane  ID
	every time.Duration
}

// Arm schedules the next tick after d and invalidates every earlier one.
func (p *Poller) Arm(pane ID, d time.Duration) tea.Cmd { return p.ArmWith(nil, pane, d) }

// ArmWith is Arm on the given timer (a Context's Timer; nil is tea.Tick).
func (p *Poller) ArmWith(timer Timer, pane ID, d time.Duration) tea.Cmd {
	p.gen++
	p.armed, p.pane, p.every = true, pane, d
	gen := p.gen
	if timer == nil {
		timer = tea.Tick
	}
	return timer(d, func(time.Time) tea.Msg { return PollTickMsg{Pane: pane, Gen: gen} })
}

// Timer schedules a message after d, as tea.Tick does. The root uses
// tea.Tick; tests put their own in the Context to run timers on demand.
type Timer func(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd

// Interval is the delay of the last Arm.
func (p Poller) Interval() time.Duration { return p.every }

// Tick is the message the current generation's tick carries. Tests on a
// manual clock deliver it instead of waiting for the timer; Current drops
// it when the loop is stopped.
func (p Poller) Tick() PollTickMsg { return PollTickMsg{Pane: p.pane, Gen: p.gen} }

// Stop invalidates the pending tick, if any.
func (p *Poller) Stop() {
	p.gen++
	p.armed = false
}

// Armed reports whether a tick of the current generation is pending.
func (p Poller) Armed() bool { return p.armed }

// Current reports whether the tick belongs to the live loop. A pane that
// gets a current tick disarms (the tick is consumed) and re-arms after its
// fetch.
func (p *Poller) Current(msg PollTickMsg) bool {
	if !p.armed || msg.Gen != p.gen {
		return false
	}
	p.armed = false
	return true
}
