package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// headerPart is one item on the header's right: its full text, a short
// form and the shortest, each rendered through style.
type headerPart struct {
	forms []string // full first; later ones shorter
	style func(...string) string
	// tag names the style where a part of the same forms may be drawn in
	// another (the header's cache tells the two apart by it).
	tag string
}

func (p headerPart) render(level int) string {
	if len(p.forms) == 0 {
		return ""
	}
	s := p.forms[min(level, len(p.forms)-1)]
	if s == "" {
		return ""
	}
	if p.style != nil {
		return p.style(s)
	}
	return s
}

// fitHeader lays out the header line in width cells. Where the context is
// matters most: org › project › cluster stay whole as long as they can. The
// profile name gives way first (cut, then dropped), then the badges and the
// freshness take their short forms, then their shortest; only then are the
// crumbs cut, the organization before the project, the cluster last.
func fitHeader(width int, profile string, crumbs []string, sep, pipe string, crumb func(...string) string, right []headerPart) string {
	line := func(prof string, cs []string, level int) (string, bool) {
		left := " "
		if prof != "" {
			left += prof + pipe
		}
		left += crumb(strings.Join(cs, sep))
		var rs []string
		for _, p := range right {
			if s := p.render(level); s != "" {
				rs = append(rs, s)
			}
		}
		r := strings.Join(rs, " ") + " "
		fits := lipgloss.Width(left)+1+lipgloss.Width(r) <= width
		return padRight(left, width-lipgloss.Width(r)) + r, fits
	}
	crumbs = append([]string(nil), crumbs...)
	for i, c := range crumbs {
		if components.Width(c) > width {
			crumbs[i] = components.Truncate(c, width)
		}
	}
	maxLevel := 0
	for _, p := range right {
		maxLevel = max(maxLevel, len(p.forms)-1)
	}
	profiles := []string{profile}
	if short := components.Truncate(profile, 10); short != profile {
		profiles = append(profiles, short)
	}
	profiles = append(profiles, "")
	for _, prof := range profiles {
		if l, ok := line(prof, crumbs, 0); ok {
			return l
		}
	}
	for level := 1; level <= maxLevel; level++ {
		if l, ok := line("", crumbs, level); ok {
			return l
		}
	}
	// Cut the crumbs, outermost first, to no less than 6 cells each. A
	// crumb wider than the screen (a server's 10k-character name) starts
	// at the screen's width: each try measures the whole line.
	cs := append([]string(nil), crumbs...)
	for i := range cs {
		for w := min(components.Width(cs[i])-1, width); w >= 6; {
			cs[i] = components.Truncate(crumbs[i], w)
			l, ok := line("", cs, maxLevel)
			if ok {
				return l
			}
			// Skip the widths that cannot fit either: the line is over
			// by at least that much less one (a wide character cut).
			w -= max(lipgloss.Width(l)-width+1, 1)
		}
	}
	l, _ := line("", cs, maxLevel)
	return components.Truncate(l, width)
}

// roleShort abbreviates a role label's words ("Organization Owner" ->
// "Org Owner"); roleInitials keeps one letter a word ("OO").
func roleShort(label string) string { return roleWords.Replace(label) }

var roleWords = strings.NewReplacer("Organization", "Org", "Project", "Proj", "Manager", "Mgr",
	"Administrator", "Admin", "Read Only", "RO", "Read Write", "RW", "Member", "Mbr")

func roleInitials(label string) string {
	var b strings.Builder
	for _, w := range strings.Fields(label) {
		b.WriteString(strings.ToUpper(w[:1]))
	}
	return b.String()
}

// freshShort drops the word "updated" ("updated 3s ago" -> "3s ago").
func freshShort(s string) string {
	s, _, _ = strings.Cut(s, " · checking")
	return strings.TrimPrefix(s, "updated ")
}

// holdShort is the scheduler's hold in few cells ("rate limited: next
// refresh in 20 s" -> "rate limited 20 s").
func holdShort(s string) string { return strings.Replace(s, ": next refresh in", "", 1) }

// partsForms is the freshness of a pane read in parts (views.Health.Parts),
// full form first: each part's age (parts of one age named together), the
// parts not read yet, and the stale ones with since when and why ("alerts
// 12s ago · clusters, snapshots 3m ago · ✗ exports stale since 22:14:03 ·
// 503 SERVICE_UNAVAILABLE"); then the oldest part's age and the stale
// parts' names ("oldest 3m ago · ✗ exports stale"); then "3m ago ✗
// exports"; then "3m ✗1".
func partsForms(parts []views.PartHealth, now time.Time) []string {
	var oldest time.Time
	type group struct{ key, names string }
	var fresh, stale []group
	var pending, staleNames []string
	add := func(gs []group, key, name string) []group {
		for i := range gs {
			if gs[i].key == key {
				gs[i].names += ", " + name
				return gs
			}
		}
		return append(gs, group{key, name})
	}
	for _, p := range parts {
		name := clean(p.Name)
		if !p.OK.IsZero() && (oldest.IsZero() || p.OK.Before(oldest)) {
			oldest = p.OK
		}
		switch {
		case p.Stale():
			staleNames = append(staleNames, name)
			why := "stale since " + p.StaleSince.Format("15:04:05")
			if code := views.ErrorCode(p.Err); code != "" {
				why += " · " + clean(code)
			}
			stale = add(stale, why, name)
		case p.OK.IsZero():
			pending = append(pending, name)
		default:
			fresh = add(fresh, components.Age(now.Sub(p.OK))+" ago", name)
		}
	}
	var full []string
	for _, g := range fresh {
		full = append(full, g.names+" "+g.key)
	}
	if len(pending) > 0 {
		full = append(full, strings.Join(pending, ", ")+" not read yet")
	}
	for _, g := range stale {
		full = append(full, "✗ "+g.names+" "+g.key)
	}
	age, short, shortest := "not read yet", "…", "…"
	if !oldest.IsZero() {
		a := components.Age(now.Sub(oldest))
		age, short, shortest = "oldest "+a+" ago", a+" ago", a
	}
	if len(staleNames) > 0 {
		names := strings.Join(staleNames, ", ")
		age += " · ✗ " + names + " stale"
		short += " ✗ " + names
		shortest += fmt.Sprintf(" ✗%d", len(staleNames))
	}
	return []string{strings.Join(full, " · "), age, short, shortest}
}
