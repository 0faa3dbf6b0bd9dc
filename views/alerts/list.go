package alerts

import (
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/ui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// statusFilter is what `s` cycles: all (open on top), OPEN, TRACKING,
// CLOSED.
type statusFilter int

const (
	statusAll statusFilter = iota
	statusOpen
	statusTracking
	statusClosed
)

func (s statusFilter) next() statusFilter { return (s + 1) % 4 }

func (s statusFilter) String() string {
	switch s {
	case statusOpen:
		return "OPEN"
	case statusTracking:
		return "TRACKING"
	case statusClosed:
		return "CLOSED"
	}
	return "all"
}

func (s statusFilter) keeps(a apiclient.Alert) bool {
	switch s {
	case statusOpen:
		return a.Status == apiclient.AlertOpen
	case statusTracking:
		return a.Status == apiclient.AlertTracking
	case statusClosed:
		// CANCELLED alerts are over too.
		return a.Status == apiclient.AlertClosed || a.Status == apiclient.AlertCancelled
	}
	return true
}

// Column indexes of the alert table.
const (
	colStatus = iota
	colSeverity
	colEvent
	colTarget
	colCreated
	colAge
	colAck
)

// timeLayout shows minutes: enough to tell alerts apart at a glance.
const timeLayout = "2006-01-02 15:04"

func alertColumns() []components.Column {
	return []components.Column{
		{Title: "STATUS", Width: 10, SortKey: func(r components.Row) string { return statusRank(r.Cells[colStatus]) }},
		{Title: "SEVERITY", Width: 9, SortKey: func(r components.Row) string { return severityRank(r.Cells[colSeverity]) }},
		{Title: "EVENT TYPE", MinWidth: 14, Flex: 3},
		{Title: "TARGET", MinWidth: 12, Flex: 3},
		{Title: "CREATED", Width: 17},
		{Title: "AGE", Width: 6, Align: components.AlignRight, SortNumber: func(r components.Row) float64 { return ageSeconds(r.Cells[colAge]) }},
		{Title: "ACK UNTIL / BY", MinWidth: 10, Flex: 3},
	}
}

func statusRank(s string) string {
	switch s {
	case "OPEN":
		return "0"
	case "TRACKING":
		return "1"
	case "CLOSED":
		return "2"
	}
	return "3" + s
}

func severityRank(s string) string {
	switch s {
	case "CRITICAL":
		return "0"
	case "ERROR":
		return "1"
	case "WARNING":
		return "2"
	case "INFO":
		return "3"
	}
	return "4"
}

// ageSeconds reads back an age cell ("45s", "12m", "3h", "9d").
func ageSeconds(s string) float64 {
	var n float64
	var unit string
	if _, err := fmt.Sscanf(s, "%f%s", &n, &unit); err != nil {
		return 0
	}
	switch unit {
	case "m":
		n *= 60
	case "h":
		n *= 3600
	case "d":
		n *= 86400
	}
	return n
}

// age is a short duration for the AGE column.
func age(d time.Duration) string {
	switch {
	case d < 0:
		return "0s"
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

// target is where the alert happened: cluster, then host or replica set.
func target(a apiclient.Alert) string {
	parts := []string{}
	for _, s := range []string{a.ClusterName, a.HostnameAndPort} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	if a.HostnameAndPort == "" && a.ReplicaSetName != "" && a.ClusterName == "" {
		parts = append(parts, a.ReplicaSetName)
	}
	if len(parts) == 0 {
		return "project"
	}
	return strings.Join(parts, "/")
}

func (p *Pane) when(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.In(p.Ctx.Now().Location()).Format(timeLayout)
}

// ackCell shows an acknowledgement in force: until when, by whom.
func (p *Pane) ackCell(a apiclient.Alert, now time.Time) string {
	if !a.Acknowledged(now) {
		return ""
	}
	until := p.untilText(*a.AcknowledgedUntil, now)
	if a.AcknowledgingUsername == "" {
		return until
	}
	return until + " by " + a.AcknowledgingUsername
}

// untilText is an acknowledgement's end; decades ahead reads "forever".
func (p *Pane) untilText(t, now time.Time) string {
	if t.Sub(now) > 50*365*24*time.Hour {
		return "forever"
	}
	return p.when(t)
}

// row is one alert as the table shows it.
func (p *Pane) row(a apiclient.Alert, now time.Time) components.Row {
	sev := severityOf(a, p.configs)
	class := string(sev)
	if a.Status != apiclient.AlertOpen {
		class = "muted"
	}
	return components.Row{ID: a.ID, Class: class, Cells: []string{
		string(a.Status), string(sev), a.EventTypeName, target(a), p.when(a.Created), age(now.Sub(a.Created)), p.ackCell(a, now),
	}}
}

// sortAlerts orders alerts newest first with the open ones on top, the
// default the table keeps until a column sort is chosen.
func sortAlerts(as []apiclient.Alert) {
	slices.SortStableFunc(as, func(x, y apiclient.Alert) int {
		xo, yo := x.Status == apiclient.AlertOpen, y.Status == apiclient.AlertOpen
		if xo != yo {
			if xo {
				return -1
			}
			return 1
		}
		return y.Created.Compare(x.Created)
	})
}

// rebuildRows gives the table the alerts the status filter keeps.
func (p *Pane) rebuildRows() {
	now := p.Ctx.Now()
	rows := make([]components.Row, 0, len(p.alerts))
	for _, a := range p.alerts {
		if p.status.keeps(a) {
			rows = append(rows, p.row(a, now))
		}
	}
	p.table.SetRows(rows)
	if p.filter == "" && len(rows) > 5000 {
		// Build the table's lowercase filter text now, on the refresh,
		// rather than on the next `/` keystroke (25 ms at 100k rows).
		p.table.SetFilter("\x00")
		p.table.SetFilter("")
	}
}

// setAlerts takes a refresh: sorts, indexes, rebuilds rows and reports the
// new open alerts loud enough to ring the bell.
func (p *Pane) setAlerts(s snapshot) tea.Cmd {
	if s.configsErr == nil {
		p.configs = make(map[string]apiclient.AlertConfig, len(s.configs))
		p.cfgOrder = p.cfgOrder[:0]
		for _, c := range s.configs {
			p.configs[c.ID] = c
			p.cfgOrder = append(p.cfgOrder, c.ID)
		}
		p.rebuildConfigRows()
	}
	p.cfgErr = s.configsErr
	as := slices.Clone(s.alerts)
	sortAlerts(as)
	p.alerts = as
	p.byID = make(map[string]int, len(as))
	for i, a := range as {
		p.byID[a.ID] = i
	}
	p.rebuildRows()
	first := p.known == nil
	var fresh []apiclient.Alert
	seen := make(map[string]bool, len(as))
	for _, a := range as {
		seen[a.ID] = true
		if !first && !p.known[a.ID] && a.Status == apiclient.AlertOpen && loud(severityOf(a, p.configs)) {
			fresh = append(fresh, a)
		}
	}
	p.known = seen
	p.loaded = true
	if len(fresh) == 0 {
		return nil
	}
	a := fresh[0]
	text := fmt.Sprintf("new %s alert: %s on %s", severityOf(a, p.configs), a.EventTypeName, target(a))
	if len(fresh) > 1 {
		text += fmt.Sprintf(" (and %d more)", len(fresh)-1)
	}
	// One bell per refresh, however many alerts opened.
	return tea.Batch(tea.Raw("\a"), views.Toast(components.Sanitize(text), false))
}

// replaceAlert puts an updated alert (an acknowledgement's answer) in place.
func (p *Pane) replaceAlert(a apiclient.Alert) {
	i, ok := p.byID[a.ID]
	if !ok {
		return
	}
	p.alerts[i] = a
}

// result takes the answers of the pane's requests.
func (p *Pane) listDone(msg views.Result[snapshot]) tea.Cmd {
	if !p.listSeq.Latest(msg.Seq) {
		return nil
	}
	p.err = msg.Err
	if msg.Err != nil {
		return nil
	}
	return p.setAlerts(msg.Value)
}

// layout sizes the table and detail to the pane, below the header line.
func (p *Pane) layout() {
	h := max(p.H-1, 1)
	p.table.SetSize(p.W, h)
	p.cfgTable.SetSize(p.W, h)
	p.detail.SetSize(p.W, h)
}

// counts for the header.
func (p *Pane) counts() (open, acked int) {
	now := p.Ctx.Now()
	for _, a := range p.alerts {
		if a.Status == apiclient.AlertOpen {
			open++
			if a.Acknowledged(now) {
				acked++
			}
		}
	}
	return open, acked
}

func (p *Pane) listHeader() string {
	open, acked := p.counts()
	parts := []string{
		fmt.Sprintf("%d alerts", len(p.alerts)),
		fmt.Sprintf("%d open (%d acknowledged)", open, acked),
		"status: " + p.status.String(),
	}
	if p.table.Len() != p.table.Total() || p.filter != "" {
		parts = append(parts, fmt.Sprintf("showing %d", p.table.Len()))
	}
	if n := len(p.table.Marked()); n > 0 {
		parts = append(parts, fmt.Sprintf("%d marked", n))
	}
	if col, desc := p.table.Sort(); col >= 0 {
		dir := "▲"
		if desc {
			dir = "▼"
		}
		parts = append(parts, "sort: "+alertColumns()[col].Title+" "+dir)
	}
	if p.cfgErr != nil {
		parts = append(parts, "severity by event type (configurations: "+errText(p.cfgErr)+")")
	}
	return strings.Join(parts, " · ")
}

func errText(err error) string {
	if e, ok := apiclient.AsError(err); ok {
		s := e.ErrorCode
		if e.Detail != "" {
			s += ": " + e.Detail
		}
		return components.Sanitize(s)
	}
	return components.Sanitize(err.Error())
}
