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
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/alertkit"
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
	fan      *fan                  // the queue they wait in and its workers (fan.go)
	restTick map[string]int        // the poll of each project's last rest request
	authTick map[string]int        // and of its last failed-authentications request
	// copied are, by key, the projects whose part on the board is the last
	// start's copy: read again as soon as the round that brought them is in.
	copied map[string][]string
	// projectsCopied: the project list itself is the copy; it is listed
	// again (and every part read again) once that round is in.
	projectsCopied bool

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
	p := &Pane{alerts: map[string]partResult{}, rest: map[string]partResult{}, auth: map[string]partResult{}, hidden: map[string]bool{}, pending: map[string]int{}, staleSince: map[string]time.Time{}, restTick: map[string]int{}, authTick: map[string]int{}, b: newBoard(), configs: map[string]*alertConfigs{}, fan: newFan(ID)}
	p.Base = views.NewBase(ID, ctx, nil)
	p.table = components.NewTable(columns(), ctx.Theme, ctx.Keys)
	p.Widgets(&p.table)
	p.steps = map[string]views.Step{actAck: {Ask: p.openAck, Do: p.submitAck}}
	return p
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
		p.copied, p.projectsCopied = nil, !msg.CachedAt.IsZero()
		p.boardDirty = true
		p.cov = nil
		p.gen++
		p.pending = map[string]int{}
		p.fan.drop() // the last round's requests not sent yet
		// Every project's alerts, then (queued behind them) the rest.
		return p, tea.Batch(p.fanOut(keyAlerts), p.fanOut(keyRest))
	case views.Result[partBatch]:
		return p, p.batch(msg)
	case views.Result[partResult]:
		p.part(msg)
		return p, p.fan.start()
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
