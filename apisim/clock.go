package apisim

import (
	"sync"
	"time"
)

// Clock is the server's notion of now. Every state machine, nonce, token and
// sunset check reads it, so a test can freeze and advance time.
type Clock interface{ Now() time.Time }

// advancer is a clock the control API can move forward.
type advancer interface{ Advance(d time.Duration) }

// ManualClock only moves when told to; for tests.
type ManualClock struct {
	mu sync.Mutex
	t  time.Time
}

// NewManualClock returns a clock stopped at t.
func NewManualClock(t time.Time) *ManualClock { return &ManualClock{t: t.UTC()} }

// Now returns the clock's time.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock forward by d (backwards if d is negative).
func (c *ManualClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// Set moves the clock to t.
func (c *ManualClock) Set(t time.Time) {
	c.mu.Lock()
	c.t = t.UTC()
	c.mu.Unlock()
}

// scaledClock runs speed times faster than the wall clock from the moment it
// was made, so a demo can watch a two-minute restore finish in twelve seconds.
// The control API can also jump it forward. A world loaded from a state file
// resumes it where it was saved (resume), so time-driven states (a
// migration's sync, a restore) go on from where they were instead of
// starting over at the wall clock's reading.
type scaledClock struct {
	mu     sync.Mutex
	wall   func() time.Time // the host's clock: time.Now outside tests
	origin time.Time        // wall time when the clock started or resumed
	start  time.Time        // the clock's reading at origin
	speed  float64
	offset time.Duration // added by Advance
}

func newScaledClock(speed float64) *scaledClock { return newScaledClockOn(time.Now, speed) }

// newScaledClockOn is a scaled clock over the wall clock wall; it reads
// wall's time at first.
func newScaledClockOn(wall func() time.Time, speed float64) *scaledClock {
	if speed <= 0 {
		speed = 1
	}
	now := wall()
	return &scaledClock{wall: wall, origin: now, start: now, speed: speed}
}

func (c *scaledClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	elapsed := c.wall().Sub(c.origin)
	return c.start.Add(time.Duration(float64(elapsed)*c.speed) + c.offset).UTC()
}

func (c *scaledClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.offset += d
	c.mu.Unlock()
}

// resumer is a clock a loaded state can set: the server's own scaled clock,
// never a Clock the caller passed in Options.
type resumer interface{ resume(t time.Time) }

// resume makes the clock read t now and run on from there at its speed:
// the world goes on from the moment it was saved, whatever the wall clock
// says (the simulator was not running in between).
func (c *scaledClock) resume(t time.Time) {
	c.mu.Lock()
	c.origin, c.start, c.offset = c.wall(), t.UTC(), 0
	c.mu.Unlock()
}
