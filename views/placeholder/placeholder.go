// Package placeholder holds stand-in panes for the areas whose own issues
// have not landed yet: a title and one line, plus, for alerts, a small live
// list from listAlerts. Each is replaced by its area's package.
package placeholder

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// Pane is a placeholder for one area. It declares the area's actions (so
// help and gating already show them) and answers each with a notice.
type Pane struct {
	id      views.ID
	ctx     views.Context
	w, h    int
	visible bool
}

// Factory returns the Factory of a placeholder pane for id.
func Factory(id views.ID) views.Factory {
	return func(ctx views.Context) views.Pane { return &Pane{id: id, ctx: ctx} }
}

func (p *Pane) ID() views.ID              { return p.id }
func (p *Pane) Title() string             { return p.id.Title() }
func (p *Pane) Init() tea.Cmd             { return nil }
func (p *Pane) SetSize(w, h int)          { p.w, p.h = w, h }
func (p *Pane) SetVisible(v bool) tea.Cmd { p.visible = v; return nil }
func (p *Pane) Busy() string              { return "" }
func (p *Pane) Selected() string          { return "" }
func (p *Pane) Actions() []keymap.Action  { return areaActions(p.ctx, p.id) }
func (p *Pane) Update(msg tea.Msg) (views.Pane, tea.Cmd) {
	switch msg := msg.(type) {
	case views.ContextChangedMsg:
		p.ctx = msg.Ctx
	case views.ActionMsg:
		return p, notYet(p.ctx, msg)
	}
	return p, nil
}

func (p *Pane) View() string {
	body := p.ctx.Theme.Muted.Render(fmt.Sprintf("%s: coming in its own issue.", p.id.Title()))
	return lipgloss.NewStyle().Padding(1, 2).Render(body)
}

// areaActions are the keymap's actions of the pane's scope.
func areaActions(ctx views.Context, id views.ID) []keymap.Action {
	if ctx.Keys == nil {
		return nil
	}
	return ctx.Keys.Scope(id.Scope())
}

// notYet answers an allowed action: nothing is sent from a placeholder.
func notYet(ctx views.Context, msg views.ActionMsg) tea.Cmd {
	desc := msg.Name
	if ctx.Keys != nil {
		if a, ok := ctx.Keys.Lookup(msg.Name); ok {
			desc = a.Help().Desc
		}
	}
	return views.Toast(desc+": coming in its own issue", false)
}
