// Snapshots: on-demand snapshots, their expiration and their deletion.

package backups

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

func (p *Pane) askSnapshot() tea.Cmd {
	p.form(formSnapshot, "On-demand snapshot of "+p.cluster.Name, []components.Field{
		{Key: "description", Label: "Description", Placeholder: "before the schema migration", CharLimit: 200},
		{Key: "retention", Label: "Retention (days)", Value: strconv.Itoa(apiclient.SnapshotRetentionDefault(p.data.Policy, 1)),
			Validate: func(v string, all components.FormValues) error {
				if err := positiveInt("retention")(v, all); err != nil {
					return err
				}
				return p.snapshotBelowPolicy(v)
			}},
	}, views.ActionMsg{Name: keysOf(p.Ctx.Keys).Snapshot.Name})
	return nil
}

// snapshotBelowPolicy is why an on-demand snapshot kept days (a whole
// number) from now is refused: it would expire before the compliance
// policy's on-demand minimum, and the service refuses it.
func (p *Pane) snapshotBelowPolicy(days string) error {
	n, _ := strconv.Atoi(strings.TrimSpace(days))
	now := p.Ctx.Now()
	return p.belowPolicy(snapRow{Type: string(apiclient.SnapshotOnDemand), Created: &now},
		apiclient.SnapshotRetention{RetentionUnit: apiclient.SnapshotRetentionDays, RetentionValue: n})
}

func (p *Pane) takeSnapshot(msg views.ActionMsg) tea.Cmd {
	// The policy may have changed while the form was open.
	if err := p.snapshotBelowPolicy(msg.Values["retention"]); err != nil {
		if msg.Form == "" {
			p.refuse(p.desc(keysOf(p.Ctx.Keys).Snapshot.Name) + ": " + err.Error() + "; nothing was sent")
			return nil
		}
		p.FormDone(msg.Form, err)
		return nil
	}
	days, _ := strconv.Atoi(strings.TrimSpace(msg.Values["retention"]))
	req := apiclient.TakeSnapshotRequest{Description: strings.TrimSpace(msg.Values["description"]), RetentionInDays: days}
	client, gid, cl := p.Ctx.Client, p.Ctx.GroupID, *p.cluster
	made := func(s *apiclient.Snapshot) writeResult {
		label := "snapshot " + short(s.ID) + " of " + cl.Name
		return writeResult{Done: label + " " + string(s.Status), Watch: &watch{Kind: "snapshot", ID: s.ID, Cluster: cl, Label: label}}
	}
	b := client.Backups()
	return createVerified(p, msg.Form, "taking a snapshot of "+cl.Name,
		func(ctx context.Context) (*apiclient.Snapshot, error) { return b.TakeSnapshot(ctx, gid, cl.Name, req) },
		func(ctx context.Context, sent time.Time) (*apiclient.Snapshot, bool, error) {
			return b.VerifyTakeSnapshot(ctx, gid, cl.Name, req, sent)
		}, made)
}

// keepChoices are the expiration form's lengths, counted from when the
// change is sent; keepOther takes one typed in the field under them.
var keepChoices = []string{"1 day", "3 days", "1 week", "2 weeks", "1 month", "1 year"}

const keepOther = "other"

// keepFor reads "3 days", "1 week", "2 months" as the request.
func keepFor(v string) (apiclient.SnapshotRetention, error) {
	n, u, err := parseRetention(v)
	if err != nil {
		return apiclient.SnapshotRetention{}, err
	}
	return apiclient.SnapshotRetention{RetentionUnit: apiclient.SnapshotRetentionUnit(strings.ToUpper(string(u))), RetentionValue: n}, nil
}

// retentionWords is r as read: "1 week", "2 weeks".
func retentionWords(r apiclient.SnapshotRetention) string {
	unit := strings.ToLower(string(r.RetentionUnit))
	if r.RetentionValue == 1 {
		unit = strings.TrimSuffix(unit, "s")
	}
	return strconv.Itoa(r.RetentionValue) + " " + unit
}

// expiry is when a snapshot kept r from now expires, as the service counts
// it (a month is 30 days, a year 365).
func expiry(now time.Time, r apiclient.SnapshotRetention) time.Time {
	return now.AddDate(0, 0, apiclient.RetentionUnit(strings.ToLower(string(r.RetentionUnit))).Days(r.RetentionValue))
}

// belowPolicy is why keeping s for r from now is refused: it would expire
// before the compliance policy's minimum for it.
func (p *Pane) belowPolicy(s snapRow, r apiclient.SnapshotRetention) error {
	until, rule, ok := policyKeeps(p.data.Policy, s)
	if exp := expiry(p.Ctx.Now(), r); ok && exp.Before(until) {
		return fmt.Errorf("it would expire %s, before the backup compliance policy's minimum %s UTC (%s)", fmtTime(&exp), fmtTime(&until), rule)
	}
	return nil
}

// askExpiration opens the form: every length with the date it gives, the
// ones before the compliance policy's minimum greyed with it, and one to
// type; nothing is chosen for the user.
func (p *Pane) askExpiration() tea.Cmd {
	s, _ := p.selectedSnap() // refusal made sure there is one, done
	now := p.Ctx.Now()
	until, rule, kept := policyKeeps(p.data.Policy, s)
	kept = kept && now.Before(until)
	policy := "No compliance policy minimum holds it now."
	if kept {
		policy = "The compliance policy keeps it until " + fmtTime(&until) + " UTC\n(" + rule + ")."
	}
	choices := append(slices.Clone(keepChoices), keepOther)
	details := make([]string, len(choices))
	reasons := make([]string, len(choices))
	for i, c := range keepChoices {
		r, _ := keepFor(c)
		exp := expiry(now, r)
		details[i] = "expires " + fmtTime(&exp)
		if s.Expires != nil && exp.Before(*s.Expires) {
			// The current expiry's date is the note's first line: the
			// whole phrase with the date would be cut at the dialog's width.
			details[i] += ", sooner than current"
		}
		if kept && exp.Before(until) {
			reasons[i] = "before the compliance policy's minimum"
		}
	}
	details[len(keepChoices)] = "typed below, asked with its date"
	p.form(formExpiration, "Expiration of snapshot "+short(s.ID), []components.Field{
		{Key: "now", Kind: components.FieldNote, Label: "Current expiry: " + fmtTime(s.Expires) + " UTC. A new date counts from when the change is sent.",
			Value: policy},
		{Key: "keep", Label: "Keep for", Kind: components.FieldChoice, List: true, None: true,
			Choices: choices, Details: details, Reasons: reasons},
		{Key: "other", Label: "Other (typing here selects it)", Placeholder: "45 days, 10 weeks, 2 years",
			Selects: &components.Selects{Key: "keep", Choice: keepOther},
			Validate: func(v string, all components.FormValues) error {
				if all["keep"] != keepOther {
					return nil
				}
				r, err := keepFor(v)
				if err != nil {
					return err
				}
				return p.belowPolicy(s, r)
			}},
	}, views.ActionMsg{Name: keysOf(p.Ctx.Keys).Expiration.Name, Target: s.ID})
	return nil
}

// changeExpiration takes the form's answer, then the question's: a typed
// length, or one that expires the snapshot sooner than it does now, is asked
// about with the date it gives first; the others were shown with theirs.
// Nothing the compliance policy refuses is sent.
func (p *Pane) changeExpiration(msg views.ActionMsg) tea.Cmd {
	k, id := keysOf(p.Ctx.Keys), msg.Target
	fail := func(err error) tea.Cmd {
		if msg.Form != "" {
			p.FormDone(msg.Form, err)
			return nil
		}
		p.refuse(p.desc(k.Expiration.Name) + ": " + err.Error() + "; nothing was sent")
		return nil
	}
	s, ok := p.data.snap(id)
	if !ok {
		return fail(fmt.Errorf("snapshot %s is no longer listed", short(id)))
	}
	var r apiclient.SnapshotRetention
	var err error
	asked := msg.Form == ""
	switch {
	case asked:
		// The question's answer carries the length it asked about.
		var ok bool
		if r, ok = msg.Payload.(apiclient.SnapshotRetention); !ok {
			err = fmt.Errorf("the answer names no length (%T)", msg.Payload)
		}
	case msg.Values["keep"] == keepOther:
		r, err = keepFor(msg.Values["other"])
	default:
		r, err = keepFor(msg.Values["keep"])
	}
	if err == nil {
		err = p.belowPolicy(s, r)
	}
	if err != nil {
		return fail(err)
	}
	exp := expiry(p.Ctx.Now(), r)
	sooner := s.Expires != nil && exp.Before(*s.Expires)
	if !asked && (msg.Values["keep"] == keepOther || sooner) {
		title, body := "Change the expiration of snapshot "+short(id)+"?", ""
		if sooner {
			title = "Shorten the expiration of snapshot " + short(id) + "?"
			body = ", sooner than its current expiry: it is deleted then and can no longer be restored"
		}
		body = fmt.Sprintf("Snapshot %s of %s, taken %s, now expires %s UTC. Kept %s from when this is sent, it expires about %s UTC%s.",
			short(id), p.cluster.Name, fmtTime(s.Created), fmtTime(s.Expires), retentionWords(r), fmtTime(&exp), body)
		p.FormDone(msg.Form, nil)
		p.Confirm(views.ConfirmMsg{Title: title, Body: body,
			Action: views.ActionMsg{Name: k.Expiration.Name, Target: id, Payload: r}})
		return nil
	}
	client, gid, cl := p.Ctx.Client, p.Ctx.GroupID, *p.cluster
	return p.write(msg.Form, "changing the expiration of "+short(id), func(ctx context.Context) (writeResult, error) {
		s, err := client.Backups().UpdateRetention(ctx, gid, cl.Name, id, r)
		if err != nil {
			return writeResult{}, err
		}
		return writeResult{Done: "snapshot " + short(id) + " now expires " + fmtTime(s.ExpiresAt)}, nil
	})
}

func (p *Pane) askDelete() tea.Cmd {
	s, _ := p.selectedSnap() // refusal made sure there is one, done and not kept
	typed := s.ID
	what := "its id"
	if d := components.Sanitize(s.Description); d != "" && d == s.Description {
		typed, what = d, "its description"
	}
	p.Confirm(views.ConfirmMsg{Title: "Delete snapshot " + short(s.ID) + "?",
		Body: fmt.Sprintf("Snapshot %s of %s taken %s (%s) is deleted for good; it can no longer be restored. Type %s to confirm.",
			s.ID, p.cluster.Name, fmtTime(s.Created), fmtSize(s.Size), what),
		TypeToConfirm: typed, Action: views.ActionMsg{Name: keysOf(p.Ctx.Keys).Delete.Name, Target: s.ID}})
	return nil
}

func (p *Pane) deleteSnapshot(id string) tea.Cmd {
	// The policy may have come to keep it while the question was open.
	if s, ok := p.data.snap(id); ok {
		if why := p.keptBy(s); why != "" {
			p.refuse(p.desc(keysOf(p.Ctx.Keys).Delete.Name) + ": " + why + "; nothing was sent")
			return nil
		}
	}
	client, gid, cl := p.Ctx.Client, p.Ctx.GroupID, *p.cluster
	return p.write("", "deleting snapshot "+short(id), func(ctx context.Context) (writeResult, error) {
		del := client.Backups().DeleteSnapshot
		if cl.Kind == kindSharded {
			del = client.Backups().DeleteShardedSnapshot
		}
		if err := del(ctx, gid, cl.Name, id); err != nil {
			return writeResult{}, err
		}
		return writeResult{Done: "snapshot " + short(id) + " deleted"}, nil
	})
}

func positiveInt(field string) func(string, components.FormValues) error {
	return func(v string, _ components.FormValues) error {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 1 {
			return fmt.Errorf("%s must be a whole number of at least 1", field)
		}
		return nil
	}
}
