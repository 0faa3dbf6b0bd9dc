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
	want     string // the item a jump from the board asked to select (views.SelectMsg)
	wantView *view  // and the view it is in, for when the cluster opens

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
	p.steps = p.newSteps()
	p.lists = p.newLists()
	p.picker = components.NewTable(pickerColumns(), ctx.Theme, ctx.Keys)
	p.snaps = components.NewTable(snapColumns(), ctx.Theme, ctx.Keys)
	p.restores = components.NewTable(restoreColumns(), ctx.Theme, ctx.Keys)
	p.exports = components.NewTable(exportColumns(), ctx.Theme, ctx.Keys)
	p.buckets = components.NewTable(bucketColumns(), ctx.Theme, ctx.Keys)
	p.detail = components.NewDetail(ctx.Theme, ctx.Keys)
	p.item = components.NewDetail(ctx.Theme, ctx.Keys)
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

// moving reports whether anything shown is still changing.
func (p *Pane) moving() bool {
	if p.cluster == nil || !p.loaded {
		return false
	}
	for _, s := range p.data.Snaps {
		if !s.Done {
			return true
		}
	}
	for _, r := range p.data.Restores {
		if r.running() {
			return true
		}
	}
	for _, e := range p.data.Exports {
		if !e.Done() {
			return true
		}
	}
	return p.data.Policy != nil && p.data.Policy.State != "" && p.data.Policy.State != apiclient.ComplianceActive
}

// WatchEvery is how often a moving job is polled, as the cloud CLI's
// watch does.
const WatchEvery = 4 * time.Second

// pollState: visible, always (fast while something moves); hidden, only
// while a job this session started is unfinished.
func (p *Pane) pollState() views.PollState {
	return views.PollState{Off: p.Ctx.GroupID == "", Moving: p.moving(), Watching: len(p.watching) > 0, Fast: WatchEvery}
}

// tick is one poll: visible, the parts of the shown cluster that move (or
// everything at the normal interval); hidden, each watched job.
func (p *Pane) tick() tea.Cmd {
	if p.Visible() {
		if p.cluster == nil {
			return p.loadClusters("")
		}
		want := allParts
		if p.moving() {
			want = parts{}
			for _, s := range p.data.Snaps {
				want.snaps = want.snaps || !s.Done
			}
			for _, r := range p.data.Restores {
				want.restores = want.restores || r.running()
			}
			for _, e := range p.data.Exports {
				want.exports = want.exports || !e.Done()
			}
			if pol := p.data.Policy; pol != nil && pol.State != "" && pol.State != apiclient.ComplianceActive {
				want.rest = true
			}
			// A part whose last read failed (an outage emptied it) and one
			// holding a job this session watches are read too: else a
			// watched restore that ended while the server was away would
			// stay watched while only a snapshot moves.
			want.snaps = want.snaps || p.data.SnapErr != nil || p.watchingHere("snapshot")
			want.restores = want.restores || p.data.RestErr != nil || p.watchingHere("restore")
			want.exports = want.exports || p.data.ExpErr != nil || p.watchingHere("export")
		}
		// A watched job on another cluster is checked on its own.
		cmds := []tea.Cmd{p.loadData("", want, keyPoll)}
		for _, w := range p.watching {
			if w.Cluster.Name != p.cluster.Name {
				cmds = append(cmds, p.checkWatch(w))
			}
		}
		return tea.Batch(cmds...)
	}
	var cmds []tea.Cmd
	for _, w := range p.watching {
		cmds = append(cmds, p.checkWatch(w))
	}
	return tea.Batch(cmds...)
}

// watchingHere reports whether a job of that kind on the cluster shown is
// watched.
func (p *Pane) watchingHere(kind string) bool {
	for _, w := range p.watching {
		if w.Kind == kind && p.cluster != nil && w.Cluster.Name == p.cluster.Name {
			return true
		}
	}
	return false
}

func (p *Pane) loadClusters(task string) tea.Cmd {
	client, gid := p.Ctx.Client, p.Ctx.GroupID
	if client == nil || gid == "" {
		return nil
	}
	return views.Load(&p.Base, keyClusters, p.seq.Next(), task, func(ctx context.Context) ([]clusterRef, error) {
		return loadClusters(ctx, client, gid)
	})
}

// dataResult carries a load and the parts it fetched.
type dataResult struct {
	Data clusterData
	Want parts
}

func (p *Pane) loadData(task string, want parts, key string) tea.Cmd {
	client, gid, now := p.Ctx.Client, p.Ctx.GroupID, p.Ctx.Now()
	if client == nil || gid == "" || p.cluster == nil {
		return nil
	}
	cl := *p.cluster
	return views.Load(&p.Base, key, p.seq.Next(), task, func(ctx context.Context) (dataResult, error) {
		d := loadCluster(ctx, client, gid, cl, now, want)
		return dataResult{Data: d, Want: want}, firstErr(want, d)
	})
}

// firstErr is the error of the first part asked for that failed; a poll
// backs off on it.
// A part the caller's role may not read is no failure: the pane says so in
// its place (views.NotVisible) and is not stale for it.
func firstErr(want parts, d clusterData) error {
	failed := func(err error) bool {
		_, denied := views.NotVisible(err)
		return err != nil && !denied
	}
	switch {
	case want.snaps && failed(d.SnapErr):
		return d.SnapErr
	case want.restores && failed(d.RestErr):
		return d.RestErr
	case want.exports && failed(d.ExpErr):
		return d.ExpErr
	}
	return nil
}

func (p *Pane) checkWatch(w watch) tea.Cmd {
	client, gid, now := p.Ctx.Client, p.Ctx.GroupID, p.Ctx.Now()
	if client == nil {
		return nil
	}
	return views.Load(&p.Base, keyWatch, p.seq.Next(), "", func(ctx context.Context) (watchResult, error) {
		return checkWatch(ctx, client, gid, w, now)
	})
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
	kit, done := p.Handle(msg, p.tick)
	if done {
		return p, kit
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
		p.view, p.want = v, msg.ItemID
		if p.cluster == nil {
			p.wantView = &v // the cluster opens when its list is in
		}
		p.rebuild()
		p.settle(false)
		return p, nil
	case views.ContextChangedMsg:
		old := p.Ctx
		p.Ctx = msg.Ctx
		for _, t := range p.tables() {
			t.SetTheme(p.Ctx.Theme)
		}
		p.detail.SetTheme(p.Ctx.Theme)
		p.item.SetTheme(p.Ctx.Theme)
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
	case views.ActionMsg:
		return p, tea.Batch(p.action(msg), p.armClock())
	case tea.KeyPressMsg:
		return p, p.key(msg)
	}
	return p, nil
}

func (p *Pane) clustersResult(msg views.Result[[]clusterRef]) tea.Cmd {
	{
		if !p.seq.Latest(msg.Seq) && p.loadedList {
			return nil
		}
		p.clustersErr = msg.Err
		if msg.Err == nil {
			p.clusters, p.loadedList = msg.Value, true
		}
		fill(p, &p.picker, p.clusters, pickerRows)
		if p.cluster == nil && p.Ctx.ClusterName != "" {
			for _, c := range p.clusters {
				if c.Name == p.Ctx.ClusterName {
					return p.open(c)
				}
			}
		}
		return nil
	}
}

// dataResult merges a load into what is shown; a poll replaces only the
// parts it fetched. Watched jobs that ended raise their toast here.
func (p *Pane) dataResult(msg views.Result[dataResult]) tea.Cmd {
	res := msg.Value
	if p.cluster == nil || res.Data.Cluster.Name != p.cluster.Name {
		return nil
	}
	// Loads and polls overlap: an answer older than one already shown
	// would take the screen back in time.
	if msg.Seq <= p.appliedSeq {
		return nil
	}
	p.appliedSeq = msg.Seq
	d, w := res.Data, res.Want
	// A list read before and failing now (an outage) keeps its rows as of
	// the last good read: the footer says they are stale and since when,
	// as every pane's do. A role's refusal, or a first read, shows why.
	fresh := func(err, was error, had bool) bool {
		_, denied := views.NotVisible(err)
		return err == nil || denied || was != nil || !had
	}
	if w.snaps && fresh(d.SnapErr, p.data.SnapErr, len(p.data.Snaps) > 0) {
		p.data.Snaps, p.data.SnapErr = d.Snaps, d.SnapErr
	}
	if w.restores && fresh(d.RestErr, p.data.RestErr, len(p.data.Restores) > 0) {
		p.data.Restores, p.data.RestErr = d.Restores, d.RestErr
	}
	if w.exports && fresh(d.ExpErr, p.data.ExpErr, len(p.data.Exports) > 0) {
		p.data.Exports, p.data.ExpErr = d.Exports, d.ExpErr
	}
	if w.rest {
		if fresh(d.BuckErr, p.data.BuckErr, len(p.data.Buckets) > 0) {
			p.data.Buckets, p.data.BuckErr = d.Buckets, d.BuckErr
		}
		if fresh(d.SchedErr, p.data.SchedErr, p.data.Schedule != nil) {
			p.data.Schedule, p.data.SchedErr = d.Schedule, d.SchedErr
		}
		if fresh(d.PolErr, p.data.PolErr, p.data.Policy != nil) {
			p.data.Policy, p.data.PolErr = d.Policy, d.PolErr
		}
	}
	p.data.Cluster, p.data.Route, p.data.Note = d.Cluster, d.Route, d.Note
	p.loaded = true
	p.layout() // a list that reached the row cap adds a note line
	now := p.Ctx.Now()
	for _, r := range p.data.Restores {
		if _, ok := p.firstSeen[r.ID]; !ok && r.running() {
			p.firstSeen[r.ID] = now
		}
	}
	ended := p.settleWatches()
	p.rebuild()
	// What the new data makes untrue goes first, so a toast it raised
	// now is not taken with it.
	p.settle(false)
	for _, t := range ended {
		p.Toast(t.Text, t.Err)
	}
	return p.armClock()
}

// settleWatches ends the watches of the shown cluster whose jobs ended and
// says what each toast is to say.
func (p *Pane) settleWatches() []views.ToastMsg {
	var ended []views.ToastMsg
	for id, w := range p.watching {
		if w.Cluster.Name != p.cluster.Name {
			continue
		}
		switch w.Kind {
		case "restore":
			for _, r := range p.data.Restores {
				if r.ID == id && !r.running() {
					text, failed := restoreOutcome(w.Label, r)
					ended = append(ended, views.ToastMsg{Text: text, Err: failed})
					delete(p.watching, id)
				}
			}
		case "snapshot":
			for _, s := range p.data.Snaps {
				if s.ID == id && s.Done {
					ended = append(ended, views.ToastMsg{Text: w.Label + " " + s.Status, Err: !s.Completed})
					delete(p.watching, id)
				}
			}
		case "export":
			for _, e := range p.data.Exports {
				if e.ID == id && e.Done() {
					ended = append(ended, views.ToastMsg{Text: w.Label + " " + string(e.State), Err: e.State != apiclient.ExportSuccessful})
					delete(p.watching, id)
				}
			}
		}
	}
	return ended
}

func (p *Pane) watchResult(msg views.Result[watchResult]) tea.Cmd {
	res := msg.Value
	if msg.Err != nil {
		if e, ok := apiclient.AsError(msg.Err); ok {
			if e.Status == 404 {
				// The job is gone: nothing left to watch.
				delete(p.watching, res.W.ID)
				p.Refuse(res.W.Label + ": no longer found")
				return p.Arm()
			}
		}
		return nil
	}
	if _, ok := p.watching[res.W.ID]; !ok || !res.Done {
		return nil
	}
	delete(p.watching, res.W.ID)
	p.Toast(res.Outcome, res.Failed)
	var cmds []tea.Cmd
	if p.Visible() && p.cluster != nil && p.cluster.Name == res.W.Cluster.Name {
		cmds = append(cmds, p.loadData("", allParts, keyData))
	}
	cmds = append(cmds, p.Arm())
	return tea.Batch(cmds...)
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
