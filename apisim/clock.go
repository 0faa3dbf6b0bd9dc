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
// The control API can also jump it forward.
type scaledClock struct {
	mu     sync.Mutex
	origin time.Time // wall time when the clock started
	speed  float64
	offset time.Duration // added by Advance
}

func newScaledClock(speed float64) *scaledClock {
	if speed <= 0 {
		speed = 1
	}
	return &scaledClock{origin: time.Now(), speed: speed}
}

func (c *scaledClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	elapsed := time.Since(c.origin)
	return c.origin.Add(time.Duration(float64(elapsed)*c.speed) + c.offset).UTC()
}

func (c *scaledClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.offset += d
	c.mu.Unlock()
}
