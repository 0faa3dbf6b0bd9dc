package apiclient

import (
	"net/http"
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
// ours as the middle of the round trip.
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
}
