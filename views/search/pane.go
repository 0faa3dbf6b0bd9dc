// Package search is the search index pane: the indexes of the selected
// cluster (or of every cluster of the project) as a tree of databases,
// collections and indexes with their per-host build status; a detail with
// the latest and staged definitions; create and edit in $EDITOR with local
// validation; delete with a typed confirmation; the clusters' user-defined
// analyzers.
package search

import (
	"encoding/json"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

type mode int

const (
	modeTree mode = iota
	modeDetail
	modeAnalyzers
)

// Result keys.
const (
	keyList      = "list"
	keyCreate    = "create"
	keyUpdate    = "update"
	keyDelete    = "delete"
	keyAnalyzers = "analyzers"
	keySaveAnalz = "saveAnalyzers"
)

// Pane is the search pane.
type Pane struct {
	views.Base
	want views.Wanted // the index a jump from the board asked to select

	seq views.Seq

	clusters  []clusterState
	loaded    bool
	listErr   error
	filter    string
	collapsed map[string]bool
	// deleting are indexes this session asked to delete, shown DELETING
	// until the server stops listing them.
	deleting map[string]bool
	// watching are indexes this session created or changed; the pane keeps
	// polling for them while hidden until they settle.
	watching map[string]bool

	table  components.Table
	detail components.Detail
	mode   mode

	analyzersCluster string
	analyzers        []apiclient.Analyzer
	analyzersErr     error
	analyzersLoaded  bool
	analyzerTable    components.Table

	drafts map[string]editSession
	// creating are the create drafts (by key) whose POST is under way or
	// whose lost answer is being checked: `n` is refused for them, so one
	// intent never makes two creates.
	creating map[string]createState
	editor   views.EditorFunc
	// notice is the last refusal or failure, shown above the tree (and in
	// a toast). It lasts until the next key or action in the pane, until
	// the pane is left or the context changes, as a flash does; esc
	// dismisses it. A notice about a create still being settled (noticeFor
	// names its draft) stays while that lasts: keys do not take it away.
	notice    string
	noticeFor string
	editing   bool
	// steps are the actions that ask before they act.
	steps map[string]views.Step
}

// New is the pane's Factory.
func New(ctx views.Context) views.Pane { return NewWithEditor(ctx, views.ExecEditor) }

// NewWithEditor builds the pane with another editor runner (tests).
func NewWithEditor(ctx views.Context, editor views.EditorFunc) *Pane {
	p := &Pane{collapsed: map[string]bool{}, deleting: map[string]bool{}, watching: map[string]bool{},
		drafts: map[string]editSession{}, creating: map[string]createState{}, editor: editor}
	p.Base = views.NewBase(ID, ctx, p.pollState)
	p.On(views.Handlers{Action: p.action, Edited: p.editorDone, Key: p.key})
	p.steps = map[string]views.Step{
		actNew:    {Ask: p.startCreate, Do: func(m views.ActionMsg) tea.Cmd { return p.resend(m.Target) }},
		actDelete: {Ask: p.confirmDelete, Do: p.deleteIndex},
	}
	p.table = components.NewTable(treeColumns(), ctx.Theme, ctx.Keys)
	p.analyzerTable = components.NewTable(analyzerColumns(), ctx.Theme, ctx.Keys)
	p.detail = components.NewDetail(ctx.Theme, ctx.Keys)
	p.Widgets(&p.table, &p.analyzerTable, &p.detail)
	p.detail.SetAsync(true) // definitions render off the UI loop
	return p
}

func treeColumns() []components.Column {
	return []components.Column{
		{Title: "NAME", MinWidth: 16, Flex: 3, NoSort: true},
		{Title: "TYPE", Width: 12, NoSort: true, Priority: 3},
		{Title: "STATUS", Width: 9, NoSort: true},
		{Title: "QUERYABLE", Width: 9, NoSort: true, Priority: 4, ShortWidth: 1, ShortTitle: "Q", ShortCell: queryableMark},
		{Title: "HOSTS", MinWidth: 10, Flex: 2, NoSort: true, Priority: 2},
		{Title: "VER", Width: 4, Align: components.AlignRight, NoSort: true, Priority: 5},
	}
}

func analyzerColumns() []components.Column {
	return []components.Column{
		{Title: "NAME", MinWidth: 12, Flex: 2},
		{Title: "TOKENIZER", MinWidth: 10, Flex: 1, Priority: 1},
		{Title: "CHAR FILTERS", MinWidth: 8, Flex: 1, Priority: 3},
		{Title: "TOKEN FILTERS", MinWidth: 8, Flex: 2, Priority: 2},
	}
}

func (p *Pane) Busy() string     { return "" }
func (p *Pane) Init() tea.Cmd    { return p.load("loading search indexes") }
func (p *Pane) SetSize(w, h int) { p.W, p.H = w, h; p.layout() }

// Actions are the search keys; in the analyzers view `e` edits the
// analyzers, so it carries that operation for the gate.
func (p *Pane) Actions() []keymap.Action {
	if p.Ctx.Keys == nil {
		return nil
	}
	s := keysOf(p.Ctx.Keys)
	if p.mode == modeAnalyzers {
		edit := s.Edit
		edit.Op = "updateAtlasSearchAnalyzers"
		edit.Binding.SetHelp(edit.Help().Key, "edit analyzers")
		return []keymap.Action{edit, s.Analyzers}
	}
	newIndex := s.New
	if cluster, _, _ := p.selectedPlace(); cluster != "" {
		if why := p.createBusy(cluster); why != "" {
			newIndex = newIndex.Disabled(why)
		}
	}
	return []keymap.Action{newIndex, s.Edit, s.Delete, s.Analyzers, s.Detail}
}

// Selected is the selected index's id (or the analyzer's name).
func (p *Pane) Selected() string {
	if p.mode == modeAnalyzers {
		return p.analyzerTable.SelectedID()
	}
	if ix, _, ok := p.selectedIndex(); ok {
		// A definition too large to show is what y copies.
		if ix.LatestDefinition != nil {
			if d := components.NewDocument(ix.LatestDefinition); d.TooLarge {
				b, _ := json.Marshal(ix.LatestDefinition)
				return string(b)
			}
		}
		return ix.IndexID
	}
	return ""
}

// moving reports whether anything shown is still changing: a build, a
// delete, or a delete this session asked for.
func (p *Pane) moving(onlyWatched bool) bool {
	for _, cl := range p.clusters {
		for _, ix := range cl.Indexes {
			if onlyWatched && !p.watching[ix.IndexID] && !p.deleting[ix.IndexID] {
				continue
			}
			if ix.Status != apiclient.IndexReady || p.deleting[ix.IndexID] {
				return true
			}
		}
	}
	return false
}

// pollState: fast while an index is not READY; while hidden only for
// what this session started and is not finished.
func (p *Pane) pollState() views.PollState {
	return views.PollState{Moving: p.moving(!p.Visible()), Watching: p.moving(true)}
}

// find is the index with that id and its cluster, in the scope shown.
func (p *Pane) find(id string) (string, apiclient.SearchIndex, bool) {
	for _, cl := range p.clusters {
		if p.Ctx.ClusterName != "" && cl.Name != p.Ctx.ClusterName {
			continue
		}
		for _, ix := range cl.Indexes {
			if ix.IndexID == id {
				return cl.Name, ix, true
			}
		}
	}
	return "", apiclient.SearchIndex{}, false
}

// Shows tells the root whether the `/` filter shows the index a jump asks
// for (views.Shower): the filter is kept then, and lifted (with a notice)
// only when it hides the index. Known is false until the index is read.
func (p *Pane) Shows(_, id string) (shown, known bool) {
	cl, ix, ok := p.find(id)
	if !ok {
		return false, false
	}
	return indexMatches(p.filter, cl, ix), true
}

// expandTo opens the cluster, database and collection rows a jump's index
// is under, so that selecting it never fails on a folded branch.
func (p *Pane) expandTo(id string) {
	cl, ix, ok := p.find(id)
	if !ok {
		return
	}
	delete(p.collapsed, clusterRowID(cl))
	delete(p.collapsed, dbRowID(cl, ix.Database))
	delete(p.collapsed, collRowID(cl, ix.Database, ix.CollectionName))
}

func (p *Pane) Update(msg tea.Msg) (views.Pane, tea.Cmd) {
	if r, ok := msg.(components.RenderedMsg); ok {
		p.detail.Rendered(r)
		return p, nil
	}
	_, cmd := p.update(msg)
	// A long detail is rendered by a Cmd, never on the UI loop.
	return p, tea.Batch(cmd, p.detail.TakeRender(func(m tea.Msg) tea.Msg { return views.PaneMsg{Pane: ID, Msg: m} }))
}

func (p *Pane) update(msg tea.Msg) (views.Pane, tea.Cmd) {
	if cmd, done := p.Handle(msg, p.poll); done {
		return p, cmd
	}
	switch msg := msg.(type) {
	case views.Result[listResult]:
		return p, p.listDone(msg)
	case views.Result[sent]:
		return p, p.sendDone(msg)
	case views.Result[string]:
		return p, p.deleteDone(msg)
	case views.Result[[]apiclient.Analyzer]:
		p.analyzersDone(msg)
	case views.RefreshMsg:
		p.dropNotice()
		cmds := []tea.Cmd{p.load("refreshing search indexes"), p.Arm()}
		if p.mode == modeAnalyzers {
			cmds = append(cmds, p.loadAnalyzers("loading analyzers"))
		}
		return p, tea.Batch(cmds...)
	case views.FilterMsg:
		p.dropNotice()
		p.filter = msg.Text
		p.rebuild()
		return p, nil
	case views.SelectMsg:
		p.dropNotice()
		p.mode = modeTree
		p.want.Set(msg.ItemID)
		p.expandTo(msg.ItemID)
		p.rebuild()
		return p, nil
	case views.ContextChangedMsg:
		old := p.Ctx
		p.Ctx = msg.Ctx
		p.layout()
		if msg.Reload(old) {
			p.clusters, p.loaded, p.listErr, p.mode = nil, false, nil, modeTree
			p.deleting, p.watching = map[string]bool{}, map[string]bool{}
			p.clearNotice() // about the scope left behind
			p.rebuild()
			return p, tea.Batch(p.Reload(func() tea.Cmd { return p.load("loading search indexes") }), p.Arm())
		}
	}
	return p, nil
}

func (p *Pane) showClusters() bool { return p.Ctx.ClusterName == "" }

func (p *Pane) rebuild() {
	p.table.SetRows(buildRows(p.clusters, p.showClusters(), p.collapsed, p.filter, p.deleting))
	p.want.Select(func(id string) bool { return p.table.SetCursorID(indexRowID(p.Ctx.ClusterName, id)) })
	p.refreshDetail()
}

// selectedIndex is the index under the cursor and its cluster.
func (p *Pane) selectedIndex() (apiclient.SearchIndex, string, bool) {
	id := p.table.SelectedID()
	if id == "" || rowKind(id) != 'i' {
		return apiclient.SearchIndex{}, "", false
	}
	parts := rowParts(id)
	for _, cl := range p.clusters {
		if cl.Name != parts[0] {
			continue
		}
		for _, ix := range cl.Indexes {
			if ix.IndexID == parts[1] {
				return ix, cl.Name, true
			}
		}
	}
	return apiclient.SearchIndex{}, "", false
}

// selectedPlace is the cluster, database and collection the cursor is in,
// as far as the row says.
func (p *Pane) selectedPlace() (cluster, db, coll string) {
	if ix, cl, ok := p.selectedIndex(); ok {
		return cl, ix.Database, ix.CollectionName
	}
	if id := p.table.SelectedID(); id != "" {
		parts := rowParts(id)
		cluster = parts[0]
		if len(parts) > 1 {
			db = parts[1]
		}
		if len(parts) > 2 {
			coll = parts[2]
		}
		return
	}
	if p.Ctx.ClusterName != "" {
		return p.Ctx.ClusterName, "", ""
	}
	for _, cl := range p.clusters {
		if cl.Unsupported == "" && cl.Err == nil {
			return cl.Name, "", ""
		}
	}
	return "", "", ""
}

func (p *Pane) searchable(cluster string) (bool, string) {
	for _, cl := range p.clusters {
		if cl.Name == cluster {
			switch {
			case cl.Unsupported != "":
				return false, cluster + ": " + cl.Unsupported
			case cl.Err != nil:
				return false, cluster + ": " + views.ErrText(cl.Err)
			}
			return true, ""
		}
	}
	return false, "no cluster selected"
}

// action: the notice goes first (with its toast), then what the action
// says, in that order so a new error toast is not cleared with the old.
func (p *Pane) action(msg views.ActionMsg) tea.Cmd {
	p.dropNotice()
	return p.act(msg)
}

func (p *Pane) act(msg views.ActionMsg) tea.Cmd {
	if cmd, ok := views.AskThenDo(msg, p.steps); ok {
		return cmd
	}
	switch msg.Name {
	case actEdit:
		if p.mode == modeAnalyzers {
			return p.startAnalyzerEdit()
		}
		return p.startUpdate()
	case actAnalyzers:
		if p.mode == modeAnalyzers {
			p.mode = modeTree
			p.layout()
			return nil
		}
		return p.openAnalyzers()
	case actDetail:
		return p.enter()
	}
	return nil
}

// enter opens the detail of an index, or folds and unfolds a group row.
func (p *Pane) enter() tea.Cmd {
	id := p.table.SelectedID()
	if id == "" {
		return nil
	}
	if rowKind(id) != 'i' {
		p.collapsed[id] = !p.collapsed[id]
		p.rebuild()
		p.table.SetCursorID(id)
		return nil
	}
	p.mode = modeDetail
	p.layout()
	p.refreshDetail()
	return nil
}

// CanGoBack: a detail, the analyzers or a notice is open; esc closes it
// before the root clears the list's filter.
func (p *Pane) CanGoBack() bool {
	return p.mode == modeDetail || p.mode == modeAnalyzers || p.notice != ""
}

func (p *Pane) key(msg tea.KeyPressMsg) tea.Cmd {
	if msg.String() == "esc" {
		switch p.mode {
		case modeDetail, modeAnalyzers:
			p.dropNotice()
			p.mode = modeTree
			p.layout()
			p.refreshDetail()
			return nil
		}
		p.clearNotice()
		return nil
	}
	p.dropNotice()
	var cmd tea.Cmd
	switch p.mode {
	case modeDetail:
		p.detail, cmd = p.detail.Update(msg)
	case modeAnalyzers:
		p.analyzerTable, cmd = p.analyzerTable.Update(msg)
		p.refreshAnalyzerDetail()
	default:
		before := p.table.SelectedID()
		p.table, cmd = p.table.Update(msg)
		if p.table.SelectedID() != before {
			p.refreshDetail()
		}
	}
	return cmd
}

// queryableMark is QUERYABLE in one cell.
func queryableMark(s string) string {
	switch s {
	case "yes":
		return "✓"
	case "no":
		return "·"
	}
	return s
}
