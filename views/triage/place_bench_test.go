package triage

import (
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// legacySet is how the board placed a part's answer before rows waited
// for settle: each new row put into the order at once (a binary search
// and an insert that moves every row after it), or one merge when the
// old and new rows were more than 16. It is the benchmark's "before" and
// the order the board must keep.
func legacySet(b *board, key, gid string, items []Item, now time.Time) {
	id := partID{key, gid}
	if sameItems(b.parts[id], items) {
		return
	}
	fresh := make([]*boardRow, len(items))
	for i, it := range items {
		fresh[i] = b.newRow(it, now)
	}
	legacyReplace(b, id, fresh)
}

// legacyReplace places a part's rows as legacySet did, the rows made
// (the board's books kept as replace keeps them).
func legacyReplace(b *board, id partID, fresh []*boardRow) {
	old := b.swap(id, fresh)
	for _, r := range fresh {
		r.placed = true
	}
	if len(old)+len(fresh) <= 16 {
		for _, r := range old {
			i, _ := slices.BinarySearchFunc(b.sorted, r, cmpRows)
			for ; i < len(b.sorted); i++ {
				if b.sorted[i] == r {
					b.sorted = slices.Delete(b.sorted, i, i+1)
					break
				}
			}
		}
		for _, r := range fresh {
			i, _ := slices.BinarySearchFunc(b.sorted, r, cmpRows)
			b.sorted = slices.Insert(b.sorted, i, r)
		}
		return
	}
	gone := make(map[*boardRow]bool, len(old))
	for _, r := range old {
		gone[r] = true
	}
	kept := slices.DeleteFunc(b.sorted, func(r *boardRow) bool { return gone[r] })
	slices.SortFunc(fresh, cmpRows)
	n := len(kept)
	all := slices.Grow(kept, len(fresh))[:n+len(fresh)]
	for i, j, k := n-1, len(fresh)-1, len(all)-1; j >= 0; k-- {
		if i >= 0 && cmpRows(all[i], fresh[j]) > 0 {
			all[k], i = all[i], i-1
		} else {
			all[k], j = fresh[j], j-1
		}
	}
	b.sorted = all
}

func rowKeys(rows []*boardRow) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.key
	}
	return out
}

// The order settle makes is the order the rows placed one by one made,
// whatever the answers between two reads of the board: random answers
// (few rows, many, none, the same again) of random parts, the board read
// after a random number of them.
func TestSettleKeepsTheOrderOfRowsPlacedOneByOne(t *testing.T) {
	for seed := range uint64(8) {
		s := newSynth(40, seed)
		kept, legacy := newBoard(), newBoard()
		for step := range 400 {
			key := []string{keyAlerts, keyRest, keyAuth}[s.rng.IntN(3)]
			pr := s.p.projects[s.rng.IntN(len(s.p.projects))]
			most := 5
			if s.rng.IntN(10) == 0 {
				most = 30
			}
			items := s.items(key, pr, most)
			kept.set(key, pr.ID, items, s.now)
			legacySet(legacy, key, pr.ID, items, s.now)
			if s.rng.IntN(6) == 0 {
				kept.settle()
				require.Equal(t, rowKeys(legacy.sorted), rowKeys(kept.sorted), "seed %d step %d", seed, step)
				require.Len(t, kept.sorted, kept.total(), "seed %d step %d: counts", seed, step)
			}
		}
	}
}

// BenchmarkTriagePlace5000 is placing the rows of a board of 5,000
// projects (4 alert rows and 4 other rows each: 40,000 rows), before
// (each row put into the order as its answer came: legacyReplace) and
// after (rows wait and settle places them: replace, settle), side by
// side:
//
//   - fill: every project's alerts and rest into an empty board, the
//     board read (settled) every 100 answers, more often than the pane
//     reads it during a round (once a second at most);
//   - refresh: a round of alerts answers each changing one row of its
//     project, on the full board, read every 100 answers;
//   - one: answers changing one row each, the board read after each (an
//     answer outside a round: the most one answer costs), 100 of them.
//
// Figures are time per answer (the rows made before the timer runs, and
// the garbage collected then). Left out: comparing an answer with what the
// board holds and making its rows' cells (the same before and after:
// made before the timer runs), the table given the rows and its frame,
// the requests and their decoding.
//
//	go test ./views/triage/ -run '^$' -bench TriagePlace5000 -benchtime 3x
func BenchmarkTriagePlace5000(b *testing.B) {
	const projects, readEvery = 5000, 100
	s := newSynth(projects, 1)
	ways := []struct {
		name    string
		replace func(*board, partID, []*boardRow)
		read    func(*board)
	}{
		{"before", legacyReplace, func(*board) {}},
		{"after", (*board).replace, (*board).settle},
	}
	// rows are the rows of answers: project i's part key, at variant.
	rows := func(bd *board, ids []partID, variant int) [][]*boardRow {
		out := make([][]*boardRow, len(ids))
		for n, id := range ids {
			i := slices.IndexFunc(s.p.projects, func(p Project) bool { return p.ID == id.gid })
			for _, it := range fixedAnswer(s, id.key, i, variant).Value.Items {
				out[n] = append(out[n], bd.newRow(it, s.now))
			}
		}
		return out
	}
	var fill, alerts []partID
	for _, pr := range s.p.projects {
		fill = append(fill, partID{keyAlerts, pr.ID}, partID{keyRest, pr.ID})
		alerts = append(alerts, partID{keyAlerts, pr.ID})
	}
	// run places the answers' rows the way w does, reading the board
	// every readEvery answers and after the last.
	run := func(w int, bd *board, ids []partID, rs [][]*boardRow, every int) {
		for n, id := range ids {
			ways[w].replace(bd, id, rs[n])
			if n%every == every-1 {
				ways[w].read(bd)
			}
		}
		ways[w].read(bd)
	}
	for w, way := range ways {
		b.Run("fill/"+way.name, func(b *testing.B) {
			placeTimed(b, len(fill), func() {
				b.StopTimer()
				bd := newBoard()
				rs := rows(bd, fill, 0)
				runtime.GC()
				b.StartTimer()
				run(w, bd, fill, rs, readEvery)
				if len(bd.sorted) != projects*(benchAlerts+benchRest) {
					b.Fatalf("%d rows", len(bd.sorted))
				}
			})
		})
	}
	for w, way := range ways {
		b.Run("refresh/"+way.name, func(b *testing.B) {
			bd := newBoard()
			run(w, bd, fill, rows(bd, fill, 0), readEvery)
			variant := 0
			placeTimed(b, len(alerts), func() {
				b.StopTimer()
				variant++
				rs := rows(bd, alerts, variant)
				runtime.GC()
				b.StartTimer()
				run(w, bd, alerts, rs, readEvery)
			})
		})
	}
	for w, way := range ways {
		b.Run("one/"+way.name, func(b *testing.B) {
			bd := newBoard()
			run(w, bd, fill, rows(bd, fill, 0), readEvery)
			variant := 0
			placeTimed(b, readEvery, func() {
				b.StopTimer()
				variant++
				ids := make([]partID, readEvery)
				for n := range ids {
					ids[n] = alerts[(variant*readEvery+n*37)%projects]
				}
				rs := rows(bd, ids, variant)
				runtime.GC()
				b.StartTimer()
				run(w, bd, ids, rs, 1)
			})
		})
	}
}

// placeTimed reports the op's time per answer (n a op); the op stops the
// timer for what it leaves out.
func placeTimed(b *testing.B, n int, run func()) {
	b.ResetTimer()
	for range b.N {
		run()
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/answer")
	b.ReportMetric(0, "ns/op")
}
