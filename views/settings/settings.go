// Package settings is the settings pane: the project's auditing
// configuration (with the filter edited in $EDITOR), custom DNS for AWS
// clusters, and its cloud provider access roles.
//
// Every change starts from a gated action (a, e, d, n, z, x) or from a
// confirmation the root opened and gated; enter on a setting row asks the
// same confirmation its key does. Nothing is sent from a plain key press.
package settings

import (
	"context"
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// Pane is the settings pane.
type Pane struct {
	views.Base

	seq views.Seq

	loaded bool
	snap   snapshot

	cursor int    // index into rows()
	keep   string // the id of the row under the cursor, across reloads
	filter string

	// draft is audit filter text the user wrote that is not saved yet (a
	// syntax error, a refused save); e reopens the editor with it.
	draft    string
	draftErr string
	// notice is the last explanation or refusal, shown under the sections.
	notice    string
	noticeErr bool
	// asks are the actions that ask before they send (steps).
	asks map[string]views.Step
}

// snapshot is one load of the three sections; each may fail on its own
// (auditing needs Project Owner to read, the rest Project Read Only).
type snapshot struct {
	Audit    *apiclient.AuditLog
	AuditErr error
	// AuditDoc is the audit filter through the bounded path, measured
	// and pretty-printed off the UI loop (see filterDocument).
	AuditDoc components.Document
	DNS      *apiclient.AWSCustomDNS
	DNSErr   error
	Roles    *apiclient.AccessRoles
	RolesErr error
}

// New is the pane's Factory.
func New(ctx views.Context) views.Pane {
	p := &Pane{}
	p.Base = views.NewBase(ID, ctx, p.pollState)
	p.On(views.Handlers{Action: p.action, Edited: p.editorDone, Key: p.key,
		Refresh: func() tea.Cmd { return p.load("refreshing settings") }})
	p.asks = p.steps()
	return p
}

// pollState: the pane polls while visible, once a project is chosen.
func (p *Pane) pollState() views.PollState {
	return views.PollState{Off: p.Ctx.GroupID == ""}
}

func (p *Pane) Init() tea.Cmd    { return p.load("loading settings") }
func (p *Pane) SetSize(w, h int) { p.W, p.H = w, h }
func (p *Pane) Busy() string     { return "" }

func (p *Pane) Actions() []keymap.Action {
	if p.Ctx.Keys == nil {
		return nil
	}
	acts := slices.Clone(p.Ctx.Keys.Scope(ID.Scope()))
	r, onRow := p.row()
	notReady := p.notReady()
	for i, a := range acts {
		switch a.Name {
		case actAuditing, actEditFilter, actCustomDNS, actNewRole:
			if notReady != "" {
				acts[i] = a.Disabled(notReady)
			}
		case actAuthorize, actDeauthorize:
			if notReady != "" {
				acts[i] = a.Disabled(notReady)
			} else if !onRow || r.role == nil {
				acts[i] = a.Disabled("on an access role: select one (R)")
			}
		}
	}
	return acts
}

// Selected is what `y` copies: a role's id, or the audit filter.
func (p *Pane) Selected() string {
	r, ok := p.row()
	if !ok {
		return ""
	}
	switch {
	case r.role != nil:
		return r.role.Key()
	case r.id == rowFilter && p.snap.Audit != nil:
		return p.snap.Audit.AuditFilter
	}
	return ""
}

// load fetches the three sections; the Cmd captures what it needs.
func (p *Pane) load(task string) tea.Cmd {
	client, gid := p.Ctx.Client, p.Ctx.GroupID
	if client == nil || gid == "" {
		return nil
	}
	return views.Load(&p.Base, keyLoad, p.seq.Next(), task, func(ctx context.Context) (snapshot, error) {
		s := client.Settings()
		var snap snapshot
		snap.Audit, snap.AuditErr = s.AuditLog(ctx, gid)
		snap.AuditDoc = filterDocument(snap.Audit)
		snap.DNS, snap.DNSErr = s.CustomDNS(ctx, gid)
		snap.Roles, snap.RolesErr = s.AccessRoles(ctx, gid)
		// The load fails as a whole only when nothing could be read.
		if snap.AuditErr != nil && snap.DNSErr != nil && snap.RolesErr != nil {
			return snap, snap.RolesErr
		}
		return snap, nil
	})
}

// Result keys.
const (
	keyLoad  = "load"
	keyWrite = "write"
)

// written is a write's answer: what to say, and whether to reload.
type written struct {
	what string
	// filterText is the filter a failed save tried, kept as the draft.
	filterText string
	audit      *apiclient.AuditLog
	auditDoc   components.Document
	dns        *apiclient.AWSCustomDNS
	// form is the form dialog that waits for this answer, if any.
	form string
	// role is a role just created: the cursor moves to it.
	role string
}

func (p *Pane) Update(msg tea.Msg) (views.Pane, tea.Cmd) {
	if cmd, done := p.Handle(msg, func() tea.Cmd { return p.load("") }); done {
		return p, cmd
	}
	switch msg := msg.(type) {
	case views.Result[snapshot]:
		return p, p.loadDone(msg)
	case views.Result[written]:
		return p, p.writeDone(msg)
	case views.FilterMsg:
		p.filter = msg.Text
		p.place()
	case views.ContextChangedMsg:
		p.Ctx = msg.Ctx
		if msg.Scope {
			p.loaded, p.snap, p.cursor, p.keep = false, snapshot{}, 0, ""
			p.draft, p.draftErr, p.notice = "", "", ""
			return p, p.Reload(func() tea.Cmd { return p.load("loading settings") })
		}
	}
	return p, nil
}

func (p *Pane) loadDone(msg views.Result[snapshot]) tea.Cmd {
	if !p.seq.Latest(msg.Seq) {
		return nil
	}
	p.snap, p.loaded = msg.Value, true
	p.place()
	return nil
}

func (p *Pane) writeDone(msg views.Result[written]) tea.Cmd {
	w := msg.Value
	if msg.Err != nil {
		if w.filterText != "" {
			p.draft = w.filterText
			p.draftErr = "not saved: " + views.ErrText(msg.Err)
		}
		p.say(w.what+" failed: "+views.ErrText(msg.Err), true)
		if w.form != "" {
			// The form stays open with the error and what was typed.
			p.FormDone(w.form, msg.Err)
			return p.load("")
		}
		p.Toast(w.what+" failed: "+views.ErrText(msg.Err), true)
		return p.load("")
	}
	if w.form != "" {
		p.FormDone(w.form, nil)
	}
	if w.role != "" {
		p.keep = w.role
	}
	if w.audit != nil {
		p.snap.Audit, p.snap.AuditErr, p.snap.AuditDoc = w.audit, nil, w.auditDoc
	}
	if w.dns != nil {
		p.snap.DNS, p.snap.DNSErr = w.dns, nil
	}
	if w.filterText != "" {
		p.draft, p.draftErr = "", ""
	}
	p.say(w.what, false)
	p.Toast(w.what, false)
	return p.load("")
}

// say sets the notice line under the sections.
func (p *Pane) say(text string, isErr bool) { p.notice, p.noticeErr = text, isErr }

// refuse explains on screen, and in a toast, why nothing was sent.
func (p *Pane) refuse(text string) tea.Cmd {
	p.say(text, true)
	p.Toast(text, true)
	return nil
}

// key moves the cursor; enter on a setting row asks to flip it.
func (p *Pane) key(msg tea.KeyPressMsg) tea.Cmd {
	k := msg.String()
	if k == "enter" || k == "space" {
		return p.activate()
	}
	km := p.Ctx.Keys
	if km == nil {
		return nil
	}
	rows := p.rows()
	has := func(a keymap.Action) bool {
		for _, b := range a.Keys() {
			if b == k {
				return true
			}
		}
		return false
	}
	switch {
	case has(km.Navigation.Up):
		p.cursor--
	case has(km.Navigation.Down):
		p.cursor++
	case has(km.Navigation.Home):
		p.cursor = 0
	case has(km.Navigation.End):
		p.cursor = len(rows) - 1
	case has(km.Navigation.PageDown), has(km.Navigation.HalfDown):
		p.cursor += max(1, p.H/2)
	case has(km.Navigation.PageUp), has(km.Navigation.HalfUp):
		p.cursor -= max(1, p.H/2)
	default:
		return nil
	}
	p.cursor = max(0, min(p.cursor, len(rows)-1))
	if r, ok := p.row(); ok {
		p.keep = r.id
	}
	return nil
}

// activate is enter on a row: the same confirmation as the row's key.
func (p *Pane) activate() tea.Cmd {
	r, ok := p.row()
	if !ok {
		return nil
	}
	switch r.id {
	case rowAuditing:
		return p.askAuditing()
	case rowAuthSuccess:
		return p.askAuthSuccess()
	case rowFilter:
		p.say("press e to edit the audit filter in your editor", false)
		return nil
	case rowDNS:
		return p.askDNS()
	}
	if r.role != nil {
		p.say(fmt.Sprintf("role %s: z authorizes it, x deauthorizes it", r.role.Key()), false)
	}
	return nil
}
