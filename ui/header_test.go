package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
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
