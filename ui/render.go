package ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
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
	if c := &m.frames; c.screen != "" && c.width == m.width && c.top == header+"\n"+tabs && c.pane == pane &&
		slices.Equal(c.footer, footer) {
		return c.screen
	}
	screen := m.stack(header, tabs, pane, footer)
	m.frames.width, m.frames.top, m.frames.pane, m.frames.screen = m.width, header+"\n"+tabs, pane, screen
	m.frames.footer = append(m.frames.footer[:0], footer...)
	return screen
}

// stack is compose without its cache.
func (m *Model) stack(header, tabs, pane string, footer []string) string {
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

// renderTabs: one tab a pane, every tab visible. When the full titles do
// not fit, the inactive tabs shrink first to their title's first word
// ("5 Access"), then to three letters ("5 Acc"), then to their number; the
// active tab keeps its full title.
func (m *Model) renderTabs() string {
	key := fmt.Sprintf("%d/%d/%d/%s", m.width, m.active, len(m.panes), m.themeKey())
	if c := &m.frames; c.tabs != "" && c.tabsKey == key {
		return c.tabs
	}
	m.frames.tabsKey, m.frames.tabs = key, m.makeTabs()
	return m.frames.tabs
}

func (m *Model) makeTabs() string {
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
		first = m.shortHelp() // already cut to the width
	} else {
		first = components.Truncate(first, m.width)
	}
	lines := []string{first}
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
	filter := ""
	if p := m.activePane(); p != nil {
		filter = clean(m.filters[p.ID()])
	}
	bindings := m.keys.Footer(m.paneActionsNow())
	var b strings.Builder
	b.WriteString(strconv.Itoa(m.width))
	for _, s := range []string{m.themeKey(), filter} {
		b.WriteByte(0)
		b.WriteString(s)
	}
	for _, k := range bindings {
		if k.Enabled() {
			h := k.Help()
			b.WriteByte(1)
			b.WriteString(h.Key)
			b.WriteByte(0)
			b.WriteString(h.Desc)
		}
	}
	if c := &m.frames; c.help != "" && c.helpKey == b.String() {
		return c.help
	}
	m.frames.helpKey = b.String()
	m.frames.help = components.Truncate(m.makeShortHelp(filter, bindings), m.width)
	return m.frames.help
}

// frameCache is the root's last header and help lines, each with what it
// was made of (its key): the header's clock ticks every second and most
// ticks change neither, and a line made again is styled and measured
// again.
type frameCache struct {
	headerKey, header string
	helpKey, help     string
	tabsKey, tabs     string
	// The last screen compose made, and of what.
	width     int
	top, pane string
	footer    []string
	screen    string
}

// themeKey tells the themes apart in a cache key.
func (m *Model) themeKey() string {
	return m.theme.Name + "/" + m.theme.Glamour + "/" + strconv.FormatBool(m.theme.Dark)
}

// makeShortHelp lays out the help line from the footer's bindings.
func (m *Model) makeShortHelp(filter string, bindings []keymap.Action) string {
	st := m.theme.Styles
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
	for _, b := range bindings {
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
