package accesslogs

import (
	"fmt"
	"net/netip"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

func current(v string) string {
	if v == "" {
		return ""
	}
	return "Now: " + v + "\n"
}

// ask opens a text prompt; the answer comes back as the action, confirmed,
// with the text in Input.
func (p *Pane) ask(action, title, body, prompt string) tea.Cmd {
	p.Confirm(views.ConfirmMsg{Title: title, Body: body, Prompt: prompt, Action: views.ActionMsg{Name: action}})
	return nil
}

// setIP sets the IP filter (see ipMatches); a value that is no address,
// network or start of one is refused with the text in the message, so
// nothing typed is lost.
func (p *Pane) setIP(in string) tea.Cmd {
	in = strings.TrimSpace(in)
	bad := strings.ContainsFunc(in, func(r rune) bool { return !strings.ContainsRune("0123456789.abcdefABCDEF:/", r) })
	if _, err := netip.ParsePrefix(in); !bad && strings.Contains(in, "/") && err != nil {
		bad = true
	}
	if bad {
		p.Refuse(fmt.Sprintf("IP filter %q: an address (203.0.113.7), a network (10.2.0.0/16) or its first parts (10.2)", components.Sanitize(in)))
		return nil
	}
	p.st.filter.ip = in
	p.refilter()
	return nil
}

// selectFailures opens a board row of failed authentications (View
// "failures", ItemID the address): failures only, from that address, over
// at least the last 15 minutes the board looked at.
func (p *Pane) selectFailures(msg views.SelectMsg) tea.Cmd {
	if msg.View != "failures" {
		return nil
	}
	p.st.filter.failuresOnly = true
	if u := p.st.filter.user; u != "" && !p.userShows(msg.ItemID) {
		// The row is every failure from the address: a user filter that
		// hides some (or cannot be seen to hide none) is lifted, and said.
		p.st.filter.user = ""
		p.Toast(fmt.Sprintf("user filter ~%s lifted to show every failure from %s", components.Sanitize(u), components.Sanitize(msg.ItemID)), false)
	}
	cmd := p.setIP(msg.ItemID)
	if p.since < defaultSince {
		p.since = defaultSince
		return tea.Batch(cmd, p.restart("loading the last "+sinceText(p.since)))
	}
	return cmd
}

// userShows reports whether the user filter shows every failure from the
// address among the records held (false when none is held: it cannot
// tell).
func (p *Pane) userShows(ip string) bool {
	from := filter{failuresOnly: true, ip: ip}
	user := filter{user: p.st.filter.user}
	seen := false
	for i := range p.st.recs.Len() {
		r := p.st.held(i)
		if !from.match(r) {
			continue
		}
		if !user.match(r) {
			return false
		}
		seen = true
	}
	return seen
}

// Shows tells the root to keep its filter on a jump here (views.Shower):
// this pane's `/` is a search that moves between matching lines and hides
// none. (The user filter, which can hide the row's failures, is this
// pane's own: SelectMsg lifts it when it does.)
func (p *Pane) Shows(_, _ string) (shown, known bool) { return true, true }

func (p *Pane) refilter() {
	p.st.rebuild(p.Ctx.Theme, p.Ctx.Keys, p.lineWidth(), p.bodyRows()+1)
	p.match = -1
}

// setSearch sets the search text and jumps to the newest match.
func (p *Pane) setSearch(text string) tea.Cmd {
	p.search = strings.TrimSpace(text)
	p.match = -1
	if p.search == "" {
		return nil
	}
	n := p.st.lv.Len()
	if i := p.find(n-1, -1); i >= 0 {
		p.show(i)
		return nil
	}
	p.Toast(fmt.Sprintf("no line contains %q", components.Sanitize(p.search)), false)
	return nil
}

// step moves to the next (+1) or previous (-1) match, wrapping around.
func (p *Pane) step(dir int) tea.Cmd {
	if p.search == "" {
		p.Toast("no search: press / first", false)
		return nil
	}
	n := p.st.lv.Len()
	from := p.match
	if from < 0 {
		from = p.selectedLine()
	}
	if i := p.find(from+dir, dir); i >= 0 {
		p.show(i)
		return nil
	}
	start := 0
	if dir < 0 {
		start = n - 1
	}
	if i := p.find(start, dir); i >= 0 {
		p.show(i)
		p.Toast("search wrapped", false)
		return nil
	}
	p.Toast(fmt.Sprintf("no line contains %q", components.Sanitize(p.search)), false)
	return nil
}

// find returns the first shown line from i in direction dir containing the
// search text, or -1.
func (p *Pane) find(i, dir int) int {
	needle := strings.ToLower(p.search)
	for n := p.st.lv.Len(); i >= 0 && i < n; i += dir {
		if strings.Contains(strings.ToLower(p.st.lv.Line(i)), needle) {
			return i
		}
	}
	return -1
}

// show selects line i and scrolls it into view (pausing the view).
func (p *Pane) show(i int) {
	p.match = i
	rows := p.bodyRows()
	top := p.st.lv.Top()
	if p.st.lv.Following() || i < top || i >= top+rows {
		p.st.lv.ScrollTo(max(0, i-rows/2))
	}
}
