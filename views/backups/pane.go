// Package backups is the cloud backup pane: a cluster's snapshots (sharded
// members expandable), restore jobs with live status, export jobs, export
// buckets, the backup schedule and the project's compliance policy; with
// on-demand snapshots, expiration changes, deletes, a restore wizard,
// cancels, exports, bucket creation and schedule edits. Jobs this session
// starts are watched until they end, with a toast even when another pane
// is on screen.
package backups

import (
	"context"
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// view is what the pane shows; tab cycles them.
type view int

const (
	viewSnapshots view = iota
	viewRestores
	viewExports
	viewBuckets
	viewSchedule
	viewCompliance
	viewCount
)

// jumpViews are the views a jump from another pane names (views.SelectMsg).
var jumpViews = map[string]view{"snapshots": viewSnapshots, "restores": viewRestores, "exports": viewExports}

func (v view) title() string {
	return [...]string{"Snapshots", "Restores", "Exports", "Buckets", "Schedule", "Compliance"}[v]
}

// Result keys.
const (
	keyClusters = "clusters"
	keyData     = "data"
	keyPoll     = "poll"
	keyWatch    = "watch"
	keyWrite    = "write"
	keyWizard   = "wizard"
)

// Pane is the backups pane.
type Pane struct {
	views.Base
	want     views.Wanted // the item a jump from the board asked to select
	wantView *view        // and the view it is in, for when the cluster opens

	seq views.Seq
	// appliedSeq is the newest load whose answer is on screen.
	appliedSeq uint64

	clusters    []clusterRef
	clustersErr error
	loadedList  bool
	picker      components.Table

	cluster *clusterRef // the cluster shown; nil: the picker
	data    clusterData
	loaded  bool
	filter  string
	view    view

	snaps    components.Table
	restores components.Table
	exports  components.Table
	buckets  components.Table
	detail   components.Detail
	expanded map[string]bool
	// shown is the snapshot or restore job whose detail is shown (enter);
	// item shows it, openText is the text it was given.
	shown    *opened
	item     components.Detail
	openText string

	// firstSeen is when this session first saw each running restore, for
	// the elapsed time when the server's clock runs ahead of ours.
	firstSeen map[string]time.Time
	watching  map[string]watch
	wizard    *wizard
	// steps are the actions that ask first (newSteps); lists the list
	// views (newLists).
	steps map[string]views.Step
	lists map[view]*listView
	// notice is the last refusal, over the list; noticeAct is the action
	// it refused, "" for one that says no cause to check (see settle).
	notice    string
	noticeAct string
	// kept is the compliance policy's hold on the snapshot under the
	// cursor, as the delete key is refused with; when it goes, the root's
	// error saying so goes too.
	kept   string
	keptID string // the snapshot kept names
	// focusRestore is a restore just started: the cursor goes to it once
	// it is listed.
	focusRestore string
	// clockArmed: a clockTick is pending (see armClock).
	clockArmed bool
	// projectNames are the projects' names the wizard listed, by id.
	projectNames map[string]string
	// away: the last load or watch check got no answer from the server (or
	// a 5xx): the watches are kept and the title says they wait for it.
	away bool
}

// serverAway reports whether err means the server is not answering (no
// answer, a 5xx), as opposed to an answer that refuses.
func serverAway(err error) bool {
	if err == nil {
		return false
	}
	var denied *apiclient.DeniedError
	if errors.As(err, &denied) {
		return false
	}
	if e, ok := apiclient.AsError(err); ok {
		return e.Status >= 500
	}
	return !errors.Is(err, context.Canceled)
}

// clockTick redraws the running restores' ELAPSED and spinner between
// polls, so the time ticks by the second instead of jumping at each poll.
type clockTick struct{}

// armClock schedules the next clockTick while the Restores view is on
// screen with a restore running; one at a time.
func (p *Pane) armClock() tea.Cmd {
	if p.clockArmed || !p.Visible() || p.cluster == nil || p.view != viewRestores {
		return nil
	}
	running := false
	for _, r := range p.data.Restores {
		running = running || r.running()
	}
	if !running {
		return nil
	}
	p.clockArmed = true
	timer := p.Ctx.Timer
	if timer == nil {
		timer = tea.Tick
	}
	return timer(time.Second, func(time.Time) tea.Msg { return views.PaneMsg{Pane: ID, Msg: clockTick{}} })
}

// SetVisible is the kit's, with the restores' clock started on screen.
func (p *Pane) SetVisible(v bool) tea.Cmd {
	return tea.Batch(p.Base.SetVisible(v), p.armClock())
}

// New is the pane's Factory.
func New(ctx views.Context) views.Pane { return NewPane(ctx) }

// NewPane builds the pane with its concrete type (tests).
func NewPane(ctx views.Context) *Pane {
	p := &Pane{expanded: map[string]bool{}, firstSeen: map[string]time.Time{}, watching: map[string]watch{}, projectNames: map[string]string{}}
	p.Base = views.NewBase(ID, ctx, p.pollState)
	p.On(views.Handlers{Key: p.key,
		Action: func(msg views.ActionMsg) tea.Cmd { return tea.Batch(p.action(msg), p.armClock()) }})
	p.steps = p.newSteps()
	p.lists = p.newLists()
	p.picker = components.NewTable(pickerColumns(), ctx.Theme, ctx.Keys)
	p.snaps = components.NewTable(snapColumns(), ctx.Theme, ctx.Keys)
	p.restores = components.NewTable(restoreColumns(), ctx.Theme, ctx.Keys)
	p.exports = components.NewTable(exportColumns(), ctx.Theme, ctx.Keys)
	p.buckets = components.NewTable(bucketColumns(), ctx.Theme, ctx.Keys)
	p.detail = components.NewDetail(ctx.Theme, ctx.Keys)
	p.item = components.NewDetail(ctx.Theme, ctx.Keys)
	p.Widgets(&p.picker, &p.snaps, &p.restores, &p.exports, &p.buckets, &p.detail, &p.item)
	return p
}

func (p *Pane) SetSize(w, h int) { p.W, p.H = w, h; p.layout() }

func (p *Pane) Init() tea.Cmd { return p.loadClusters("loading clusters") }

// Busy names a restore this session started that is still running.
func (p *Pane) Busy() string {
	for _, w := range p.watching {
		if w.Kind == "restore" {
			return w.Label + " running"
		}
	}
	return ""
}

// Selected is the id of the row under the cursor (a snapshot, a restore job,
// an export job, a bucket) or the picker's cluster name.
func (p *Pane) Selected() string {
	if p.cluster == nil {
		return p.picker.SelectedID()
	}
	switch p.view {
	case viewSnapshots:
		if s, ok := p.selectedSnap(); ok {
			return s.ID
		}
	case viewRestores:
		return p.restores.SelectedID()
	case viewExports:
		return p.exports.SelectedID()
	case viewBuckets:
		return p.buckets.SelectedID()
	}
	return ""
}

// Shows tells the root whether the `/` filter shows the snapshot, restore
// or export a jump asks for (views.Shower): the filter is kept then, and
// lifted (with a notice) only when it hides the item. Known is false until
// the item's cluster and view are loaded.
func (p *Pane) Shows(v, id string) (shown, known bool) {
	if p.cluster == nil || !p.loaded {
		return false, false
	}
	l := p.lists[jumpViews[v]]
	if l == nil || !l.holds(id) {
		return false, false
	}
	// The lists hold only the rows the filter shows.
	return l.table.MatchesFilter(id), true
}

func (p *Pane) Update(msg tea.Msg) (views.Pane, tea.Cmd) {
	if cmd, done := p.Handle(msg, p.tick); done {
		return p, cmd // the kit's: a poll round, the pause
	}
	switch msg := msg.(type) {
	case views.Result[[]clusterRef]:
		return p, p.clustersResult(msg)
	case views.Result[dataResult]:
		p.away = serverAway(msg.Err)
		return p, p.dataResult(msg)
	case views.Result[watchResult]:
		p.away = serverAway(msg.Err)
		return p, p.watchResult(msg)
	case views.Result[writeResult]:
		return p, p.writeResult(msg)
	case views.Result[wizardLoaded]:
		return p, p.wizardResult(msg)
	case views.Result[restoreReply]:
		return p, p.restoreAnswer(msg)
	case views.RefreshMsg:
		if p.cluster == nil {
			return p, tea.Batch(p.loadClusters("refreshing clusters"), p.Arm())
		}
		return p, tea.Batch(p.loadData("refreshing backups of "+p.cluster.Name, allParts, keyData), p.Arm())
	case views.FilterMsg:
		p.filter = msg.Text
		p.rebuild()
		p.settle(false)
		return p, nil
	case views.SelectMsg:
		// Opened from the board: the view that holds the item, selected now
		// or when it is loaded.
		v := jumpViews[msg.View]
		p.view = v
		p.want.Set(msg.ItemID)
		if p.cluster == nil {
			p.wantView = &v // the cluster opens when its list is in
		}
		p.rebuild()
		p.settle(false)
		return p, nil
	case views.ContextChangedMsg:
		old := p.Ctx
		p.Ctx = msg.Ctx
		p.layout()
		if msg.Reload(old) {
			if old.GroupID != p.Ctx.GroupID {
				p.watching = map[string]watch{}
			}
			p.cluster, p.loaded, p.loadedList, p.data, p.view, p.wizard, p.shown = nil, false, false, clusterData{}, viewSnapshots, nil, nil
			p.rebuild()
			return p, tea.Batch(p.Reload(func() tea.Cmd { return p.loadClusters("loading clusters") }), p.Arm())
		}
		return p, p.Arm()
	case clockTick:
		p.clockArmed = false
		if p.Visible() && p.view == viewRestores {
			p.lists[viewRestores].fill()
			p.refreshOpen()
		}
		return p, p.armClock()
	}
	return p, nil
}

// open shows one cluster's backups.
func (p *Pane) open(c clusterRef) tea.Cmd {
	p.cluster = &c
	p.data, p.loaded, p.view, p.notice, p.noticeAct, p.kept, p.shown = clusterData{Cluster: c}, false, viewSnapshots, "", "", "", nil
	if p.wantView != nil {
		p.view, p.wantView = *p.wantView, nil
	}
	p.data.Route, p.data.Note = routeFor(c.Kind, p.Ctx.Now())
	p.rebuild()
	// "pick a cluster first" and the like are answered now.
	p.ErrorsResolved()
	return tea.Batch(p.loadData("loading backups of "+c.Name, allParts, keyData), p.Arm())
}
