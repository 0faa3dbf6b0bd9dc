package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// createState is where a create of a draft stands.
type createState int

const (
	createSending   createState = iota + 1 // the POST is under way
	createChecking                         // its answer was lost; reading back
	createUnsettled                        // the read-back failed too; until a list shows the server's state
)

// createBusy says why a new index on cluster cannot be sent now, or "".
func (p *Pane) createBusy(cluster string) string {
	switch p.creating[editSession{Kind: editCreate, Group: p.Ctx.GroupID, Cluster: cluster}.key()] {
	case createSending:
		return "a new index on " + cluster + " is being sent"
	case createChecking:
		return "a new index on " + cluster + " was " + views.OutcomeChecking
	case createUnsettled:
		return "the outcome of the last new index on " + cluster + " is unknown: r shows what the server holds"
	}
	return ""
}

// startCreate opens the editor on the draft for this cluster, or on a
// template for the namespace under the cursor.
func (p *Pane) startCreate() tea.Cmd {
	cluster, db, coll := p.selectedPlace()
	if ok, why := p.searchable(cluster); !ok {
		p.Toast("new index: "+why, true)
		return nil
	}
	if why := p.createBusy(cluster); why != "" {
		p.Toast("new index: "+why, true)
		return nil
	}
	s, ok := p.drafts[editSession{Kind: editCreate, Group: p.Ctx.GroupID, Cluster: cluster}.key()]
	if !ok {
		s = editSession{Kind: editCreate, Group: p.Ctx.GroupID, Cluster: cluster, Text: createTemplate(db, coll)}
	}
	return p.open(s)
}

func (p *Pane) startUpdate() tea.Cmd {
	ix, cluster, ok := p.selectedIndex()
	if !ok {
		p.Toast("edit: select an index first", true)
		return nil
	}
	if ix.Status == apiclient.IndexDeleting || p.deleting[ix.IndexID] {
		p.Toast("edit: "+components.Sanitize(ix.Name)+" is being deleted", true)
		return nil
	}
	s := editSession{Kind: editUpdate, Group: p.Ctx.GroupID, Cluster: cluster, IndexID: ix.IndexID, Name: ix.Name,
		Namespace: ix.Database + "." + ix.CollectionName, Type: ix.Type}
	if ix.LatestDefinitionVersion != nil {
		s.Version = ix.LatestDefinitionVersion.Version
	}
	if d, ok := p.drafts[s.key()]; ok {
		return p.open(d)
	}
	def := apiclient.IndexDefinition{}
	if ix.LatestDefinition != nil {
		def = *ix.LatestDefinition
	}
	s.Text = prettyJSON(def)
	return p.open(s)
}

// editorDone validates what the user saved. A refusal keeps the text and
// reopens the editor with the reason on top; saving it unchanged (or the
// editor failing) stops there and keeps the draft, as the file's header
// says: an unchanged template or definition is never sent. Only valid,
// changed text is sent, or a kept create the user confirms sending again.
func (p *Pane) editorDone(msg views.EditedMsg) tea.Cmd {
	p.editing = false
	s, ok := msg.Tag.(editSession)
	if !ok {
		return nil
	}
	s.Text = msg.Text
	if msg.Err != nil {
		p.drafts[s.key()] = s
		cause := errors.Unwrap(msg.Err)
		if cause == nil {
			cause = msg.Err
		}
		p.say(fmt.Sprintf("editor failed (%v); your draft is kept, nothing was sent", cause))
		p.Toast(p.notice, true)
		return nil
	}
	if s.Text == "" {
		delete(p.drafts, s.key())
		p.dropNotice()
		p.Toast("empty definition: nothing sent", false)
		return nil
	}
	if msg.Unchanged && s.Problem == "" {
		if _, kept := p.drafts[s.key()]; kept {
			if s.Resend {
				return p.confirmResend(s)
			}
			p.Toast("no changes: nothing sent (your draft is kept: press "+p.keyFor(s)+" to continue)", false)
			return nil
		}
		p.Toast("no changes: nothing sent", false)
		return nil
	}
	if msg.Unchanged && s.Problem != "" {
		// Reopened after a refusal and saved as it was: stop asking (no
		// loop), keep the draft and say why it was not sent.
		p.drafts[s.key()] = s
		p.say("definition refused, nothing sent: " + s.Problem + " (draft kept: press " + p.keyFor(s) + " to continue)")
		p.Toast("definition refused, nothing sent: "+s.Problem, true)
		return nil
	}
	parsed, err := parseEdit(s, msg.Source())
	if err != nil {
		// The reopened file's header is not the one saved: its line
		// numbers are the reopened file's.
		problem := problemIn(s, err, msg.HeaderLines)
		p.drafts[s.key()] = withProblem(s, problem)
		p.say("definition refused, nothing sent: " + problem)
		p.Toast(p.notice, true)
		return p.open(withProblem(s, problem))
	}
	s.Problem, s.Resend = "", false
	p.drafts[s.key()] = s // until the server accepts it
	p.dropNotice()
	return p.send(s, parsed)
}

// confirmResend asks before a kept create that was not created is sent
// again unchanged: an unchanged save alone never sends.
func (p *Pane) confirmResend(s editSession) tea.Cmd {
	name := "the kept definition"
	var req apiclient.SearchIndexCreateRequest
	if json.Unmarshal([]byte(views.BlankComments(s.Text)), &req) == nil && req.Name != "" {
		name = "index " + components.Sanitize(req.Name)
	}
	p.Confirm(views.ConfirmMsg{Title: "Send the new index again?",
		Body: fmt.Sprintf("%s was not found on %s: its answer was lost and the read-back did not find it, but it may still appear. Send it again, unchanged?",
			name, s.Cluster),
		Action: views.ActionMsg{Name: actNew, Target: s.key()}})
	return nil
}

// resend sends the kept create the user confirmed sending again.
func (p *Pane) resend(key string) tea.Cmd {
	s, ok := p.drafts[key]
	if !ok || !s.Resend {
		p.Toast("new index: no create is waiting to be sent again; nothing sent", true)
		return nil
	}
	in, err := parseEdit(s, views.BlankComments(s.Text))
	if err != nil { // it passed before it was sent; the rules are the client's
		problem := components.SanitizeText(err.Error())
		p.drafts[key] = withProblem(s, problem)
		p.say("definition refused, nothing sent: " + problem + " (draft kept: press " + p.keyFor(s) + " to continue)")
		p.Toast(p.notice, true)
		return nil
	}
	s.Resend = false
	p.drafts[key] = s
	return p.send(s, in)
}

func withProblem(s editSession, problem string) editSession {
	s.Problem, s.Resend = problem, false
	return s
}

func (p *Pane) keyFor(s editSession) string {
	km := keysOf(p.Ctx.Keys)
	a := km.New
	if s.Kind != editCreate {
		a = km.Edit
	}
	if k := a.Keys(); len(k) > 0 {
		return k[0]
	}
	return a.Name
}

// send sends a validated definition; the answer comes back as sendDone.
func (p *Pane) send(s editSession, in parsed) tea.Cmd {
	client, gid := p.Ctx.Client, p.Ctx.GroupID
	if s.Group != "" && s.Group != gid {
		// The draft was made in another project (the context changed while
		// a question about it was open): it is kept there, never sent here.
		p.drafts[s.key()] = s
		p.say("not sent: this draft belongs to another project; it is kept there (switch back and press " + p.keyFor(s) + ")")
		return nil
	}
	if client == nil {
		return nil
	}
	switch s.Kind {
	case editCreate:
		if why := p.createBusy(s.Cluster); why != "" {
			p.Toast("new index: "+why+"; nothing sent (your text is kept)", true)
			return nil
		}
		p.creating[s.key()] = createSending
		return views.Write(&p.Base, keyCreate, p.seq.Next(), "creating index "+in.create.Name, func(ctx context.Context) (sent, error) {
			ix, err := client.Search().Create(ctx, gid, s.Cluster, in.create)
			if ou, ok := apiclient.AsOutcomeUnknown(err); ok {
				// Never sent again: sendDone reads the list back.
				return sent{Session: s, Lost: &lostCreate{GroupID: gid, Sent: ou.Sent, Req: in.create}}, nil
			}
			return sent{Session: s, Index: ix}, err
		})
	case editUpdate:
		return views.Write(&p.Base, keyUpdate, p.seq.Next(), "updating index "+s.Name, func(ctx context.Context) (sent, error) {
			ix, err := client.Search().Update(ctx, gid, s.Cluster, s.IndexID, s.Type, in.def)
			return sent{Session: s, Index: ix}, err
		})
	default:
		return views.Write(&p.Base, keySaveAnalz, p.seq.Next(), "saving analyzers of "+s.Cluster, func(ctx context.Context) (sent, error) {
			as, err := client.Search().UpdateAnalyzers(ctx, gid, s.Cluster, in.analyzers)
			return sent{Session: s, Analyzers: as}, err
		})
	}
}

// sent is a send's answer, with the session so a failure can reopen it.
type sent struct {
	Session   editSession
	Index     *apiclient.SearchIndex
	Analyzers []apiclient.Analyzer
	// Lost: a create whose answer was lost; it is read back, never resent.
	Lost *lostCreate
}

// lostCreate is a create whose answer was lost and what its read-back
// found once Checked: the index (in sent.Index), nothing, or Err.
type lostCreate struct {
	GroupID string // the project it was sent to
	Sent    time.Time
	Req     apiclient.SearchIndexCreateRequest
	Checked bool
	Err     error
}

// verifyCreate reads the index back by what was sent (name, database,
// collection) and answers with the verified outcome.
func (p *Pane) verifyCreate(res sent) tea.Cmd {
	client, lost := p.Ctx.Client, *res.Lost
	return views.Get(&p.Base, keyCreate, p.seq.Next(), "checking what the server holds", func(ctx context.Context) (sent, error) {
		ix, ok, err := client.Search().VerifyCreateIndex(ctx, lost.GroupID, res.Session.Cluster, lost.Req)
		lost.Checked, lost.Err = true, err
		out := sent{Session: res.Session, Lost: &lost}
		if ok && err == nil {
			out.Index = ix
		}
		return out, nil
	})
}

// lostDone reports a create whose answer was lost: checking, then what
// the read-back found.
func (p *Pane) lostDone(res sent) tea.Cmd {
	s, lost := res.Session, res.Lost
	what := fmt.Sprintf("index %s on %s", components.Sanitize(lost.Req.Name), s.Cluster)
	if !lost.Checked {
		p.creating[s.key()] = createChecking
		p.sayWhile(s.key(), what+": "+views.OutcomeChecking)
		p.Toast(p.notice, false)
		return p.verifyCreate(res)
	}
	switch {
	case lost.Err != nil:
		p.creating[s.key()] = createUnsettled
		p.sayWhile(s.key(), what+": "+views.OutcomeStillUnknown(views.ErrText(lost.Err)).Error())
		p.Toast(p.notice, true)
		return p.load("")
	case res.Index == nil:
		delete(p.creating, s.key())
		s.Resend = true
		p.drafts[s.key()] = s
		p.say(what + " " + views.NotCreated + " (your text is kept: press " + p.keyFor(s) + ")")
		p.Toast(p.notice, true)
		return nil
	}
	delete(p.creating, s.key())
	delete(p.drafts, s.key())
	p.watching[res.Index.IndexID] = true
	p.dropNotice()
	p.ErrorsResolved() // the draft's errors went with it
	p.Toast(what+" "+views.VerifiedCreated+"; building", false)
	return tea.Batch(p.load(""), p.Arm())
}

// sendDone: success clears the draft and starts watching; a server refusal
// reopens the editor with the user's text and the server's words.
func (p *Pane) sendDone(msg views.Result[sent]) tea.Cmd {
	res := msg.Value
	s := res.Session
	if res.Lost != nil && msg.Err == nil {
		return p.lostDone(res)
	}
	if s.Kind == editCreate {
		delete(p.creating, s.key())
	}
	if msg.Err != nil {
		problem := "the server refused it: " + views.ErrText(msg.Err)
		if apiclient.IsValidation(msg.Err) {
			problem = components.Sanitize(msg.Err.Error())
		}
		p.drafts[s.key()] = withProblem(s, problem)
		p.say(problem + " (nothing changed; your text is kept)")
		if ae, ok := apiclient.AsError(msg.Err); ok && ae.Status != 400 && ae.Status != 409 {
			// Not the definition's fault (403, 5xx): keep the draft, no editor loop.
			p.Toast(p.notice, true)
			return nil
		}
		p.Toast(p.notice, true)
		return p.open(withProblem(s, problem))
	}
	delete(p.drafts, s.key())
	p.dropNotice()
	switch {
	case res.Index != nil:
		p.watching[res.Index.IndexID] = true
		verb := "created"
		if s.Kind == editUpdate {
			verb = fmt.Sprintf("updated to version %d", versionOf(res.Index))
		}
		// The draft's errors went with it.
		p.ErrorsResolved()
		p.Toast(fmt.Sprintf("index %s %s; building", components.Sanitize(res.Index.Name), verb), false)
		return tea.Batch(p.load(""), p.Arm())
	default:
		p.analyzers, p.analyzersLoaded = res.Analyzers, true
		p.rebuildAnalyzers()
		p.ErrorsResolved()
		p.Toast(fmt.Sprintf("analyzers of %s saved (%d)", s.Cluster, len(res.Analyzers)), false)
		return nil
	}
}

func versionOf(ix *apiclient.SearchIndex) int64 {
	if ix.LatestDefinitionVersion == nil {
		return 0
	}
	return ix.LatestDefinitionVersion.Version
}
