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
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/ui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// restEvery: the rest (clusters, backups, indexes), which changes slowly and
// costs several requests a cluster, is read again every this many polls;
// alerts every poll.
const restEvery = 4

// Pane is the triage board.
type Pane struct {
	views.Base
	started bool

	seq  views.Seq // of the projects list
	gen  uint64    // fan-out generation: answers of an older one are dropped
	tick int

	projects []Project
	projErr  error
	alerts   map[string]partResult // by group id
	rest     map[string]partResult
	hidden   map[string]bool // read forbidden to the caller: never asked again
	pending  map[string]int  // requests in flight by key ("alerts", "rest")

	table components.Table
}

// New is the pane's Factory.
func New(ctx views.Context) views.Pane {
	p := &Pane{alerts: map[string]partResult{}, rest: map[string]partResult{}, hidden: map[string]bool{}, pending: map[string]int{}}
	p.Base = views.NewBase(ID, ctx, nil)
	p.table = components.NewTable(columns(), ctx.Theme, ctx.Keys)
	return p
}

func columns() []components.Column {
	return []components.Column{
		{Title: "SEVERITY", Width: 9, SortKey: func(r components.Row) string { return r.Cells[5] }},
		{Title: "KIND", Width: 8},
		{Title: "WHERE", MinWidth: 16, Flex: 2},
		{Title: "WHAT", MinWidth: 16, Flex: 3},
		{Title: "SINCE", Width: 6, Align: components.AlignRight, SortKey: func(r components.Row) string { return r.Cells[6] }},
	}
}

func (p *Pane) ID() views.ID  { return ID }
func (p *Pane) Title() string { return Registration.Title }
func (p *Pane) Busy() string  { return "" }

// Init starts nothing: the fan-out is costly, so it starts when the board
// is first shown.
func (p *Pane) Init() tea.Cmd { return nil }

func (p *Pane) SetSize(w, h int) {
	p.W, p.H = w, h
	p.table.SetSize(w, max(h-2, 1))
}

func (p *Pane) Actions() []keymap.Action {
	if p.Ctx.Keys == nil {
		return nil
	}
	acts := p.Ctx.Keys.Scope(ID.Scope())
	if _, ok := p.selected(); !ok {
		for i := range acts {
			acts[i] = acts[i].Disabled("no row selected")
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
	key := p.table.SelectedID()
	for _, part := range []map[string]partResult{p.alerts, p.rest} {
		for _, r := range part {
			for _, it := range r.Items {
				if it.Key() == key {
					return it, true
				}
			}
		}
	}
	return Item{}, false
}

func (p *Pane) loadProjects() tea.Cmd {
	client := p.Ctx.Client
	if client == nil {
		return nil
	}
	return views.Background(&p.Base, keyProjects, p.seq.Next(), "listing projects", func(ctx context.Context) (projectsResult, error) {
		return fetchProjects(ctx, client)
	})
}

// fanOut asks every visible project for one part (alerts or rest), as
// background work stamped with the fan-out's generation.
func (p *Pane) fanOut(key string) tea.Cmd {
	client, clock := p.Ctx.Client, p.Ctx.Now
	if client == nil {
		return nil
	}
	var cmds []tea.Cmd
	for _, pr := range p.projects {
		if p.hidden[pr.ID] {
			continue
		}
		p.pending[key]++
		cmds = append(cmds, views.Background(&p.Base, key, p.gen, "", func(ctx context.Context) (partResult, error) {
			if key == keyAlerts {
				return fetchAlerts(ctx, client, pr, clock), nil
			}
			return fetchRest(ctx, client, pr, clock), nil
		}))
	}
	return tea.Batch(cmds...)
}

// poll is a tick's work: every project's alerts, and the rest every
// restEvery ticks, unless a round is still under way.
func (p *Pane) poll() tea.Cmd {
	p.tick++
	var cmds []tea.Cmd
	if p.pending[keyAlerts] == 0 {
		cmds = append(cmds, p.fanOut(keyAlerts))
	}
	if p.tick%restEvery == 0 && p.pending[keyRest] == 0 {
		cmds = append(cmds, p.fanOut(keyRest))
	}
	return tea.Batch(append(cmds, p.Arm())...)
}

func (p *Pane) Update(msg tea.Msg) (views.Pane, tea.Cmd) {
	kit, done := p.Handle(msg, p.poll)
	if done {
		return p, kit
	}
	switch msg := msg.(type) {
	case views.Result[projectsResult]:
		if !p.seq.Latest(msg.Seq) {
			return p, nil
		}
		p.projErr = msg.Err
		if msg.Err != nil {
			return p, nil
		}
		p.projects = msg.Value.Projects
		p.gen++
		p.pending = map[string]int{}
		return p, p.fanOut(keyAlerts)
	case views.Result[partResult]:
		return p, p.part(msg)
	case views.RefreshMsg:
		// r lists the projects again (new ones appear) and reads everything.
		p.hidden = map[string]bool{}
		p.started = true
		return p, tea.Batch(p.loadProjects(), p.Arm())
	case views.FilterMsg:
		p.table.SetFilter(msg.Text)
	case views.ContextChangedMsg:
		// The board spans every project: only presentation matters.
		p.Ctx = msg.Ctx
		p.table.SetTheme(msg.Ctx.Theme)
		p.table.SetKeyMap(msg.Ctx.Keys)
	case views.ActionMsg:
		if msg.Name == "triage.open" {
			return p, p.open()
		}
	case tea.KeyPressMsg:
		var cmd tea.Cmd
		p.table, cmd = p.table.Update(msg)
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
	p.pending[m.Key] = max(p.pending[m.Key]-1, 0)
	if m.Value.Hidden {
		p.hidden[m.Value.GroupID] = true
	}
	if m.Key == keyAlerts {
		p.alerts[m.Value.GroupID] = m.Value
	} else {
		p.rest[m.Value.GroupID] = m.Value
	}
	p.rebuild()
	if m.Key == keyAlerts && p.pending[keyAlerts] == 0 && len(p.rest) == 0 && p.pending[keyRest] == 0 {
		return p.fanOut(keyRest)
	}
	return nil
}

// Items is every row on the board, most urgent first: by severity, then
// newest first.
func (p *Pane) Items() []Item {
	var out []Item
	for _, part := range []map[string]partResult{p.alerts, p.rest} {
		for gid, r := range part {
			if p.hidden[gid] {
				continue
			}
			out = append(out, r.Items...)
		}
	}
	slices.SortStableFunc(out, func(a, b Item) int {
		if d := severityRank(a.Severity) - severityRank(b.Severity); d != 0 {
			return d
		}
		if c := b.Since.Compare(a.Since); c != 0 {
			return c
		}
		return strings.Compare(a.Key(), b.Key())
	})
	return out
}

func (p *Pane) rebuild() {
	now := p.Ctx.Now()
	items := p.Items()
	rows := make([]components.Row, 0, len(items)+len(p.hidden))
	for i, it := range items {
		since := ""
		if !it.Since.IsZero() {
			since = short(now.Sub(it.Since))
		}
		rows = append(rows, components.Row{ID: it.Key(), Class: string(it.Severity), Cells: []string{
			string(it.Severity), string(it.Kind), it.Where(), it.What, since,
			fmt.Sprintf("%d", severityRank(it.Severity)), fmt.Sprintf("%020d", now.Sub(it.Since)), fmt.Sprint(i)}})
	}
	for _, pr := range p.projects {
		if p.hidden[pr.ID] {
			rows = append(rows, components.Row{ID: "hidden/" + pr.ID, Class: "muted", Cells: []string{
				"", "project", pr.OrgName + " › " + pr.Name, "not visible (role)", "", "9", "", ""}})
		}
	}
	p.table.SetRows(rows)
}

// open jumps to the pane that owns the row.
func (p *Pane) open() tea.Cmd {
	it, ok := p.selected()
	if !ok {
		return nil
	}
	j := views.JumpMsg{From: ID, GroupID: it.GroupID, Cluster: it.Cluster, ItemID: it.ItemID}
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
	}
	return func() tea.Msg { return j }
}

// coverage is the line over the board: how many projects answered each
// part, how many are not visible, and how fresh each part is.
func (p *Pane) coverage() string {
	if p.projErr != nil {
		return "triage: " + p.projErr.Error()
	}
	if p.projects == nil {
		return "listing organizations and projects…"
	}
	n, hid := len(p.projects), 0
	for _, pr := range p.projects {
		if p.hidden[pr.ID] {
			hid++
		}
	}
	now := p.Ctx.Now()
	part := func(name string, m map[string]partResult) string {
		done, errs := 0, 0
		var oldest time.Time
		for _, r := range m {
			if r.Hidden {
				continue
			}
			done++
			errs += r.Errs
			if oldest.IsZero() || r.At.Before(oldest) {
				oldest = r.At
			}
		}
		s := fmt.Sprintf("%s %d/%d", name, done, n-hid)
		if !oldest.IsZero() && done == n-hid {
			s += " (" + short(now.Sub(oldest)) + " ago)"
		}
		if errs > 0 {
			s += fmt.Sprintf(" %d failed", errs)
		}
		return s
	}
	seen := 0
	for _, pr := range p.projects {
		_, a := p.alerts[pr.ID]
		_, r := p.rest[pr.ID]
		if a && r && !p.hidden[pr.ID] {
			seen++
		}
	}
	line := fmt.Sprintf("%d of %d projects · %s · %s", seen, n-hid, part("alerts", p.alerts), part("clusters/backups/search", p.rest))
	if hid > 0 {
		line += fmt.Sprintf(" · %d not visible (role)", hid)
	}
	return line
}

func (p *Pane) View() string {
	counts := map[Kind]int{}
	items := p.Items()
	for _, it := range items {
		counts[it.Kind]++
	}
	var parts []string
	for _, k := range Kinds {
		if counts[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[k], k))
		}
	}
	head := fmt.Sprintf("Triage · %d need a human", len(items))
	if len(parts) > 0 {
		head += ": " + strings.Join(parts, ", ")
	}
	style := lipgloss.NewStyle().MaxWidth(max(p.W, 1))
	return lipgloss.JoinVertical(lipgloss.Left,
		style.Render(components.Sanitize(head)),
		style.Render(components.Sanitize(p.coverage())),
		p.table.View())
}
