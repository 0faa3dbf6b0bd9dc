package triage

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// synth is a board over n made-up projects, fed answers by hand, on a
// clock the test moves.
type synth struct {
	p   *Pane
	now time.Time
	rng *rand.Rand
}

func newSynth(n int, seed uint64) *synth {
	s := &synth{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC), rng: rand.New(rand.NewPCG(seed, 7))}
	noTimer := func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }
	ctx := views.Context{Theme: themes.MustGet(themes.Mono), Keys: views.Registry{Registration}.Keymap(), Poll: views.DefaultPoll, Timer: noTimer,
		Clock: func() time.Time { return s.now }, Wall: func() time.Time { return s.now }}
	s.p = New(ctx).(*Pane)
	s.p.SetSize(160, 50)
	for i := range n {
		s.p.projects = append(s.p.projects, Project{OrgID: fmt.Sprintf("o%d", i%5), OrgName: fmt.Sprintf("Org %d", i%5),
			ID: fmt.Sprintf("g%04d", i), Name: fmt.Sprintf("project-%04d", i)})
	}
	s.p.gen = 1
	return s
}

var (
	alertKinds = []Kind{KindAlert, KindAckEnds}
	restKinds  = []Kind{KindCluster, KindVersion, KindSnapshot, KindRestore, KindExport, KindIndex, KindMigration}
	severities = []apiclient.Severity{apiclient.SeverityCritical, apiclient.SeverityError, apiclient.SeverityWarning, apiclient.SeverityInfo}
)

// items are up to most made-up items of one project's part, drawn from a
// small pool so that answers often repeat one another.
func (s *synth) items(key string, pr Project, most int) []Item {
	kinds := map[string][]Kind{keyAlerts: alertKinds, keyRest: restKinds, keyAuth: {KindAuthBurst}}[key]
	var out []Item
	seen := map[string]bool{}
	for range s.rng.IntN(most + 1) {
		k := kinds[s.rng.IntN(len(kinds))]
		id := fmt.Sprintf("i%d", s.rng.IntN(6))
		cluster := fmt.Sprintf("c%d", s.rng.IntN(2))
		it := pr.item(k, severities[s.rng.IntN(len(severities))], cluster, id, "what "+id, time.Time{})
		if s.rng.IntN(8) > 0 {
			// From seconds to days old, on a coarse grid (ties happen).
			it.Since = s.now.Add(-time.Duration(s.rng.IntN(400)) * time.Duration(1+s.rng.IntN(3)*299) * time.Second).Truncate(10 * time.Second)
		}
		if k == KindAckEnds {
			until := s.now.Add(time.Duration(s.rng.IntN(60)) * time.Minute)
			it.AckUntil = &until
		}
		if seen[it.Key()] {
			continue
		}
		seen[it.Key()] = true
		out = append(out, it)
	}
	return out
}

// answer is one part's answer of project i as the pane gets it.
func (s *synth) answer(key string, i, most int) views.Result[partResult] {
	pr := s.p.projects[i]
	part := partResult{GroupID: pr.ID, Items: s.items(key, pr, most)}
	switch s.rng.IntN(20) {
	case 0:
		part = partResult{GroupID: pr.ID, Hidden: true}
	case 1, 2:
		part.Items = nil
		part.fail("", errors.New("503")) // the last good rows stay, stale
	}
	return views.Result[partResult]{Key: key, Seq: s.p.gen, Value: part}
}

// scratch is the board built from nothing out of what the pane holds, as
// it was built on every answer before it was kept: every visible part's
// items, sorted, made into rows, then the projects not visible.
func scratch(p *Pane, now time.Time, whereW int) []components.Row {
	var items []Item
	for _, part := range []map[string]partResult{p.alerts, p.rest, p.auth} {
		for gid, r := range part {
			if !p.hidden[gid] {
				items = append(items, r.Items...)
			}
		}
	}
	slices.SortStableFunc(items, func(a, b Item) int {
		if d := severityRank(a.Severity) - severityRank(b.Severity); d != 0 {
			return d
		}
		if c := b.Since.Compare(a.Since); c != 0 {
			return c
		}
		return strings.Compare(a.Key(), b.Key())
	})
	var rows []components.Row
	for i, it := range items {
		since := ""
		if !it.Since.IsZero() {
			since = components.Age(now.Sub(it.Since))
		}
		what := it.What
		if it.Stale {
			what = "(stale) " + what
		}
		where := it.Where()
		rows = append(rows, components.Row{ID: it.Key(), Class: string(it.Severity), Cells: []string{
			string(it.Severity), string(it.Kind), fitWhere(where, whereW), what, since,
			fmt.Sprintf("%d", severityRank(it.Severity)), fmt.Sprintf("%020d", now.Sub(it.Since)), fmt.Sprint(i), where}})
	}
	for _, pr := range p.projects {
		if p.hidden[pr.ID] {
			where := pr.OrgName + " › " + pr.Name
			rows = append(rows, components.Row{ID: "hidden/" + pr.ID, Class: "muted", Cells: []string{
				"", "project", fitWhere(where, whereW), "not visible (role)", "", "9", "", "", where}})
		}
	}
	return rows
}

// shown is what a row shows and what the filter and sorts read, minus
// the sort keys of the order the rows already have.
func shown(rows []components.Row, ages bool) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		c := slices.Clone(r.Cells)
		c[6], c[7] = "", ""
		if !ages {
			c[4] = ""
		}
		out[i] = r.ID + "|" + r.Class + "|" + strings.Join(c, "|")
	}
	return out
}

// The board kept by answers is the board built from scratch, whatever
// the answers: random sequences of answers (repeated, changed, failed,
// hidden), r, resizes and the clock moving on, compared after each step
// with the rows made from nothing. Ages are compared once the poll has
// written them again (between two polls the rows keep the ages they were
// made with, as they did before).
func TestBoardKeptEqualsBoardRebuilt(t *testing.T) {
	for seed := range uint64(16) {
		s := newSynth(12, seed)
		p := s.p
		for step := range 250 {
			what := ""
			switch r := s.rng.IntN(100); {
			case r < 3:
				what = "r"
				p.Update(views.RefreshMsg{})
			case r < 6:
				what = "resize"
				p.SetSize(60+s.rng.IntN(200), 30)
			case r < 15:
				what = "clock"
				s.now = s.now.Add(time.Duration(1+s.rng.IntN(3600)) * time.Second)
			case r < 30:
				// The same answer again, as most answers are.
				key := []string{keyAlerts, keyRest, keyAuth}[s.rng.IntN(3)]
				i := s.rng.IntN(len(p.projects))
				if prev, ok := p.partsOf(key)[p.projects[i].ID]; ok && !prev.Hidden && prev.Errs == 0 {
					what = "same " + key
					p.Update(views.Result[partResult]{Key: key, Seq: p.gen, Value: partResult{GroupID: prev.GroupID, Items: slices.Clone(prev.Items)}})
				}
			default:
				key := []string{keyAlerts, keyAlerts, keyRest, keyRest, keyAuth}[s.rng.IntN(5)]
				most := 5
				if s.rng.IntN(10) == 0 {
					most = 30 // many rows at once: the merge
				}
				what = "answer " + key
				p.Update(s.answer(key, s.rng.IntN(len(p.projects)), most))
			}
			// The frame kept between messages is the frame made anew.
			require.Equal(t, p.topLines(), p.top(), "seed %d step %d (%s): the lines over the board", seed, step, what)
			view := p.View()
			p.drawn = drawn{}
			require.Equal(t, p.View(), view, "seed %d step %d (%s): the frame", seed, step, what)
			if p.boardDirty {
				continue // the rows show it with the next answer or poll
			}
			want := scratch(p, s.now, whereWidth(p.W))
			require.Equal(t, shown(want, false), shown(p.table.Rows(), false), "seed %d step %d (%s)", seed, step, what)
			require.Equal(t, len(p.b.items()), p.b.total(), "seed %d step %d: counts", seed, step)
			if p.b.agesDue(s.now) {
				p.rebuild() // what the poll does
			}
			if !p.boardDirty {
				require.Equal(t, shown(want, true), shown(p.table.Rows(), true), "seed %d step %d (%s): ages", seed, step, what)
			}
		}
	}
}

// During a round the table is given the rows at most once per
// flushEvery; the round's last answer, or the next poll, gives it the
// rest. Nothing is lost meanwhile: the board has it.
func TestBoardChangesReachTheTableOncePerSecondInARound(t *testing.T) {
	s := newSynth(3, 1)
	p := s.p
	ids := func() []string {
		var out []string
		for _, r := range p.table.Rows() {
			out = append(out, r.ID)
		}
		return out
	}
	p.pending[keyAlerts] = 3
	p.Update(fixedAnswer(s, keyAlerts, 0, 0))
	require.Len(t, ids(), benchAlerts, "the first change goes at once")
	p.Update(fixedAnswer(s, keyAlerts, 1, 0))
	require.Len(t, ids(), benchAlerts, "the second, within a second, waits")
	require.Len(t, p.Items(), 2*benchAlerts, "on the board")
	require.Equal(t, p.topLines(), p.top(), "the counts over the board say it")
	s.now = s.now.Add(flushEvery)
	p.Update(fixedAnswer(s, keyAlerts, 1, 1))
	require.Len(t, ids(), 2*benchAlerts, "a second later it goes")
	p.Update(fixedAnswer(s, keyAlerts, 2, 0))
	require.Len(t, ids(), 3*benchAlerts, "the round's last answer takes the rest")
	p.pending[keyAlerts] = 5
	before := shown(p.table.Rows(), true)
	p.Update(fixedAnswer(s, keyAlerts, 2, 1))
	require.Equal(t, before, shown(p.table.Rows(), true), "within a second of the last: waits")
	gone := fixedAnswer(s, keyAlerts, 0, 0)
	gone.Value.Items = nil
	p.Update(gone)
	require.Equal(t, before, shown(p.table.Rows(), true), "waits too")
	require.Equal(t, p.topLines(), p.top(), "the counts over the board say it at once")
	p.poll()
	require.NotEqual(t, before, shown(p.table.Rows(), true), "the poll takes what waited")
	require.Equal(t, shown(scratch(p, s.now, whereWidth(p.W)), true), shown(p.table.Rows(), true))
}
