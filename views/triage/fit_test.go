package triage

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/themes"
	"github.com/dbadmin-tui/dbadmin-tui/ui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// At 80 columns WHERE keeps its end: the clusters of one project are told
// apart, the organization giving way. The filter and the sort still read
// the whole place.
func TestWhereKeepsTheClusterWhenCut(t *testing.T) {
	e := newEnv(t, "org-owner", 80, 20)
	e.Send(views.FilterMsg{Text: "Demo-Org › payments › payments-"})
	screen := e.Screen()
	for _, c := range []string{"payments-rs", "payments-prod", "payments-legacy"} {
		assert.Contains(t, screen, "› "+c+" ", "%s told apart:\n%s", c, screen)
	}
	assert.NotContains(t, screen, "Demo-Org › payments › …")

	e.Send(views.FilterMsg{Text: "Acme-Retail"})
	n := 0
	for _, it := range e.P.Items() {
		if it.OrgName == "Acme-Retail" {
			n++
		}
	}
	require.Positive(t, n)
	assert.Equal(t, n, e.P.table.Len(), "the filter finds the organization a cell left out")

	e.Send(views.FilterMsg{Text: ""})
	e.P.table.SortBy(2, false)
	var got, want []string
	for _, r := range e.P.table.VisibleRows() {
		got = append(got, r.Cells[cellWhere])
	}
	want = slices.Clone(got)
	slices.SortStableFunc(want, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
	assert.Equal(t, want, got, "sorted by the whole place")
}

func TestFitWhere(t *testing.T) {
	full := "Demo-Org › payments › payments-rs"
	assert.Equal(t, full, fitWhere(full, 40))
	assert.Equal(t, "…payments › payments-rs", fitWhere(full, 23))
	assert.Equal(t, "…payments-rs", fitWhere(full, 14), "no separator's remains")
	assert.Equal(t, "…s-rs", fitWhere(full, 5))
	assert.Equal(t, "…", fitWhere(full, 1))
}

// whereWidth is the width the table gives WHERE: a place that wide is
// shown whole, one cell wider is cut.
func TestWhereWidthIsTheTables(t *testing.T) {
	for w := 40; w <= 240; w += 7 {
		ww := whereWidth(w)
		for _, extra := range []int{0, 1} {
			tb := components.NewTable(columns(), themes.MustGet("mono"), nil)
			tb.SetSize(w, 3)
			where := strings.Repeat("x", ww+extra)
			tb.SetRows([]components.Row{{ID: "r", Cells: []string{"ERROR", "alert", where, "what", "1h", "1", "1", "0", where}}})
			if extra == 0 {
				assert.Contains(t, ansi.Strip(tb.View()), " "+where+" ", "width %d", w)
			} else {
				assert.NotContains(t, ansi.Strip(tb.View()), where, "width %d", w)
			}
		}
	}
}
