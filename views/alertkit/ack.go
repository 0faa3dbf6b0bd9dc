package alertkit

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// What an acknowledgement does once the dialog is answered: the payload
// it hands back, the question before shortening one, the read-back of a
// lost answer, the choices kept for a retry and the summary.

// Verdict is what the read-back of an acknowledgement whose answer was
// lost settled.
type Verdict struct {
	// Alert is the alert as read back (nil when the read failed).
	Alert *apiclient.Alert
	// Err is nil when the acknowledgement holds; else it was not applied,
	// or (Unsettled) the read failed too and the outcome is still unknown.
	Err error
	// Unsettled: neither pane sends this alert again until a refresh has
	// shown what the server holds (see Unsettled).
	Unsettled bool
}

// Verify reads back an alert whose acknowledgement req was sent and its
// answer lost (the write is never sent again) and settles it.
func Verify(ctx context.Context, c *apiclient.Client, groupID, alertID string, req apiclient.AcknowledgeRequest) Verdict {
	// A read: the client retries it (under faults the check itself may
	// lose its answer).
	a, ok, err := c.Alerts().VerifyAcknowledge(ctx, groupID, alertID, req)
	switch {
	case err != nil:
		return Verdict{Err: views.OutcomeStillUnknown(views.ErrText(err)), Unsettled: true}
	case ok:
		return Verdict{Alert: a}
	}
	return Verdict{Alert: a, Err: errors.New(views.NotApplied)}
}

// Unsettled are the alerts whose acknowledgement was sent, its answer
// lost and its read-back failed too: not sent again until a refresh has
// shown what the server holds.
type Unsettled map[string]bool

// Add records one.
func (u *Unsettled) Add(id string) {
	if *u == nil {
		*u = Unsettled{}
	}
	(*u)[id] = true
}

// Refuse is the error that refuses sending ids again when one is
// unsettled (name names it), else nil.
func (u Unsettled) Refuse(ids []string, name func(id string) string) error {
	for _, id := range ids {
		if u[id] {
			return fmt.Errorf("the last acknowledgement of %s was sent and its outcome is unknown: not sent again; esc, then r shows what the server holds", name(id))
		}
	}
	return nil
}

// RoundDuration says how long d is, to the minute, as an operator reads
// it: "35m", "1h30m", "23h" (hours up to two days, as ages read), then
// days and hours: "3d 4h", "3650d".
func RoundDuration(d time.Duration) string {
	d = d.Round(time.Minute)
	if d < time.Minute {
		return "less than a minute"
	}
	if d >= 48*time.Hour {
		d = d.Round(time.Hour)
		days, hours := int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour)
		if hours == 0 {
			return fmt.Sprintf("%dd", days)
		}
		return fmt.Sprintf("%dd %dh", days, hours)
	}
	h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
	switch {
	case h == 0:
		return fmt.Sprintf("%dm", m)
	case m == 0:
		return fmt.Sprintf("%dh", h)
	}
	return fmt.Sprintf("%dh%dm", h, m)
}

// ShortenTitle is the question asked before an acknowledgement is
// shortened; its default is No.
const ShortenTitle = "Shorten an acknowledgement?"

// Shortening is what acknowledging until a time would shorten.
type Shortening struct {
	// IDs are the targets acknowledged until later than asked.
	IDs []string
	// Was is the current end of the first of them.
	Was time.Time
	// Most is the longest cut.
	Most time.Duration
}

// Shortens finds the targets whose acknowledgement, running at now, ends
// after until; ackedUntil gives a target's current end (false: it is not
// acknowledged, or not known to be).
func Shortens(ids []string, until, now time.Time, ackedUntil func(id string) (time.Time, bool)) Shortening {
	var s Shortening
	for _, id := range ids {
		end, ok := ackedUntil(id)
		if !ok || !end.After(now) || !end.After(until) {
			continue
		}
		if len(s.IDs) == 0 {
			s.Was = end
		}
		s.IDs = append(s.IDs, id)
		s.Most = max(s.Most, end.Sub(until))
	}
	return s
}

// Question says what shortening does: which (name names s.IDs), by how
// much, to when (when says a time), that the other targets of the total
// (if any) are acknowledged as chosen, and that No sends nothing.
func (s Shortening) Question(total int, name string, until time.Time, when func(time.Time) string) string {
	others := ""
	switch n := total - len(s.IDs); {
	case n == 1:
		others = "The other alert is acknowledged as chosen. "
	case n > 1:
		others = fmt.Sprintf("The other %d alerts are acknowledged as chosen. ", n)
	}
	if len(s.IDs) == 1 {
		return fmt.Sprintf("%s is acknowledged until %s: this shortens it by %s (to %s). %sNo keeps it as it is and sends nothing.",
			name, when(s.Was), RoundDuration(s.Most), when(until), others)
	}
	return fmt.Sprintf("%s are already acknowledged until later: this shortens them by up to %s (to %s). %sNo keeps every acknowledgement as it is and sends nothing.",
		name, RoundDuration(s.Most), when(until), others)
}

// Draft is an acknowledgement dialog's choices kept after it did not go
// through (refused, asked about, failed): offered again only to a dialog
// on the very same alerts, as the user chose them ("1h" stays "1h").
type Draft struct {
	// IDs are the alerts it was for, sorted.
	IDs                []string
	Until, At, Comment string
}

// NewDraft keeps the choices for ids.
func NewDraft(ids []string, until, at, comment string) Draft {
	return Draft{IDs: sortedSet(ids), Until: until, At: at, Comment: comment}
}

// For is the draft when a dialog acts on exactly its alerts (the listed
// ones, or the listed and hidden ones together), else an empty one: a
// fresh dialog.
func (d Draft) For(listed, hidden []string) Draft {
	if len(d.IDs) == 0 {
		return Draft{}
	}
	if slices.Equal(d.IDs, sortedSet(listed)) || slices.Equal(d.IDs, sortedSet(append(slices.Clone(listed), hidden...))) {
		return d
	}
	return Draft{}
}

// Pinned is the draft after some of its alerts were acknowledged until
// until (nil: forever, nothing to pin): the retry of the others lands on
// the same window, not a new "1h" from the retry (issue 14, case 3).
func (d Draft) Pinned(until *time.Time) Draft {
	if until != nil && len(d.IDs) > 0 {
		d.Until, d.At = UntilCustom, until.UTC().Format(time.RFC3339)
	}
	return d
}

// Only narrows the draft to ids (the ones that failed); empty when none.
func (d Draft) Only(ids []string) Draft {
	if len(ids) == 0 {
		return Draft{}
	}
	d.IDs = sortedSet(ids)
	return d
}

func sortedSet(ids []string) []string {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}

// Tally is a bulk write's summary for its toast, the same on both panes:
// "acknowledged 2 of 3 alerts; 1 failed (still marked: a retries)".
func Tally(verb string, n, failed int) string {
	text := fmt.Sprintf("%s %d of %d %s", verb, n-failed, n, Plural(n, "alert", "alerts"))
	if failed > 0 {
		text += fmt.Sprintf("; %d failed (still marked: a retries)", failed)
	}
	return text
}

// BatchErr is a batch write's outcome for the task line: nil when none of
// the n failed, else a short reason: the first failure's status and code
// ("503 SERVICE_UNAVAILABLE"; "answer lost" when the write may have been
// applied), with "k of n failed: " before it when n > 1.
func BatchErr(n int, errs []error) error {
	var failed []error
	for _, err := range errs {
		if err != nil {
			failed = append(failed, err)
		}
	}
	if len(failed) == 0 {
		return nil
	}
	reason := views.ErrorCode(failed[0])
	if _, ok := apiclient.AsOutcomeUnknown(failed[0]); ok {
		reason = "answer lost"
	}
	if n > 1 {
		reason = fmt.Sprintf("%d of %d failed: %s", len(failed), n, reason)
	}
	return errors.New(reason)
}

// Ack is what an acknowledgement (or unacknowledgement) dialog hands back
// in its action's Payload: the targets it listed, and on the yes to
// "Shorten?" the until the user agreed to.
type Ack struct {
	// Listed are the targets the dialog listed; Hidden the marked ones the
	// filter hides, acted on only when the user included them.
	Listed, Hidden []string
	// Names, when set, are the targets as the dialog named them, for one
	// that is gone by the time the answer comes.
	Names map[string]string
	// Agreed, on the yes to "Shorten?", is the acknowledgedUntil the
	// question was about: sent as it is, never asked about again.
	Agreed *time.Time
}

// AckOf is the Ack msg carries; ok is false when it carries none.
func AckOf(msg views.ActionMsg) (a Ack, ok bool) {
	a, ok = msg.Payload.(Ack)
	return a, ok
}

// Targets are the targets the submitted values act on: the listed ones,
// and the hidden ones when the user included them.
func (a Ack) Targets(v components.FormValues) []string {
	out := slices.Clone(a.Listed)
	if v.Bool("hidden") {
		out = append(out, a.Hidden...)
	}
	return out
}

// Request is the acknowledgement the submitted values ask for (Request),
// or the one the user agreed to shorten to, still in the future at now.
func (a Ack) Request(v components.FormValues, now time.Time) (apiclient.AcknowledgeRequest, error) {
	if a.Agreed == nil {
		return Request(v, now)
	}
	if !a.Agreed.After(now) {
		return apiclient.AcknowledgeRequest{}, errors.New("must be in the future")
	}
	until := *a.Agreed
	req := apiclient.AcknowledgeRequest{AcknowledgedUntil: &until, AcknowledgementComment: v["comment"]}
	return req, req.Validate()
}

// ShortenYes is the action the "Shorten?" question (ShortenTitle) hands
// back on yes: the submitted dialog's msg again, its values as the user
// chose them ("1h" stays "1h" in a draft), acting on targets with until
// agreed.
func ShortenYes(msg views.ActionMsg, targets []string, until time.Time) views.ActionMsg {
	yes := msg
	yes.Confirmed = false // the root sets it on yes
	was, _ := AckOf(msg)
	yes.Payload = Ack{Listed: slices.Clone(targets), Names: was.Names, Agreed: &until}
	return yes
}
