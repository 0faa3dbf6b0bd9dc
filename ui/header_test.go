package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
)

// The context stays whole at 80 columns; the profile and badges give way.
func TestFitHeaderKeepsContext(t *testing.T) {
	id := func(s ...string) string { return strings.Join(s, "") }
	right := []headerPart{
		{forms: []string{"Organization Member", roleShort("Organization Member"), roleInitials("Organization Member")}},
		{forms: []string{"READ-ONLY", "RO"}},
		{forms: []string{"updated 1s ago", "1s ago"}},
		{forms: []string{"● live", "●"}},
	}
	crumbs := []string{"Payments Corporation", "payments-production", "payments-rs"}
	for _, w := range []int{200, 100, 80} {
		l := ansi.Strip(fitHeader(w, "payments-production", crumbs, " › ", " │ ", id, right))
		if got := ansi.StringWidth(l); got != w {
			t.Errorf("width %d: line is %d wide: %q", w, got, l)
		}
		if !strings.Contains(l, "Payments Corporation › payments-production › payments-rs") {
			t.Errorf("width %d: context cut: %q", w, l)
		}
		if !strings.Contains(l, "RO") && !strings.Contains(l, "READ-ONLY") || !strings.Contains(l, "●") {
			t.Errorf("width %d: badges lost: %q", w, l)
		}
		if w == 200 && !strings.Contains(l, "payments-production │") {
			t.Errorf("wide header lost the profile: %q", l)
		}
	}
	// Narrower still: the crumbs are cut, the organization first.
	l := ansi.Strip(fitHeader(60, "p", crumbs, " › ", " │ ", id, right))
	if ansi.StringWidth(l) != 60 || !strings.Contains(l, "payments-rs") {
		t.Errorf("60: %q", l)
	}
}

// Every tab is visible at 80, 100 and 200 columns, whichever pane is active:
// the active tab keeps its full title, the others shrink first.
func TestEveryTabVisibleAtEachWidth(t *testing.T) {
	d, _, _ := readyModel(t, nil)
	m := d.m
	for _, w := range []int{60, 80, 100, 200} {
		m.resize(w, 30)
		for i := range m.panes {
			m.active = i
			line := ansi.Strip(m.renderTabs())
			assert.LessOrEqual(t, ansi.StringWidth(line), w)
			assert.NotContains(t, line, "…", "%d cols: no tab is cut", w)
			if w >= 80 {
				assert.Contains(t, line, fmt.Sprintf("%d %s", i+1, m.opts.Panes[i].Title), "%d cols: the active tab in full", w)
			}
			for n := range m.panes {
				assert.Contains(t, line, fmt.Sprint(n+1), "%d cols: tab %d shown", w, n+1)
			}
			if w >= 120 {
				for n, r := range m.opts.Panes {
					assert.Contains(t, line, fmt.Sprintf("%d %s", n+1, r.Title), "wide: every title in full")
				}
			}
		}
	}
}
