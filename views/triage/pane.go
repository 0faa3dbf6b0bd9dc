// Package triage is the Triage pane: one board of what needs a human now,
// across every project of every organization the caller can see. It reads
// the organizations and their projects, then every project's open alerts,
// then the rest (clusters, and per dedicated cluster its snapshots,
// restores, exports and search indexes), all as background work through
// the client's scheduler. The board fills as answers arrive; a project the
// caller's roles do not let it read is listed once as "not visible
// (role)" and not asked again.
package triage

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/alertkit"
)

// The rest (clusters, backups, indexes, migrations) changes slowly and
// costs several requests a cluster, so it is read again per project, as
// it needs: every restEvery polls where something is under way or the
// last read failed, every restSlow polls otherwise, the quiet projects
// spread over the polls so that no poll reads them all. Alerts are read
// every poll.
const (
	restEvery = 4
	restSlow  = 20
)

// Pane is the triage board.
type Pane struct {
	views.Base
	started bool
	// moved: the user has moved the cursor. Until then it stays on the
	// top row while the board fills, so the most urgent row is the one
	// selected rather than whichever row was first to arrive.
	moved bool

	seq  views.Seq // of the projects list
	gen  uint64    // fan-out generation: answers of an older one are dropped
	tick int

	projects []Project
	projErr  error
	alerts   map[string]partResult // by group id
	rest     map[string]partResult
	auth     map[string]partResult // failed-authentication bursts, when the profile asks
	hidden   map[string]bool       // read forbidden to the caller: never asked again
	pending  map[string]int        // requests in flight by key ("alerts", "rest")
	restDue  bool                  // the rest follows once this round's alerts are in
	restTick map[string]int        // the poll of each project's last rest request
	authTick map[string]int        // and of its last failed-authentications request

	unmatched []string // the profile's triage_orgs/triage_projects entries that match nothing

	// staleSince is, by part name as the header shows it, since when (wall
	// clock) that part's reads fail.
	staleSince map[string]time.Time

	writeSeq    views.Seq
	ackDraft    alertkit.Draft     // the dialog's choices, kept for the alerts whose ack failed
	unsettled   alertkit.Unsettled // alerts (by id) not sent again until r
	results     []string           // each row's outcome of the last acknowledgement
	resultsHead string

	whereW int // the width the rows' WHERE was fitted to

	// b holds the board's rows in order, placed as answers change them
	// (rows.go); boardDirty: the table does not show all of it yet (see
	// flushNow); flushed is when it was last given the rows (wall clock).
	b          *board
	boardDirty bool
	flushed    time.Time
	// configs are the projects' alert configurations, by group id, as
	// the last read of each found them (fetch.go: read rarely).
	configs map[string]*alertConfigs
	// cov is the coverage line's count, nil when it must be counted again
	// (coverage.go).
	cov      *coverageCount
	healthAt time.Time // when setHealth last ran (wall clock)
	// drawn is what the last frame was made of, and the frame (frame.go).
	drawn drawn

	table components.Table
	steps map[string]views.Step // the actions that ask first
}

// New is the pane's Factory.
func New(ctx views.Context) views.Pane {
	p := &Pane{alerts: map[string]partResult{}, rest: map[string]partResult{}, auth: map[string]partResult{}, hidden: map[string]bool{}, pending: map[string]int{}, staleSince: map[string]time.Time{}, restTick: map[string]int{}, authTick: map[string]int{}, b: newBoard(), configs: map[string]*alertConfigs{}}
	p.Base = views.NewBase(ID, ctx, nil)
	p.table = components.NewTable(columns(), ctx.Theme, ctx.Keys)
	p.steps = map[string]views.Step{actAck: {Ask: p.openAck, Do: p.submitAck}}
	return p
}

func columns() []components.Column {
	return []components.Column{
		{Title: "SEVERITY", Width: 9, SortKey: func(r components.Row) string { return r.Cells[5] }},
		{Title: "KIND", Width: 8},
		// WHERE shows what fits of the row's place (fitWhere); the whole
		// of it, in the last cell, is what the filter and the sort read.
		{Title: "WHERE", MinWidth: whereMin, Flex: whereFlex, SortKey: func(r components.Row) string { return r.Cells[cellWhere] }},
		{Title: "WHAT", MinWidth: 16, Flex: whatFlex},
		{Title: "SINCE", Width: 6, Align: components.AlignRight, SortKey: func(r components.Row) string { return r.Cells[6] }},
	}
}

// The flexible columns' shares, and the cell of a row that holds its
// whole WHERE (after the cells shown and the sort keys).
const (
	whereMin  = 16
	whereFlex = 2
	whatFlex  = 3
	cellWhere = 8
)

// whereWidth is the WHERE column's width in a table w cells wide, as the
// table lays columns() out: the fixed columns and both flexible ones'
// least widths first, the rest shared by Flex (WHAT, the last, takes
// what the division leaves). No column has a Priority: none is dropped.
func whereWidth(w int) int {
	cols := columns()
	const gutter = 3 // the table's cursor and mark
	room := w - gutter - (len(cols) - 1)
	for _, c := range cols {
		room -= max(c.Width, c.MinWidth)
	}
	return whereMin + max(room, 0)*whereFlex/(whereFlex+whatFlex)
}

// fitWhere is "org › project › cluster" in at most w cells: whole when it
// fits, else cut at the left so that the end survives, the organization
// giving way first, then the project: "…payments › payments-rs" tells the
// clusters of a project apart where "Demo-Org › payments › …" did not.
func fitWhere(where string, w int) string {
	where = components.Sanitize(where)
	n := components.Width(where)
	if n <= w {
		return where
	}
	if w <= 1 {
		return components.Truncate(where, w)
	}
	tail := ansi.TruncateLeft(where, n-(w-1), "")
	// Not a separator's remains at the cut.
	for _, cut := range []string{" › ", "› ", " "} {
		if strings.HasPrefix(tail, cut) {
			tail = strings.TrimPrefix(tail, cut)
			break
		}
	}
	return "…" + tail
}

func (p *Pane) Busy() string { return "" }

// Init starts nothing: the fan-out is costly, so it starts when the board
// is first shown.
func (p *Pane) Init() tea.Cmd { return nil }

func (p *Pane) SetSize(w, h int) {
	p.W, p.H = w, h
	p.fit()
	if whereWidth(w) != p.whereW && p.projects != nil {
		p.rebuild() // WHERE is fitted to its column
	}
}

// fit sizes the table under the lines over it (see top), whose number
// changes with what they say.
func (p *Pane) fit() {
	p.table.SetSize(p.W, max(p.H-len(p.top()), 1))
}

func (p *Pane) Actions() []keymap.Action {
	if p.Ctx.Keys == nil {
		return nil
	}
	acts := p.Ctx.Keys.Scope(ID.Scope())
	it, ok := p.selected()
	for i := range acts {
		switch {
		case !ok:
			acts[i] = acts[i].Disabled("no row selected")
		case acts[i].Name == actAck && !alertRow(it) && len(p.table.Marked()) == 0:
			acts[i] = acts[i].Disabled("not an alert row")
		}
	}
	return acts
}

// SetVisible starts the board the first time it is shown; the poll loop
// runs while it is on screen (the kit's policy).
func (p *Pane) SetVisible(v bool) tea.Cmd {
	arm := p.Base.SetVisible(v)
	if v && !p.started {
		p.started = true
		return tea.Batch(p.loadProjects(), arm)
	}
	return arm
}

// Selected is what `y` copies: the row's item id.
func (p *Pane) Selected() string {
	if it, ok := p.selected(); ok {
		return it.ItemID
	}
	return ""
}

func (p *Pane) selected() (Item, bool) {
	return p.b.lookup(p.table.SelectedID())
}

func (p *Pane) loadProjects() tea.Cmd {
	client := p.Ctx.Client
	if client == nil {
		return nil
	}
	scope := Scope{Orgs: p.Ctx.TriageOrgs, Projects: p.Ctx.TriageProjects}
	return views.Background(&p.Base, keyProjects, p.seq.Next(), "listing projects", func(ctx context.Context) (projectsResult, error) {
		return fetchProjects(ctx, client, scope)
	})
}

// fanOut asks every visible project for one part (alerts or rest).
func (p *Pane) fanOut(key string) tea.Cmd {
	if p.Ctx.Client == nil {
		return nil
	}
	var cmds []tea.Cmd
	for _, pr := range p.projects {
		if !p.hidden[pr.ID] {
			cmds = append(cmds, p.fetchPart(key, pr))
		}
	}
	return tea.Batch(cmds...)
}

// restFanOut asks the projects whose rest is due (see restSlow) for it.
func (p *Pane) restFanOut() tea.Cmd {
	if p.Ctx.Client == nil {
		return nil
	}
	var cmds []tea.Cmd
	authDue := p.pending[keyAuth] == 0
	for i, pr := range p.projects {
		switch {
		case p.hidden[pr.ID]:
		case p.restIsDue(i, pr.ID):
			cmds = append(cmds, p.fetchPart(keyRest, pr)) // the bursts follow
		case authDue && p.tick-p.authTick[pr.ID] >= restEvery:
			// Bursts are about the last minutes: read every restEvery
			// polls, on the clusters the last rest read listed.
			cmds = append(cmds, p.fetchAuth(pr, p.rest[pr.ID].LogClusters))
		}
	}
	return tea.Batch(cmds...)
}

// restIsDue: project i has never been read, or its last read is restEvery
// polls old and showed something under way or failed, or it is restSlow
// polls old and this is its turn among the quiet ones.
func (p *Pane) restIsDue(i int, gid string) bool {
	last, read := p.restTick[gid]
	r, answered := p.rest[gid]
	switch age := p.tick - last; {
	case !read || !answered:
		return true
	case age < restEvery:
		return false
	case r.Moving || r.Errs > 0:
		return true
	default:
		return age >= restSlow || (age >= restSlow/2 && (p.tick+i)%restSlow == 0)
	}
}

// fetchPart asks one project for one part, as background work stamped
// with the fan-out's generation (its Seq).
func (p *Pane) fetchPart(key string, pr Project) tea.Cmd {
	client, clock := p.Ctx.Client, clockOf(p.Ctx)
	if client == nil {
		return nil
	}
	p.pending[key]++
	if key == keyRest {
		p.restTick[pr.ID] = p.tick
	}
	known := p.configs[pr.ID]
	return views.Background(&p.Base, key, p.gen, "", func(ctx context.Context) (partResult, error) {
		if key == keyAlerts {
			return fetchAlerts(ctx, client, pr, known, clock), nil
		}
		return fetchRest(ctx, client, pr, clock), nil
	})
}

// fetchAuth asks one project for its failed-authentication bursts on the
// clusters its rest read listed, as background work like the rest.
func (p *Pane) fetchAuth(pr Project, clusters []string) tea.Cmd {
	client, clock, threshold := p.Ctx.Client, clockOf(p.Ctx), p.Ctx.TriageAuthBursts
	if client == nil || threshold <= 0 {
		return nil
	}
	p.pending[keyAuth]++
	p.authTick[pr.ID] = p.tick
	return views.Background(&p.Base, keyAuth, p.gen, "", func(ctx context.Context) (partResult, error) {
		return fetchAuth(ctx, client, pr, clusters, threshold, clock), nil
	})
}

// poll is a tick's work: every project's alerts, and the rest every
// restEvery ticks, unless a round is still under way.
func (p *Pane) poll() tea.Cmd {
	p.tick++
	if p.boardDirty || p.b.agesDue(p.Ctx.Now()) {
		p.rebuild() // what changed since, and the ages the rows show
	}
	var cmds []tea.Cmd
	if p.pending[keyAlerts] == 0 {
		cmds = append(cmds, p.fanOut(keyAlerts))
	}
	if p.pending[keyRest] == 0 {
		cmds = append(cmds, p.restFanOut())
	}
	return tea.Batch(append(cmds, p.Arm())...)
}

func (p *Pane) Update(msg tea.Msg) (views.Pane, tea.Cmd) {
	pane, cmd := p.update(msg)
	p.fit()
	return pane, cmd
}

func (p *Pane) update(msg tea.Msg) (views.Pane, tea.Cmd) {
	kit, done := p.Handle(msg, p.poll)
	if done {
		return p, kit
	}
	switch msg := msg.(type) {
	case views.PresenceMsg:
		p.rebuild() // who is acting on a row changed
		return p, nil
	case views.Result[ackBatch]:
		if !p.writeSeq.Latest(msg.Seq) {
			return p, nil
		}
		return p, p.ackDone(msg)
	case views.Result[projectsResult]:
		if !p.seq.Latest(msg.Seq) {
			return p, nil
		}
		p.projErr = msg.Err
		if msg.Err != nil {
			p.setHealth()
			return p, nil
		}
		res := msg.Value
		p.projects, p.unmatched = res.Projects, res.Unmatched
		p.boardDirty = true
		p.cov = nil
		p.gen++
		p.pending = map[string]int{}
		p.restDue = true
		return p, p.fanOut(keyAlerts)
	case views.Result[partResult]:
		return p, p.part(msg)
	case views.RefreshMsg:
		// r lists the projects again (new ones appear) and reads everything.
		p.hidden = map[string]bool{}
		p.configs = map[string]*alertConfigs{} // and the alert configurations
		p.resync()
		p.cov = nil
		p.unsettled = nil // r shows what the server holds
		p.started = true
		return p, tea.Batch(p.loadProjects(), p.Arm())
	case views.FilterMsg:
		p.table.SetFilter(msg.Text)
	case views.ContextChangedMsg:
		// The board spans every project: only presentation matters.
		p.Ctx = msg.Ctx
		p.drawn = drawn{}
		p.table.SetTheme(msg.Ctx.Theme)
		p.table.SetKeyMap(msg.Ctx.Keys)
		p.setHealth() // the kit forgets health on a new scope; the board's is not the scope's
	case views.ActionMsg:
		if msg.Name == actOpen {
			return p, p.open()
		}
		if cmd, ok := views.AskThenDo(msg, p.steps); ok {
			return p, cmd
		}
		p.Refuse("unknown action " + msg.Name)
	case tea.KeyPressMsg:
		if msg.String() == "esc" && len(p.results) > 0 {
			p.results, p.resultsHead = nil, ""
			return p, nil
		}
		var cmd tea.Cmd
		before := p.table.SelectedID()
		p.table, cmd = p.table.Update(msg)
		p.moved = p.moved || p.table.SelectedID() != before
		return p, cmd
	}
	return p, nil
}

// part takes one project's answer; when the last alert answer of a round
// is in, the rest follows (alerts first).
func (p *Pane) part(m views.Result[partResult]) tea.Cmd {
	if m.Seq != p.gen {
		return nil
	}
	part := m.Value
	part.Wall = p.Ctx.WallNow()
	p.pending[m.Key] = max(p.pending[m.Key]-1, 0)
	if part.Hidden && !p.hidden[part.GroupID] {
		p.hidden[part.GroupID] = true
		p.boardDirty = true // its "not visible (role)" row
	}
	var next tea.Cmd
	prev, had := p.partsOf(m.Key)[part.GroupID]
	switch m.Key {
	case keyAlerts:
		if part.Configs != nil {
			p.configs[part.GroupID] = part.Configs
		}
		p.alerts[part.GroupID] = keep(part, p.alerts[part.GroupID])
	case keyAuth:
		p.auth[part.GroupID] = keep(part, p.auth[part.GroupID])
	default:
		p.rest[part.GroupID] = keep(part, p.rest[part.GroupID])
		// The failed authentications follow each project's rest, on the
		// clusters it listed (the last good read's when this one failed).
		if pr, ok := p.project(part.GroupID); ok && !part.Hidden {
			next = p.fetchAuth(pr, p.rest[part.GroupID].LogClusters)
		}
	}
	if p.place(m.Key, part.GroupID) || p.boardDirty {
		p.boardDirty = true
	}
	switch {
	case p.boardDirty && p.flushNow(m.Key):
		p.rebuild()
	case p.healthChanged(m.Key, part, prev, had):
		p.setHealth()
	}
	if next != nil {
		return next
	}
	if m.Key == keyAlerts && p.pending[keyAlerts] == 0 && p.restDue && p.pending[keyRest] == 0 {
		p.restDue = false
		return p.fanOut(keyRest)
	}
	return nil
}

func (p *Pane) project(gid string) (Project, bool) {
	for _, pr := range p.projects {
		if pr.ID == gid {
			return pr, true
		}
	}
	return Project{}, false
}

// Items is every row on the board, most urgent first: by severity, then
// newest first.
func (p *Pane) Items() []Item { return p.b.items() }

// rebuild hands the board's rows to the table, their ages and WHERE
// brought up to date first.
func (p *Pane) rebuild() {
	p.whereW = whereWidth(p.W)
	p.b.refresh(p.Ctx.Now(), p.whereW)
	p.boardDirty, p.flushed = false, p.Ctx.WallNow()
	rows := p.b.appendRows(p.table.Recycle())
	if pr := p.Ctx.Presence; pr != nil {
		p.markPresence(pr, rows)
	}
	for _, pr := range p.projects {
		if p.hidden[pr.ID] {
			where := pr.OrgName + " › " + pr.Name
			rows = append(rows, components.Row{ID: "hidden/" + pr.ID, Class: "muted", Cells: []string{
				"", "project", fitWhere(where, p.whereW), "not visible (role)", "", "9", "", "", where}})
		}
	}
	p.table.SetRows(rows)
	if !p.moved {
		p.table.SetCursor(0)
	}
	p.setHealth()
}

// restParts names, for the header, the kinds the rest reads per cluster.
var restParts = []struct {
	kind Kind
	name string
}{{KindSnapshot, "snapshots"}, {KindRestore, "restores"}, {KindExport, "exports"}, {KindIndex, "search"}, {KindMigration, "migrations"}}

// setHealth tells the kit how fresh each part of the board is, for the
// header: per part the oldest answer of the projects that answered and,
// when some project's read of it failed, since when and why.
func (p *Pane) setHealth() {
	now := p.Ctx.WallNow()
	var parts []views.PartHealth
	note := func(name string, ok time.Time, failed bool, err error) {
		i := slices.IndexFunc(parts, func(h views.PartHealth) bool { return h.Name == name })
		if i < 0 {
			parts = append(parts, views.PartHealth{Name: name})
			i = len(parts) - 1
		}
		h := &parts[i]
		if !ok.IsZero() && (h.OK.IsZero() || ok.Before(h.OK)) {
			h.OK = ok
		}
		if failed && h.Err == nil && !views.IsPlannedWait(err) { // a read the budget held is no failure
			h.Err = err
			if h.Err == nil {
				h.Err = errors.New("read failed")
			}
		}
	}
	if p.projErr != nil {
		note("projects", time.Time{}, true, p.projErr)
	}
	for _, pr := range p.projects {
		if p.hidden[pr.ID] {
			continue
		}
		if r, ok := p.alerts[pr.ID]; ok && !r.Hidden {
			note("alerts", r.Wall, r.Errs > 0, r.Err)
		}
		if r, ok := p.auth[pr.ID]; ok && !r.Hidden {
			note("auth bursts", r.Wall, r.Errs > 0, r.Err)
		}
		if r, ok := p.rest[pr.ID]; ok && !r.Hidden {
			whole := r.Failed[""]
			note("clusters", r.Wall, whole, r.Err)
			for _, k := range restParts {
				failed := whole
				for scope := range r.Failed {
					failed = failed || strings.HasPrefix(scope, string(k.kind)+"/")
				}
				note(k.name, r.Wall, failed, r.Err)
			}
		}
	}
	since := map[string]time.Time{}
	for i := range parts {
		h := &parts[i]
		if h.Err == nil {
			continue
		}
		if h.StaleSince = p.staleSince[h.Name]; h.StaleSince.IsZero() {
			h.StaleSince = now
		}
		since[h.Name] = h.StaleSince
	}
	p.staleSince = since
	p.SetParts(parts)
	p.cov, p.healthAt = nil, p.Ctx.WallNow() // counted again with what the health says
}

// open jumps to the pane that owns the row.
func (p *Pane) open() tea.Cmd {
	it, ok := p.selected()
	if !ok {
		return nil
	}
	j := views.JumpMsg{GroupID: it.GroupID, Cluster: it.Cluster, ItemID: it.ItemID, Name: it.What}
	switch it.Kind {
	case KindAlert, KindAckEnds:
		j.Pane, j.Cluster = "alerts", ""
	case KindSnapshot:
		j.Pane, j.View = "backups", "snapshots"
	case KindRestore:
		j.Pane, j.View = "backups", "restores"
	case KindExport:
		j.Pane, j.View = "backups", "exports"
	case KindIndex:
		j.Pane = "search"
	case KindCluster, KindVersion:
		j.Pane, j.ItemID = "backups", ""
	case KindMigration:
		j.Pane = "migration"
	case KindAuthBurst:
		// The cluster's access log, failures only, from that address.
		j.Pane, j.View = "accesslogs", "failures"
	}
	p.Jump(j)
	return nil
}

// coverage is the line over the board: how many projects answered each
// part, how many are not visible, and how fresh each part is.
func (p *Pane) coverage() string { return strings.Join(p.coverageParts(), " · ") }

// coverageParts are the coverage line's parts, where it may wrap.
func (p *Pane) coverageParts() []string {
	if p.projErr != nil {
		return []string{"triage: " + p.projErr.Error()}
	}
	if p.projects == nil {
		return []string{"listing organizations and projects…"}
	}
	c := p.coverageCounts()
	// Ages count the user's seconds, as the header's do (the demo's world
	// runs faster than the wall clock).
	now := p.Ctx.WallNow()
	// part says, for one part, how many projects answered, how old the
	// oldest answer is, and which failed: their rows are the last good
	// read's, stale, with the error.
	part := func(name string, k partCount) string {
		s := fmt.Sprintf("%s %d/%d", name, k.done, c.n-c.hid)
		if !k.oldest.IsZero() {
			s += " (" + components.Age(now.Sub(k.oldest)) + " ago)"
		}
		if k.stale > 0 {
			s += fmt.Sprintf(", %d stale (%s)", k.stale, k.firstErr)
		}
		if k.capped > 0 {
			// A project whose list reached the row cap: its rows are the
			// first apiclient.MaxRows, there may be more.
			s += ", " + components.Sanitize(k.firstCapped) + ": " + apiclient.ShowingFirst(apiclient.MaxRows)
			switch k.capped {
			case 1:
			case 2:
				s += " (and 1 more project)"
			default:
				s += fmt.Sprintf(" (and %d more projects)", k.capped-1)
			}
		}
		return s
	}
	first := fmt.Sprintf("%d of %d projects", c.seen, c.n-c.hid)
	if len(p.Ctx.TriageOrgs)+len(p.Ctx.TriageProjects) > 0 {
		first += " (narrowed by the profile)"
	}
	parts := []string{first}
	if len(p.unmatched) > 0 {
		parts = append(parts, "profile: "+strings.Join(p.unmatched, ", ")+" matches nothing")
	}
	parts = append(parts, part("alerts", c.alerts), part("clusters/backups/search", c.rest))
	if p.Ctx.TriageAuthBursts > 0 {
		auth := part("auth bursts", c.auth)
		if c.denied > 0 {
			auth += fmt.Sprintf(", logs of %d clusters not visible (role)", c.denied)
		}
		parts = append(parts, auth)
	}
	if c.hid > 0 {
		parts = append(parts, fmt.Sprintf("%d not visible (role)", c.hid))
	}
	return append(parts, "migrations: this session's only (the API lists none)")
}

// Over the board, each wraps onto at most this many lines (the last cut,
// ending in "…", only when that is not enough).
const (
	headLines     = 2
	coverageLines = 4
)

// top is what the pane shows over the table, at its width: the counts,
// the coverage line and the outcomes of the last acknowledgement. Each
// wraps between its parts rather than being cut, so that no fact is lost
// at 80 columns.
func (p *Pane) topLines() []string {
	w := max(p.W, 1)
	counts, total := p.b.counts, len(p.b.sorted)
	head := []string{fmt.Sprintf("Triage · %d need a human", total)}
	for _, k := range Kinds {
		if counts[k] > 0 {
			head = append(head, fmt.Sprintf("%d %s", counts[k], k))
		}
	}
	if len(head) > 1 {
		head = append([]string{head[0] + ": " + head[1]}, head[2:]...)
	}
	lines := wrapParts(head, ", ", w, headLines)
	covMax := coverageLines
	if p.H < 16 {
		covMax = 2 // a short terminal keeps room for the rows
	}
	lines = append(lines, wrapParts(p.coverageParts(), " · ", w, covMax)...)
	if len(p.results) > 0 {
		lines = append(lines, wrapParts(strings.Split(p.resultsHead, " · "), " · ", w, 2)...)
		lines = append(lines, p.outcomeLines(w, max(p.H/3-1, 1))...)
	}
	if len(lines) >= p.H && p.H > 1 {
		// Never more than the pane: the table keeps a line.
		lines = lines[:p.H-1]
		lines[len(lines)-1] = cutOff(lines[len(lines)-1], w)
	}
	return lines
}

// outcomeLines are the outcomes of the last acknowledgement in at most n
// lines, each row's whole outcome wrapped under its mark; the rows that
// do not fit are counted on the last line.
func (p *Pane) outcomeLines(w, n int) []string {
	rows := make([][]string, len(p.results))
	total := 0
	for i, r := range p.results {
		rows[i] = hang(r, w)
		total += len(rows[i])
	}
	if total <= n {
		var out []string
		for _, r := range rows {
			out = append(out, r...)
		}
		return out
	}
	var out []string
	shown := 0
	for _, r := range rows {
		if len(out)+len(r) > n-1 {
			break
		}
		out = append(out, r...)
		shown++
	}
	if shown == 0 && n > 1 {
		// Not even one row whole: what fits of the first.
		out = append(rows[0][:n-2], cutOff(rows[0][n-2], w))
		shown = 1
	}
	return append(out, components.Truncate(fmt.Sprintf("  … and %d more", len(p.results)-shown), w))
}

// hang wraps one outcome to w cells: "  " before its first line, "    "
// before the others.
func hang(s string, w int) []string {
	s = components.Sanitize(s)
	first := strings.Split(ansi.Wrap(s, max(w-2, 1), ""), "\n")
	out := []string{"  " + first[0]}
	if len(first) == 1 {
		return out
	}
	rest := strings.Join(first[1:], " ")
	for _, l := range strings.Split(ansi.Wrap(rest, max(w-4, 1), ""), "\n") {
		out = append(out, "    "+l)
	}
	return out
}

// wrapParts lays parts out in lines of at most w cells, sep between two
// parts: a line breaks between parts (ending in the separator, "," or
// " ·", when it fits, so that it reads as going on), and within a part
// only when the part alone is wider than a line. Past most lines, the
// last is cut, ending in "…".
func wrapParts(parts []string, sep string, w, most int) []string {
	var lines []string
	cur := ""
	end := strings.TrimRight(sep, " ")
	for _, part := range parts {
		part = components.Sanitize(part)
		switch {
		case cur != "" && components.Width(cur+sep+part) <= w:
			cur += sep + part
		case components.Width(part) > w:
			// Wider than a line wherever it starts: it goes on from
			// the line so far, broken between words.
			if cur != "" {
				part = cur + sep + part
			}
			wrapped := strings.Split(ansi.Wrap(part, w, ""), "\n")
			lines = append(lines, wrapped[:len(wrapped)-1]...)
			cur = wrapped[len(wrapped)-1]
		default:
			if cur != "" {
				if components.Width(cur+end) <= w {
					cur += end
				}
				lines = append(lines, cur)
			}
			cur = part
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	if most > 0 && len(lines) > most {
		lines = append(lines[:most-1], cutOff(lines[most-1], w))
	}
	return lines
}

// cutOff marks a line whose continuation is left out: it ends in "…".
func cutOff(line string, w int) string {
	line = strings.TrimRight(line, " ·,") // a break's separator
	if strings.HasSuffix(line, "…") {
		return line
	}
	if line = components.Truncate(line, max(w-1, 0)); strings.HasSuffix(line, "…") {
		return line
	}
	return line + "…"
}

func (p *Pane) View() string {
	lines := p.top()
	// The lines over the table are counted again here: an age in them may
	// have grown a digit since the last message.
	t := p.table
	if h := max(p.H-len(lines), 1); t.Height() != h {
		t.SetSize(p.W, h)
	}
	return p.frame(lines, t.View())
}

// markPresence names, under serve, who else is acting on an alert row or
// acknowledged it. The board keeps each row's cells, so a marked row gets
// cells of its own.
func (p *Pane) markPresence(pr views.Presence, rows []components.Row) {
	for i, row := range rows {
		it, ok := p.b.lookup(row.ID)
		if !ok || !alertRow(it) || len(row.Cells) <= 3 {
			continue
		}
		what := row.Cells[3]
		if act := pr.Acting(it.GroupID, it.ItemID); act != "" {
			what = act + " · " + what
		} else if who := pr.AckedBy(it.GroupID, it.ItemID); who != "" {
			what += " (acknowledged by " + who + ")"
		} else {
			continue
		}
		cells := slices.Clone(row.Cells)
		cells[3] = what
		rows[i].Cells = cells
	}
}
