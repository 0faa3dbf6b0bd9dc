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
	"time"

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
	want string // the item a jump from the board asked to select (views.SelectMsg)

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
	p.steps = map[string]views.Step{
		actNew:    {Ask: p.startCreate, Do: func(m views.ActionMsg) tea.Cmd { return p.resend(m.Target) }},
		actDelete: {Ask: p.confirmDelete, Do: p.deleteIndex},
	}
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

// listResult is what one load found.
type listResult struct{ Clusters []clusterState }

// load lists the scope's clusters and each one's indexes. Everything the
// request needs is captured before the Cmd runs.
func (p *Pane) load(task string) tea.Cmd {
	client, gid, only := p.Ctx.Client, p.Ctx.GroupID, p.Ctx.ClusterName
	if client == nil || gid == "" {
		return nil
	}
	return views.Load(&p.Base, keyList, p.seq.Next(), task, func(ctx context.Context) (listResult, error) {
		var cls []apiclient.Cluster
		if only != "" {
			cl, err := client.Clusters().Get(ctx, gid, only)
			if err != nil {
				return listResult{}, fmt.Errorf("cluster %s: %w", only, err)
			}
			cls = []apiclient.Cluster{*cl}
		} else {
			var err error
			if cls, err = client.Clusters().All(ctx, gid); err != nil {
				return listResult{}, fmt.Errorf("list clusters: %w", err)
			}
		}
		out := listResult{}
		var failed error // the first cluster whose listing failed: the pane is stale
		for _, cl := range cls {
			st := clusterState{Name: cl.Name, Version: cl.MongoDBVersion}
			switch {
			case cl.Tenant():
				st.Unsupported = "shared tier " + cl.InstanceSize() + ": no search indexes through the API"
			case versionBefore(cl.MongoDBVersion, 4, 2):
				st.Unsupported = "MongoDB " + cl.MongoDBVersion + ": search needs 4.2 or later"
			default:
				st.Indexes, st.Err = client.Search().ListCluster(ctx, gid, cl.Name)
				if _, denied := views.NotVisible(st.Err); st.Err != nil && !denied && failed == nil {
					failed = fmt.Errorf("cluster %s: %w", cl.Name, st.Err)
				}
			}
			out.Clusters = append(out.Clusters, st)
		}
		return out, failed
	})
}

func versionBefore(v string, major, minor int) bool {
	var a, b int
	if n, _ := fmt.Sscanf(v, "%d.%d", &a, &b); n < 2 {
		return false
	}
	return a < major || (a == major && b < minor)
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
	kit, done := p.Handle(msg, p.poll)
	if done {
		return p, kit
	}
	switch msg := msg.(type) {
	case views.Result[listResult]:
		return p, tea.Batch(kit, p.listDone(msg))
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
		p.mode, p.want = modeTree, msg.ItemID
		p.expandTo(msg.ItemID)
		p.rebuild()
		return p, nil
	case views.ContextChangedMsg:
		old := p.Ctx
		p.Ctx = msg.Ctx
		p.table.SetTheme(p.Ctx.Theme)
		p.analyzerTable.SetTheme(p.Ctx.Theme)
		p.detail.SetTheme(p.Ctx.Theme)
		p.layout()
		if msg.Reload(old) {
			p.clusters, p.loaded, p.listErr, p.mode = nil, false, nil, modeTree
			p.deleting, p.watching = map[string]bool{}, map[string]bool{}
			p.clearNotice() // about the scope left behind
			p.rebuild()
			return p, tea.Batch(p.Reload(func() tea.Cmd { return p.load("loading search indexes") }), p.Arm())
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

// poll is one poll round: the list, and the analyzers when shown.
func (p *Pane) poll() tea.Cmd {
	cmds := []tea.Cmd{p.load("")}
	if p.mode == modeAnalyzers && p.Visible() {
		cmds = append(cmds, p.loadAnalyzers(""))
	}
	return tea.Batch(cmds...)
}

func (p *Pane) listDone(msg views.Result[listResult]) tea.Cmd {
	if !p.seq.Latest(msg.Seq) {
		return nil
	}
	p.listErr = msg.Err
	if msg.Err != nil && msg.Value.Clusters != nil {
		// The clusters were listed; some of their indexes could not be
		// read (an outage): those keep what was last read, marked stale,
		// rather than the tree giving way to an error.
		p.listErr = nil
		old := map[string]clusterState{}
		for _, cl := range p.clusters {
			old[cl.Name] = cl
		}
		for i := range msg.Value.Clusters {
			cl := &msg.Value.Clusters[i]
			_, denied := views.NotVisible(cl.Err)
			if was, ok := old[cl.Name]; ok && cl.Err != nil && !denied && was.Err == nil {
				cl.Indexes, cl.Stale, cl.Err = was.Indexes, cl.Err, nil
			}
		}
		p.clusters, p.loaded = msg.Value.Clusters, true
		p.settle()
	} else if msg.Err == nil {
		p.clusters, p.loaded = msg.Value.Clusters, true
		p.settle()
		// The list shows what the server holds: a create whose outcome
		// stayed unknown may be looked at (and sent) again.
		for k, st := range p.creating {
			if st == createUnsettled {
				delete(p.creating, k)
			}
		}
	}
	p.rebuild()
	return p.Arm()
}

func (p *Pane) deleteDone(msg views.Result[string]) tea.Cmd {
	{
		id := msg.Value
		if msg.Err != nil {
			delete(p.deleting, id)
			p.say("delete failed: " + views.ErrText(msg.Err))
			p.rebuild()
			p.Toast(p.notice, true)
			return nil
		}
		p.Toast("delete requested: the index shows DELETING until it is gone", false)
		return tea.Batch(p.load(""), p.Arm())
	}
}

func (p *Pane) analyzersDone(msg views.Result[[]apiclient.Analyzer]) {
	if !p.seq.Latest(msg.Seq) {
		return
	}
	p.analyzersErr = msg.Err
	if msg.Err == nil {
		p.analyzers, p.analyzersLoaded = msg.Value, true
	}
	p.rebuildAnalyzers()
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

func (p *Pane) showClusters() bool { return p.Ctx.ClusterName == "" }

func (p *Pane) rebuild() {
	p.table.SetRows(buildRows(p.clusters, p.showClusters(), p.collapsed, p.filter, p.deleting))
	if p.want != "" && p.table.SetCursorID(indexRowID(p.Ctx.ClusterName, p.want)) {
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

// say shows text above the tree until the next key or action (dropNotice).
func (p *Pane) say(text string) {
	p.notice, p.noticeFor = text, ""
	p.layout()
}

// sayWhile shows text while the create of draft key is being sent,
// checked or of unknown outcome; then it goes as said notices go.
func (p *Pane) sayWhile(key, text string) {
	p.notice, p.noticeFor = text, key
	p.layout()
}

// dropNotice is the next key or action, or the pane left: the notice's
// moment is over, unless the create it is about is still unsettled.
// Its Cmd takes the notice's error toast from the footer too.
func (p *Pane) dropNotice() {
	if p.noticeFor != "" && p.creating[p.noticeFor] != 0 {
		return
	}
	p.clearNotice()
}

// clearNotice takes the notice away whatever it is about, and with it
// (views.ErrorsResolved) the error toast that said the same in the footer:
// neither outlives the other.
func (p *Pane) clearNotice() {
	if p.notice == "" && p.noticeFor == "" {
		return
	}
	p.notice, p.noticeFor = "", ""
	p.layout()
	p.ErrorsResolved()
}

// SetVisible: leaving the pane ends its notice, as the root clears the
// error toasts of a pane left behind.
func (p *Pane) SetVisible(v bool) tea.Cmd {
	if !v {
		p.dropNotice()
	}
	return p.Base.SetVisible(v)
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

func (p *Pane) confirmDelete() tea.Cmd {
	ix, cluster, ok := p.selectedIndex()
	if !ok {
		p.Toast("delete: select an index first", true)
		return nil
	}
	name := components.Sanitize(ix.Name)
	p.Confirm(views.ConfirmMsg{Title: "Delete search index " + name + "?",
		Body: fmt.Sprintf("%s.%s on %s. Queries that use it fail once it is gone; this cannot be undone.",
			components.Sanitize(ix.Database), components.Sanitize(ix.CollectionName), cluster),
		TypeToConfirm: ix.Name,
		Action: views.ActionMsg{Name: actDelete, Target: ix.IndexID,
			Payload: indexRef{Cluster: cluster, ID: ix.IndexID}}})
	return nil
}

// indexRef is the index a delete confirmation names.
type indexRef struct{ Cluster, ID string }

func (p *Pane) deleteIndex(msg views.ActionMsg) tea.Cmd {
	ref, ok := msg.Payload.(indexRef)
	client, gid := p.Ctx.Client, p.Ctx.GroupID
	if !ok {
		p.Refuse("delete: the confirmation named no index; nothing deleted")
		return nil
	}
	if client == nil {
		return nil
	}
	cluster, id := ref.Cluster, ref.ID
	p.deleting[id] = true
	p.rebuild()
	return views.Write(&p.Base, keyDelete, p.seq.Next(), "deleting index", func(ctx context.Context) (string, error) {
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
