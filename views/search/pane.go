// Package search is the search index pane: the indexes of the selected
// cluster (or of every cluster of the project) as a tree of databases,
// collections and indexes with their per-host build status; a detail with
// the latest and staged definitions; create and edit in $EDITOR with local
// validation; delete with a typed confirmation; the clusters' user-defined
// analyzers.
package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/ui/components"
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
	want    string // the item a jump from the board asked to select (views.SelectMsg)
	ctx     views.Context
	w, h    int
	visible bool
	paused  bool

	seq  views.Seq
	poll views.Poller

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

	drafts  map[string]editSession
	editor  views.EditorFunc
	notice  string // the last refusal or failure, shown above the tree
	editing bool
}

// New is the pane's Factory.
func New(ctx views.Context) views.Pane { return NewWithEditor(ctx, views.ExecEditor) }

// NewWithEditor builds the pane with another editor runner (tests).
func NewWithEditor(ctx views.Context, editor views.EditorFunc) *Pane {
	p := &Pane{ctx: ctx, collapsed: map[string]bool{}, deleting: map[string]bool{}, watching: map[string]bool{},
		drafts: map[string]editSession{}, editor: editor}
	p.table = components.NewTable(treeColumns(), ctx.Theme, ctx.Keys)
	p.analyzerTable = components.NewTable(analyzerColumns(), ctx.Theme, ctx.Keys)
	p.detail = components.NewDetail(ctx.Theme, ctx.Keys)
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

func (p *Pane) ID() views.ID     { return ID }
func (p *Pane) Title() string    { return Registration.Title }
func (p *Pane) Busy() string     { return "" }
func (p *Pane) Init() tea.Cmd    { return p.load("loading search indexes") }
func (p *Pane) SetSize(w, h int) { p.w, p.h = w, h; p.layout() }

// Actions are the search keys; in the analyzers view `e` edits the
// analyzers, so it carries that operation for the gate.
func (p *Pane) Actions() []keymap.Action {
	if p.ctx.Keys == nil {
		return nil
	}
	s := keysOf(p.ctx.Keys)
	if p.mode == modeAnalyzers {
		edit := s.Edit
		edit.Op = "updateAtlasSearchAnalyzers"
		edit.Binding.SetHelp(edit.Help().Key, "edit analyzers")
		return []keymap.Action{edit, s.Analyzers}
	}
	return []keymap.Action{s.New, s.Edit, s.Delete, s.Analyzers, s.Detail}
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

func (p *Pane) SetVisible(v bool) tea.Cmd {
	p.visible = v
	return p.arm()
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

// arm (re)starts the poll loop: fast while an index is not READY, normal
// otherwise, slow after an error; while hidden only for what this session
// started and is not finished.
func (p *Pane) arm() tea.Cmd {
	if p.paused || p.ctx.Client == nil {
		p.poll.Stop()
		return nil
	}
	d := p.ctx.Poll.Every(ID)
	switch {
	case !p.visible && !p.moving(true):
		p.poll.Stop()
		return nil
	case p.listErr != nil:
		d = p.ctx.Poll.Slow
	case p.moving(!p.visible):
		d = p.ctx.Poll.Fast
	}
	if d <= 0 {
		d = views.DefaultPoll.Normal
	}
	return p.poll.Arm(ID, d)
}

// listResult is what one load found.
type listResult struct{ Clusters []clusterState }

// load lists the scope's clusters and each one's indexes. Everything the
// request needs is captured before the Cmd runs.
func (p *Pane) load(task string) tea.Cmd {
	client, gid, only := p.ctx.Client, p.ctx.GroupID, p.ctx.ClusterName
	if client == nil || gid == "" {
		return nil
	}
	return views.Fetch(ID, keyList, p.seq.Next(), task, func(ctx context.Context) (any, error) {
		var cls []apiclient.Cluster
		if only != "" {
			cl, err := client.Clusters().Get(ctx, gid, only)
			if err != nil {
				return nil, fmt.Errorf("cluster %s: %w", only, err)
			}
			cls = []apiclient.Cluster{*cl}
		} else {
			var err error
			if cls, err = client.Clusters().All(ctx, gid); err != nil {
				return nil, fmt.Errorf("list clusters: %w", err)
			}
		}
		out := listResult{}
		for _, cl := range cls {
			st := clusterState{Name: cl.Name, Version: cl.MongoDBVersion}
			switch {
			case cl.Tenant():
				st.Unsupported = "shared tier " + cl.InstanceSize() + ": no search indexes through the API"
			case versionBefore(cl.MongoDBVersion, 4, 2):
				st.Unsupported = "MongoDB " + cl.MongoDBVersion + ": search needs 4.2 or later"
			default:
				st.Indexes, st.Err = client.Search().ListCluster(ctx, gid, cl.Name)
			}
			out.Clusters = append(out.Clusters, st)
		}
		return out, nil
	})
}

func versionBefore(v string, major, minor int) bool {
	var a, b int
	if n, _ := fmt.Sscanf(v, "%d.%d", &a, &b); n < 2 {
		return false
	}
	return a < major || (a == major && b < minor)
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
	switch msg := msg.(type) {
	case views.ResultMsg:
		return p, p.result(msg)
	case views.PollTickMsg:
		if !p.poll.Current(msg) {
			return p, nil
		}
		cmds := []tea.Cmd{p.load("")}
		if p.mode == modeAnalyzers && p.visible {
			cmds = append(cmds, p.loadAnalyzers(""))
		}
		return p, tea.Batch(cmds...)
	case views.RefreshMsg:
		cmds := []tea.Cmd{p.load("refreshing search indexes"), p.arm()}
		if p.mode == modeAnalyzers {
			cmds = append(cmds, p.loadAnalyzers("loading analyzers"))
		}
		return p, tea.Batch(cmds...)
	case views.PauseMsg:
		p.paused = msg.Paused
		return p, p.arm()
	case views.FilterMsg:
		p.filter = msg.Text
		p.rebuild()
	case views.SelectMsg:
		p.mode, p.want = modeTree, msg.ItemID
		p.rebuild()
		return p, nil
	case views.ContextChangedMsg:
		old := p.ctx
		p.ctx = msg.Ctx
		p.table.SetTheme(p.ctx.Theme)
		p.analyzerTable.SetTheme(p.ctx.Theme)
		p.detail.SetTheme(p.ctx.Theme)
		p.layout()
		if msg.Reload(old) {
			p.clusters, p.loaded, p.listErr, p.mode = nil, false, nil, modeTree
			p.deleting, p.watching = map[string]bool{}, map[string]bool{}
			p.rebuild()
			return p, tea.Batch(p.load("loading search indexes"), p.arm())
		}
	case views.ActionMsg:
		return p, p.action(msg)
	case views.EditedMsg:
		return p, p.editorDone(msg)
	case tea.KeyPressMsg:
		return p, p.key(msg)
	}
	return p, nil
}

func (p *Pane) result(msg views.ResultMsg) tea.Cmd {
	switch msg.Key {
	case keyList:
		if !p.seq.Latest(msg.Seq) {
			return nil
		}
		p.listErr = msg.Err
		if msg.Err == nil {
			res, _ := msg.Value.(listResult)
			p.clusters, p.loaded = res.Clusters, true
			p.settle()
		}
		p.rebuild()
		return p.arm()
	case keyCreate, keyUpdate, keySaveAnalz:
		return p.sendDone(msg)
	case keyDelete:
		id, _ := msg.Value.(string)
		if msg.Err != nil {
			delete(p.deleting, id)
			p.notice = "delete failed: " + errorLine(msg.Err)
			p.rebuild()
			return views.Toast(p.notice, true)
		}
		return tea.Batch(views.Toast("delete requested: the index shows DELETING until it is gone", false),
			p.load(""), p.arm())
	case keyAnalyzers:
		if !p.seq.Latest(msg.Seq) {
			return nil
		}
		p.analyzersErr = msg.Err
		if msg.Err == nil {
			p.analyzers, _ = msg.Value.([]apiclient.Analyzer)
			p.analyzersLoaded = true
		}
		p.rebuildAnalyzers()
	}
	return nil
}

// settle forgets deletes and watches that are over: an index that is no
// longer listed, or a watched one that reached a final state.
func (p *Pane) settle() {
	listed := map[string]apiclient.IndexStatus{}
	for _, cl := range p.clusters {
		if cl.Err != nil { // unknown, not gone
			return
		}
		for _, ix := range cl.Indexes {
			listed[ix.IndexID] = ix.Status
		}
	}
	for id := range p.deleting {
		if _, ok := listed[id]; !ok {
			delete(p.deleting, id)
		}
	}
	for id := range p.watching {
		if st, ok := listed[id]; !ok || st.Done() {
			delete(p.watching, id)
		}
	}
}

func (p *Pane) showClusters() bool { return p.ctx.ClusterName == "" }

func (p *Pane) rebuild() {
	p.table.SetRows(buildRows(p.clusters, p.showClusters(), p.collapsed, p.filter, p.deleting))
	if p.want != "" && p.table.SetCursorID(indexRowID(p.ctx.ClusterName, p.want)) {
		p.want = ""
	}
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
	if p.ctx.ClusterName != "" {
		return p.ctx.ClusterName, "", ""
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
				return false, cluster + ": " + errorLine(cl.Err)
			}
			return true, ""
		}
	}
	return false, "no cluster selected"
}

func (p *Pane) action(msg views.ActionMsg) tea.Cmd {
	s := keysOf(p.ctx.Keys)
	switch msg.Name {
	case s.New.Name:
		return p.startCreate()
	case s.Edit.Name:
		if p.mode == modeAnalyzers {
			return p.startAnalyzerEdit()
		}
		return p.startUpdate()
	case s.Delete.Name:
		if msg.Confirmed {
			return p.deleteIndex(msg.Target)
		}
		return p.confirmDelete()
	case s.Analyzers.Name:
		if p.mode == modeAnalyzers {
			p.mode = modeTree
			p.layout()
			return nil
		}
		return p.openAnalyzers()
	case s.Detail.Name:
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
			p.mode = modeTree
			p.layout()
			p.refreshDetail()
			return nil
		}
		if p.notice != "" {
			p.notice = ""
			p.layout()
		}
		return nil
	}
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

// startCreate opens the editor on the draft for this cluster, or on a
// template for the namespace under the cursor.
func (p *Pane) startCreate() tea.Cmd {
	cluster, db, coll := p.selectedPlace()
	if ok, why := p.searchable(cluster); !ok {
		return views.Toast("new index: "+why, true)
	}
	s, ok := p.drafts[editSession{Kind: editCreate, Cluster: cluster}.key()]
	if !ok {
		s = editSession{Kind: editCreate, Cluster: cluster, Text: createTemplate(db, coll)}
	}
	return p.open(s)
}

func (p *Pane) startUpdate() tea.Cmd {
	ix, cluster, ok := p.selectedIndex()
	if !ok {
		return views.Toast("edit: select an index first", true)
	}
	if ix.Status == apiclient.IndexDeleting || p.deleting[ix.IndexID] {
		return views.Toast("edit: "+components.Sanitize(ix.Name)+" is being deleted", true)
	}
	s := editSession{Kind: editUpdate, Cluster: cluster, IndexID: ix.IndexID, Name: ix.Name,
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
// editor failing) stops there and keeps the draft. Only valid text is sent.
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
		p.notice = fmt.Sprintf("editor failed (%v); your draft is kept, nothing was sent", cause)
		p.layout()
		return views.Toast(p.notice, true)
	}
	if s.Text == "" {
		delete(p.drafts, s.key())
		p.notice = ""
		p.layout()
		return views.Toast("empty definition: nothing sent", false)
	}
	if msg.Unchanged && s.Problem == "" && s.Kind != editCreate {
		delete(p.drafts, s.key())
		return views.Toast("no changes: nothing sent", false)
	}
	if msg.Unchanged && s.Problem != "" {
		// Reopened after a refusal and saved as it was: stop asking (no
		// loop), keep the draft and say why it was not sent.
		p.drafts[s.key()] = s
		p.notice = "definition refused, nothing sent: " + s.Problem + " (draft kept: press " + p.keyFor(s) + " to continue)"
		p.layout()
		return views.Toast("definition refused, nothing sent: "+s.Problem, true)
	}
	parsed, err := parseEdit(s, msg.Source())
	if err != nil {
		problem := components.SanitizeText(err.Error())
		p.drafts[s.key()] = withProblem(s, problem)
		p.notice = "definition refused, nothing sent: " + problem
		p.layout()
		return tea.Batch(views.Toast(p.notice, true), p.open(withProblem(s, problem)))
	}
	s.Problem = ""
	p.drafts[s.key()] = s // until the server accepts it
	p.notice = ""
	p.layout()
	return p.send(s, parsed)
}

func withProblem(s editSession, problem string) editSession {
	s.Problem = problem
	return s
}

func (p *Pane) keyFor(s editSession) string {
	km := keysOf(p.ctx.Keys)
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
	client, gid := p.ctx.Client, p.ctx.GroupID
	if client == nil {
		return nil
	}
	switch s.Kind {
	case editCreate:
		return views.Fetch(ID, keyCreate, p.seq.Next(), "creating index "+in.create.Name, func(ctx context.Context) (any, error) {
			ix, err := client.Search().Create(ctx, gid, s.Cluster, in.create)
			return sent{Session: s, Index: ix}, err
		})
	case editUpdate:
		return views.Fetch(ID, keyUpdate, p.seq.Next(), "updating index "+s.Name, func(ctx context.Context) (any, error) {
			ix, err := client.Search().Update(ctx, gid, s.Cluster, s.IndexID, s.Type, in.def)
			return sent{Session: s, Index: ix}, err
		})
	default:
		return views.Fetch(ID, keySaveAnalz, p.seq.Next(), "saving analyzers of "+s.Cluster, func(ctx context.Context) (any, error) {
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
}

// sendDone: success clears the draft and starts watching; a server refusal
// reopens the editor with the user's text and the server's words.
func (p *Pane) sendDone(msg views.ResultMsg) tea.Cmd {
	res, _ := msg.Value.(sent)
	s := res.Session
	if msg.Err != nil {
		problem := "the server refused it: " + errorLine(msg.Err)
		if apiclient.IsValidation(msg.Err) {
			problem = components.Sanitize(msg.Err.Error())
		}
		p.drafts[s.key()] = withProblem(s, problem)
		p.notice = problem + " (nothing changed; your text is kept)"
		p.layout()
		if ae, ok := apiclient.AsError(msg.Err); ok && ae.Status != 400 && ae.Status != 409 {
			// Not the definition's fault (403, 5xx): keep the draft, no editor loop.
			return views.Toast(p.notice, true)
		}
		return tea.Batch(views.Toast(p.notice, true), p.open(withProblem(s, problem)))
	}
	delete(p.drafts, s.key())
	p.notice = ""
	p.layout()
	switch {
	case res.Index != nil:
		p.watching[res.Index.IndexID] = true
		verb := "created"
		if s.Kind == editUpdate {
			verb = fmt.Sprintf("updated to version %d", versionOf(res.Index))
		}
		// The draft's errors went with it.
		return tea.Batch(views.ErrorsResolved(), views.Toast(fmt.Sprintf("index %s %s; building", components.Sanitize(res.Index.Name), verb), false),
			p.load(""), p.arm())
	default:
		p.analyzers, p.analyzersLoaded = res.Analyzers, true
		p.rebuildAnalyzers()
		return tea.Batch(views.ErrorsResolved(), views.Toast(fmt.Sprintf("analyzers of %s saved (%d)", s.Cluster, len(res.Analyzers)), false))
	}
}

func versionOf(ix *apiclient.SearchIndex) int64 {
	if ix.LatestDefinitionVersion == nil {
		return 0
	}
	return ix.LatestDefinitionVersion.Version
}

func (p *Pane) confirmDelete() tea.Cmd {
	ix, cluster, ok := p.selectedIndex()
	if !ok {
		return views.Toast("delete: select an index first", true)
	}
	name := components.Sanitize(ix.Name)
	// Built here, not in the Cmd: the Cmd runs on another goroutine.
	msg := views.ConfirmMsg{Pane: ID, Title: "Delete search index " + name + "?",
		Body: fmt.Sprintf("%s.%s on %s. Queries that use it fail once it is gone; this cannot be undone.",
			components.Sanitize(ix.Database), components.Sanitize(ix.CollectionName), cluster),
		TypeToConfirm: ix.Name,
		Action:        views.ActionMsg{Name: keysOf(p.ctx.Keys).Delete.Name, Target: cluster + "\x00" + ix.IndexID}}
	return func() tea.Msg { return msg }
}

func (p *Pane) deleteIndex(target string) tea.Cmd {
	cluster, id, ok := strings.Cut(target, "\x00")
	client, gid := p.ctx.Client, p.ctx.GroupID
	if !ok || client == nil {
		return nil
	}
	p.deleting[id] = true
	p.rebuild()
	return views.Fetch(ID, keyDelete, p.seq.Next(), "deleting index", func(ctx context.Context) (any, error) {
		return id, client.Search().Delete(ctx, gid, cluster, id)
	})
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
