package keymap

import (
	"slices"
	"strconv"
	"strings"
)

// Global actions work in every pane.
type Global struct {
	// Jump holds the pane-jump actions (keys 1-9), one a pane in tab order.
	Jump                         []Action
	NextPane, PrevPane           Action
	Palette, Filter, Help, Close Action
	Refresh, Pause, Yank, Quit   Action
	Context                      Action // the org/project/cluster picker
}

// Panes returns the pane-jump actions in order.
func (g *Global) Panes() []*Action {
	out := make([]*Action, len(g.Jump))
	for i := range g.Jump {
		out[i] = &g.Jump[i]
	}
	return out
}

func (g *Global) actions() []*Action {
	return append(g.Panes(), &g.NextPane, &g.PrevPane, &g.Palette, &g.Filter, &g.Help,
		&g.Close, &g.Refresh, &g.Pause, &g.Yank, &g.Quit, &g.Context)
}

// Navigation moves a cursor or a viewport.
type Navigation struct {
	Up, Down, Home, End, PageUp, PageDown, HalfUp, HalfDown Action
}

func (n *Navigation) actions() []*Action {
	return []*Action{&n.Up, &n.Down, &n.Home, &n.End, &n.PageUp, &n.PageDown, &n.HalfUp, &n.HalfDown}
}

// Table acts on a components.Table.
type Table struct {
	Mark, RangeMark, MarkVisible, SortNext, SortReverse, ClearMarks Action
}

func (t *Table) actions() []*Action {
	return []*Action{&t.Mark, &t.RangeMark, &t.MarkVisible, &t.SortNext, &t.SortReverse, &t.ClearMarks}
}

// Dialog keys work inside confirms, forms and pickers. Text fields take
// letters as input, so Yes/No only apply to plain confirms.
type Dialog struct {
	Submit, Cancel, Yes, No     Action
	NextField, PrevField        Action
	Left, Right, Up, Down, Flip Action
}

func (d *Dialog) actions() []*Action {
	return []*Action{&d.Submit, &d.Cancel, &d.Yes, &d.No, &d.NextField, &d.PrevField,
		&d.Left, &d.Right, &d.Up, &d.Down, &d.Flip}
}

// KeyMap is every binding of the app.
type KeyMap struct {
	Global     Global
	Navigation Navigation
	Table      Table
	Dialog     Dialog
	// panes are the pane scopes in tab order, each with its actions.
	panes []Pane
	// version counts the changes made through the methods (Apply,
	// Disable, Enable, Gate), so a reader may cache what it read.
	version uint64
}

// Version changes whenever a method changes an action (overrides applied,
// an action disabled or enabled, the gate run): what was read from the
// keymap at one version holds until the next.
func (km *KeyMap) Version() uint64 { return km.version }

// Default returns a fresh KeyMap with the built-in shared bindings and the
// given panes' actions, in tab order; pane i gets the jump key i+1 (up to
// 9). With no panes it holds the shared scopes only (what components need).
func Default(panes ...Pane) *KeyMap {
	a := NewAction
	km := &KeyMap{
		Global: Global{
			NextPane: a("global.nextPane", "tab", "next pane", "tab"),
			PrevPane: a("global.prevPane", "shift+tab", "previous pane", "shift+tab"),
			Palette:  a("global.palette", ":", "command palette", ":"),
			Filter:   a("global.filter", "/", "filter", "/"),
			Help:     a("global.help", "?", "help", "?"),
			Close:    a("global.close", "esc", "close / back", "esc"),
			Refresh:  a("global.refresh", "r", "refresh", "r"),
			Pause:    a("global.pause", "p", "pause live updates", "p"),
			Yank:     a("global.yank", "y", "copy", "y"),
			Quit:     a("global.quit", "q", "quit", "q", "ctrl+c"),
			Context:  a("global.context", "@/ctrl+o", "org/project/cluster picker", "@", "ctrl+o"),
		},
		Navigation: Navigation{
			Up:       a("nav.up", "↑/k", "up", "up", "k"),
			Down:     a("nav.down", "↓/j", "down", "down", "j"),
			Home:     a("nav.home", "g/home", "top", "g", "home"),
			End:      a("nav.end", "G/end", "bottom", "G", "end"),
			PageUp:   a("nav.pageUp", "pgup", "page up", "pgup"),
			PageDown: a("nav.pageDown", "pgdn", "page down", "pgdown"),
			HalfUp:   a("nav.halfUp", "ctrl+u", "half page up", "ctrl+u"),
			HalfDown: a("nav.halfDown", "ctrl+d", "half page down", "ctrl+d"),
		},
		Table: Table{
			Mark:        a("table.mark", "space", "mark", "space"),
			RangeMark:   a("table.rangeMark", "ctrl+space", "mark the range from the last mark", "ctrl+space"),
			MarkVisible: a("table.markVisible", "ctrl+a", "mark every visible row", "ctrl+a"),
			SortNext:    a("table.sortNext", "o", "sort by next column", "o"),
			SortReverse: a("table.sortReverse", "O", "reverse sort", "O"),
			ClearMarks:  a("table.clearMarks", "ctrl+\\", "clear marks", "ctrl+\\"),
		},
		Dialog: Dialog{
			Submit:    a("dialog.submit", "enter", "submit", "enter"),
			Cancel:    a("dialog.cancel", "esc", "cancel", "esc"),
			Yes:       a("dialog.yes", "y", "yes", "y", "Y"),
			No:        a("dialog.no", "n", "no", "n", "N"),
			NextField: a("dialog.nextField", "tab", "next field", "tab"),
			PrevField: a("dialog.prevField", "shift+tab", "previous field", "shift+tab"),
			Left:      a("dialog.left", "←", "previous choice", "left"),
			Right:     a("dialog.right", "→", "next choice", "right"),
			Up:        a("dialog.up", "↑", "up", "up", "ctrl+p"),
			Down:      a("dialog.down", "↓", "down", "down", "ctrl+n"),
			Flip:      a("dialog.flip", "space", "toggle", "space"),
		},
	}
	for i, p := range panes {
		p.Actions = slices.Clone(p.Actions)
		km.panes = append(km.panes, p)
		if i < 9 {
			k := strconv.Itoa(i + 1)
			km.Global.Jump = append(km.Global.Jump, a("global.pane"+k, k, p.jumpHelp(), k))
		}
	}
	return km
}

func (p Pane) jumpHelp() string {
	if p.Jump != "" {
		return p.Jump
	}
	return strings.ToLower(p.Title)
}

// pane returns the registered pane of a scope.
func (km *KeyMap) pane(s Scope) *Pane {
	for i := range km.panes {
		if km.panes[i].Scope == s {
			return &km.panes[i]
		}
	}
	return nil
}

// PaneScopes lists the pane scopes in tab order.
func (km *KeyMap) PaneScopes() []Scope {
	out := make([]Scope, len(km.panes))
	for i, p := range km.panes {
		out[i] = p.Scope
	}
	return out
}

// Title is the help heading of a scope: a pane's title, or a shared
// scope's name.
func (km *KeyMap) Title(s Scope) string {
	if p := km.pane(s); p != nil {
		return p.Title
	}
	return s.Title()
}

// usesTable reports whether a pane shows its data in a components.Table, so
// the Table scope is active together with it.
func (km *KeyMap) usesTable(s Scope) bool {
	p := km.pane(s)
	return p != nil && p.Table
}

// scopeActions returns the actions of one scope, in help order.
func (km *KeyMap) scopeActions(s Scope) []*Action {
	switch s {
	case ScopeGlobal:
		return km.Global.actions()
	case ScopeNavigation:
		return km.Navigation.actions()
	case ScopeTable:
		return km.Table.actions()
	case ScopeDialog:
		return km.Dialog.actions()
	}
	p := km.pane(s)
	if p == nil {
		return nil
	}
	out := make([]*Action, len(p.Actions))
	for i := range p.Actions {
		out[i] = &p.Actions[i]
	}
	return out
}

// AllScopes lists every scope in help order: the shared ones, then the
// panes'.
func (km *KeyMap) AllScopes() []Scope {
	return append([]Scope{ScopeGlobal, ScopeNavigation, ScopeTable, ScopeDialog}, km.PaneScopes()...)
}

// Actions returns copies of every action, scope by scope.
func (km *KeyMap) Actions() []Action {
	var out []Action
	for _, s := range km.AllScopes() {
		for _, a := range km.scopeActions(s) {
			out = append(out, *a)
		}
	}
	return out
}

// Scope returns copies of the actions of one scope.
func (km *KeyMap) Scope(s Scope) []Action {
	var out []Action
	for _, a := range km.scopeActions(s) {
		out = append(out, *a)
	}
	return out
}

// Lookup returns the action with the given stable name.
func (km *KeyMap) Lookup(name string) (Action, bool) {
	if a := km.find(name); a != nil {
		return *a, true
	}
	return Action{}, false
}

func (km *KeyMap) find(name string) *Action {
	for _, s := range km.AllScopes() {
		for _, a := range km.scopeActions(s) {
			if a.Name == name {
				return a
			}
		}
	}
	return nil
}

// Clone returns an independent copy: key.Binding's setters replace its key
// slice rather than write into it, so copying the action slices is enough.
func (km *KeyMap) Clone() *KeyMap {
	c := *km
	c.Global.Jump = slices.Clone(km.Global.Jump)
	c.panes = slices.Clone(km.panes)
	for i := range c.panes {
		c.panes[i].Actions = slices.Clone(c.panes[i].Actions)
	}
	return &c
}
