package alertkit

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// The question names the other targets as they are: none, the one, or
// how many.
func TestShorteningQuestionCountsTheOthers(t *testing.T) {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	until := now.Add(time.Hour)
	when := func(t time.Time) string { return t.Format("15:04") }
	one := Shortening{IDs: []string{"a"}, Was: now.Add(24 * time.Hour), Most: 90 * time.Minute}
	two := Shortening{IDs: []string{"a", "b"}, Was: now.Add(24 * time.Hour), Most: 90 * time.Minute}
	for _, c := range []struct {
		s     Shortening
		total int
		name  string
		want  string
	}{
		{one, 1, "HOST_DOWN on c0", "HOST_DOWN on c0 is acknowledged until 12:00: this shortens it by 1h30m (to 13:00). No keeps it as it is and sends nothing."},
		{one, 2, "HOST_DOWN on c0", "HOST_DOWN on c0 is acknowledged until 12:00: this shortens it by 1h30m (to 13:00). The other alert is acknowledged as chosen. No keeps it as it is and sends nothing."},
		{one, 4, "HOST_DOWN on c0", "HOST_DOWN on c0 is acknowledged until 12:00: this shortens it by 1h30m (to 13:00). The other 3 alerts are acknowledged as chosen. No keeps it as it is and sends nothing."},
		{two, 2, "2 alerts", "2 alerts are already acknowledged until later: this shortens them by up to 1h30m (to 13:00). No keeps every acknowledgement as it is and sends nothing."},
		{two, 3, "2 alerts", "2 alerts are already acknowledged until later: this shortens them by up to 1h30m (to 13:00). The other alert is acknowledged as chosen. No keeps every acknowledgement as it is and sends nothing."},
		{two, 5, "2 alerts", "2 alerts are already acknowledged until later: this shortens them by up to 1h30m (to 13:00). The other 3 alerts are acknowledged as chosen. No keeps every acknowledgement as it is and sends nothing."},
	} {
		assert.Equal(t, c.want, c.s.Question(c.total, c.name, until, when), "%d of %d", len(c.s.IDs), c.total)
	}
}

func TestRoundDurationReadsAsAnOperatorSaysIt(t *testing.T) {
	for d, want := range map[time.Duration]string{
		20 * time.Second:                               "less than a minute",
		35 * time.Minute:                               "35m",
		90*time.Minute + 20*time.Second:                "1h30m",
		23 * time.Hour:                                 "23h",
		24*time.Hour + 59*time.Minute:                  "24h59m",
		47*time.Hour + 59*time.Minute + 40*time.Second: "2d",
		3*24*time.Hour + 4*time.Hour + 10*time.Minute:  "3d 4h",
		3650 * 24 * time.Hour:                          "3650d",
	} {
		assert.Equal(t, want, RoundDuration(d), "%v", d)
	}
}
