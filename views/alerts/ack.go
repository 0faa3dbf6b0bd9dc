package alerts

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/alertkit"
)

// The ack dialog's pieces live in views/alertkit, shared with the Triage
// board.
const (
	until1h      = alertkit.Until1h
	until4h      = alertkit.Until4h
	until24h     = alertkit.Until24h
	untilCustom  = alertkit.UntilCustom
	untilForever = alertkit.UntilForever
)

var (
	parseUntil  = alertkit.ParseUntil
	commentRule = alertkit.CommentRule
	actsOn      = alertkit.ActsOn
	plural      = alertkit.Plural
)

// ackChoice is every choice of the ack dialog, as the user made it, kept
// for a retry of the rows that failed: the until choice ("1h" stays "1h"),
// the typed date and the comment.
type ackChoice struct{ until, at, comment string }

// draft keeps the choice for the alerts ids.
func (c ackChoice) draft(ids []string) alertkit.Draft {
	return alertkit.NewDraft(ids, c.until, c.at, c.comment)
}

// listedRows is how many targets a dialog names before "and N more".
func (p *Pane) listedRows() int { return alertkit.ListedRows(p.H) }

// ackFields are the ack dialog (alertkit.Dialog): what it acts on, until,
// the custom date-time and the comment.
func (p *Pane) ackFields(kept alertkit.Draft, ids, hidden []string) []components.Field {
	kept = kept.For(ids, hidden)
	return alertkit.Dialog{Now: p.Ctx.Now, Listed: ids, Hidden: hidden, Name: p.targetLine, Rows: p.listedRows(),
		One: p.oneLine, Until: kept.Until, At: kept.At, Comment: kept.Comment}.Fields()
}

func (p *Pane) targetLine(id string) string { return id + "  " + p.describe([]string{id}) }

// oneLine names the one alert a dialog acts on apart from others of the
// same event and place (the title): its id and created time.
func (p *Pane) oneLine(id string) string {
	a, ok := p.alert(id)
	if !ok {
		return id
	}
	return alertkit.OneLine(id, a.Created, p.Ctx.Now().Location())
}

// ackable keeps the alerts that can be acknowledged; skipped counts the
// ones that are over.
func (p *Pane) ackable(ids []string) (keep []string, skipped []string) {
	for _, id := range ids {
		a, ok := p.alert(id)
		if !ok {
			continue
		}
		if a.Status == apiclient.AlertClosed || a.Status == apiclient.AlertCancelled {
			skipped = append(skipped, string(a.Status))
			continue
		}
		keep = append(keep, id)
	}
	return keep, skipped
}

// openAck asks for the acknowledgement of the marked alerts the filter
// shows (or the one under the cursor), listing them. Marked alerts the
// filter hides are named apart and acted on only when the user includes
// them. Alerts that are over are left out, with a note.
func (p *Pane) openAck() tea.Cmd {
	if p.mode == modeConfigs || p.mode == modeConfigDetail {
		return p.refuse("acknowledge: pick an alert (esc or c leaves the configurations)")
	}
	if w := p.waiting(); w != "" {
		return p.refuse("acknowledge: " + w)
	}
	shown, hiddenMarks := p.bulkTargets()
	ids, skipped := p.ackable(shown)
	hidden, hskipped := p.ackable(hiddenMarks)
	skipped = append(skipped, hskipped...)
	if len(ids) == 0 && len(hidden) == 0 {
		if len(skipped) > 0 {
			return p.refuse("acknowledge: the alert is " + skipped[0] + ": nothing to acknowledge")
		}
		return p.refuse("acknowledge: no alert selected")
	}
	if len(ids) == 0 {
		return p.refuse(alertkit.HiddenOnly(len(hidden)))
	}
	title := "Acknowledge " + p.describe(ids)
	if len(skipped) > 0 {
		title += fmt.Sprintf(" (%d closed left out)", len(skipped))
	}
	p.Form(views.FormMsg{ID: formAck, Title: title, Fields: p.ackFields(p.ackDraft, ids, hidden),
		Action: views.ActionMsg{Name: actAck, Payload: alertkit.Ack{Listed: ids, Hidden: hidden}},
		Doing:  "acknowledging", On: p.refs(ids)})
	return nil
}

// refs names the alerts for the others' screens (views.FormMsg.On).
func (p *Pane) refs(ids []string) []views.AlertRef {
	out := make([]views.AlertRef, len(ids))
	for i, id := range ids {
		out[i] = views.AlertRef{GroupID: p.Ctx.GroupID, AlertID: id}
	}
	return out
}

// waiting says why no alert is picked while the one a jump from the board
// asked for is not in the list yet: the cursor is on another row, which a
// key must not act on.
func (p *Pane) waiting() string {
	if p.want.ID() == "" || p.mode != modeList || len(p.table.MarkedVisible()) > 0 {
		return ""
	}
	return "the alert opened from the board (" + p.want.ID() + ") is not in the list yet; wait for it, or move the cursor to pick another"
}

// bulkTargets are the rows a bulk action lists: the marked rows the filter
// shows, in the order shown (else the alert in detail, else the row under
// the cursor), and apart the marked rows the filter hides.
func (p *Pane) bulkTargets() (shown, hidden []string) {
	shown, hidden = p.table.MarkedVisible(), p.table.MarkedHidden()
	if len(shown) > 0 {
		return shown, hidden
	}
	if p.mode == modeDetail && p.detailID != "" {
		return []string{p.detailID}, hidden
	}
	if id := p.table.SelectedID(); id != "" {
		return []string{id}, hidden
	}
	return nil, hidden
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
	// Unknown: the request left and its answer was lost; Verified says
	// the read-back settled it (Err is then nil when applied).
	Unknown, Verified bool
	// Unsettled: the read-back failed too; the alert is not sent again
	// until a refresh has shown what the server holds.
	Unsettled bool
}

// ackBatch is what an ack or unack request answers.
type ackBatch struct {
	form     string
	choice   ackChoice
	req      apiclient.AcknowledgeRequest
	outcomes []ackOutcome
	verified bool // the read-back of the unknown outcomes has run
}

// ackResult is one line of the results view.
type ackResult struct {
	id, what, outcome string
	failed            bool
}

// submitAck sends the acknowledgement of every listed target (and of the
// hidden marked ones when the user included them), one request per alert,
// with exactly the until that was chosen or typed. Shortening an existing,
// longer acknowledgement asks first.
func (p *Pane) submitAck(msg views.ActionMsg) tea.Cmd {
	ack, ok := alertkit.AckOf(msg)
	if !ok {
		return p.formDone(formAck, errors.New("the dialog named no alerts; nothing sent"))
	}
	now := p.Ctx.Now()
	req, err := ack.Request(msg.Values, now)
	if err != nil {
		// Refused here: nothing is sent, the dialog keeps the text.
		return p.formDone(formAck, err)
	}
	until := *req.AcknowledgedUntil
	ids := ack.Targets(msg.Values)
	if err := alertkit.Unsettled(p.unsettled).Refuse(ids, func(id string) string { return p.describe([]string{id}) }); err != nil {
		return p.formDone(formAck, err)
	}
	choice := ackChoice{until: msg.Values["until"], at: msg.Values["at"], comment: msg.Values["comment"]}
	if ack.Agreed != nil {
		// The yes to "Shorten?": sent as asked about.
		return p.sendAcks(formAck, ids, choice, req, false)
	}
	short := alertkit.Shortens(ids, until, now, func(id string) (time.Time, bool) {
		a, ok := p.alert(id)
		if !ok || !a.Acknowledged(now) || a.AcknowledgedUntil == nil {
			return time.Time{}, false
		}
		return *a.AcknowledgedUntil, true
	})
	if len(short.IDs) == 0 {
		return p.sendAcks(formAck, ids, choice, req, true)
	}
	// Ask first: the dialog closes, its choices are kept for `a`.
	p.ackDraft = choice.draft(ids)
	body := short.Question(len(ids), p.describe(short.IDs), until, func(t time.Time) string { return p.untilText(t, now) })
	p.FormDone(formAck, nil)
	p.Confirm(views.ConfirmMsg{Title: alertkit.ShortenTitle, Body: body, Action: alertkit.ShortenYes(msg, ids, until)})
	return nil
}

// openUnack asks for the comment of an unacknowledgement, listing the
// alerts it acts on: the acknowledged ones among the shown marks.
func (p *Pane) openUnack() tea.Cmd {
	if p.mode == modeConfigs || p.mode == modeConfigDetail {
		return p.refuse("unacknowledge: pick an alert (esc or c leaves the configurations)")
	}
	if w := p.waiting(); w != "" {
		return p.refuse("unacknowledge: " + w)
	}
	now := p.Ctx.Now()
	shown, hidden := p.bulkTargets()
	var ids []string
	for _, id := range shown {
		if a, ok := p.alert(id); ok && a.Acknowledged(now) {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return p.refuse("unacknowledge: not acknowledged: nothing to undo")
	}
	var fields []components.Field
	switch {
	case len(ids) > 1 || len(hidden) > 0:
		v, rows, _ := alertkit.List(ids, p.listedRows(), p.targetLine)
		fields = append(fields, components.Field{Key: "targets", Kind: components.FieldNote,
			Label: actsOn(len(ids)), Value: v, Rows: rows})
	default:
		// The title's event and place may be shared: the id says which.
		fields = append(fields, components.Field{Key: "targets", Kind: components.FieldNote,
			Label: actsOn(1), Value: p.oneLine(ids[0])})
	}
	if len(hidden) > 0 {
		fields = append(fields, components.Field{Key: "hiddenList", Kind: components.FieldNote,
			Label: fmt.Sprintf("%d marked %s hidden by the filter and left as %s", len(hidden),
				plural(len(hidden), "row is", "rows are"), plural(len(hidden), "it is", "they are"))})
	}
	fields = append(fields, components.Field{Key: "comment", Label: "Comment", Kind: components.FieldText,
		CharLimit: apiclient.MaxAckCommentRunes, Placeholder: "why (optional)", Validate: commentRule, Focus: true})
	p.Form(views.FormMsg{ID: formUnack, Title: "Unacknowledge " + p.describe(ids), Fields: fields,
		Action: views.ActionMsg{Name: actUnack, Payload: alertkit.Ack{Listed: ids}},
		Doing:  "unacknowledging", On: p.refs(ids)})
	return nil
}

func (p *Pane) submitUnack(msg views.ActionMsg) tea.Cmd {
	comment := msg.Values["comment"]
	if err := commentRule(comment, nil); err != nil {
		return p.formDone(formUnack, err)
	}
	ack, ok := alertkit.AckOf(msg)
	if !ok {
		return p.formDone(formUnack, errors.New("the dialog named no alerts; nothing sent"))
	}
	req := apiclient.AcknowledgeRequest{UnacknowledgeAlert: true, AcknowledgementComment: comment}
	return p.sendAcks(formUnack, ack.Listed, ackChoice{comment: comment}, req, true)
}

// sendAcks runs one request per alert and answers with every outcome. A
// request whose answer was lost is not sent again: ackDone has it read back.
func (p *Pane) sendAcks(form string, ids []string, choice ackChoice, req apiclient.AcknowledgeRequest, fromForm bool) tea.Cmd {
	client, gid := p.Ctx.Client, p.Ctx.GroupID
	if client == nil || len(ids) == 0 {
		if !fromForm {
			return p.refuse("no alert to send")
		}
		return p.formDone(form, errors.New("no alert to send"))
	}
	task := "acknowledging " + p.describe(ids)
	if form == formUnack {
		task = "unacknowledging " + p.describe(ids)
	}
	return views.Write(&p.Base, form, p.writeSeq.Next(), task, func(ctx context.Context) (ackBatch, error) {
		b := ackBatch{form: form, choice: choice, req: req}
		for _, id := range ids {
			var a *apiclient.Alert
			var err error
			if req.UnacknowledgeAlert {
				a, err = client.Alerts().Unacknowledge(ctx, gid, id, req.AcknowledgementComment)
			} else {
				a, err = client.Alerts().Acknowledge(ctx, gid, id, req)
			}
			_, unknown := apiclient.AsOutcomeUnknown(err)
			b.outcomes = append(b.outcomes, ackOutcome{ID: id, Alert: a, Err: err, Unknown: unknown})
		}
		// Any failure fails the task, with a short reason; each alert's
		// own outcome is in b.
		return b, b.err()
	})
}

// verifyAcks reads back every alert whose answer was lost and settles it:
// applied, not applied, or still unknown when the read failed too.
func (p *Pane) verifyAcks(b ackBatch) tea.Cmd {
	client, gid := p.Ctx.Client, p.Ctx.GroupID
	return views.Get(&p.Base, b.form, p.writeSeq.Next(), "checking what the server holds", func(ctx context.Context) (ackBatch, error) {
		for i, o := range b.outcomes {
			if !o.Unknown {
				continue
			}
			v := alertkit.Verify(ctx, client, gid, o.ID, b.req)
			if v.Alert != nil {
				b.outcomes[i].Alert = v.Alert
			}
			b.outcomes[i].Err, b.outcomes[i].Unsettled, b.outcomes[i].Verified = v.Err, v.Unsettled, !v.Unsettled
		}
		b.verified = true
		return b, b.err()
	})
}

// err is the batch's outcome for the task line: nil when every alert's
// write went through.
func (b ackBatch) err() error {
	errs := make([]error, len(b.outcomes))
	for i, o := range b.outcomes {
		errs[i] = o.Err
	}
	return alertkit.BatchErr(len(b.outcomes), errs)
}

// ackDone closes or fails the dialog and reports each alert's outcome. A
// lost answer is first checked: the dialog says so and stays frozen.
func (p *Pane) ackDone(msg views.Result[ackBatch]) tea.Cmd {
	b := msg.Value
	form := msg.Key
	verb := "acknowledged"
	if form == formUnack {
		verb = "unacknowledged"
	}
	if msg.Err != nil && len(b.outcomes) == 0 {
		return p.formDone(form, msg.Err)
	}
	if !b.verified {
		unknown := 0
		for _, o := range b.outcomes {
			if o.Unknown {
				unknown++
			}
		}
		if unknown > 0 {
			text := "sent - outcome unknown, checking"
			if len(b.outcomes) > 1 {
				text = fmt.Sprintf("sent - outcome of %d of %d unknown, checking", unknown, len(b.outcomes))
			}
			p.FormStatus(form, text)
			p.Toast(text, false)
			return p.verifyAcks(b)
		}
	}
	var ok, failed []ackOutcome
	for _, o := range b.outcomes {
		if o.Unsettled {
			(*alertkit.Unsettled)(&p.unsettled).Add(o.ID)
		}
		if o.Alert != nil {
			p.replaceAlert(*o.Alert)
		}
		if o.Err != nil {
			failed = append(failed, o)
			continue
		}
		ok = append(ok, o)
	}
	p.rebuildRows()
	if p.mode == modeDetail {
		p.renderDetail()
	}
	if len(b.outcomes) == 1 {
		o := b.outcomes[0]
		if o.Err != nil {
			// One alert, failed: the dialog stays with the error and the text.
			p.keepDraft(b, []string{o.ID})
			return p.formDone(form, o.Err)
		}
		p.keepDraft(b, nil)
		text := p.ackSummary(verb, *o.Alert)
		if o.Verified {
			text = "sent - verified: " + text
		}
		p.FormDone(form, nil)
		p.Toast(text, false)
		return nil
	}
	if len(ok) == 0 {
		p.keepDraft(b, failedIDs(failed))
		return p.formDone(form, fmt.Errorf("none %s: %s", verb, views.ErrText(failed[0].Err)))
	}
	p.FormDone(form, nil)
	// Several: a summary toast and a results view listing each alert. The
	// failed ones stay marked (and every choice kept) so `a` retries them.
	p.results = p.results[:0]
	p.table.ClearMarks()
	for _, o := range b.outcomes {
		r := ackResult{id: o.ID, what: p.describe([]string{o.ID})}
		if o.Err != nil {
			r.failed, r.outcome = true, "✗ "+views.ErrText(o.Err)
			p.table.ToggleMark(o.ID)
		} else {
			r.outcome = "✓ " + p.ackSummary(verb, *o.Alert)
			if o.Verified {
				r.outcome = "✓ sent - verified: " + p.ackSummary(verb, *o.Alert)
			}
		}
		p.results = append(p.results, r)
	}
	p.keepDraft(b, failedIDs(failed))
	// Some went through: the retry of the others lands on their window.
	p.ackDraft = p.ackDraft.Pinned(b.req.AcknowledgedUntil)
	p.mode = modeResults
	p.showResults(verb)
	text := alertkit.Tally(verb, len(b.outcomes), len(failed))
	// Not a sticky error toast: the results view already lists the
	// failures, and esc should lead back to the list.
	p.Toast(text, false)
	return nil
}

// keepDraft keeps an acknowledgement's choices for the alerts that failed
// (none: nothing kept). An unacknowledgement leaves the ack dialog's draft
// alone: its comment is not an acknowledgement's.
func (p *Pane) keepDraft(b ackBatch, failed []string) {
	if b.form != formAck {
		return
	}
	p.ackDraft = b.choice.draft(failed)
}

func failedIDs(failed []ackOutcome) []string {
	ids := make([]string, len(failed))
	for i, o := range failed {
		ids[i] = o.ID
	}
	return ids
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
