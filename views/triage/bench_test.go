package triage

import (
	"fmt"
	"runtime"
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

// filled is a board of benchProjects projects with every part in, taken
// by the pane's Update (the state either path then starts from).
func filled() *synth {
	s := newSynth(benchProjects, 1)
	s.p.pending[keyAlerts], s.p.pending[keyRest] = benchProjects, benchProjects
	for i := range benchProjects {
		s.p.Update(fixedAnswer(s, keyAlerts, i, 0))
		s.p.Update(fixedAnswer(s, keyRest, i, 0))
	}
	return s
}

// perAnswer reports the op's figures per answer taken (n a op).
func perAnswer(b *testing.B, n int, run func()) {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	b.ResetTimer()
	for range b.N {
		run()
	}
	b.StopTimer()
	runtime.ReadMemStats(&m1)
	answers := float64(b.N * n)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/answers, "ns/answer")
	b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/answers, "B/answer")
	b.ReportMetric(float64(m1.Mallocs-m0.Mallocs)/answers, "allocs/answer")
}

// BenchmarkBoard1000 is the board of 1,000 projects (4 alert rows and 4
// other rows each: 8,000 rows) taking answers, before (the whole board
// rebuilt on every answer: legacyUpdate) and after (the board kept: the
// pane's Update), side by side:
//
//   - unchanged: a round of answers that change nothing, one a project,
//     during a poll (others still pending);
//   - one-changed: a round of answers each changing one row of its
//     project, each the round's last (the table is given the rows on
//     every one: the most a change costs; within a round the changes of a
//     second go together);
//   - full: the full build, every project's alerts and rest into an empty
//     board.
//
// Figures are per answer. Left out: the request and its decoding, the
// frame drawn after an answer (the table draws only the rows on screen)
// and the ages brought up to date at each poll (once a poll, not an
// answer).
//
//	go test ./views/triage/ -run '^$' -bench Board1000 -benchtime 1x
func BenchmarkBoard1000(b *testing.B) {
	for _, path := range paths {
		b.Run("unchanged/"+path.name, func(b *testing.B) {
			s := filled()
			s.p.pending[keyAlerts] = 1 << 30 // a round under way, as when polled
			answers := make([]views.Result[partResult], benchProjects)
			for i := range answers {
				answers[i] = fixedAnswer(s, keyAlerts, i, 0)
			}
			perAnswer(b, len(answers), func() {
				for _, a := range answers {
					path.take(s.p, a)
				}
			})
		})
	}
	for _, path := range paths {
		b.Run("one-changed/"+path.name, func(b *testing.B) {
			s := filled()
			variant := 0
			perAnswer(b, benchProjects, func() {
				b.StopTimer()
				variant++
				answers := make([]views.Result[partResult], benchProjects)
				for i := range answers {
					answers[i] = fixedAnswer(s, keyAlerts, i, variant)
				}
				b.StartTimer()
				for _, a := range answers {
					path.take(s.p, a)
				}
			})
		})
	}
	for _, path := range paths {
		b.Run("full/"+path.name, func(b *testing.B) {
			perAnswer(b, 2*benchProjects, func() {
				b.StopTimer()
				s := newSynth(benchProjects, 1)
				// A round: the table is given the rows with the first
				// answer and each part's last (a round that takes less
				// than flushEvery).
				s.p.pending[keyAlerts], s.p.pending[keyRest] = benchProjects, benchProjects
				answers := make([]views.Result[partResult], 0, 2*benchProjects)
				for i := range benchProjects {
					answers = append(answers, fixedAnswer(s, keyAlerts, i, 0), fixedAnswer(s, keyRest, i, 0))
				}
				b.StartTimer()
				for _, a := range answers {
					path.take(s.p, a)
				}
				if got := len(s.p.table.Rows()); got != benchProjects*(benchAlerts+benchRest) {
					b.Fatalf("%d rows", got)
				}
			})
		})
	}
}
