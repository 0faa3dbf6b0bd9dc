package alerts

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/ui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// The choices of the ack dialog's until field. Forever is 100 years ahead,
// as the cloud's CLI does it.
const (
	until1h      = "1h"
	until4h      = "4h"
	until24h     = "24h"
	untilCustom  = "until…"
	untilForever = "forever"
)

var untilChoices = []string{until1h, until4h, until24h, untilCustom, untilForever}

// customLayout is the local date-time form the custom until accepts
// besides RFC 3339.
const customLayout = "2006-01-02 15:04"

// parseUntil turns the dialog's values into acknowledgedUntil.
func parseUntil(choice, custom string, now time.Time) (time.Time, error) {
	switch choice {
	case until1h:
		return now.Add(time.Hour), nil
	case until4h:
		return now.Add(4 * time.Hour), nil
	case until24h:
		return now.Add(24 * time.Hour), nil
	case untilForever:
		return *apiclient.AckForever(now), nil
	case untilCustom:
		custom = strings.TrimSpace(custom)
		if custom == "" {
			return time.Time{}, errors.New("type a date and time, e.g. " + now.Add(2*time.Hour).In(now.Location()).Format(customLayout))
		}
		t, err := time.Parse(time.RFC3339, custom)
		if err != nil {
			t, err = time.ParseInLocation(customLayout, custom, now.Location())
		}
		if err != nil {
			return time.Time{}, fmt.Errorf("%q is not a date-time: use %s (local) or RFC 3339", custom, customLayout)
		}
		if !t.After(now) {
			return time.Time{}, errors.New("must be in the future")
		}
		return t, nil
	}
	return time.Time{}, fmt.Errorf("unknown choice %q", choice)
}

func commentRule(v string, _ components.FormValues) error {
	if n := len([]rune(v)); n > apiclient.MaxAckCommentRunes {
		return fmt.Errorf("at most %d characters (%d)", apiclient.MaxAckCommentRunes, n)
	}
	return nil
}

// ackFields are the ack dialog: until at 1h, the custom date-time, and the
// comment, where the cursor starts.
func (p *Pane) ackFields(comment string) []components.Field {
	clock := p.Ctx.Now
	return []components.Field{
		{Key: "until", Label: "Acknowledge until", Kind: components.FieldChoice, Choices: untilChoices,
			Hint: "←/→ choose · forever is 100 years"},
		{Key: "at", Label: "Until (for until…)", Kind: components.FieldText, CharLimit: 25,
			Placeholder: "YYYY-MM-DD HH:MM (local) or RFC 3339",
			Validate: func(v string, all components.FormValues) error {
				if all["until"] != untilCustom {
					return nil
				}
				_, err := parseUntil(untilCustom, v, clock())
				return err
			}},
		{Key: "comment", Label: "Comment", Kind: components.FieldText, CharLimit: apiclient.MaxAckCommentRunes,
			Value: comment, Placeholder: "what you are doing about it", Validate: commentRule, Focus: true},
	}
}

// openAck asks for the acknowledgement of the marked alerts (or the one
// under the cursor). Alerts that are over are left out, with a note.
func (p *Pane) openAck() tea.Cmd {
	if p.mode == modeConfigs || p.mode == modeConfigDetail {
		return refuse("acknowledge: pick an alert (esc or c leaves the configurations)")
	}
	var ids, skipped []string
	for _, id := range p.targets() {
		a, ok := p.alert(id)
		if !ok {
			continue
		}
		if a.Status == apiclient.AlertClosed || a.Status == apiclient.AlertCancelled {
			skipped = append(skipped, string(a.Status))
			continue
		}
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		if len(skipped) > 0 {
			return refuse("acknowledge: the alert is " + skipped[0] + ": nothing to acknowledge")
		}
		return refuse("acknowledge: no alert selected")
	}
	title := "Acknowledge " + p.describe(ids)
	if len(skipped) > 0 {
		title += fmt.Sprintf(" (%d closed left out)", len(skipped))
	}
	form := views.FormMsg{Pane: ID, ID: formAck, Title: title, Fields: p.ackFields(p.ackDraft),
		Action: views.ActionMsg{Name: actAck, Target: strings.Join(ids, targetSeparator)}}
	return func() tea.Msg { return form }
}

// describe names one alert by event and target, or counts several.
func (p *Pane) describe(ids []string) string {
	if len(ids) == 1 {
		if a, ok := p.alert(ids[0]); ok {
			return components.Sanitize(a.EventTypeName + " on " + target(a))
		}
		return ids[0]
	}
	return fmt.Sprintf("%d alerts", len(ids))
}

// ackOutcome is one alert's answer in a (bulk) acknowledgement.
type ackOutcome struct {
	ID    string
	Alert *apiclient.Alert
	Err   error
}

// ackBatch is what an ack or unack request answers.
type ackBatch struct {
	form     string
	comment  string
	outcomes []ackOutcome
}

// ackResult is one line of the results view.
type ackResult struct {
	id, what, outcome string
	failed            bool
}

// submitAck sends the acknowledgement of every target, one request per
// alert, in the order they were marked.
func (p *Pane) submitAck(msg views.ActionMsg) tea.Cmd {
	now := p.Ctx.Now()
	until, err := parseUntil(msg.Values["until"], msg.Values["at"], now)
	if err != nil {
		return views.FormDone(ID, formAck, err)
	}
	req := apiclient.AcknowledgeRequest{AcknowledgedUntil: &until, AcknowledgementComment: msg.Values["comment"]}
	if err := req.Validate(); err != nil {
		// Refused here: nothing is sent, the dialog keeps the text.
		return views.FormDone(ID, formAck, err)
	}
	return p.sendAcks(formAck, splitTargets(msg.Target), msg.Values["comment"],
		func(ctx context.Context, c *apiclient.Client, gid, id string) (*apiclient.Alert, error) {
			return c.Alerts().Acknowledge(ctx, gid, id, req)
		})
}

// openUnack asks for the comment of an unacknowledgement.
func (p *Pane) openUnack() tea.Cmd {
	if p.mode == modeConfigs || p.mode == modeConfigDetail {
		return refuse("unacknowledge: pick an alert (esc or c leaves the configurations)")
	}
	now := p.Ctx.Now()
	var ids []string
	for _, id := range p.targets() {
		if a, ok := p.alert(id); ok && a.Acknowledged(now) {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return refuse("unacknowledge: not acknowledged: nothing to undo")
	}
	form := views.FormMsg{Pane: ID, ID: formUnack, Title: "Unacknowledge " + p.describe(ids),
		Fields: []components.Field{{Key: "comment", Label: "Comment", Kind: components.FieldText,
			CharLimit: apiclient.MaxAckCommentRunes, Placeholder: "why (optional)", Validate: commentRule, Focus: true}},
		Action: views.ActionMsg{Name: actUnack, Target: strings.Join(ids, targetSeparator)}}
	return func() tea.Msg { return form }
}

func (p *Pane) submitUnack(msg views.ActionMsg) tea.Cmd {
	comment := msg.Values["comment"]
	if err := commentRule(comment, nil); err != nil {
		return views.FormDone(ID, formUnack, err)
	}
	return p.sendAcks(formUnack, splitTargets(msg.Target), comment,
		func(ctx context.Context, c *apiclient.Client, gid, id string) (*apiclient.Alert, error) {
			return c.Alerts().Unacknowledge(ctx, gid, id, comment)
		})
}

// sendAcks runs one request per alert and answers with every outcome.
func (p *Pane) sendAcks(form string, ids []string, comment string, call func(context.Context, *apiclient.Client, string, string) (*apiclient.Alert, error)) tea.Cmd {
	client, gid := p.Ctx.Client, p.Ctx.GroupID
	if client == nil || len(ids) == 0 {
		return views.FormDone(ID, form, errors.New("no alert to send"))
	}
	task := "acknowledging " + p.describe(ids)
	if form == formUnack {
		task = "unacknowledging " + p.describe(ids)
	}
	return views.Write(&p.Base, form, p.writeSeq.Next(), task, func(ctx context.Context) (ackBatch, error) {
		b := ackBatch{form: form, comment: comment}
		var failed int
		for _, id := range ids {
			a, err := call(ctx, client, gid, id)
			b.outcomes = append(b.outcomes, ackOutcome{ID: id, Alert: a, Err: err})
			if err != nil {
				failed++
			}
		}
		if failed == len(ids) && len(ids) == 1 {
			return b, b.outcomes[0].Err
		}
		return b, nil
	})
}

// ackDone closes or fails the dialog and reports each alert's outcome.
func (p *Pane) ackDone(msg views.Result[ackBatch]) tea.Cmd {
	b := msg.Value
	form := msg.Key
	verb := "acknowledged"
	if form == formUnack {
		verb = "unacknowledged"
	}
	if msg.Err != nil && len(b.outcomes) <= 1 {
		// One alert, failed: the dialog stays with the error and the text.
		return views.FormDone(ID, form, msg.Err)
	}
	var ok, failed []ackOutcome
	for _, o := range b.outcomes {
		if o.Err != nil {
			failed = append(failed, o)
			continue
		}
		ok = append(ok, o)
		if o.Alert != nil {
			p.replaceAlert(*o.Alert)
		}
	}
	p.rebuildRows()
	if len(ok) == 0 {
		err := fmt.Errorf("none %s: %s", verb, errText(failed[0].Err))
		return views.FormDone(ID, form, err)
	}
	done := views.FormDone(ID, form, nil)
	if len(b.outcomes) == 1 {
		p.ackDraft = ""
		return tea.Batch(done, views.Toast(p.ackSummary(verb, *ok[0].Alert), false))
	}
	// Several: a summary toast and a results view listing each alert. The
	// failed ones stay marked (and the comment kept) so `a` retries them.
	p.results = p.results[:0]
	p.table.ClearMarks()
	for _, o := range b.outcomes {
		r := ackResult{id: o.ID, what: p.describe([]string{o.ID})}
		if o.Err != nil {
			r.failed, r.outcome = true, "✗ "+errText(o.Err)
			p.table.ToggleMark(o.ID)
		} else {
			r.outcome = "✓ " + p.ackSummary(verb, *o.Alert)
		}
		p.results = append(p.results, r)
	}
	if len(failed) > 0 {
		p.ackDraft = b.comment
	} else {
		p.ackDraft = ""
	}
	p.mode = modeResults
	p.showResults(verb)
	text := fmt.Sprintf("%s %d of %d alerts", verb, len(ok), len(b.outcomes))
	if len(failed) > 0 {
		text += fmt.Sprintf("; %d failed (still marked: a retries)", len(failed))
	}
	// Not a sticky error toast: the results view already lists the
	// failures, and esc should lead back to the list.
	return tea.Batch(done, views.Toast(text, false))
}

// ackSummary says who acknowledged an alert and until when.
func (p *Pane) ackSummary(verb string, a apiclient.Alert) string {
	what := components.Sanitize(a.EventTypeName + " on " + target(a))
	if a.AcknowledgedUntil == nil || verb != "acknowledged" {
		return verb + " " + what
	}
	by := a.AcknowledgingUsername
	if by == "" {
		by = "you"
	}
	// Who and until first: the footer may clip the end of a long line.
	return fmt.Sprintf("%s until %s by %s: %s", verb, p.untilText(*a.AcknowledgedUntil, p.Ctx.Now()), components.Sanitize(by), what)
}

// showResults renders the per-alert outcome of a bulk action as the detail.
func (p *Pane) showResults(verb string) {
	var b strings.Builder
	fmt.Fprintf(&b, "# Bulk %s\n\n", strings.TrimSuffix(verb, "d"))
	b.WriteString("| alert | what | outcome |\n|---|---|---|\n")
	for _, r := range p.results {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", mdCell(r.id), mdCell(r.what), mdCell(r.outcome))
	}
	b.WriteString("\nesc: back to the list · failed alerts stay marked; `a` retries them\n")
	p.detail.SetMarkdown(b.String())
}

func mdCell(s string) string {
	return components.EscapeMarkdown(s)
}
