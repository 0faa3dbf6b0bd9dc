package alertkit

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
)

// The acknowledgement dialog: its fields, the until choices and the rules
// a value must meet, and how it lists what it acts on.

// The choices of the ack dialog's until field. Forever is 100 years ahead,
// as the cloud's CLI does it.
const (
	Until1h      = "1h"
	Until4h      = "4h"
	Until24h     = "24h"
	UntilCustom  = "until…"
	UntilForever = "forever"
)

// UntilChoices are the until field's choices, in order.
var UntilChoices = []string{Until1h, Until4h, Until24h, UntilCustom, UntilForever}

// CustomLayout is the local date-time form the custom until accepts
// besides RFC 3339; CustomForm is how the dialog spells it to the user.
const (
	CustomLayout = "2006-01-02 15:04"
	CustomForm   = "YYYY-MM-DD HH:MM"
)

// ParseUntil turns the dialog's values into acknowledgedUntil.
func ParseUntil(choice, custom string, now time.Time) (time.Time, error) {
	switch choice {
	case Until1h:
		return now.Add(time.Hour), nil
	case Until4h:
		return now.Add(4 * time.Hour), nil
	case Until24h:
		return now.Add(24 * time.Hour), nil
	case UntilForever:
		return *apiclient.AckForever(now), nil
	case UntilCustom:
		custom = strings.TrimSpace(custom)
		if custom == "" {
			return time.Time{}, errors.New("type a date and time, e.g. " + now.Add(2*time.Hour).In(now.Location()).Format(CustomLayout))
		}
		t, err := time.Parse(time.RFC3339, custom)
		if err != nil {
			t, err = time.ParseInLocation(CustomLayout, custom, now.Location())
		}
		if err != nil {
			return time.Time{}, fmt.Errorf("%q is not a date-time: use %s (local) or RFC 3339", custom, CustomForm)
		}
		if !t.After(now) {
			return time.Time{}, errors.New("must be in the future")
		}
		return t, nil
	}
	return time.Time{}, fmt.Errorf("unknown choice %q", choice)
}

// CommentRule is the comment field's rule: the spec's length limit.
func CommentRule(v string, _ components.FormValues) error {
	if n := len([]rune(v)); n > apiclient.MaxAckCommentRunes {
		return fmt.Errorf("at most %d characters (%d)", apiclient.MaxAckCommentRunes, n)
	}
	return nil
}

// Request builds the acknowledgement a submitted dialog asks for (until
// truncated to the second) and checks it; an error means nothing is sent.
func Request(values components.FormValues, now time.Time) (apiclient.AcknowledgeRequest, error) {
	until, err := ParseUntil(values["until"], values["at"], now)
	if err != nil {
		return apiclient.AcknowledgeRequest{}, err
	}
	until = until.Truncate(time.Second)
	req := apiclient.AcknowledgeRequest{AcknowledgedUntil: &until, AcknowledgementComment: values["comment"]}
	return req, req.Validate()
}

// Dialog is an acknowledgement dialog: what it acts on and the choices
// kept from an earlier round.
type Dialog struct {
	Now func() time.Time
	// Listed are the targets the dialog acts on; Hidden the marked ones
	// the filter hides, listed apart and included only when the user says.
	Listed, Hidden []string
	// Name is a target's line in the lists ("id  HOST_DOWN on c0").
	Name func(id string) string
	// Rows is how many targets a list shows before it scrolls.
	Rows int
	// One is the line naming a single target by what tells it apart from
	// alerts of the same name: its id and when it was created (OneLine).
	// nil: a single target is named by the title alone.
	One func(id string) string
	// Until, At and Comment are the kept choices (empty: 1h, none, none).
	Until, At, Comment string
}

// Fields are the dialog: what it acts on, until at 1h (or the kept
// choice), the custom date-time (typing there selects "until…"), and the
// comment, where the cursor starts.
func (d Dialog) Fields() []components.Field {
	clock := d.Now
	var fields []components.Field
	switch {
	case len(d.Listed) == 1 && len(d.Hidden) > 0:
		// One line: the room goes to the hidden rows and to what is sent.
		fields = append(fields, components.Field{Key: "targets", Kind: components.FieldNote,
			Value: ActsOn(1) + " " + d.Name(d.Listed[0])})
	case len(d.Listed) == 1 && d.One != nil:
		// Several alerts may share the title's event and place: the id
		// and the created time say which one this is.
		fields = append(fields, components.Field{Key: "targets", Kind: components.FieldNote,
			Label: ActsOn(1), Value: d.One(d.Listed[0])})
	case len(d.Listed) > 1 || len(d.Hidden) > 0:
		v, rows, per := List(d.Listed, d.Rows, d.Name)
		fields = append(fields, components.Field{Key: "targets", Kind: components.FieldNote,
			Label: ActsOn(len(d.Listed)), Value: v, Rows: rows, ItemLines: per})
	}
	if len(d.Hidden) > 0 {
		v, rows, per := List(d.Hidden, d.Rows, d.Name)
		fields = append(fields,
			components.Field{Key: "hiddenList", Kind: components.FieldNote,
				Label: fmt.Sprintf("%d marked %s hidden by the filter:", len(d.Hidden), Plural(len(d.Hidden), "row is", "rows are")),
				Value: v, Rows: rows, ItemLines: per},
			components.Field{Key: "hidden", Label: "Include the hidden rows too", Kind: components.FieldToggle})
	}
	untilHint := "←/→ choose · forever is 100 years"
	if len(d.Hidden) > 0 {
		untilHint = "" // room for the lists on a small terminal
	}
	choice := 0
	if d.Until != "" {
		choice = max(slices.Index(UntilChoices, d.Until), 0)
	}
	return append(fields,
		components.Field{Key: "until", Label: "Acknowledge until", Kind: components.FieldChoice, Choices: UntilChoices,
			Choice: choice, Hint: untilHint},
		components.Field{Key: "at", Label: "Until (typing here selects until…)", Kind: components.FieldText, CharLimit: 25,
			Value: d.At, Placeholder: clock().Add(24*time.Hour).Truncate(time.Hour).Format(CustomLayout) + " (local) or RFC 3339",
			Selects: &components.Selects{Key: "until", Choice: UntilCustom},
			Live:    func(v components.FormValues) string { return Sends(v, clock()) },
			Validate: func(v string, all components.FormValues) error {
				if all["until"] != UntilCustom {
					return nil
				}
				_, err := ParseUntil(UntilCustom, v, clock())
				return err
			}},
		components.Field{Key: "comment", Label: "Comment", Kind: components.FieldText, CharLimit: apiclient.MaxAckCommentRunes,
			Value: d.Comment, Placeholder: "failover under way, see #inc-42", Validate: CommentRule, Focus: true})
}

// Sends is the dialog's line saying the acknowledgedUntil enter sends
// with the values as they are now, or why it sends nothing.
func Sends(v components.FormValues, now time.Time) string {
	until, err := ParseUntil(v["until"], v["at"], now)
	if err != nil && v["until"] == UntilCustom {
		return "sends nothing until Until holds a future date"
	}
	if err != nil {
		return "sends nothing: " + err.Error()
	}
	at := until.Truncate(time.Second).In(now.Location()).Format(CustomLayout + " MST")
	switch v["until"] {
	case Until1h, Until4h, Until24h:
		return "sends until " + at + " (now + " + v["until"] + ")"
	case UntilForever:
		return "sends until " + at + " (forever: 100 years)"
	}
	return "sends until " + at
}

// OneLine names one alert apart from others of the same event and place:
// its whole id, then when it was created, in loc.
func OneLine(id string, created time.Time, loc *time.Location) string {
	if created.IsZero() {
		return id
	}
	return id + "  created " + created.In(loc).Format(CustomLayout+" MST")
}

// ListedRows is how many targets a dialog's list shows before it scrolls
// in a pane h lines high: fewer on a short terminal, so the dialog fits.
func ListedRows(h int) int {
	if h > 0 && h < 30 {
		return 2
	}
	return 5
}

// HiddenOnly is the refusal of `a` when every marked alert is hidden by
// the filter.
func HiddenOnly(n int) string {
	return fmt.Sprintf("acknowledge: the %d marked %s hidden by the filter; clear the filter to see %s (ctrl+\\ clears marks)",
		n, Plural(n, "alert is", "alerts are"), Plural(n, "it", "them"))
}

// ActsOn is the label of the targets' list.
func ActsOn(n int) string {
	if n == 1 {
		return "Acts on:"
	}
	return fmt.Sprintf("Acts on these %d:", n)
}

// Plural picks one or many by n.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// ListTargets names the first n targets a bulk action acts on, one a line,
// then "and N more".
func ListTargets(ids []string, n int, name func(string) string) string {
	var lines []string
	for i, id := range ids {
		if i == n && len(ids) > n+1 {
			lines = append(lines, fmt.Sprintf("and %d more", len(ids)-n))
			break
		}
		lines = append(lines, "• "+name(id))
	}
	return strings.Join(lines, "\n")
}

// List names every target a dialog acts on, one a bullet (name may give
// several lines), and the rows of a note (components.Field.Rows) that
// shows the first n targets and scrolls to the others (per lines each):
// nothing is left unsaid behind "and N more". rows is 0 (no scrolling)
// when one more target would take as much room as the cue that it is
// there.
func List(ids []string, n int, name func(string) string) (value string, rows, per int) {
	var lines []string
	per = 1
	for i, id := range ids {
		l := strings.Split("• "+name(id), "\n")
		if i == 0 {
			per = len(l)
		}
		lines = append(lines, l...)
	}
	if len(ids) <= n+1 {
		return strings.Join(lines, "\n"), 0, per
	}
	return strings.Join(lines, "\n"), n, per
}
