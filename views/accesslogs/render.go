package accesslogs

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// Rows of the pane around the log body: title, summary, column header and
// the indicator line (two when its warnings do not fit on one).
const chromeRows = 4

func (p *Pane) bodyRows() int  { return max(p.H-chromeRows-(len(p.indicatorLines())-1), 1) }
func (p *Pane) lineWidth() int { return max(p.W-1, 1) } // one column of gutter

func (p *Pane) View() string {
	if p.W <= 0 || p.H <= 0 {
		return ""
	}
	st := p.Ctx.Theme.Styles
	muted := func(s string) string { return st.Muted.Render(cell(" "+s, p.W)) }
	switch {
	case p.Ctx.GroupID == "":
		return p.frame(muted("no project selected (press @ or :project)"))
	case p.choosing():
		return p.clusterView()
	}
	// A warning taking a second line takes a row from the body.
	p.st.lv.SetSize(p.lineWidth(), p.bodyRows()+1)
	rows := []string{p.titleLine(), p.statusLine(), st.TableHeader.Render(cell(" "+p.st.format.header(), p.W))}
	body := p.body()
	rows = append(rows, body...)
	for _, l := range p.indicatorLines() {
		rows = append(rows, st.Footer.Render(cell(" "+l, p.W)))
	}
	return strings.Join(rows, "\n")
}

// frame pads a one-line message to the pane's size.
func (p *Pane) frame(line string) string {
	rows := []string{line}
	for len(rows) < p.H {
		rows = append(rows, "")
	}
	return strings.Join(rows[:p.H], "\n")
}

func (p *Pane) titleLine() string {
	st := p.Ctx.Theme.Styles
	what := "cluster " + p.cluster()
	if p.host != "" {
		what = "host " + p.host
	}
	left := st.TableHeader.Render(" Access log · " + components.Sanitize(what) + " · since " + sinceText(p.since))
	hints := st.Muted.Render(p.hints())
	return cell(left+hints, p.W)
}

// hints name the view keys as the keymap binds them.
func (p *Pane) hints() string {
	if p.Ctx.Keys == nil {
		return ""
	}
	k := keysOf(p.Ctx.Keys)
	var out []string
	for _, h := range []struct {
		a    keymap.Action
		desc string
	}{{k.Hosts, "host"}, {k.Since, "since"}, {k.UserFilter, "user"}, {k.Raw, "raw"}} {
		if len(h.a.Keys()) > 0 {
			out = append(out, h.a.Help().Key+" "+h.desc)
		}
	}
	if len(out) == 0 {
		return ""
	}
	return "  " + strings.Join(out, " · ")
}

func (p *Pane) statusLine() string {
	st := p.Ctx.Theme.Styles
	switch {
	case p.denied != "":
		return st.Muted.Render(cell(" not visible with your role", p.W))
	case p.stopped != nil:
		return st.ErrorText.Render(cell(" "+views.ErrText(p.stopped)+"  (r retries)", p.W))
	case p.err != nil:
		return st.ErrorText.Render(cell(fmt.Sprintf(" poll failed (%d in a row), retrying in %s: %s", p.failures, p.Interval(), views.ErrText(p.err)), p.W))
	case !p.loaded:
		return st.Muted.Render(cell(" loading the last "+sinceText(p.since)+"…", p.W))
	case p.summary == "":
		return st.Muted.Render(cell(" no records yet", p.W))
	}
	return cell(" "+p.summary, p.W)
}

// indicatorLines is the indicator: one line, or, when it does not fit, its
// warnings (records that may be missing or were not loaded) on a line of
// their own above the rest, so a warning is the last text cut.
func (p *Pane) indicatorLines() []string {
	rows := max(p.H-chromeRows, 1)
	warn, rest := p.indicator(rows)
	all := strings.Join(append(append([]string{}, warn...), rest...), " | ")
	if len(warn) == 0 || ansi.StringWidth(all) <= p.W-1 {
		return []string{all}
	}
	warn, rest = p.indicator(max(rows-1, 1))
	return []string{strings.Join(warn, " | "), strings.Join(rest, " | ")}
}

// indicator returns the indicator's warnings and its other parts, for a
// body of rows lines.
func (p *Pane) indicator(rows int) (warn, parts []string) {
	lv := &p.st.lv
	switch {
	case p.denied != "":
		parts = append(parts, "not read (r asks again)")
	case !p.following:
		parts = append(parts, "stopped (f follows)")
	case p.Paused():
		parts = append(parts, "live updates paused (p)")
	case !lv.Following():
		below := lv.Len() - lv.Top() - rows
		parts = append(parts, fmt.Sprintf("PAUSED · %d below (G resumes)", max(below, 0)))
	default:
		parts = append(parts, "following")
	}
	if lv.Wrapping() {
		parts = append(parts, "wrap on")
	} else {
		parts = append(parts, "wrap off")
	}
	if p.st.format.loc.String() == "UTC" {
		parts = append(parts, "UTC")
	} else {
		parts = append(parts, "local time")
	}
	lines := fmt.Sprintf("%s lines", components.Thousands(lv.Len()))
	if p.st.filter.active() {
		lines = fmt.Sprintf("%s of %s", components.Thousands(lv.Len()), components.Thousands(p.st.recs.Len()))
	}
	if p.st.dropped > 0 {
		lines += fmt.Sprintf(" (%s dropped)", components.Thousands(p.st.dropped))
	}
	parts = append(parts, lines)
	if p.st.filter.failuresOnly {
		parts = append(parts, "failures only")
	}
	if p.st.filter.ip != "" {
		parts = append(parts, "ip "+p.st.filter.ip+"*")
	}
	if p.st.filter.user != "" {
		parts = append(parts, "user ~"+components.Sanitize(p.st.filter.user))
	}
	if p.search != "" {
		parts = append(parts, fmt.Sprintf("/%s (n/N)", components.Sanitize(p.search)))
	}
	if p.st.format.raw {
		parts = append(parts, "raw")
	}
	if p.gaps > 0 && p.lastGap != nil {
		warn = append(warn, fmt.Sprintf("⚠ %d gap(s): records %s–%s may be missing", p.gaps,
			p.lastGap.From.In(p.st.format.loc).Format("15:04:05"), p.lastGap.To.In(p.st.format.loc).Format("15:04:05")))
	}
	if p.truncated {
		warn = append(warn, "⚠ older records of the window not loaded")
	}
	return warn, parts
}

// body renders the visible lines (or the host list), exactly bodyRows rows.
func (p *Pane) body() []string {
	rows := p.bodyRows()
	var out []string
	switch {
	case p.hostList != nil:
		out = p.hostRows(rows)
	case p.denied != "":
		// Said whole, wrapped: which role reads it is the point.
		wrapped := ansi.Wrap("Access log of "+components.Sanitize(p.cluster())+": "+p.denied+". r asks again.", max(p.W-2, 10), " ")
		for _, l := range strings.Split(wrapped, "\n") {
			out = append(out, p.Ctx.Theme.Styles.Muted.Render(cell(" "+l, p.W)))
		}
	case p.st.lv.Len() == 0:
		st := p.Ctx.Theme.Styles
		msg := " no access-log records in the last " + sinceText(p.since) + " yet"
		if p.st.filter.active() && p.st.recs.Len() > 0 {
			msg = " no record matches the filters (esc clears them)"
		}
		if (p.loaded || p.stopped != nil) && p.denied == "" {
			out = append(out, st.Muted.Render(cell(msg, p.W)))
		}
	default:
		out = p.logRows(rows)
	}
	for len(out) < rows {
		out = append(out, "")
	}
	return out[:rows]
}

// logRows styles the shown lines: failures highlighted, search matches
// marked, the selected line with a gutter mark.
func (p *Pane) logRows(rows int) []string {
	lv := &p.st.lv
	lw := p.lineWidth()
	sel := p.selectedLine()
	type part struct {
		i    int
		text string
	}
	var parts []part
	if lv.Wrapping() {
		if lv.Following() {
			for i := lv.Len() - 1; i >= 0 && len(parts) < rows; i-- {
				w := wrap(lv.Line(i), lw)
				for j := len(w) - 1; j >= 0 && len(parts) < rows; j-- {
					parts = append(parts, part{i, w[j]})
				}
			}
			for a, b := 0, len(parts)-1; a < b; a, b = a+1, b-1 {
				parts[a], parts[b] = parts[b], parts[a]
			}
		} else {
			for i := lv.Top(); i < lv.Len() && len(parts) < rows; i++ {
				for _, s := range wrap(lv.Line(i), lw) {
					if len(parts) < rows {
						parts = append(parts, part{i, s})
					}
				}
			}
		}
	} else {
		top := lv.Top()
		for i := top; i < min(top+rows, lv.Len()); i++ {
			parts = append(parts, part{i, cell(lv.Line(i), lw)})
		}
	}
	out := make([]string, 0, len(parts))
	prev := -1
	for _, pt := range parts {
		out = append(out, p.styleLine(pt.i, pt.text, pt.i == sel && pt.i != prev))
		prev = pt.i
	}
	return out
}

func wrap(s string, w int) []string {
	if ansi.StringWidth(s) <= w {
		return []string{cell(s, w)}
	}
	lines := strings.Split(ansi.Hardwrap(s, w, true), "\n")
	for i := range lines {
		lines[i] = cell(lines[i], w)
	}
	return lines
}

func (p *Pane) styleLine(i int, text string, selected bool) string {
	st := p.Ctx.Theme.Styles
	gutter := " "
	if selected {
		gutter = st.TableSelected.Render("›")
	}
	base := lipgloss.NewStyle()
	if r := p.st.line(i); r != nil && !r.AuthResult {
		base = st.StateFailed
	}
	if p.search == "" {
		return gutter + base.Render(text)
	}
	return gutter + highlight(text, p.search, base, st.Match)
}

// highlight renders text with every case-insensitive occurrence of needle
// in the match style.
func highlight(text, needle string, base, match lipgloss.Style) string {
	lower, n := strings.ToLower(text), strings.ToLower(needle)
	if len(lower) != len(text) || n == "" {
		return base.Render(text) // case folding changed byte lengths: no marks
	}
	var b strings.Builder
	for {
		i := strings.Index(lower, n)
		if i < 0 {
			b.WriteString(base.Render(text))
			return b.String()
		}
		if i > 0 {
			b.WriteString(base.Render(text[:i]))
		}
		b.WriteString(match.Render(text[i : i+len(n)]))
		text, lower = text[i+len(n):], lower[i+len(n):]
	}
}

func (p *Pane) hostRows(rows int) []string {
	st := p.Ctx.Theme.Styles
	l := p.hostList
	out := []string{st.TableHeader.Render(cell(" Tail which? (enter picks, esc closes)", p.W))}
	switch {
	case p.hostsBusy:
		out = append(out, st.Muted.Render(cell(" loading hosts…", p.W)))
	case p.hostsErr != nil:
		out = append(out, st.ErrorText.Render(cell(" hosts: "+views.ErrText(p.hostsErr), p.W)))
	case len(l.items) == 1:
		out = append(out, st.Muted.Render(cell(" no hosts found for this cluster", p.W)))
	}
	first := max(0, l.cursor-(rows-len(out))+1)
	for i := first; i < len(l.items) && len(out) < rows; i++ {
		line := cell("   "+components.Sanitize(l.items[i].label), p.W)
		if i == l.cursor {
			line = st.TableSelected.Render(cell(" › "+components.Sanitize(l.items[i].label), p.W))
		}
		out = append(out, line)
	}
	return out
}
