package triage

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/components"
)

// The board's rows, kept as answers arrive rather than rebuilt from every
// project's parts on each answer (at 1,000 projects the board takes tens
// of answers a second, most of them unchanged):
//
//   - an answer equal to what the board holds for that part (compared
//     item by item) changes nothing and costs nothing more;
//   - an answer that differs takes that part's old rows out and makes
//     its new ones, a cost that follows that part's rows only: the rows
//     wait, unsorted, and leave the order, until the board is next read
//     (the table given its rows: once a second at most during a round);
//     then one pass places them all (settle), the waiting rows sorted
//     among themselves and merged into the order, the ones gone cut out,
//     never sorting the board again nor moving its rows once per row;
//   - a row's cells are made once, when its item arrives: WHERE fitted to
//     its column (again only when the column's width changes), the age
//     written again only when its text changes (ageUntil).
//
// The order is the board's: by severity, then newest first, then by key.

// boardRow is one item on the board with its row, made when it arrived.
type boardRow struct {
	it       Item
	key      string
	rank     int
	where    string    // the whole "org › project › cluster"
	fitW     int       // the width WHERE was fitted to
	ageUntil time.Time // when the age written in the row changes; zero: it has none
	row      components.Row
	// placed: the row is in the board's order (sorted), not waiting in
	// its adds; out: it left the board.
	placed, out bool
}

// partID names one project's part (keyAlerts, keyRest, keyAuth).
type partID struct{ key, gid string }

// board is every row of the board, most urgent first.
type board struct {
	parts map[partID][]*boardRow
	// sorted is the order as last settled; adds the rows made since, in
	// the order they came; outs the rows of sorted gone since (settle
	// brings them into sorted, cut them out of it).
	sorted, adds, outs []*boardRow
	byKey              map[string]*boardRow
	counts             map[Kind]int
	whereW             int
	// nextAge is the earliest ageUntil of the rows: before it no age
	// on the board changes.
	nextAge time.Time
	// version counts the changes of the rows.
	version uint64
}

func newBoard() *board {
	return &board{parts: map[partID][]*boardRow{}, byKey: map[string]*boardRow{}, counts: map[Kind]int{}}
}

// sinceEpoch is a fixed instant after any Since the board holds: SINCE
// sorts by the time from Since to it, which orders the rows as their
// ages do (a row without Since last) without depending on now.
var sinceEpoch = time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC)

// cmpRows orders the board: by severity, then newest first, then by key.
func cmpRows(a, b *boardRow) int {
	if d := a.rank - b.rank; d != 0 {
		return d
	}
	if c := b.it.Since.Compare(a.it.Since); c != 0 {
		return c
	}
	return strings.Compare(a.key, b.key)
}

// sameItems reports whether a part's answer holds what the board shows
// of it: the same items in the same order.
func sameItems(held []*boardRow, items []Item) bool {
	if len(held) != len(items) {
		return false
	}
	for i, r := range held {
		if !sameItem(r.it, items[i]) {
			return false
		}
	}
	return true
}

func sameItem(a, b Item) bool {
	if !a.Since.Equal(b.Since) || (a.AckUntil == nil) != (b.AckUntil == nil) || a.AckUntil != nil && !a.AckUntil.Equal(*b.AckUntil) {
		return false
	}
	a.Since, b.Since, a.AckUntil, b.AckUntil = time.Time{}, time.Time{}, nil, nil
	return a == b
}

// set makes the board hold items as the part (key, gid): nothing happens
// when it holds them already (false); else the part's old rows leave the
// order and its new ones are placed (true).
func (b *board) set(key, gid string, items []Item, now time.Time) bool {
	id := partID{key, gid}
	old := b.parts[id]
	if sameItems(old, items) {
		return false
	}
	fresh := make([]*boardRow, len(items))
	for i, it := range items {
		fresh[i] = b.newRow(it, now)
	}
	b.replace(id, fresh)
	return true
}

// replace makes fresh the part's rows, in place of the ones it had: they
// wait for settle to place them.
func (b *board) replace(id partID, fresh []*boardRow) {
	old := b.swap(id, fresh)
	for _, r := range old {
		r.out = true
		if r.placed {
			b.outs = append(b.outs, r)
		}
	}
	b.adds = append(b.adds, fresh...)
}

// swap makes fresh the part's rows in the board's books (its parts, keys,
// counts, next age) and returns the rows it had.
func (b *board) swap(id partID, fresh []*boardRow) []*boardRow {
	b.version++
	old := b.parts[id]
	if len(fresh) == 0 {
		delete(b.parts, id)
	} else {
		b.parts[id] = fresh
	}
	for _, r := range old {
		b.counts[r.it.Kind]--
		if b.byKey[r.key] == r {
			delete(b.byKey, r.key)
		}
	}
	for _, r := range fresh {
		b.counts[r.it.Kind]++
		b.byKey[r.key] = r
		if !r.ageUntil.IsZero() && (b.nextAge.IsZero() || r.ageUntil.Before(b.nextAge)) {
			b.nextAge = r.ageUntil
		}
	}
	return old
}

// settle brings the rows placed and taken out since into the order: the
// ones gone cut out (a binary search each, then one pass moving the rows
// between them), the new ones sorted among themselves and merged in (a
// binary search each, then one pass from the end moving the rows between
// them). Its cost follows the rows that changed and one pass over the
// board, however many answers they came in.
func (b *board) settle() {
	if len(b.outs) > 0 {
		at := make([]int, 0, len(b.outs))
		for _, r := range b.outs {
			i, _ := slices.BinarySearchFunc(b.sorted, r, cmpRows)
			for b.sorted[i] != r {
				i++
			}
			at = append(at, i)
		}
		slices.Sort(at)
		n := at[0]
		for k, i := range at {
			end := len(b.sorted)
			if k+1 < len(at) {
				end = at[k+1]
			}
			n += copy(b.sorted[n:], b.sorted[i+1:end])
		}
		clear(b.sorted[n:])
		b.sorted = b.sorted[:n]
		clear(b.outs)
		b.outs = b.outs[:0]
	}
	if len(b.adds) == 0 {
		return
	}
	fresh := slices.DeleteFunc(b.adds, func(r *boardRow) bool { return r.out })
	slices.SortStableFunc(fresh, cmpRows)
	n := len(b.sorted)
	all := slices.Grow(b.sorted, len(fresh))[:n+len(fresh)]
	// From the end: each new row goes after the rows of the order that
	// are not greater (a binary search among those not yet moved), the
	// rows after it moved up in one copy.
	i, k := n, len(all)
	for j := len(fresh) - 1; j >= 0; j-- {
		r := fresh[j]
		at, _ := slices.BinarySearchFunc(all[:i], r, func(x, r *boardRow) int {
			if cmpRows(x, r) > 0 {
				return 1
			}
			return -1
		})
		k -= i - at
		copy(all[k:], all[at:i])
		k--
		all[k] = r
		i = at
	}
	for _, r := range fresh {
		r.placed = true
	}
	b.sorted = all
	clear(b.adds[:cap(b.adds)])
	b.adds = b.adds[:0]
}

// newRow makes an item's row: its cells, WHERE fitted and the age at now.
func (b *board) newRow(it Item, now time.Time) *boardRow {
	r := &boardRow{it: it, key: it.Key(), rank: severityRank(it.Severity), where: it.Where(), fitW: b.whereW}
	what := it.What
	if it.Stale {
		what = "(stale) " + what
	}
	var age string
	age, r.ageUntil = ageAt(it.Since, now)
	sinceKey := ""
	if it.Since.IsZero() {
		sinceKey = strings.Repeat("9", 20) // after every age
	} else {
		sinceKey = fmt.Sprintf("%020d", sinceEpoch.Sub(it.Since))
	}
	r.row = components.Row{ID: r.key, Class: string(it.Severity), Cells: []string{
		string(it.Severity), string(it.Kind), fitWhere(r.where, b.whereW), what, age,
		fmt.Sprintf("%d", r.rank), sinceKey, "", r.where}}
	return r
}

// ageAt is the age the row shows at now and when that text changes.
func ageAt(since, now time.Time) (string, time.Time) {
	if since.IsZero() {
		return "", time.Time{}
	}
	d := now.Sub(since)
	var unit time.Duration
	switch {
	case d < 0:
		return components.Age(d), since
	case d < time.Minute:
		unit = time.Second
	case d < time.Hour:
		unit = time.Minute
	case d < 48*time.Hour:
		unit = time.Hour
	default:
		unit = 24 * time.Hour
	}
	return components.Age(d), since.Add((d/unit + 1) * unit)
}

// refresh writes again what changed since the rows were made: the ages
// whose text changed by now and, when the column's width w differs from
// the one WHERE was fitted to, WHERE. It reports whether a row changed.
func (b *board) refresh(now time.Time, w int) bool {
	b.settle()
	refit := w != b.whereW
	b.whereW = w
	if !refit && (b.nextAge.IsZero() || now.Before(b.nextAge)) {
		return false
	}
	changed := false
	b.nextAge = time.Time{}
	for _, r := range b.sorted {
		fitOld := r.fitW != w
		ageOld := !r.ageUntil.IsZero() && !now.Before(r.ageUntil)
		if fitOld || ageOld {
			cells := slices.Clone(r.row.Cells) // the table may hold the old ones
			if fitOld {
				r.fitW = w
				cells[2] = fitWhere(r.where, w)
			}
			if ageOld {
				cells[4], r.ageUntil = ageAt(r.it.Since, now)
			}
			if !slices.Equal(cells, r.row.Cells) {
				r.row.Cells, changed = cells, true
			}
		}
		if !r.ageUntil.IsZero() && (b.nextAge.IsZero() || r.ageUntil.Before(b.nextAge)) {
			b.nextAge = r.ageUntil
		}
	}
	return changed
}

// items is every item on the board, in its order.
func (b *board) items() []Item {
	b.settle()
	out := make([]Item, len(b.sorted))
	for i, r := range b.sorted {
		out[i] = r.it
	}
	return out
}

// appendRows appends the board's rows, in its order.
func (b *board) appendRows(rows []components.Row) []components.Row {
	b.settle()
	for _, r := range b.sorted {
		rows = append(rows, r.row)
	}
	return rows
}

// lookup is the item of the row with that key.
func (b *board) lookup(key string) (Item, bool) {
	if r, ok := b.byKey[key]; ok {
		return r.it, true
	}
	return Item{}, false
}

// agesDue reports whether an age the rows show has changed by now.
func (b *board) agesDue(now time.Time) bool {
	return !b.nextAge.IsZero() && !now.Before(b.nextAge)
}

// partsOf is the pane's answers of one part, by group id.
func (p *Pane) partsOf(key string) map[string]partResult {
	switch key {
	case keyAlerts:
		return p.alerts
	case keyAuth:
		return p.auth
	}
	return p.rest
}

// place makes the board hold what the pane holds of one project's part
// (nothing of a project the caller may not read) and reports whether its
// rows changed. A project just found hidden leaves the board whole.
func (p *Pane) place(key, gid string) bool {
	if p.hidden[gid] {
		changed := false
		for _, k := range []string{keyAlerts, keyRest, keyAuth} {
			changed = p.b.set(k, gid, nil, p.Ctx.Now()) || changed
		}
		return changed
	}
	return p.b.set(key, gid, p.partsOf(key)[gid].Items, p.Ctx.Now())
}

// resync makes the board hold every part the pane holds (after the
// hidden projects changed); the next answer shows it.
func (p *Pane) resync() {
	for _, key := range []string{keyAlerts, keyRest, keyAuth} {
		for gid := range p.partsOf(key) {
			p.place(key, gid)
		}
	}
	p.boardDirty = true
}

// total is the number of rows the kinds' counts add up to.
func (b *board) total() int {
	n := 0
	for _, c := range b.counts {
		n += c
	}
	return n
}

// flushEvery is how often, at most, answers that changed the board
// during a round give the table its rows: the table takes every row
// again (its id index, its cells checked), which at thousands of rows is
// worth doing once for the answers of a second, not for each.
const flushEvery = time.Second

// flushNow reports whether the board's changes go to the table now: the
// round of this part is in, or the last time was flushEvery ago. Else
// they go with a later answer, the round's last or the next poll.
func (p *Pane) flushNow(key string) bool {
	return p.pending[key] == 0 || p.Ctx.WallNow().Sub(p.flushed) >= flushEvery
}
