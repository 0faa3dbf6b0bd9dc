package ui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// Rows the chrome takes: header and tabs above the pane, help and task
// line below.
const (
	chromeTop    = 2
	chromeBottom = 2
)

func clean(s string) string     { return components.Sanitize(s) }
func cleanText(s string) string { return components.SanitizeText(s) }

func padRight(s string, w int) string {
	if d := w - lipgloss.Width(s); d > 0 {
		return s + strings.Repeat(" ", d)
	}
	return s
}

// place draws box over base at (x, y).
func place(base, box string, x, y int) string {
	return lipgloss.NewCompositor(
		lipgloss.NewLayer(base),
		lipgloss.NewLayer(box).X(max(0, x)).Y(max(0, y)).Z(1),
	).Render()
}

// center draws box over the middle of a w x h base.
func center(base, box string, w, h int) string {
	bw, bh := lipgloss.Size(box)
	return place(base, box, (w-bw)/2, (h-bh)/2)
}

// resize records the terminal size, tells the panes their new layout and
// size.
func (m *Model) resize(w, h int) tea.Cmd {
	m.width, m.height = max(0, w), max(0, h)
	var cmd tea.Cmd
	if views.LayoutFor(m.width) != m.ctx.Layout && m.phase == phaseReady {
		cmd = m.presentationChanged()
	}
	m.ctx.Layout = views.LayoutFor(m.width)
	m.layoutPanes()
	return tea.Batch(cmd, m.replayTypeAhead())
}

func (m *Model) paneSize() (int, int) {
	return max(0, m.width), max(0, m.height-chromeTop-chromeBottom)
}

func (m *Model) layoutPanes() {
	w, h := m.paneSize()
	for _, p := range m.panes {
		p.SetSize(w, h)
	}
}

func (m *Model) tooSmall() bool { return m.width < MinWidth || m.height < MinHeight }

// render draws the screen for the current phase and size.
func (m *Model) render() string {
	switch {
	case m.width <= 0 || m.height <= 0:
		return "dbadmin-tui: starting…"
	case m.tooSmall():
		return m.renderTooSmall()
	case m.phase == phaseConnecting:
		msg := "Connecting to " + clean(m.client.BaseURL()) + "…"
		if w := m.waitingText(); w != "" {
			msg += "\n" + w
		}
		return m.renderStart(msg, "q quit")
	case m.phase == phaseFailed:
		keys := "r retry • q quit"
		if t := m.retryText(); t != "" {
			keys = t + " • r retry now • q quit"
		}
		return m.renderStart(m.failureText(), keys)
	}
	footer := m.renderFooter()
	screen := m.compose(m.renderHeader(), m.renderTabs(), m.renderPane(len(footer)-chromeBottom), footer)
	for _, l := range m.layers.all() {
		screen = l.overlay(m, screen, m.width, m.height)
	}
	return screen
}

// compose stacks the header, the tabs, the pane's block and the footer
// lines, each line padded to the screen's width: what
// lipgloss.JoinVertical makes of them, without measuring the pane's block
// (renderPane makes it exactly the width) line by line. Only the chrome's
// few lines are measured.
func (m *Model) compose(header, tabs, pane string, footer []string) string {
	chrome := append([]string{header, tabs}, footer...)
	widths := make([]int, len(chrome))
	for i, l := range chrome {
		if strings.IndexByte(l, '\n') >= 0 {
			// A part of several lines: laid out the general way.
			return lipgloss.JoinVertical(lipgloss.Left, header, tabs, pane, strings.Join(footer, "\n"))
		}
		if widths[i] = components.Width(l); widths[i] > m.width {
			return lipgloss.JoinVertical(lipgloss.Left, header, tabs, pane, strings.Join(footer, "\n"))
		}
	}
	var b strings.Builder
	b.Grow(len(pane) + len(header) + len(tabs) + (m.width+64)*(len(footer)+2))
	for i, l := range chrome {
		if i == 2 {
			b.WriteString(pane)
			b.WriteByte('\n')
		}
		b.WriteString(l)
		b.WriteString(strings.Repeat(" ", m.width-widths[i]))
		if i < len(chrome)-1 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func (m *Model) renderTooSmall() string {
	msg := fmt.Sprintf("Terminal too small: %dx%d\nNeed at least %dx%d", m.width, m.height, MinWidth, MinHeight)
	if n := len(m.pending); n > 0 {
		msg += fmt.Sprintf("\n%d %s kept for when it is larger", n, plural(n, "key", "keys"))
	}
	return lipgloss.Place(m.width, m.height, lipgloss.Center, lipgloss.Center, msg)
}

// renderStart is the connecting / cannot-connect screen.
func (m *Model) renderStart(body, keys string) string {
	st := m.theme.Styles
	w := max(10, min(m.width-4, 90))
	lines := []string{
		st.DialogTitle.Render("dbadmin-tui"),
		st.Muted.Render(components.Truncate("profile "+clean(orDash(m.opts.Profile))+" • "+clean(m.client.BaseURL()), w)),
		"",
		lipgloss.NewStyle().Width(w).Render(body),
		"",
		st.HelpKey.Render(keys),
	}
	return lipgloss.Place(m.width, m.height, lipgloss.Center, lipgloss.Center, lipgloss.JoinVertical(lipgloss.Left, lines...))
}

// failureText says why the start failed, with a hint for the usual causes.
func (m *Model) failureText() string {
	st := m.theme.Styles
	err := m.connErr
	hint := ""
	switch {
	case apiclient.IsUnauthorized(err):
		hint = "The credentials were refused: check the profile's API key or service account."
	case apiclient.IsForbidden(err):
		hint = "The key is not allowed here: check its access list and roles."
	default:
		if _, ok := apiclient.AsError(err); !ok {
			hint = "Is the address right and the service reachable? (--base-url, --profile)"
		}
	}
	text := st.ErrorText.Render("Cannot connect") + "\n\n" + cleanText(err.Error())
	if hint != "" {
		text += "\n\n" + hint
	}
	return text
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// renderHeader: profile, org › project › cluster on the left; role badge,
// read-only badge, freshness and live/paused on the right.
func (m *Model) renderHeader() string {
	st := m.theme.Styles
	sep := st.BreadcrumbSep.Render(" › ")
	crumbs := []string{clean(orDash(m.scope.org.Name)), clean(orDash(m.scope.project.Name))}
	if m.scope.cluster != "" {
		crumbs = append(crumbs, clean(m.scope.cluster))
	} else {
		crumbs = append(crumbs, "all clusters")
	}
	var right []headerPart
	if p, ok := m.presencePart(); ok {
		right = append(right, p)
	}
	if role := m.roleBadge(); role != "" {
		right = append(right, headerPart{forms: []string{role, roleShort(role), roleInitials(role)}, style: st.RoleBadge.Render})
	}
	if m.gate.ReadOnly() {
		right = append(right, headerPart{forms: []string{"READ-ONLY", "RO"}, style: st.ReadOnlyBadge.Render})
	}
	if c := m.cachedText(); c != "" {
		right = append(right, headerPart{forms: []string{c, "cached"}})
	}
	if full, mid, short := m.sharingText(); full != "" {
		right = append(right, headerPart{forms: []string{full, mid, short}})
	}
	h := m.activeHealth()
	if hold, throttled := m.holdingBack(h); hold != "" {
		var style func(...string) string
		if throttled {
			style = st.ErrorText.Render // the server's hold; a planned wait is no failure
		}
		right = append(right, headerPart{forms: []string{hold, holdShort(hold)}, style: style})
	}
	if len(h.Parts) > 0 {
		// A pane read in parts (the Triage board): the oldest part's age
		// and the stale parts by name.
		var style func(...string) string
		if h.Stale() {
			style = st.ErrorText.Render
		}
		right = append(right, headerPart{forms: partsForms(h.Parts, m.opts.Wall()), style: style})
	} else if h.Stale() {
		// "✗ stale since 22:14:03 · 503 SERVICE_UNAVAILABLE", then the
		// status alone, then without the time (at 80 columns the kind of
		// failure still shows: "✗ stale · connection refused"), then
		// "✗ stale".
		full := "✗ " + clean(h.Summary())
		status := clean(views.ErrorStatus(h.Err))
		short := "✗ stale since " + h.StaleSince.Format("15:04:05") + " · " + status
		right = append(right, headerPart{forms: []string{full, short, "✗ stale · " + status, "✗ stale"}, style: st.ErrorText.Render})
	} else {
		fresh := m.freshness()
		right = append(right, headerPart{forms: []string{fresh, freshShort(fresh)}})
	}
	switch {
	case m.paused:
		right = append(right, headerPart{forms: []string{"⏸ paused", "⏸"}})
	case h.Stale():
	case !m.activeLive():
		right = append(right, headerPart{forms: []string{"○ idle", "○"}})
	default:
		right = append(right, headerPart{forms: []string{"● live", "●"}})
	}
	line := fitHeader(m.width, clean(orDash(m.opts.Profile)), crumbs, sep, st.BreadcrumbSep.Render(" │ "), st.Breadcrumb.Render, right)
	return st.Header.Render(padRight(line, m.width))
}

// activeHealth is the active pane's health, when it keeps one (the panes
// built on views.Base do).
func (m *Model) activeHealth() views.Health {
	if h, ok := m.activePane().(interface{ Health() views.Health }); ok {
		return h.Health()
	}
	return views.Health{}
}

// activeLive reports whether the active pane is kept refreshing (panes
// built on views.Base say; others are taken to be).
func (m *Model) activeLive() bool {
	if l, ok := m.activePane().(interface{ Live() bool }); ok {
		return l.Live()
	}
	return true
}

// holdingBack says when the client's scheduler holds requests after a 429
// ("rate limited: next refresh in 20 s", throttled) or for the budget it
// planned ("keeping to the budget: next refresh in 20 s"), the latter also
// while the active pane waits for its next poll after a load the budget
// held (h.Held).
func (m *Model) holdingBack(h views.Health) (text string, throttled bool) {
	if m.client == nil || m.client.Scheduler() == nil {
		return "", false
	}
	sched := m.client.Scheduler()
	until, ok := sched.HoldingBack()
	if !ok {
		if !h.Held() || h.Stale() || h.Next.IsZero() {
			return "", false
		}
		return fmt.Sprintf("keeping to the budget: next refresh in %d s", ceilSecs(h.Next.Sub(m.opts.Wall()))), false
	}
	// A 429's hold is the server's; otherwise the client is keeping to
	// the budget it planned, which is no failure.
	why := "keeping to the budget"
	for _, w := range sched.Waiting() {
		if w.Throttled {
			why, throttled = "rate limited", true
		}
	}
	return fmt.Sprintf("%s: next refresh in %d s", why, ceilSecs(time.Until(until))), throttled
}

// ceilSecs is d in whole seconds, rounded up, at least 1.
func ceilSecs(d time.Duration) int { return max(1, int(d.Seconds()+0.999)) }

// sharingText says whose budget the dashboard shares and at what pace the
// pane whose polls draw from it refreshes: "sharing the budget: alerts
// every 40 s (others take 30 of 60/min)", then without what the others
// take, then "shared 40 s".
func (m *Model) sharingText() (full, mid, short string) {
	if m.client == nil || m.client.Scheduler() == nil {
		return "", "", ""
	}
	shares := m.client.Scheduler().Sharing()
	if len(shares) == 0 {
		return "", "", ""
	}
	sh := shares[0]
	others := fmt.Sprintf("(others take %.0f of %.0f/min)", sh.OthersPerMin, sh.PerMinute)
	more := ""
	if len(shares) > 1 {
		more = fmt.Sprintf(" +%d", len(shares)-1)
	}
	every := m.pollRhythm(views.ID(sh.Source))
	if every <= 0 {
		return "sharing the budget: " + sh.Name + " " + others + more, "sharing the budget" + more, "shared"
	}
	mid = "sharing the budget: " + sh.Name + " every " + paceText(every)
	return mid + " " + others + more, mid + more, "shared " + paceText(every)
}

// pollRhythm is how often the pane id's polls go (views.Base.PollRhythm);
// 0 when unknown.
func (m *Model) pollRhythm(id views.ID) time.Duration {
	if id == "" {
		return 0
	}
	for _, p := range m.panes {
		if r, ok := p.(interface{ PollRhythm() time.Duration }); ok && p.ID() == id {
			return r.PollRhythm()
		}
	}
	return 0
}

// paceText is a poll interval in whole seconds ("40 s"), in minutes from
// two minutes on ("3 min").
func paceText(d time.Duration) string {
	if d >= 2*time.Minute {
		return fmt.Sprintf("%d min", int(d.Round(time.Minute)/time.Minute))
	}
	return fmt.Sprintf("%d s", max(1, int(d.Round(time.Second)/time.Second)))
}

// staleLine is the pane's own notice while its loads fail: what is
// stale, since when, the last error and when it tries again.
func (m *Model) staleLine(w int) string {
	h := m.activeHealth()
	if !h.Stale() || len(h.Parts) > 0 {
		return "" // a pane read in parts says itself which rows are stale
	}
	text := " ✗ " + clean(m.opts.Panes[m.active].Title) + " data stale since " + h.StaleSince.Format("15:04:05")
	if !h.OK.IsZero() {
		text += " (shown as of " + h.OK.Format("15:04:05") + ")"
	}
	text += ": " + cleanText(h.Err.Error()) + " · retrying"
	return m.theme.Styles.ErrorText.Render(components.Truncate(text, w))
}

// freshness says when the active pane last got data, in wall-clock time
// (a demo world may run faster).
func (m *Model) freshness() string {
	p := m.activePane()
	if p == nil {
		return ""
	}
	at, ok := m.updated[p.ID()]
	if !ok {
		return "not updated yet"
	}
	return "updated " + components.Age(m.opts.Wall().Sub(at).Truncate(max(m.opts.ClockEvery, time.Second))) + " ago"
}

// roleBadge names the caller's strongest role on the selected project (org
// roles counted where they cover it), ranked as the gate ranks them; `check`
// prints the same.
func (m *Model) roleBadge() string {
	roles := m.gate.Roles()
	if roles == nil {
		return ""
	}
	best, ok := catalog.Strongest(roles, catalog.Target{GroupID: m.scope.project.ID, OrgID: m.scope.org.ID})
	if !ok {
		return "no role here"
	}
	return best.Label()
}

// renderTabs: one tab a pane, every tab visible. When the full titles do
// not fit, the inactive tabs shrink first to their title's first word
// ("5 Access"), then to three letters ("5 Acc"), then to their number; the
// active tab keeps its full title.
func (m *Model) renderTabs() string {
	st := m.theme.Styles
	render := func(short func(i int, title string) string) string {
		var b strings.Builder
		for i := range m.panes {
			title := clean(m.opts.Panes[i].Title)
			if i == m.active {
				b.WriteString(st.TabActive.Render(fmt.Sprintf("%d %s", i+1, title)))
				continue
			}
			b.WriteString(st.TabInactive.Render(short(i, title)))
		}
		return b.String()
	}
	forms := []func(int, string) string{
		func(i int, t string) string { return fmt.Sprintf("%d %s", i+1, t) },
		func(i int, t string) string { return fmt.Sprintf("%d %s", i+1, strings.Fields(t + " ")[0]) },
		func(i int, t string) string {
			return fmt.Sprintf("%d %s", i+1, firstRunes(strings.Fields(t + " ")[0], 3))
		},
		func(i int, _ string) string { return fmt.Sprint(i + 1) },
	}
	if views.LayoutFor(m.width) == views.LayoutNarrow {
		forms = forms[len(forms)-1:]
	}
	var line string
	for _, f := range forms {
		if line = render(f); lipgloss.Width(line) <= m.width {
			return line
		}
	}
	return components.Truncate(line, m.width)
}

// renderPane draws the active pane; a footer taking more lines than usual
// (a long notice) covers the pane's last extra rows while it shows.
func (m *Model) renderPane(extra int) string {
	w, h := m.paneSize()
	h = max(h-max(extra, 0), 1)
	body := ""
	p := m.activePane()
	if p != nil {
		body = p.View()
	}
	var out string
	if e, ok := p.(exactPane); ok && e.ExactView() && body != "" {
		out = firstLines(body, h)
	} else {
		out = m.paneBlock.fit(body, w, h)
	}
	if line := m.staleLine(w); line != "" && h > 1 {
		// Over the pane's last row: the data above stays in place. The
		// compositor trims the lines' trailing blanks: they are padded
		// back, so the block is its box again (rare: measured here).
		lines := strings.Split(place(out, padRight(line, w), 0, h-1), "\n")
		for i, l := range lines {
			lines[i] = padRight(l, w)
		}
		out = strings.Join(lines, "\n")
	}
	return out
}

// exactPane is a pane whose View is always exactly the size SetSize gave
// it (every line that many cells wide, that many lines): the root takes
// its block as it is, cut only to the rows a long footer leaves it.
type exactPane interface{ ExactView() bool }

// firstLines is s cut to its first n lines.
func firstLines(s string, n int) string {
	at := 0
	for range n {
		i := strings.IndexByte(s[at:], '\n')
		if i < 0 {
			return s
		}
		at += i + 1
	}
	return s[:at-1]
}

// paneBlock is the last block made of a pane's View that is not exactly
// its size: a pane that drew the same string again gets the same block,
// not a second lipgloss pass over it.
type paneBlock struct {
	w, h    int
	in, out string
}

func (c *paneBlock) fit(body string, w, h int) string {
	if c.out != "" && c.w == w && c.h == h && c.in == body {
		return c.out
	}
	c.w, c.h, c.in = w, h, body
	c.out = lipgloss.NewStyle().Width(w).Height(h).MaxWidth(w).MaxHeight(h).Render(body)
	return c.out
}

// renderFooter: the help line (or the filter bar), then the task line with
// the newest toast on the right. A toast that does not fit beside the task
// takes lines of its own (at most 2) rather than being cut.
func (m *Model) renderFooter() []string {
	var first string
	for _, l := range m.layers.all() {
		if f, ok := l.(*filterLayer); ok {
			first = f.line(m.width)
		}
	}
	if first == "" {
		first = m.shortHelp()
	}
	lines := []string{components.Truncate(first, m.width)}
	task := ""
	if t := m.tasks.View(); t != "" {
		task = " " + t
	}
	if m.toasts.Shown() == 0 {
		return append(lines, components.Truncate(task, m.width))
	}
	toast := m.toasts.Lines(m.width-2, 2)
	if len(toast) == 1 && lipgloss.Width(task)+lipgloss.Width(toast[0])+2 <= m.width {
		return append(lines, padRight(task, m.width-lipgloss.Width(toast[0]))+toast[0])
	}
	if task != "" {
		lines = append(lines, components.Truncate(task, m.width))
	}
	for _, l := range toast {
		lines = append(lines, " "+l)
	}
	return lines
}

// shortHelp is the one-line key summary: the active filter first, then the
// pane's enabled actions and the global keys. When they do not fit, the
// last actions give way; the filter and the help key always stay (the
// filter's text cut to fit): a list narrowed by a filter must say so, and
// the help key is how a user on a narrow terminal finds the rest.
func (m *Model) shortHelp() string {
	st := m.theme.Styles
	filter := ""
	if p := m.activePane(); p != nil {
		filter = clean(m.filters[p.ID()])
	}
	lead := func(text string, hint bool) []string {
		if filter == "" {
			return nil
		}
		part := st.HelpKey.Render("filter:") + " " + text
		if hint {
			part += st.HelpDesc.Render(" (esc clears)")
		}
		return []string{part}
	}
	helpKey := m.keys.Global.Help.Help()
	all := lead(filter, true) // every part, in the keymap's order
	var others []string       // every action but the help key's
	for _, b := range m.keys.Footer(m.paneActionsNow()) {
		if !b.Enabled() {
			continue
		}
		h := b.Help()
		part := st.HelpKey.Render(h.Key) + " " + st.HelpDesc.Render(h.Desc)
		all = append(all, part)
		if h != helpKey {
			others = append(others, part)
		}
	}
	sep := st.HelpSep.Render(" • ")
	line := " " + strings.Join(all, sep)
	if m.width <= 0 || lipgloss.Width(line) <= m.width {
		return line
	}
	tail := st.HelpKey.Render(helpKey.Key) + " " + st.HelpDesc.Render(helpKey.Desc)
	join := func(first []string, n int) string {
		parts := append(append(append([]string{}, first...), others[:n]...), "…", tail)
		return " " + strings.Join(parts, sep)
	}
	for n := len(others); n >= 0; n-- {
		if line = join(lead(filter, true), n); lipgloss.Width(line) <= m.width {
			return line
		}
	}
	// Not even the whole filter fits with the help key: its text is cut,
	// then the hint goes.
	for _, hint := range []bool{true, false} {
		short := lead("", hint)
		if len(short) == 0 {
			break
		}
		if room := m.width - lipgloss.Width(join(short, 0)); room >= 2 {
			return join(lead(components.Truncate(filter, room), hint), 0)
		}
	}
	return line
}

// firstRunes is s cut to its first n runes.
func firstRunes(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}
