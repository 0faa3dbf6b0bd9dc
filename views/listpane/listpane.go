// Package listpane is a pane declared rather than written: a list of items
// loaded by one function, shown as a table of declared columns (the table
// keys sort it, the root's `/` filters it), a markdown detail on enter, and
// actions that each act on the selected item (a jump to another pane,
// usually). A read-only pane is its Spec and its Registration, whose
// actions the Spec lists (Spec.Keys): each action is named once.
package listpane

import (
	"context"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// Column is one column: the table's layout and how an item fills it.
type Column[T any] struct {
	components.Column
	Cell func(T) string
	// Sort, when set, is the item's sort key for this column (a date or a
	// version sorts by it rather than by the text shown).
	Sort func(T) string
}

// Action is one action: its registration (full name, "clusters.backups",
// keys and help) and what it does with the selected item. Do asks the
// root through the pane's Base (b.Jump) and returns any Cmd it starts.
// Disabled, when set, gives the reason the item refuses it ("" when it
// does not).
type Action[T any] struct {
	Key      keymap.Action
	Do       func(b *views.Base, item T) tea.Cmd
	Disabled func(T) string
}

// Jump is an Action's Do that opens pane (on view, when set) on the
// selected item, which name names (a cluster name, an id).
func Jump[T any](pane views.ID, view string, name func(T) string) func(*views.Base, T) tea.Cmd {
	return func(b *views.Base, it T) tea.Cmd {
		n := name(it)
		b.Jump(views.JumpMsg{Pane: pane, GroupID: b.Ctx.GroupID, Cluster: n, View: view, Name: n})
		return nil
	}
}

// Spec declares a list pane.
type Spec[T any] struct {
	ID      views.ID
	Noun    string // "clusters", for the empty and loading lines
	Columns []Column[T]
	Key     func(T) string // a stable, unique row id
	// Class styles a row (a state: ok, running, failed, muted); optional.
	Class func(T) string
	// Off, when it returns a reason, is why there is nothing to load ("pick
	// a project"); optional.
	Off func(views.Context) string
	// Load reads the list; it runs off the UI loop and may use only ctx.
	Load func(ctx context.Context, vctx views.Context) ([]T, error)
	// Detail is the selected item's detail, in markdown; enter opens it
	// when the registration has an action named "<id>.detail".
	Detail  func(T) string
	Actions []Action[T]
}

// detailAction is the name of the action that opens the detail.
func (s Spec[T]) detailAction() string { return string(s.ID) + ".detail" }

// Keys are the pane's actions for its Registration: enter for the detail
// (when the Spec has one), then each Action's.
func (s Spec[T]) Keys() []keymap.Action {
	var out []keymap.Action
	if s.Detail != nil {
		out = append(out, keymap.NewAction(s.detailAction(), "enter", "detail", "enter"))
	}
	for _, a := range s.Actions {
		out = append(out, a.Key)
	}
	return out
}

// Pane is the pane a Spec declares.
type Pane[T any] struct {
	views.Base
	spec    Spec[T]
	seq     views.Seq
	items   map[string]T
	loaded  bool
	err     error
	table   components.Table
	detail  components.Detail
	showing bool // the detail is open
}

// PartError is views.PartError, for a Spec's Load.
type PartError = views.PartError

// New returns the pane's Factory.
func New[T any](spec Spec[T]) views.Factory {
	return func(ctx views.Context) views.Pane {
		p := &Pane[T]{spec: spec, items: map[string]T{}}
		p.Base = views.NewBase(spec.ID, ctx, func() views.PollState { return views.PollState{Off: p.off() != ""} })
		cols := make([]components.Column, len(spec.Columns))
		for i, c := range spec.Columns {
			cols[i] = c.Column
			if c.Sort != nil {
				at := len(spec.Columns) + i // the sort key's hidden cell
				cols[i].SortKey = func(r components.Row) string { return r.Cells[at] }
			}
		}
		p.table = components.NewTable(cols, ctx.Theme, ctx.Keys)
		p.detail = components.NewDetail(ctx.Theme, ctx.Keys)
		p.Widgets(&p.table, &p.detail)
		return p
	}
}

func (p *Pane[T]) off() string {
	if p.spec.Off == nil {
		return ""
	}
	return p.spec.Off(p.Ctx)
}

func (p *Pane[T]) load() tea.Cmd {
	if p.off() != "" || p.Ctx.Client == nil {
		return nil
	}
	vctx, load := p.Ctx, p.spec.Load
	return views.Load(&p.Base, "list", p.seq.Next(), "listing "+p.spec.Noun, func(ctx context.Context) ([]T, error) {
		return load(ctx, vctx)
	})
}

// Init loads nothing: the list loads when the pane is first shown.
func (p *Pane[T]) Init() tea.Cmd { return nil }

func (p *Pane[T]) SetVisible(v bool) tea.Cmd {
	arm := p.Base.SetVisible(v)
	if v && !p.loaded && p.err == nil {
		return tea.Batch(p.load(), arm)
	}
	return arm
}

func (p *Pane[T]) SetSize(w, h int) {
	p.W, p.H = w, h
	p.table.SetSize(w, max(h, 1))
	p.detail.SetSize(w, max(h, 1))
}

func (p *Pane[T]) Busy() string { return "" }

// CanGoBack: esc closes the detail.
func (p *Pane[T]) CanGoBack() bool { return p.showing }

// Selected is what `y` copies: the row's id.
func (p *Pane[T]) Selected() string { return p.table.SelectedID() }

func (p *Pane[T]) selected() (T, bool) {
	it, ok := p.items[p.table.SelectedID()]
	return it, ok
}

// Item is the selected item, for tests.
func (p *Pane[T]) Item() (T, bool) { return p.selected() }

func (p *Pane[T]) Actions() []keymap.Action {
	if p.Ctx.Keys == nil {
		return nil
	}
	acts := p.Ctx.Keys.Scope(p.spec.ID.Scope())
	it, ok := p.selected()
	for i, a := range acts {
		switch {
		case !ok:
			acts[i] = a.Disabled("no " + strings.TrimSuffix(p.spec.Noun, "s") + " selected")
		case p.find(a.Name) != nil && p.find(a.Name).Disabled != nil:
			if why := p.find(a.Name).Disabled(it); why != "" {
				acts[i] = a.Disabled(why)
			}
		}
	}
	return acts
}

func (p *Pane[T]) find(name string) *Action[T] {
	for i := range p.spec.Actions {
		if p.spec.Actions[i].Key.Name == name {
			return &p.spec.Actions[i]
		}
	}
	return nil
}

func (p *Pane[T]) Update(msg tea.Msg) (views.Pane, tea.Cmd) {
	if cmd, done := p.Handle(msg, p.load); done {
		return p, cmd
	}
	switch msg := msg.(type) {
	case views.Result[[]T]:
		if !p.seq.Latest(msg.Seq) {
			return p, nil
		}
		p.err = msg.Err
		if msg.Err == nil {
			p.loaded = true
			p.setRows(msg.Value)
		}
	case views.RefreshMsg:
		return p, p.load()
	case views.FilterMsg:
		p.table.SetFilter(msg.Text)
	case views.ContextChangedMsg:
		reload := msg.ProjectChanged(p.Ctx) // a list of a project: a cluster narrowed to keeps it
		p.Ctx = msg.Ctx
		if reload {
			p.loaded, p.err, p.showing = false, nil, false
			p.setRows(nil)
			return p, p.Reload(p.load)
		}
	case views.ActionMsg:
		it, ok := p.selected()
		switch {
		case !ok:
		case msg.Name == p.spec.detailAction() && p.spec.Detail != nil:
			p.detail.SetMarkdown(p.spec.Detail(it))
			p.showing = true
		case p.find(msg.Name) != nil:
			return p, p.find(msg.Name).Do(&p.Base, it)
		}
	case tea.KeyPressMsg:
		if p.showing {
			if msg.String() == "esc" {
				p.showing = false
				return p, nil
			}
			var cmd tea.Cmd
			p.detail, cmd = p.detail.Update(msg)
			return p, cmd
		}
		var cmd tea.Cmd
		p.table, cmd = p.table.Update(msg)
		return p, cmd
	}
	return p, nil
}

func (p *Pane[T]) setRows(items []T) {
	n := len(p.spec.Columns)
	rows := make([]components.Row, len(items))
	clear(p.items)
	for i, it := range items {
		cells := make([]string, 2*n)
		for j, c := range p.spec.Columns {
			cells[j] = c.Cell(it)
			if c.Sort != nil {
				cells[n+j] = c.Sort(it)
			}
		}
		id := p.spec.Key(it)
		p.items[id] = it
		rows[i] = components.Row{ID: id, Cells: cells}
		if p.spec.Class != nil {
			rows[i].Class = p.spec.Class(it)
		}
	}
	p.table.SetRows(rows)
}

func (p *Pane[T]) View() string {
	if line, ok := (views.Prologue{Noun: p.spec.Noun, Off: p.off(), Loaded: p.loaded, Err: p.err,
		Empty: !p.showing && p.table.Total() == 0}).View(p.Ctx.Theme.Styles); ok {
		return line
	}
	if p.showing {
		return p.detail.View()
	}
	return p.table.View()
}
