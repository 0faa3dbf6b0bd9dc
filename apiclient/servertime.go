package apiclient

import (
	"net/http"
	"sync"
	"time"
)

// The server judges relative times ("acknowledge until now+1h", expirations,
// countdowns) by its own clock. The client tracks that clock from each
// answer's Date header, so a skewed laptop or a simulator running ahead
// cannot turn "in an hour" into "in the past".

// Now is the server-judged current time: our clock plus the skew measured
// from the latest answer's Date header (our clock until an answer came).
func (c *Client) Now() time.Time { return time.Now().Add(time.Duration(c.skew.Load())) }

// ClockSkew is the server's clock minus ours, as last measured.
func (c *Client) ClockSkew() time.Duration { return time.Duration(c.skew.Load()) }

// observeDate records the skew from a Date header. The header has whole
// seconds, so the server's time is taken as the middle of that second, and
// ours as the middle of the round trip. It also keeps the header with the
// moment the answer arrived, for SentFloor.
func (c *Client) observeDate(date string, start, end time.Time) {
	if date == "" {
		return
	}
	t, err := http.ParseTime(date)
	if err != nil {
		return
	}
	server := t.Add(500 * time.Millisecond)
	local := start.Add(end.Sub(start) / 2)
	c.skew.Store(int64(server.Sub(local)))
	c.lastDate.observe(t, end)
}

// lastDate is the newest Date header and the local moment (with its
// monotonic reading) its answer arrived.
type lastDate struct {
	mu      sync.Mutex
	date    time.Time
	arrived time.Time
}

func (d *lastDate) observe(date, arrived time.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.arrived.IsZero() || !arrived.Before(d.arrived) {
		d.date, d.arrived = date, arrived
	}
}

// SentFloor is a server time no later than the server's clock now: the
// newest Date header plus the time passed here since its answer arrived.
// The header was written before that answer left the server, and a server
// clock runs no slower than ours (a simulator's runs faster), so a write
// sent now is applied no earlier than this. A read-back matches created
// resources against it (OutcomeUnknownError.Sent): it is taken when the
// request leaves, so what the clock did while the answer was awaited (a
// fast clock, a held answer) cannot move it. Before any answer it is zero
// (nothing to go by: a read-back then matches by content alone).
func (c *Client) SentFloor() time.Time {
	d := &c.lastDate
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.arrived.IsZero() {
		return time.Time{}
	}
	return d.date.Add(time.Since(d.arrived))
}
