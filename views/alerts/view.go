package alerts

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// View draws a header line (what is shown, counts, filter state) and the
// current view: the alert table, a detail, the results of a bulk action, or
// the configurations.
func (p *Pane) View() string {
	st := p.Ctx.Theme.Styles
	if p.W <= 0 || p.H <= 0 {
		return ""
	}
	off := ""
	if p.Ctx.GroupID == "" {
		off = "no project selected (press @ or :project)"
	}
	if line, ok := (views.Prologue{Noun: "alerts", Off: off, Loaded: p.loaded, Err: p.err}).View(st); ok {
		return p.fill(" " + line)
	}
	var header, body string
	switch p.mode {
	case modeList:
		header = p.listHeader()
		if s := p.progress(); s != "" {
			header += " · " + s
		}
		if s := p.staleText(); s != "" {
			header += " · " + s
		}
		if p.table.Len() > 0 && p.H >= 2 && p.table.Width() == p.W && p.table.Height() == p.H-1 {
			return p.listBox(header)
		}
		body = p.table.View()
		if p.table.Len() == 0 {
			body = p.table.View() + "\n" + st.Muted.Render(p.emptyText())
		}
	case modeDetail:
		header = "Alert " + p.detailID + " · esc back · a acknowledge · u unacknowledge"
		body = p.detail.View()
	case modeResults:
		header = fmt.Sprintf("Results of the bulk action (%d alerts) · esc back", len(p.results))
		body = p.detail.View()
	case modeConfigs:
		count := fmt.Sprint(len(p.cfgOrder))
		if more := apiclient.ShowingFirst(len(p.cfgOrder)); more != "" {
			count += " (" + more + ")"
		}
		header = "Alert configurations · " + count + " · enter details · t enable/disable · d delete · n/N new · e/E edit · c/esc alerts"
		if p.cfgErr != nil {
			header += " · could not load: " + views.ErrText(p.cfgErr)
		}
		body = p.cfgTable.View()
	case modeConfigDetail:
		header = "Alert configuration " + p.cfgDetailID + " · esc back"
		body = p.detail.View()
	}
	line := st.Muted.Render(components.Truncate(" "+components.Sanitize(header), p.W))
	return p.fill(line + "\n" + body)
}

func (p *Pane) emptyText() string {
	if p.filter != "" || p.status != statusAll {
		return fmt.Sprintf(" no alerts match (status %s, filter %q) · s cycles the status · esc clears the filter", p.status, p.filter)
	}
	return " no alerts in this project"
}

// ExactView tells the root that View is always exactly the pane's size:
// every line SetSize's width in cells, SetSize's height in lines. The
// root lays it out as it is, without measuring or padding it again.
func (p *Pane) ExactView() bool { return true }

// frameCache is the pane's last frame and what it was made of: a frame
// over an unchanged list is the last one, found by comparing strings
// (most often the same string), not drawn and measured again.
type frameCache struct {
	w, h   int
	theme  string
	in     string // fill's input
	out    string // fill's output
	header string // the list's header text
	line   string // the header line drawn, padded to w
	box    string // the table's window (components.Table.Box)
	list   string // the header line and the table's window
}

// listBox is the list: the header line, padded to the pane's width, over
// the table's window, which the table draws exactly its size (the table
// is h-1 lines tall: layout). Nothing is measured but the header text
// when it changes.
func (p *Pane) listBox(header string) string {
	c := &p.frame
	if c.w != p.W || c.h != p.H || c.theme != p.Ctx.Theme.Name {
		*c = frameCache{w: p.W, h: p.H, theme: p.Ctx.Theme.Name}
	}
	if c.line == "" || header != c.header {
		text := components.Truncate(" "+components.Sanitize(header), p.W)
		c.header = header
		c.line = p.Ctx.Theme.Styles.Muted.Render(text) + strings.Repeat(" ", max(p.W-components.Width(text), 0))
		c.list = ""
	}
	box := p.table.Box()
	if c.list == "" || box != c.box {
		c.box = box
		c.list = c.line + "\n" + box
	}
	return c.list
}

// fill pads or clips to exactly the pane's size; the same input as the
// last frame's gives the last frame's output.
func (p *Pane) fill(s string) string {
	c := &p.frame
	if c.w != p.W || c.h != p.H || c.theme != p.Ctx.Theme.Name {
		*c = frameCache{w: p.W, h: p.H, theme: p.Ctx.Theme.Name}
	}
	if c.out != "" && s == c.in {
		return c.out
	}
	c.in = s
	c.out = lipgloss.NewStyle().Width(p.W).Height(p.H).MaxHeight(p.H).MaxWidth(p.W).Render(s)
	return c.out
}
