package alerts

import (
	"fmt"
	"strings"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
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

func (s statusFilter) keeps(st apiclient.AlertStatus) bool {
	switch s {
	case statusOpen:
		return st == apiclient.AlertOpen
	case statusTracking:
		return st == apiclient.AlertTracking
	case statusClosed:
		// CANCELLED alerts are over too.
		return st == apiclient.AlertClosed || st == apiclient.AlertCancelled
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
		// Priorities (components.Column): as the table narrows, CREATED goes
		// first (AGE says it shorter), then STATUS becomes a one-cell
		// marker and SEVERITY four letters; the event type is the key.
		{Title: "STATUS", Width: 10, SortKey: func(r components.Row) string { return statusRank(r.Cells[colStatus]) },
			Priority: 6, ShortWidth: 1, ShortTitle: "S", ShortCell: statusMarker},
		{Title: "SEVERITY", Width: 9, SortKey: func(r components.Row) string { return severityRank(r.Cells[colSeverity]) },
			Priority: 5, ShortWidth: 4, ShortTitle: "SEV", ShortCell: severityShort},
		{Title: "EVENT TYPE", MinWidth: 24, Flex: 3},
		{Title: "TARGET", MinWidth: 12, Flex: 3, Priority: 1},
		{Title: "CREATED", Width: 17, Priority: 7},
		{Title: "AGE", Width: 6, Align: components.AlignRight, SortNumber: func(r components.Row) float64 { return ageSeconds(r.Cells[colAge]) }, Priority: 2},
		{Title: "ACK UNTIL / BY", MinWidth: 22, Flex: 3, Priority: 4, ShortWidth: 3, ShortTitle: "ACK", ShortCell: ackShort},
	}
}

// statusMarker is STATUS in one cell: ● open, ◐ tracking, ○ closed.
func statusMarker(s string) string {
	switch s {
	case "OPEN":
		return "●"
	case "TRACKING":
		return "◐"
	case "CLOSED":
		return "○"
	case "":
		return ""
	}
	return "×"
}

// severityShort is SEVERITY in four cells.
func severityShort(s string) string {
	switch s {
	case "CRITICAL":
		return "CRIT"
	case "ERROR":
		return "ERR"
	case "WARNING":
		return "WARN"
	}
	return s
}

// ackShort says only whether an acknowledgement is in force.
func ackShort(s string) string {
	if s == "" {
		return ""
	}
	return "yes"
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

func (p *Pane) when(t time.Time) string { return whenIn(t, p.Ctx.Now().Location()) }

// whenIn is t in loc as timeLayout has it ("2006-01-02 15:04"), written
// digit by digit: a first filter over 100,000 alerts makes every CREATED
// cell, and time.Format is most of that.
func whenIn(t time.Time, loc *time.Location) string {
	if t.IsZero() {
		return "—"
	}
	if loc != nil {
		t = t.In(loc)
	}
	y, mo, d := t.Date()
	if y < 0 || y > 9999 {
		return t.Format(timeLayout)
	}
	h, mi := t.Hour(), t.Minute()
	b := [16]byte{
		byte('0' + y/1000), byte('0' + y/100%10), byte('0' + y/10%10), byte('0' + y%10), '-',
		byte('0' + int(mo)/10), byte('0' + int(mo)%10), '-', byte('0' + d/10), byte('0' + d%10), ' ',
		byte('0' + h/10), byte('0' + h%10), ':', byte('0' + mi/10), byte('0' + mi%10),
	}
	return string(b[:])
}

// eventCell is the event type; under serve led by who else is acting on
// the alert ("alice: acknowledging · HOST_DOWN"): the event type's column
// is there at every width, where ACK shrinks to "yes" at 80 columns.
func (p *Pane) eventCell(r *record) string {
	if pr := p.Ctx.Presence; pr != nil {
		if act := pr.Acting(p.Ctx.GroupID, r.id); act != "" {
			return components.Sanitize(act) + " · " + r.event
		}
	}
	return r.event
}

// ackCell shows an acknowledgement in force: until when, by whom.
// Under serve every member acts as the profile's API user: the row names
// the member who acknowledged it (views.Presence).
func (p *Pane) ackCell(r *record, now time.Time) string {
	by := r.ackBy
	if pr := p.Ctx.Presence; pr != nil {
		if who := pr.AckedBy(p.Ctx.GroupID, r.id); who != "" {
			by = who
		}
	}
	if !r.acked(now) {
		return ""
	}
	until := p.untilText(r.ackUntil.time(), now)
	if by == "" {
		return until
	}
	return until + " by " + by
}

// untilText is an acknowledgement's end; decades ahead reads "forever".
func (p *Pane) untilText(t, now time.Time) string {
	if t.Sub(now) > 50*365*24*time.Hour {
		return "forever"
	}
	return p.when(t)
}

// rowOf is an alert's row as the table holds it: its id and class; the
// cells are made when the table draws, sorts or filters it (cellsOf).
func (p *Pane) rowOf(i int32) components.Row {
	r := &p.alerts[i]
	class := string(severityFor(r.configID, r.event, p.configs))
	if !r.open() {
		class = "muted"
	}
	return components.Row{ID: r.id, Class: class}
}

// cellsOf writes the cells of the table's row ri into buf: the alert's
// status, severity, event type, target, creation, age and acknowledgement,
// as of the last rebuild (rowsAt).
func (p *Pane) cellsOf(ri int, buf []string) []string {
	if ri < 0 || ri >= len(p.rowAlert) || len(buf) < colAck+1 {
		return buf
	}
	r := &p.alerts[p.rowAlert[ri]]
	now := p.rowsAt
	// The CREATED cell is made once an alert and kept; TARGET is its
	// place's.
	if r.createdCell == "" {
		r.createdCell = whenIn(r.created.time(), p.fixedLoc)
	}
	tgt := "project"
	if r.where != nil {
		tgt = r.where.target
	}
	buf[colStatus], buf[colSeverity], buf[colEvent], buf[colTarget] = string(r.status), string(severityFor(r.configID, r.event, p.configs)), p.eventCell(r), tgt
	buf[colCreated], buf[colAge], buf[colAck] = r.createdCell, p.ageCell(now.Sub(r.created.time())), p.ackCell(r, now)
	return buf
}

// ageCell is components.Age(d), one string per distinct value, made once
// (no formatting a row): a 100,000-row rebuild shares a few hundred.
func (p *Pane) ageCell(d time.Duration) string {
	k := ageKey(d)
	if v, ok := p.ages[k]; ok {
		return v
	}
	if p.ages == nil || len(p.ages) > 4096 {
		p.ages = map[time.Duration]string{}
	}
	s := components.Age(d)
	p.ages[k] = s
	return s
}

// ageKey is d cut to the unit components.Age shows it in: durations with
// the same key have the same age cell.
func ageKey(d time.Duration) time.Duration {
	switch {
	case d < 0:
		return -1
	case d < time.Minute:
		return d.Truncate(time.Second)
	case d < time.Hour:
		return d.Truncate(time.Minute)
	case d < 48*time.Hour:
		return d.Truncate(time.Hour)
	}
	return d.Truncate(24 * time.Hour)
}

// rebuildRows gives the table the alerts in scope, in the display order;
// the status filter is the table's predicate (setStatus), so a cursor whose
// alert it hides goes to the nearest alert it shows. A row is the alert's
// id and class: its cells are made for the rows the table draws (cellsOf),
// not for every alert. A refresh writes over the rows of the last one (the
// table's Recycle), so one set is held, even while rebuilding.
func (p *Pane) rebuildRows() {
	now := p.Ctx.Now()
	if loc := now.Location(); loc != p.fixedLoc {
		for i := range p.alerts {
			p.alerts[i].createdCell = "" // times show in another zone
		}
		p.fixedLoc = loc
	}
	p.rowsAt = now
	rows := p.table.Recycle()
	if cap(rows) < len(p.order) {
		rows = make([]components.Row, 0, max(len(p.order), cap(p.alerts)))
	}
	at := p.rowAlert[:0]
	if cap(at) < len(p.order) {
		at = make([]int32, 0, max(len(p.order), cap(p.alerts)))
	}
	for _, i := range p.order {
		if r := &p.alerts[i]; p.inScope(r) {
			rows = append(rows, p.rowOf(i))
			at = append(at, i)
		}
	}
	// Rows no longer shown hold nothing.
	clear(rows[len(rows):cap(rows)])
	p.rowAlert = at
	p.table.SetRows(rows)
	p.selectWanted()
}

// replaceAlert puts an updated alert (an acknowledgement's answer or the
// detail's read) in place.
func (p *Pane) replaceAlert(a apiclient.Alert) { p.store.replace(a) }

// replace puts an updated alert in place, if the store holds it.
func (s *store) replace(a apiclient.Alert) {
	i, ok := s.byID[a.ID]
	if !ok {
		return
	}
	s.keepFull(&a)
	r := s.record(&a)
	if o := &s.alerts[i]; o.created == r.created {
		r.createdCell = o.createdCell
	}
	r.seen = s.alerts[i].seen
	s.alerts[i] = r
	s.countsOK = false
}

// layout sizes the table and detail to the pane, below the header line.
func (p *Pane) layout() {
	h := max(p.H-1, 1)
	p.table.SetSize(p.W, h)
	p.cfgTable.SetSize(p.W, h)
	p.detail.SetSize(p.W, h)
}

// inScope reports whether an alert is about the cluster the context is
// narrowed to (`:cluster`); every alert is when it is not narrowed.
func (p *Pane) inScope(r *record) bool {
	if p.Ctx.ClusterName == "" {
		return true
	}
	return r.where != nil && strings.EqualFold(r.where.cluster, p.Ctx.ClusterName)
}

// counts for the header, of the alerts in scope: counted again only when
// the alerts or the cluster changed or an acknowledgement ran out, not on
// every frame; during a first pass at most every countEvery.
func (p *Pane) counts() (open, acked, inScope int) {
	now := p.Ctx.Now()
	if p.countsFor == p.Ctx.ClusterName && now.Before(p.countsTil) && (p.countsOK ||
		p.pass != nil && !p.firstDone && p.Ctx.WallNow().Sub(p.countedAt) < countEvery) {
		return p.open, p.acked, p.inScopeN
	}
	p.countedAt = p.Ctx.WallNow()
	p.open, p.acked, p.inScopeN, p.countsTil = 0, 0, 0, now.Add(100*365*24*time.Hour)
	p.countsFor = p.Ctx.ClusterName
	for i := range p.alerts {
		r := &p.alerts[i]
		if !p.inScope(r) {
			continue
		}
		p.inScopeN++
		if r.open() {
			p.open++
			if r.acked(now) {
				p.acked++
				p.countsTil = minTime(p.countsTil, r.ackUntil.time())
			}
		}
	}
	p.countsOK = true
	return p.open, p.acked, p.inScopeN
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func (p *Pane) listHeader() string {
	open, acked, n := p.counts()
	total := fmt.Sprintf("%d alerts", len(p.alerts))
	if p.Ctx.ClusterName != "" {
		total = fmt.Sprintf("%d of %d alerts on %s", n, len(p.alerts), components.Sanitize(p.Ctx.ClusterName))
	}
	if more := apiclient.ShowingFirst(len(p.alerts)); more != "" {
		total += " (" + more + ")"
	}
	parts := []string{
		total,
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
		parts = append(parts, "severity by event type (configurations: "+views.ErrText(p.cfgErr)+")")
	}
	return strings.Join(parts, " · ")
}

// setStatus sets the status filter: the table shows the alerts it keeps.
func (p *Pane) setStatus(s statusFilter) {
	p.status = s
	if s == statusAll {
		p.table.SetPredicate(nil)
		return
	}
	p.table.SetPredicate(func(r components.Row) bool {
		// Rows carry no cells (cellsOf): the alert's own status decides.
		i, ok := p.byID[r.ID]
		return ok && s.keeps(p.alerts[i].status)
	})
}

// selectWanted puts the cursor on the alert a jump asked for, once the
// list holds it.
func (p *Pane) selectWanted() {
	p.want.Select(p.table.SetCursorID)
}
