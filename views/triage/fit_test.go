package triage

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// words is s with its runs of blanks made one space: lines wrapped, then
// joined, read as the line they came from.
func words(s string) string { return strings.Join(strings.Fields(s), " ") }

// At 80 columns the lines over the board wrap instead of being cut: every
// count, every part of the coverage line (a stale part's error and the
// migrations note included) and each listed outcome of an acknowledgement
// (until when, by whom) is on screen whole, no line wider than the pane,
// and the pane no taller than it is.
func TestBoardTopWrapsAt80ColumnsLosingNothing(t *testing.T) {
	e := newEnv(t, "org-owner", 80, 20)
	e.Sim.Clock.Advance(2 * time.Minute)
	e.P.Ctx.Wall = e.Sim.Clock.Now
	failed := partResult{GroupID: apisim.DemoPaymentsID}
	failed.fail("", &apiclient.Error{Status: 503, ErrorCode: "SERVICE_UNAVAILABLE", Detail: "Injected fault."})
	e.P.pending[keyRest]++
	e.Send(views.Result[partResult]{Pane: ID, Key: keyRest, Seq: e.P.gen, Value: failed})
	a, _, _ := twoAlertsOfTwoProjects(t, e.P)
	require.True(t, e.P.table.SetCursorID(a.Key()))
	e.ActionKey("a")
	require.NoError(t, e.Submit(map[string]string{"comment": "x"}))
	require.Len(t, e.P.results, 1)

	top := e.P.top()
	for _, l := range top {
		assert.LessOrEqual(t, components.Width(l), 80, "%q", l)
		assert.False(t, strings.HasSuffix(l, "…"), "nothing cut: %q", l)
	}
	text := words(strings.Join(top, " "))
	cov := e.P.coverage()
	assert.Contains(t, cov, "1 stale (payments: 503 SERVICE_UNAVAILABLE: Injected fault.)")
	assert.Contains(t, text, words(cov), "the whole coverage line")
	for k, n := range counts(e.P.Items()) {
		assert.Contains(t, text, fmt.Sprintf(" %d %s", n, k), "the head counts %s", k)
	}
	assert.Contains(t, text, words(e.P.results[0]), "the whole outcome")
	assert.Contains(t, e.P.results[0], "acknowledged until ")
	assert.Contains(t, e.P.results[0], " by ")
	assert.Greater(t, len(top), 4, "it took more lines than it had")

	screen := strings.Split(strings.TrimSuffix(e.Screen(), "\n"), "\n")
	assert.Len(t, screen, 20, "the pane's height, the table under the lines over it")
	assert.Equal(t, top, screen[:len(top)])
	assert.Contains(t, screen[len(top)], "SEVERITY", "the table's header right under them")
}

// The view counts the lines over the table itself: when they grew since
// the table was last sized (an age longer by a digit), the pane is still
// as tall as it is.
func TestBoardViewKeepsItsHeightWhenTheTopGrows(t *testing.T) {
	e := newEnv(t, "org-owner", 80, 20)
	before := len(e.P.top())
	e.P.results = []string{strings.Repeat("outcome ", 30)} // not through Update: the table not sized again
	e.P.resultsHead = "acknowledged 1 of 1 alert · esc closes this list"
	require.Greater(t, len(e.P.top()), before)
	assert.Len(t, strings.Split(e.P.View(), "\n"), 20)
}

// wrapParts breaks between parts, ending a line in the separator when it
// fits; a part wider than a line goes on from the line so far; past the
// lines allowed the last ends in "…".
func TestWrapParts(t *testing.T) {
	assert.Equal(t, []string{"aaa · bbb ·", "ccc"}, wrapParts([]string{"aaa", "bbb", "ccc"}, " · ", 11, 0))
	assert.Equal(t, []string{"aaa, bbb,", "ccc"}, wrapParts([]string{"aaa", "bbb", "ccc"}, ", ", 9, 0))
	assert.Equal(t, []string{"a · one two", "three"}, wrapParts([]string{"a", "one two three"}, " · ", 11, 0))
	assert.Equal(t, []string{"aaa · bbb…"}, wrapParts([]string{"aaa", "bbb", "ccc"}, " · ", 11, 1))
}

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

// The acknowledge dialog says, on its own line, that marked rows that are
// not alerts are left out: a title is cut to the dialog's width.
func TestAckDialogSaysRowsLeftOutInItsBody(t *testing.T) {
	e := newEnv(t, "org-owner", 80, 20)
	var alert, other Item
	for _, it := range e.P.Items() {
		switch {
		case alertRow(it) && alert.ItemID == "":
			alert = it
		case !alertRow(it) && other.ItemID == "":
			other = it
		}
	}
	e.P.table.ToggleMark(alert.Key())
	e.P.table.ToggleMark(other.Key())
	e.ActionKey("a")
	require.NotEmpty(t, e.Forms)
	f := e.Forms[len(e.Forms)-1]
	assert.NotContains(t, f.Title, "left out")
	form := components.NewForm(f.ID, f.Title, f.Fields, nil, e.P.Ctx.Theme, nil)
	form.SetSize(80, 24)
	view := ansi.Strip(form.View())
	assert.Contains(t, words(view), "1 marked row is not an alert, left out:")
	var note string
	for _, fd := range f.Fields {
		if fd.Key == "leftOut" {
			note = fd.Value
		}
	}
	assert.Equal(t, "• "+e.P.line(other.Key()), note, "which one")
}
