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
	ctx     views.Context
	w, h    int
	visible bool
	paused  bool
	started bool

	seq  views.Seq // of the projects list
	gen  uint64    // fan-out generation: answers of an older one are dropped
	poll views.Poller
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
	p := &Pane{ctx: ctx, alerts: map[string]partResult{}, rest: map[string]partResult{}, hidden: map[string]bool{}, pending: map[string]int{}}
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
	p.w, p.h = w, h
	p.table.SetSize(w, max(h-2, 1))
}

func (p *Pane) Actions() []keymap.Action {
	if p.ctx.Keys == nil {
		return nil
	}
	acts := p.ctx.Keys.Scope(ID.Scope())
	if _, ok := p.selected(); !ok {
		for i := range acts {
			acts[i] = acts[i].Disabled("no row selected")
		}
	}
	return acts
}

func (p *Pane) SetVisible(v bool) tea.Cmd {
	p.visible = v
	if v && !p.started {
		p.started = true
		return tea.Batch(p.loadProjects(), p.arm())
	}
	return p.arm()
}

func (p *Pane) arm() tea.Cmd {
	if p.paused || !p.visible {
		p.poll.Stop()
		return nil
	}
	return p.poll.Arm(ID, p.ctx.Poll.Every(ID))
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
	client := p.ctx.Client
	if client == nil {
		return nil
	}
	return views.Fetch(ID, keyProjects, p.seq.Next(), "listing projects", func(ctx context.Context) (any, error) {
		return fetchProjects(ctx, client)
	})
}

// fanMsg carries one project's part back, stamped with its generation.
type fanMsg struct {
	gen  uint64
	key  string
	part partResult
}

// fanOut asks every visible project for one part (alerts or rest).
func (p *Pane) fanOut(key string) tea.Cmd {
	client, clock := p.ctx.Client, p.ctx.Now
	if client == nil {
		return nil
	}
	gen := p.gen
	var cmds []tea.Cmd
	for _, pr := range p.projects {
		if p.hidden[pr.ID] {
			continue
		}
		pr := pr
		p.pending[key]++
		cmds = append(cmds, func() tea.Msg {
			ctx, cancel := context.WithTimeout(context.Background(), 4*views.RequestTimeout)
			defer cancel()
			var part partResult
			if key == keyAlerts {
				part = fetchAlerts(ctx, client, pr, clock)
			} else {
				part = fetchRest(ctx, client, pr, clock)
			}
			return views.PaneMsg{Pane: ID, Msg: fanMsg{gen: gen, key: key, part: part}}
		})
	}
	return tea.Batch(cmds...)
}

func (p *Pane) Update(msg tea.Msg) (views.Pane, tea.Cmd) {
	switch msg := msg.(type) {
	case views.ResultMsg:
		if msg.Key != keyProjects || !p.seq.Latest(msg.Seq) {
			return p, nil
		}
		p.projErr = msg.Err
		if msg.Err != nil {
			return p, nil
		}
		p.projects = msg.Value.(projectsResult).Projects
		p.gen++
		p.pending = map[string]int{}
		return p, p.fanOut(keyAlerts)
	case fanMsg: // the root hands on what a PaneMsg carried
		return p, p.part(msg)
	case views.PollTickMsg:
		if !p.poll.Current(msg) {
			return p, nil
		}
		p.tick++
		var cmds []tea.Cmd
		if p.pending[keyAlerts] == 0 {
			cmds = append(cmds, p.fanOut(keyAlerts))
		}
		if p.tick%restEvery == 0 && p.pending[keyRest] == 0 {
			cmds = append(cmds, p.fanOut(keyRest))
		}
		return p, tea.Batch(append(cmds, p.arm())...)
	case views.RefreshMsg:
		// r lists the projects again (new ones appear) and reads everything.
		p.hidden = map[string]bool{}
		p.started = true
		return p, tea.Batch(p.loadProjects(), p.arm())
	case views.PauseMsg:
		p.paused = msg.Paused
		return p, p.arm()
	case views.FilterMsg:
		p.table.SetFilter(msg.Text)
	case views.ContextChangedMsg:
		// The board spans every project: only presentation matters.
		p.ctx = msg.Ctx
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
func (p *Pane) part(m fanMsg) tea.Cmd {
	if m.gen != p.gen {
		return nil
	}
	p.pending[m.key] = max(p.pending[m.key]-1, 0)
	if m.part.Hidden {
		p.hidden[m.part.GroupID] = true
	}
	if m.key == keyAlerts {
		p.alerts[m.part.GroupID] = m.part
	} else {
		p.rest[m.part.GroupID] = m.part
	}
	p.rebuild()
	if m.key == keyAlerts && p.pending[keyAlerts] == 0 && len(p.rest) == 0 && p.pending[keyRest] == 0 {
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
	now := p.ctx.Now()
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
	now := p.ctx.Now()
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
	style := lipgloss.NewStyle().MaxWidth(max(p.w, 1))
	return lipgloss.JoinVertical(lipgloss.Left,
		style.Render(components.Sanitize(head)),
		style.Render(components.Sanitize(p.coverage())),
		p.table.View())
}
