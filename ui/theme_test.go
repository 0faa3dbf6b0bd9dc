package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"

	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/alerts"
)

type bg struct{ r, g, b, a uint32 }

func (c bg) RGBA() (uint32, uint32, uint32, uint32) { return c.r, c.g, c.b, c.a }

func TestThemeFollowsBackgroundUnlessFixed(t *testing.T) {
	light := tea.BackgroundColorMsg{Color: bg{0xffff, 0xffff, 0xffff, 0xffff}}
	d, _, _ := readyModel(t, func(o *Options) { o.Theme = "" })
	d.Send(light)
	assert.Equal(t, "light", d.m.theme.Name, "auto follows a light background")
	assert.Equal(t, "light", d.m.ctx.Theme.Name, "and panes get it")

	d2, _, _ := readyModel(t, func(o *Options) { o.Theme = "dark" })
	d2.Send(light)
	assert.Equal(t, "dark", d2.m.theme.Name, "a configured theme wins")

	d3, _, _ := readyModel(t, func(o *Options) { o.Theme = "light"; o.NoColor = true })
	d3.Send(light)
	assert.Equal(t, "mono", d3.m.theme.Name, "NO_COLOR forces mono")
	d3.Press(":")
	d3.Type("theme dark")
	d3.Press("enter")
	assert.Equal(t, "mono", d3.m.theme.Name, "even from the palette")
}

func TestLayoutModeReachesPanes(t *testing.T) {
	d, panes, _ := readyModel(t, nil)
	last := func() views.Layout {
		var l views.Layout = -1
		for _, msg := range panes[alerts.ID].got {
			if c, ok := msg.(views.ContextChangedMsg); ok {
				l = c.Ctx.Layout
			}
		}
		return l
	}
	assert.Equal(t, views.LayoutWide, d.m.ctx.Layout)
	d.Send(tea.WindowSizeMsg{Width: 100, Height: 30})
	assert.Equal(t, views.LayoutCompact, last())
	d.Send(tea.WindowSizeMsg{Width: 70, Height: 30})
	assert.Equal(t, views.LayoutNarrow, last())
	assert.Contains(t, d.Screen(), "1  2 Alerts  3  4  5  6  7", "narrow tabs show numbers")
	d.Send(tea.WindowSizeMsg{Width: 59, Height: 30})
	assert.Contains(t, d.Screen(), "Terminal too small: 59x30")
	d.Send(tea.WindowSizeMsg{Width: 130, Height: 30})
	assert.Equal(t, views.LayoutWide, last())
}
