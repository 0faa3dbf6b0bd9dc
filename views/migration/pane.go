// Package migration is the live (push) migration pane: a guided flow from
// the organization's link token to a started migration, its progress with
// the lag over time, and an interactive cut-over. A presentation mode shows
// status, lag and readiness in large type for demos on a shared screen.
package migration

import (
	"context"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// Action names, as the keymap spells them. The drop-destination toggle is
// dangerous: read-only mode and gating hide it.
const (
	actLinkToken    = "migration.linkToken"
	actValidate     = "migration.validate"
	actStart        = "migration.start"
	actStartAnother = "migration.startAnother"
	actCutover      = "migration.cutover"
	actPresentation = "migration.presentation"
	actDrop         = "migration.dropDestination"
)

// Result keys.
const (
	keySources    = "sources"
	keyClusters   = "clusters"
	keyToken      = "token"
	keyValidate   = "validate"
	keyValidation = "validation"
	keyStart      = "start"
	keyJob        = "job"
	keyCutover    = "cutover"
)

// Form ids.
const (
	formToken   = actLinkToken
	formOptions = "migration.options"
)

// Pane is the migration pane.
type Pane struct {
	views.Base
	// asks are the actions that ask before they send (steps).
	asks map[string]views.Step

	seqSources, seqClusters, seqJob, seqValidation views.Seq

	step  step
	token tokenState

	sources       []sourceRow
	sourcesErr    error
	sourcesLoaded bool
	srcCursor     int

	clusters       []apiclient.Cluster
	clustersHidden int // shared-tier, flex and serverless: not destinations
	clustersErr    error
	clustersLoaded bool
	dstCursor      int

	draft      draft
	validation *validationState
	job        *jobState
	starting   string      // the start being sent ("billing-rs → payments-prod"), until its answer
	lost       []lostStart // starts whose answer was lost, oldest first

	presentation bool
	notice       string // the last outcome, under the step
	noticeErr    bool
}

// New builds the pane.
func New(ctx views.Context) views.Pane {
	p := &Pane{}
	p.Base = views.NewBase(ID, ctx, p.pollState)
	p.On(views.Handlers{Action: p.action, Key: p.key,
		Refresh: func() tea.Cmd { return tea.Batch(p.load("refreshing migration sources"), p.pollNow()) }})
	p.asks = p.steps()
	p.draft.reset()
	return p
}

func (p *Pane) SetSize(w, h int) { p.W, p.H = w, h }

func (p *Pane) Init() tea.Cmd { return p.load("loading migration sources") }

// load fetches the source projects of the org and the clusters of the
// project (the destinations).
func (p *Pane) load(task string) tea.Cmd {
	var cmds []tea.Cmd
	c, org, group := p.Ctx.Client, p.Ctx.OrgID, p.Ctx.GroupID
	if c == nil {
		return nil
	}
	if org != "" {
		n := p.seqSources.Next()
		cmds = append(cmds, views.Load(&p.Base, keySources, n, task, func(ctx context.Context) ([]apiclient.AvailableProject, error) {
			return c.Migration().SourceProjects(ctx, org)
		}))
	}
	if group != "" {
		n := p.seqClusters.Next()
		cmds = append(cmds, views.Load(&p.Base, keyClusters, n, "", func(ctx context.Context) ([]apiclient.Cluster, error) {
			return c.Clusters().All(ctx, group)
		}))
	}
	return tea.Batch(cmds...)
}

// Actions are the keymap's migration actions, each disabled with the
// reason when the pane's state refuses it (so help greys it and the footer
// and the hint line leave it out): the link token without an organization,
// the check and the start until the draft has what they need, cut-over
// until the migration is readyForCutover. Start is also off while a start
// is sent or a migration runs, and for a destination whose last start's
// outcome is unknown; start another is only for that case. The drop
// toggle only matters to a start, so it goes wherever the keymap's start
// goes, is off while a migration runs, and needs a destination to turn on.
func (p *Pane) Actions() []keymap.Action {
	if p.Ctx.Keys == nil {
		return nil
	}
	acts := p.Ctx.Keys.Scope(ID.Scope())
	start, _ := p.keyAction(actStart)
	for i, a := range acts {
		if !a.Enabled() {
			continue
		}
		why := p.blocked(a.Name)
		if a.Name == actDrop && !start.Enabled() {
			why = start.DisabledReason
		}
		if why != "" {
			acts[i] = a.Disabled(why)
		}
	}
	return acts
}

// keyName is the key an action is bound to, as help shows it, or its name.
func (p *Pane) keyName(name string) string {
	if a, ok := p.keyAction(name); ok && len(a.Keys()) > 0 {
		return a.Help().Key
	}
	return name
}

// dropHint says how to turn the drop toggle on, with its key as bound.
func (p *Pane) dropHint() string {
	if a, ok := p.keyAction(actDrop); ok && len(a.Keys()) > 0 {
		return a.Help().Key + " turns it on"
	}
	return "bind " + actDrop + " to turn it on"
}

// keyAction finds one of the keymap's actions of this pane.
func (p *Pane) keyAction(name string) (keymap.Action, bool) {
	if p.Ctx.Keys == nil {
		return keymap.Action{}, false
	}
	return p.Ctx.Keys.Lookup(name)
}

// SetVisible starts or stops polling. A hidden pane keeps polling only a
// migration it started that has not finished.
func (p *Pane) SetVisible(v bool) tea.Cmd {
	if !v && p.step == stepToken {
		p.token.hide() // shown once: leaving the pane forgets it
	}
	return p.Base.SetVisible(v)
}

// pollState: the pane polls only what moves (a started migration, a
// pending check while visible), fast while it works or cuts over; a
// started migration is watched while hidden.
func (p *Pane) pollState() views.PollState {
	running := p.job != nil && !p.job.done()
	validating := p.validation != nil && !p.validation.v.Done() && p.Visible()
	return views.PollState{
		Off:      !running && !validating,
		Moving:   validating || (running && (p.job.status() == apiclient.MigrationWorking || p.job.cutoverAt != nil)),
		Watching: running,
	}
}

// Busy names a migration this session started while it still runs.
func (p *Pane) Busy() string {
	if p.job == nil || p.job.done() {
		return ""
	}
	return "migration " + p.job.label() + " (" + p.job.summary() + ")"
}

// Selected is what `y` copies: the link token while it is shown, else the
// thing under the cursor of the step, or the migration's id.
func (p *Pane) Selected() string {
	switch p.step {
	case stepToken:
		return p.token.value
	case stepSource:
		if r, ok := p.currentSource(); ok {
			return r.project.ProjectID
		}
	case stepDestination:
		if c, ok := p.currentCluster(); ok {
			return c.Name
		}
	case stepOptions:
		if p.validation != nil {
			return p.validation.v.ID
		}
	case stepProgress:
		if p.job != nil {
			return p.job.id
		}
	}
	return ""
}

// Update handles a message; when it took away the cause of a refusal (an
// action's state refusal changed or went: a source was picked after
// "pick a source deployment first"), the pane's errors on screen go first,
// before anything the message itself says. A start just sent takes away
// no cause: it only refuses more.
func (p *Pane) Update(msg tea.Msg) (views.Pane, tea.Cmd) {
	before, sending := p.blockedNow(), p.starting
	_, cmd := p.update(msg)
	if sending == "" && p.starting != "" {
		return p, cmd
	}
	after := p.blockedNow()
	for n, why := range before {
		if after[n] != why {
			p.ErrorsResolvedFirst()
			return p, cmd
		}
	}
	return p, cmd
}

func (p *Pane) update(msg tea.Msg) (views.Pane, tea.Cmd) {
	if cmd, done := p.Handle(msg, p.pollNow); done {
		return p, cmd
	}
	if cmd, ok := p.result(msg); ok {
		return p, cmd
	}
	switch msg := msg.(type) {
	case views.ContextChangedMsg:
		old := p.Ctx
		p.Ctx = msg.Ctx
		if msg.Scope && (old.OrgID != msg.Ctx.OrgID || old.GroupID != msg.Ctx.GroupID) {
			// A new project has other destinations; the source side stays.
			p.clusters, p.clustersLoaded, p.clustersErr, p.dstCursor = nil, false, nil, 0
			var why tea.Cmd
			if old.GroupID != msg.Ctx.GroupID {
				why = p.dropDest(old.ProjectName)
			}
			if old.OrgID != msg.Ctx.OrgID {
				had := p.draft.source != nil
				p.sources, p.sourcesLoaded, p.sourcesErr, p.srcCursor = nil, false, nil, 0
				p.draft.reset()
				p.token = tokenState{}
				if had {
					why = p.backTo(stepSource, "organization changed to "+components.Sanitize(msg.Ctx.OrgName)+
						": pick a source deployment linked to it")
				}
			}
			return p, tea.Batch(p.Reload(func() tea.Cmd { return p.load("loading migration sources") }), p.Arm(), why)
		}
		return p, p.Arm()
	}
	return p, nil
}

// dropDest forgets the picked destination (and its check) when the
// project changes: the destinations are the new project's clusters. A
// step past the destination goes back to it, saying why.
func (p *Pane) dropDest(oldProject string) tea.Cmd {
	dest := p.draft.dest
	p.draft.dest, p.validation = nil, nil
	if dest == nil {
		return nil
	}
	return p.backTo(stepDestination, "project changed to "+components.Sanitize(p.Ctx.ProjectName)+": pick a destination in it ("+
		components.Sanitize(dest.Name)+" is in "+components.Sanitize(oldProject)+")")
}

// backTo goes back to step s from a later step of the draft (not from the
// progress of a started migration) and says why.
func (p *Pane) backTo(s step, why string) tea.Cmd {
	if p.step > s && p.step != stepProgress {
		p.goTo(s)
	}
	return p.say(why, false)
}

// pollNow fetches what moves: the started migration and a pending check.
func (p *Pane) pollNow() tea.Cmd {
	var cmds []tea.Cmd
	c := p.Ctx.Client
	if c == nil {
		return nil
	}
	if p.job != nil && !p.job.done() {
		n := p.seqJob.Next()
		group, id := p.job.groupID, p.job.id
		cmds = append(cmds, views.Load(&p.Base, keyJob, n, "", func(ctx context.Context) (*apiclient.LiveMigration, error) {
			return c.Migration().Get(ctx, group, id)
		}))
	}
	if p.validation != nil && !p.validation.v.Done() {
		n := p.seqValidation.Next()
		group, id := p.validation.groupID, p.validation.v.ID
		cmds = append(cmds, views.Load(&p.Base, keyValidation, n, "", func(ctx context.Context) (*apiclient.MigrationValidation, error) {
			return c.Migration().ValidationStatus(ctx, group, id)
		}))
	}
	if len(cmds) == 0 {
		return p.Arm()
	}
	return tea.Batch(cmds...)
}

// CanGoBack: presentation mode is open; esc leaves it.
func (p *Pane) CanGoBack() bool { return p.presentation }

// key handles the plain keys: moving in lists, picking, moving between
// steps and leaving presentation mode.
func (p *Pane) key(msg tea.KeyPressMsg) tea.Cmd {
	k := msg.String()
	if p.presentation {
		if k == "esc" {
			p.presentation = false
		}
		return nil
	}
	nav := p.navKeys()
	switch {
	case k == "left" || k == "backspace" || k == "esc":
		return p.goTo(p.step - 1)
	case k == "right":
		return p.goTo(p.step + 1)
	case nav.up(k):
		p.move(-1)
	case nav.down(k):
		p.move(1)
	case nav.home(k):
		p.move(-1 << 20)
	case nav.end(k):
		p.move(1 << 20)
	case k == "enter":
		return p.pick()
	}
	return nil
}

// goTo changes step; leaving the token step hides a token shown once.
func (p *Pane) goTo(s step) tea.Cmd {
	if s < stepToken || s > stepProgress || s == p.step {
		return nil
	}
	if p.step == stepToken {
		p.token.hide()
	}
	p.step = s
	p.notice = ""
	return nil
}

func (p *Pane) move(d int) {
	switch p.step {
	case stepSource:
		p.srcCursor = clamp(p.srcCursor+d, 0, len(p.sources)-1)
	case stepDestination:
		p.dstCursor = clamp(p.dstCursor+d, 0, len(p.clusters)-1)
	}
}

// pick takes the row under the cursor and moves on.
func (p *Pane) pick() tea.Cmd {
	switch p.step {
	case stepToken:
		return p.goTo(stepSource)
	case stepSource:
		r, ok := p.currentSource()
		if !ok {
			return p.say("no source deployment to pick: link the source organization with a link token (l), then r to reload", true)
		}
		p.draft.pickSource(r)
		p.validation = nil
		return p.goTo(stepDestination)
	case stepDestination:
		c, ok := p.currentCluster()
		if !ok {
			return p.say("no dedicated cluster in this project to migrate into", true)
		}
		if why := p.draft.destWhy(c); why != "" {
			return p.say(c.Name+" cannot receive this migration: "+why+"; pick another", true)
		}
		cl := c
		p.draft.dest = &cl
		p.validation = nil
		return p.goTo(stepOptions)
	}
	return nil
}

func (p *Pane) say(text string, isErr bool) tea.Cmd {
	p.notice, p.noticeErr = text, isErr
	p.Toast(text, isErr)
	return nil
}

func clamp(v, lo, hi int) int {
	if hi < lo {
		return lo
	}
	return min(max(v, lo), hi)
}

// navKeys are the keymap's navigation keys (vi and arrows by default).
type navKeys struct{ km *keymap.KeyMap }

func (p *Pane) navKeys() navKeys {
	if p.Ctx.Keys == nil {
		return navKeys{keymap.Default()}
	}
	return navKeys{p.Ctx.Keys}
}

func bound(a keymap.Action, k string) bool { return slices.Contains(a.Keys(), k) }

func (n navKeys) up(k string) bool   { return bound(n.km.Navigation.Up, k) }
func (n navKeys) down(k string) bool { return bound(n.km.Navigation.Down, k) }
func (n navKeys) home(k string) bool { return bound(n.km.Navigation.Home, k) }
func (n navKeys) end(k string) bool  { return bound(n.km.Navigation.End, k) }
