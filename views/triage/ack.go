package triage

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

// `a` on the board acknowledges alert rows with the Alerts pane's dialog
// (alertkit.Dialog): the marked alert rows the filter shows (else the row
// under the cursor) are listed; marked rows the filter hides are listed
// apart and included only when the user says. Each alert is PATCHed in its
// own project; each row's outcome is listed over the board, and the
// projects written are read again.

const (
	formAck = "ack"
	// goneText says why a row listed in the dialog was not sent.
	goneText = "changed or left the board while the dialog was open"
)

// ackOutcome is one alert's answer.
type ackOutcome struct {
	it      Item
	alert   *apiclient.Alert
	err     error
	unknown bool // the answer was lost; verified by reading it back
	// unsettled: the read-back failed too; not sent again until r.
	unsettled bool
}

// ackBatch is what the acknowledgement answers.
type ackBatch struct {
	outcomes []ackOutcome
	// gone names the rows that changed or left the board while the dialog
	// was open: not sent.
	gone []string
	// until is the acknowledgement sent (nil: forever).
	until *time.Time
}

// alertRow reports whether a row is an alert the board may acknowledge.
func alertRow(it Item) bool { return it.Kind == KindAlert || it.Kind == KindAckEnds }

// itemByKey finds a row by its key, on the board now.
func (p *Pane) itemByKey(key string) (Item, bool) {
	for _, part := range []map[string]partResult{p.alerts, p.rest} {
		for _, r := range part {
			for _, it := range r.Items {
				if it.Key() == key {
					return it, true
				}
			}
		}
	}
	return Item{}, false
}

// ackTargets are the alert rows `a` acts on, the marked ones the filter
// hides apart, and the rows left out (not alerts).
func (p *Pane) ackTargets() (shown, hidden []Item, other []string) {
	pick := func(keys []string, into *[]Item) {
		for _, k := range keys {
			it, ok := p.itemByKey(k)
			switch {
			case !ok:
			case alertRow(it):
				*into = append(*into, it)
			default:
				other = append(other, k)
			}
		}
	}
	marked := p.table.MarkedVisible()
	if len(marked) == 0 {
		if k := p.table.SelectedID(); k != "" {
			marked = []string{k}
		}
	}
	pick(marked, &shown)
	pick(p.table.MarkedHidden(), &hidden)
	return shown, hidden, other
}

// alertIDs are the items' alert ids: a row's key changes with its kind.
func alertIDs(items []Item) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.ItemID
	}
	return out
}

// refs names the items' alerts for the others' screens (views.FormMsg.On).
func refs(items []Item) []views.AlertRef {
	out := make([]views.AlertRef, len(items))
	for i, it := range items {
		out[i] = views.AlertRef{GroupID: it.GroupID, AlertID: it.ItemID}
	}
	return out
}

func keys(items []Item) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.Key()
	}
	return out
}

// line names a row in the dialog's lists.
func (p *Pane) line(key string) string {
	if it, ok := p.itemByKey(key); ok {
		return components.Sanitize(it.Where() + ": " + strings.TrimPrefix(it.What, "new: "))
	}
	return key
}

// ackLine names an alert row in the ack dialog's lists on two lines: its
// event type, then where it is, cut from the left (the organization gives
// way first, as on the board) to the dialog's width; under them its id,
// which tells apart alerts of the same event and place. A row that is not
// an alert is named as line does.
func (p *Pane) ackLine(key string) string {
	it, ok := p.itemByKey(key)
	if !ok || it.Event == "" {
		return p.line(key)
	}
	// The list's indent and bullet take four cells.
	return p.eventOn(it, components.DialogInner(p.W)-4) + "\n  " + it.ItemID
}

// ackTitle is the one-alert dialog's title: the event type first, then
// where, cut from the left to the dialog's width.
func (p *Pane) ackTitle(it Item) string {
	if it.Event == "" {
		return "Acknowledge " + p.line(it.Key())
	}
	return "Acknowledge " + p.eventOn(it, components.DialogInner(p.W)-components.Width("Acknowledge "))
}

// eventOn is "EVENT on place" in w cells: the event type whole, the place
// cut from the left to what is left (its cluster's end at least), or the
// event alone when nothing is.
func (p *Pane) eventOn(it Item, w int) string {
	head := components.Sanitize(it.Event + " on ")
	room := w - components.Width(head)
	if room < 4 {
		return components.Sanitize(it.Event)
	}
	return head + fitWhere(it.Where(), room)
}

// oneLine names the one alert a dialog acts on by its id and created time.
func (p *Pane) oneLine(key string) string {
	it, ok := p.itemByKey(key)
	if !ok {
		return key
	}
	return alertkit.OneLine(it.ItemID, it.Since, p.Ctx.Now().Location())
}

// alertName names an alert row by its event type and where it is, without
// the row's label: an "ack ends in 51m" label was true when the board was
// read, not when the question is asked.
func (p *Pane) alertName(key string) string {
	it, ok := p.itemByKey(key)
	switch {
	case !ok:
		return key
	case it.Event == "":
		return components.Sanitize(it.Where())
	}
	return components.Sanitize(it.Event + " on " + it.Where())
}

// refuse says on screen why nothing happened; nothing to run.
func (p *Pane) refuse(text string) tea.Cmd {
	p.Refuse(text)
	return nil
}

// formDone answers the ack form (nil closes it); nothing to run.
func (p *Pane) formDone(err error) tea.Cmd {
	p.FormDone(formAck, err)
	return nil
}

// openAck asks for the acknowledgement of the alert rows.
func (p *Pane) openAck() tea.Cmd {
	shown, hidden, other := p.ackTargets()
	if len(shown) == 0 && len(hidden) == 0 {
		return p.refuse("acknowledge: pick an alert row (this row is not an alert)")
	}
	if len(shown) == 0 {
		return p.refuse(alertkit.HiddenOnly(len(hidden)))
	}
	title := p.ackTitle(shown[0])
	if len(shown) > 1 {
		title = fmt.Sprintf("Acknowledge %d alerts", len(shown))
	}
	// The names as the dialog lists them, for a row that leaves the board
	// before the dialog is submitted.
	names := map[string]string{}
	for _, it := range append(shown, hidden...) {
		names[it.Key()] = p.line(it.Key())
	}
	// The choices kept from a failed round, only when this is a retry of
	// the very same alerts.
	kept := p.ackDraft.For(alertIDs(shown), alertIDs(hidden))
	d := alertkit.Dialog{Now: p.Ctx.Now, Listed: keys(shown), Hidden: keys(hidden), Name: p.ackLine, Rows: alertkit.ListedRows(p.H),
		One: p.oneLine, Until: kept.Until, At: kept.At, Comment: kept.Comment}
	fields := d.Fields()
	if n := len(other); n > 0 {
		// Its own lines of the body, the label wrapped: a title is cut
		// to the dialog's width, and this must be read.
		fields = append([]components.Field{{Key: "leftOut", Kind: components.FieldNote,
			Label: fmt.Sprintf("%d marked %s left out:", n, alertkit.Plural(n, "row is not an alert,", "rows are not alerts,")),
			Value: alertkit.ListTargets(other, 1, p.line)}}, fields...)
	}
	p.Form(views.FormMsg{ID: formAck, Title: title, Fields: fields,
		Action: views.ActionMsg{Name: actAck, Payload: alertkit.Ack{Listed: keys(shown), Hidden: keys(hidden), Names: names}},
		Doing:  "acknowledging", On: refs(shown)})
	return nil
}

// submitAck sends one PATCH per alert, each to its own project, with
// exactly the until chosen or typed. A row that changed or left the board
// while the dialog was open is not sent (what it would shorten is not
// known) and is named in the outcome; an alert whose last acknowledgement
// is unsettled is refused until r.
func (p *Pane) submitAck(msg views.ActionMsg) tea.Cmd {
	client := p.Ctx.Client
	if client == nil {
		return p.formDone(errors.New("not connected"))
	}
	ack, ok := alertkit.AckOf(msg)
	if !ok {
		return p.formDone(errors.New("the dialog named no alerts; nothing sent"))
	}
	req, err := ack.Request(msg.Values, p.Ctx.Now())
	if err != nil {
		return p.formDone(err) // nothing sent; the text is kept
	}
	rows := ack.Targets(msg.Values)
	var items []Item
	var gone []string
	for _, k := range rows {
		it, ok := p.itemByKey(k)
		switch {
		case k == "":
		case !ok:
			name := ack.Names[k]
			if name == "" {
				name = k
			}
			gone = append(gone, name)
		case alertRow(it):
			items = append(items, it)
		}
	}
	if len(items) == 0 {
		if len(gone) > 0 {
			return p.formDone(fmt.Errorf("not sent: %s %s", strings.Join(gone, ", "), goneText))
		}
		return p.formDone(errors.New("no alert to acknowledge"))
	}
	ids, names := make([]string, len(items)), map[string]string{}
	for i, it := range items {
		ids[i], names[it.ItemID] = it.ItemID, p.line(it.Key())
	}
	if err := p.unsettled.Refuse(ids, func(id string) string { return names[id] }); err != nil {
		return p.formDone(err)
	}
	if ack.Agreed == nil {
		// The choices as the user made them ("1h" stays "1h"), for these
		// alerts; a yes to "Shorten?" carries the until pinned, and keeps
		// this draft.
		p.ackDraft = alertkit.NewDraft(ids, msg.Values["until"], msg.Values["at"], msg.Values["comment"])
		if p.askShorten(msg, items, req) {
			return nil
		}
	}
	return views.Write(&p.Base, formAck, p.writeSeq.Next(), fmt.Sprintf("acknowledging %d %s", len(items), alertkit.Plural(len(items), "alert", "alerts")),
		func(ctx context.Context) (ackBatch, error) {
			b := ackBatch{gone: gone, until: req.AcknowledgedUntil}
			for _, it := range items {
				a, err := client.Alerts().Acknowledge(ctx, it.GroupID, it.ItemID, req)
				o := ackOutcome{it: it, alert: a, err: err}
				if _, unknown := apiclient.AsOutcomeUnknown(err); unknown {
					// Never sent again: read back what the server holds.
					v := alertkit.Verify(ctx, client, it.GroupID, it.ItemID, req)
					if v.Alert != nil {
						o.alert = v.Alert
					}
					o.unknown, o.err, o.unsettled = true, v.Err, v.Unsettled
				}
				b.outcomes = append(b.outcomes, o)
			}
			// Any failure fails the task, with a short reason; each
			// alert's own outcome is in b.
			errs := make([]error, len(b.outcomes))
			for i, o := range b.outcomes {
				errs[i] = o.err
			}
			return b, alertkit.BatchErr(len(b.outcomes), errs)
		})
}

// askShorten asks first (default No, saying by how much) when the
// acknowledgement would shorten one the board shows running longer, and
// reports whether it asked. Yes sends exactly this acknowledgement (its until
// pinned); No sends nothing and keeps the dialog's choices for `a`.
func (p *Pane) askShorten(msg views.ActionMsg, items []Item, req apiclient.AcknowledgeRequest) (asked bool) {
	now, until := p.Ctx.Now(), *req.AcknowledgedUntil
	ends := map[string]time.Time{}
	var ids []string
	for _, it := range items {
		ids = append(ids, it.Key())
		if it.AckUntil != nil {
			ends[it.Key()] = *it.AckUntil
		}
	}
	short := alertkit.Shortens(ids, until, now, func(k string) (time.Time, bool) { t, ok := ends[k]; return t, ok })
	if len(short.IDs) == 0 {
		return false
	}
	name := p.alertName(short.IDs[0])
	if len(short.IDs) > 1 {
		name = fmt.Sprintf("%d alerts", len(short.IDs))
	}
	when := func(t time.Time) string { return t.In(now.Location()).Format("Jan 2 15:04") }
	// Yes acts on the rows the dialog was submitted on: one gone by then
	// is named in the outcome, as it would have been without the question.
	was, _ := alertkit.AckOf(msg)
	chosen := was.Targets(msg.Values)
	p.FormDone(formAck, nil)
	p.Confirm(views.ConfirmMsg{Title: alertkit.ShortenTitle,
		Body: short.Question(len(items), name, until, when), Action: alertkit.ShortenYes(msg, chosen, until)})
	return true
}

// ackDone lists each row's outcome over the board, closes the dialog (or
// keeps it with the error when every one failed) and reads the projects
// written again.
func (p *Pane) ackDone(msg views.Result[ackBatch]) tea.Cmd {
	b := msg.Value
	if msg.Err != nil && len(b.outcomes) == 0 {
		return p.formDone(msg.Err)
	}
	now := p.Ctx.Now()
	var lines []string
	failed := 0
	var failedIDs []string
	groups := map[string]bool{}
	p.table.ClearMarks()
	for _, o := range b.outcomes {
		groups[o.it.GroupID] = true
		where := o.it.Where()
		if o.it.Project == "" {
			where = o.it.GroupID
		}
		line := where + " · " + o.it.ItemID + ": "
		switch {
		case o.err != nil:
			failed++
			failedIDs = append(failedIDs, o.it.ItemID)
			line = "✗ " + line + views.ErrText(o.err)
			// `a` retries the failed ones; an unsettled one it refuses
			// until r.
			p.table.ToggleMark(o.it.Key())
			if o.unsettled {
				p.unsettled.Add(o.it.ItemID)
			}
		case o.alert != nil && o.alert.AcknowledgedUntil != nil:
			by := o.alert.AcknowledgingUsername
			if by == "" {
				by = "you"
			}
			line = "✓ " + line + "acknowledged until " + o.alert.AcknowledgedUntil.In(now.Location()).Format("Jan 2 15:04") + " by " + by
			if o.unknown {
				line += " (sent - verified)"
			}
		default:
			line = "✓ " + line + "acknowledged"
		}
		lines = append(lines, components.Sanitize(line))
	}
	for _, name := range b.gone {
		lines = append(lines, components.Sanitize("✗ "+name+": "+goneText))
	}
	n := len(b.outcomes)
	if failed == n {
		// The dialog stays with the error; the board stays as it was.
		return p.formDone(fmt.Errorf("none acknowledged: %s", strings.TrimPrefix(lines[0], "✗ ")))
	}
	// Kept for the failed ones only: `a` on them retries with it, on the
	// window the others got.
	p.ackDraft = p.ackDraft.Only(failedIDs).Pinned(b.until)
	text := alertkit.Tally("acknowledged", n, failed)
	if len(b.gone) > 0 {
		text += fmt.Sprintf("; %d not sent (%s)", len(b.gone), goneText)
	}
	p.results = lines
	p.resultsHead = text + " · esc closes this list"
	p.FormDone(formAck, nil)
	p.Toast(text, failed > 0)
	return p.reread(groups)
}

// reread asks the projects written for their alerts again.
func (p *Pane) reread(groups map[string]bool) tea.Cmd {
	for _, pr := range p.projects {
		if groups[pr.ID] {
			p.fetchPart(keyAlerts, pr, true)
		}
	}
	return p.fan.start()
}

// ActionGroup is the project the board's actions act on: the selected
// row's (the gate asks about it, not the context's project).
func (p *Pane) ActionGroup() string {
	if it, ok := p.selected(); ok {
		return it.GroupID
	}
	return p.Ctx.GroupID
}

// CanGoBack: the outcomes of an acknowledgement are listed; esc closes them.
func (p *Pane) CanGoBack() bool { return len(p.results) > 0 }
