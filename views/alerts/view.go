package alerts

import (
	"fmt"

	"charm.land/lipgloss/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/ui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// View draws a header line (what is shown, counts, filter state) and the
// current view: the alert table, a detail, the results of a bulk action, or
// the configurations.
func (p *Pane) View() string {
	st := p.Ctx.Theme.Styles
	switch {
	case p.W <= 0 || p.H <= 0:
		return ""
	case p.Ctx.GroupID == "":
		return p.fill(st.Muted.Render(" no project selected (press @ or :project)"))
	case p.err != nil && !p.loaded:
		return p.fill(st.ErrorText.Render(" could not load alerts: " + views.ErrText(p.err) + " (r retries)"))
	case !p.loaded:
		return p.fill(st.Muted.Render(" loading alerts…"))
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

// fill pads or clips to exactly the pane's size.
func (p *Pane) fill(s string) string {
	return lipgloss.NewStyle().Width(p.W).Height(p.H).MaxHeight(p.H).MaxWidth(p.W).Render(s)
}
