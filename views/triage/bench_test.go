package triage

import (
	"fmt"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// benchProjects is the board's size in the benchmarks, and benchAlerts
// and benchRest the rows of each project's alerts and rest.
const (
	benchProjects = 1000
	benchAlerts   = 4
	benchRest     = 4
)

// fixedAnswer is project i's answer of one part; variant changes one
// row's text (a changed answer).
func fixedAnswer(s *synth, key string, i, variant int) views.Result[partResult] {
	pr := s.p.projects[i]
	n, kinds := benchAlerts, alertKinds
	if key == keyRest {
		n, kinds = benchRest, restKinds
	}
	items := make([]Item, n)
	for j := range items {
		sev := severities[(i+j)%len(severities)]
		items[j] = pr.item(kinds[j%len(kinds)], sev, fmt.Sprintf("c%d", j%2), fmt.Sprintf("%s-%d", key, j),
			fmt.Sprintf("what %d", j), s.now.Add(-time.Duration(1+(i*7+j*13)%5000)*time.Minute))
		if items[j].Kind == KindAckEnds {
			until := s.now.Add(30 * time.Minute)
			items[j].AckUntil = &until
		}
	}
	if variant > 0 {
		items[0].What = fmt.Sprintf("what changed %d", variant)
	}
	return views.Result[partResult]{Key: key, Seq: s.p.gen, Value: partResult{GroupID: pr.ID, Items: items}}
}

// legacyUpdate takes an answer as the pane did before the board was
// kept: the part stored, then the whole board rebuilt from every part
// (scratch: gathered, sorted, every row's cells made and measured), the
// table given the new rows, the health set; then the pane fitted (as
// Update does).
func legacyUpdate(p *Pane, m views.Result[partResult]) {
	part := m.Value
	part.Wall = p.Ctx.WallNow()
	p.pending[m.Key] = max(p.pending[m.Key]-1, 0)
	if part.Hidden {
		p.hidden[part.GroupID] = true
	}
	switch m.Key {
	case keyAlerts:
		p.alerts[part.GroupID] = keep(part, p.alerts[part.GroupID])
	case keyAuth:
		p.auth[part.GroupID] = keep(part, p.auth[part.GroupID])
	default:
		p.rest[part.GroupID] = keep(part, p.rest[part.GroupID])
	}
	p.whereW = whereWidth(p.W)
	p.table.SetRows(scratch(p, p.Ctx.Now(), p.whereW))
	if !p.moved {
		p.table.SetCursor(0)
	}
	p.setHealth()
	p.fit()
}

// paths are the two ways an answer is taken: before (legacyUpdate) and
// after (the pane's Update).
var paths = []struct {
	name string
	take func(*Pane, views.Result[partResult])
}{
	{"before", legacyUpdate},
	{"after", func(p *Pane, m views.Result[partResult]) { p.Update(m) }},
}

// filled is a board of benchProjects projects with every part in.
func filled(take func(*Pane, views.Result[partResult])) *synth {
	s := newSynth(benchProjects, 1)
	for i := range benchProjects {
		take(s.p, fixedAnswer(s, keyAlerts, i, 0))
		take(s.p, fixedAnswer(s, keyRest, i, 0))
	}
	return s
}

// BenchmarkBoard1000 is the board of 1,000 projects (4 alert rows and 4
// other rows each: 8,000 rows) taking one answer that changes nothing,
// one that changes one row of one project, and the full build (every
// project's alerts and rest from an empty board), before (the whole
// board rebuilt on every answer) and after (the board kept). Each op is
// the pane's work for the answer(s): not the request, its decoding or
// the frame drawn after it (the table draws only the rows on screen).
//
//	go test ./views/triage/ -run '^$' -bench Board1000 -benchmem -benchtime 200x
func BenchmarkBoard1000(b *testing.B) {
	for _, path := range paths {
		b.Run("unchanged/"+path.name, func(b *testing.B) {
			s := filled(path.take)
			s.p.pending[keyAlerts] = 1 << 30 // a round under way, as when polled
			answers := make([]views.Result[partResult], benchProjects)
			for i := range answers {
				answers[i] = fixedAnswer(s, keyAlerts, i, 0)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for n := range b.N {
				path.take(s.p, answers[n%benchProjects])
			}
		})
	}
	for _, path := range paths {
		b.Run("one-changed/"+path.name, func(b *testing.B) {
			s := filled(path.take)
			// The table is given the rows on each change (the last answer
			// of a round, or flushEvery after the last time): the most
			// this costs.
			answers := make([]views.Result[partResult], 2*benchProjects)
			for i := range answers {
				answers[i] = fixedAnswer(s, keyAlerts, i%benchProjects, 1+i/benchProjects)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for n := range b.N {
				path.take(s.p, answers[n%len(answers)])
			}
		})
	}
	for _, path := range paths {
		b.Run("full/"+path.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				s := filled(path.take)
				if got := len(s.p.table.Rows()); got != benchProjects*(benchAlerts+benchRest) {
					b.Fatalf("%d rows", got)
				}
			}
		})
	}
}
