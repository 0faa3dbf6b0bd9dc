package alertkit

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
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

// A bad date names the form the field's placeholder shows, not Go's
// layout; parsing is unchanged.
func TestBadDateNamesTheFormThePlaceholderShows(t *testing.T) {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	_, err := ParseUntil(UntilCustom, "next tuesday", now)
	require.Error(t, err)
	assert.Equal(t, `"next tuesday" is not a date-time: use YYYY-MM-DD HH:MM (local) or RFC 3339`, err.Error())
	got, err := ParseUntil(UntilCustom, "2025-06-01 14:30", now)
	require.NoError(t, err)
	assert.Equal(t, now.Add(150*time.Minute), got)
}

// A kept draft is offered only to a dialog on the very same alerts.
func TestDraftIsOfferedOnlyToTheSameAlerts(t *testing.T) {
	d := NewDraft([]string{"b", "a"}, Until1h, "", "shorten")
	assert.Equal(t, d, d.For([]string{"a", "b"}, nil), "the same alerts, any order")
	assert.Equal(t, d, d.For([]string{"a"}, []string{"b"}), "the listed and hidden together")
	assert.Equal(t, Until1h, d.For([]string{"a", "b"}, nil).Until, "1h stays 1h")
	assert.Empty(t, d.For([]string{"c"}, nil).IDs, "another alert: a fresh dialog")
	assert.Empty(t, d.For([]string{"a"}, nil).Comment, "fewer alerts: a fresh dialog")
	assert.Empty(t, d.For([]string{"a", "b", "c"}, nil).Comment, "more alerts: a fresh dialog")
	assert.Equal(t, []string{"b"}, d.Only([]string{"b"}).IDs, "narrowed to the failed ones")
	assert.Empty(t, d.Only(nil).For(nil, nil).Comment)
}

// A batch write's task ends failed, with a short reason, when any failed.
func TestBatchErrSaysHowManyFailed(t *testing.T) {
	unavailable := &apiclient.Error{Status: 503, ErrorCode: "SERVICE_UNAVAILABLE", Detail: "try later"}
	assert.NoError(t, BatchErr(2, []error{nil, nil}))
	assert.EqualError(t, BatchErr(1, []error{unavailable}), "503 SERVICE_UNAVAILABLE")
	assert.EqualError(t, BatchErr(2, []error{nil, unavailable}), "1 of 2 failed: 503 SERVICE_UNAVAILABLE")
	assert.EqualError(t, BatchErr(3, []error{unavailable, nil, unavailable}), "2 of 3 failed: 503 SERVICE_UNAVAILABLE")
}

// The dialog's payload says what it acts on: the hidden rows only when
// included; the yes to "Shorten?" sends the until asked about, keeps the
// names and the values as chosen, and refuses a time gone by.
func TestAckPayloadCarriesTargetsAndTheAgreedUntil(t *testing.T) {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	ack := Ack{Listed: []string{"a", "b"}, Hidden: []string{"c"}, Names: map[string]string{"a": "HOST_DOWN on c0"}}
	values := components.FormValues{"until": Until1h, "comment": "on it", "hidden": "false"}
	assert.Equal(t, []string{"a", "b"}, ack.Targets(values))
	values["hidden"] = "true"
	assert.Equal(t, []string{"a", "b", "c"}, ack.Targets(values))

	msg := views.ActionMsg{Name: "x.ack", Confirmed: true, Form: "ack", Values: values, Payload: ack}
	until := now.Add(30 * time.Minute)
	yes := ShortenYes(msg, ack.Targets(values), until)
	assert.False(t, yes.Confirmed)
	assert.Equal(t, values, yes.Values, "1h stays 1h")
	got, ok := AckOf(yes)
	require.True(t, ok)
	assert.Equal(t, []string{"a", "b", "c"}, got.Targets(yes.Values), "hidden ones named once")
	assert.Equal(t, ack.Names, got.Names)
	req, err := got.Request(yes.Values, now)
	require.NoError(t, err)
	assert.Equal(t, until, *req.AcknowledgedUntil)
	assert.Equal(t, "on it", req.AcknowledgementComment)
	_, err = got.Request(yes.Values, until.Add(time.Second))
	assert.ErrorContains(t, err, "must be in the future")

	_, ok = AckOf(views.ActionMsg{Name: "x.ack"})
	assert.False(t, ok, "no payload")
}
