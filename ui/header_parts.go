package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

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
	if c := m.cachedText(); c != "" && !m.activeHealth().Cached {
		// The scope's note, set apart from the pane's freshness after it:
		// "cached oldest 4s ago" read as if the board were cached.
		sep := ""
		if m.activePane() != nil {
			sep = " ·"
		}
		right = append(right, headerPart{forms: []string{c + sep, "cached" + sep}})
	}
	if full, mid, short := m.sharingText(); full != "" {
		right = append(right, headerPart{forms: []string{full, mid, short}})
	}
	h := m.activeHealth()
	if hold, throttled := m.holdingBack(h); hold != "" {
		var style func(...string) string
		tag := ""
		if throttled {
			style, tag = st.ErrorText.Render, "error" // the server's hold; a planned wait is no failure
		}
		right = append(right, headerPart{forms: []string{hold, holdShort(hold)}, style: style, tag: tag})
	}
	if len(h.Parts) > 0 {
		// A pane read in parts (the Triage board): the oldest part's age
		// and the stale parts by name.
		var style func(...string) string
		tag := ""
		if h.Stale() {
			style, tag = st.ErrorText.Render, "error"
		}
		if h.Cached {
			// Some parts are the last start's copies, being read again.
			right = append(right, headerPart{forms: []string{"cached · checking", "cached"}})
		}
		right = append(right, headerPart{forms: partsForms(h.Parts, m.opts.Wall()), style: style, tag: tag})
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
	profile := clean(orDash(m.opts.Profile))
	key := headerKey(m.width, m.themeKey(), profile, crumbs, right)
	if c := &m.frames; c.header != "" && c.headerKey == key {
		return c.header
	}
	line := fitHeader(m.width, profile, crumbs, sep, st.BreadcrumbSep.Render(" │ "), st.Breadcrumb.Render, right)
	m.frames.headerKey, m.frames.header = key, st.Header.Render(padRight(line, m.width))
	return m.frames.header
}

// headerKey is what the header line is made of, as one string: the same
// key, the same line (the styles of the parts are the theme's, or told
// apart by their tag).
func headerKey(width int, theme, profile string, crumbs []string, right []headerPart) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(width))
	for _, s := range append([]string{theme, profile}, crumbs...) {
		b.WriteByte(0)
		b.WriteString(s)
	}
	for _, p := range right {
		b.WriteByte(1)
		b.WriteString(p.tag)
		for _, f := range p.forms {
			b.WriteByte(0)
			b.WriteString(f)
		}
	}
	return b.String()
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
	if h := m.activeHealth(); h.Cached {
		// The last start's copy, on screen until the service answers.
		return "cached " + components.Age(m.opts.Wall().Sub(h.OK)) + " ago · checking"
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
