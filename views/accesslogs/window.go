package accesslogs

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

// The window arithmetic of the tail, kept free of the UI so it can be tested
// on its own.
//
// The service has no cursor: a tail asks for records between start and end
// (epoch ms), newest first, at most nLogs. Timestamps have one-second
// resolution, several records share one, and a record may show up a little
// after its timestamp. So each poll re-reads an overlap before the newest
// record seen and drops what it has seen (counting identical records, so two
// genuine attempts that look the same are both kept). Start comes only from
// server timestamps, never from the dashboard's clock, so clock skew between
// the two cannot open a gap; end is only start's required partner and is set
// far enough ahead to cover a server clock that runs ahead.
//
// A server may return fewer records than asked (a cap, a truncated page).
// The answer is complete only when it reaches back to the newest record seen
// before the poll (the overlap guarantees it contains that record); if it
// does not, the poll asks again for the older part, up to MaxPages, and
// reports a Gap if it still cannot close it.

// Query is one request of the tail.
type Query struct {
	Start, End time.Time
	NLogs      int
}

// Options turns the query into the client's options.
func (q Query) Options() apiclient.AccessLogsOptions {
	start, end, n := q.Start, q.End, q.NLogs
	return apiclient.AccessLogsOptions{Start: &start, End: &end, NLogs: &n}
}

// Gap says records between From and To may be missing.
type Gap struct{ From, To time.Time }

// Record is one access-log entry the tail holds: the server's fields as
// received (saved as they came) and the parsed time.
type Record struct {
	apiclient.AccessLog
	At time.Time // zero when the timestamp did not parse
}

// key identifies a record's content; identical attempts share it.
func (r Record) key() string {
	var b strings.Builder
	b.Grow(len(r.Timestamp) + len(r.Hostname) + len(r.Username) + len(r.IPAddress) + len(r.LogLine) +
		len(r.FailureReason) + len(r.AuthSource) + len(r.GroupID) + 12)
	for _, s := range []string{r.Timestamp, r.Hostname, r.Username, r.IPAddress, r.AuthSource, r.FailureReason, r.GroupID, r.LogLine} {
		b.WriteString(s)
		b.WriteByte(0)
	}
	b.WriteString(strconv.FormatBool(r.AuthResult))
	return b.String()
}

// Step is what the window makes of one answer.
type Step struct {
	// Fresh are the records not seen before, oldest first; set when the
	// poll round ends (Next is nil).
	Fresh []Record
	// Next, when set, is the query that continues this poll round.
	Next *Query
	// Gap, when set, says the round could not close a gap.
	Gap *Gap
	// Truncated is set when loading the since window stopped after
	// FirstPages requests: its older records were not loaded.
	Truncated bool
}

// Window tracks what the tail has seen and what to ask next. Use NewWindow.
type Window struct {
	// Overlap is how far before the newest record each poll re-reads; a
	// record that shows up later than this after its timestamp is missed.
	Overlap time.Duration
	// Horizon is how far past the larger of the dashboard's now and the
	// newest record end is set.
	Horizon time.Duration
	// MaxPages bounds the requests of one poll round.
	MaxPages int
	// FirstPages bounds the requests that load the since window before
	// any record was seen; older records than those are not loaded
	// (Step.Truncated), since the buffer could not hold them anyway.
	FirstPages int
	// NLogs is asked of every request.
	NLogs int

	floor  time.Time // start of the since window
	newest time.Time // newest timestamp seen; zero before any
	seen   map[string]seenRecord
	skew   time.Duration // how far the server's clock was seen ahead of ours
	cap    int           // how many records the server returns when it cuts an answer short; 0: not seen
	proven int           // the longest answer proven complete

	round round
}

type seenRecord struct {
	n  int
	at time.Time
}

// round is one poll: its first query and the records it found so far.
type round struct {
	active     bool
	prevNewest time.Time
	pages      int
	fresh      []Record
	newest     time.Time
	prevLen    int // records the previous page of the round had
}

// Defaults of NewWindow.
const (
	DefaultOverlap  = 2 * time.Minute
	DefaultHorizon  = 24 * time.Hour
	DefaultMaxPages = 5
)

// NewWindow returns a window over the last since (by now).
func NewWindow(since time.Duration, now time.Time) *Window {
	w := &Window{Overlap: DefaultOverlap, Horizon: DefaultHorizon, MaxPages: DefaultMaxPages, FirstPages: DefaultMaxPages, NLogs: apiclient.MaxAccessLogs}
	w.Reset(since, now)
	return w
}

// Reset forgets everything and starts over from the last since. The since
// window is measured on the server's clock as far as the tail has seen it.
func (w *Window) Reset(since time.Duration, now time.Time) {
	w.floor = now.Add(w.skew - since).Truncate(time.Second)
	w.newest = time.Time{}
	w.seen = map[string]seenRecord{}
	w.round = round{}
}

// Newest is the newest record time seen (zero before any).
func (w *Window) Newest() time.Time { return w.newest }

// Skew is how far the server's clock has been seen ahead of the dashboard's.
func (w *Window) Skew() time.Duration { return w.skew }

// Begin starts a poll round and returns its first query.
func (w *Window) Begin(now time.Time) Query {
	start := w.floor
	if !w.newest.IsZero() {
		start = later(w.floor, w.newest.Add(-w.Overlap))
	}
	end := later(now.Add(w.skew), w.newest).Add(w.Horizon)
	w.round = round{active: true, prevNewest: w.newest}
	return Query{Start: start, End: end, NLogs: w.nLogs()}
}

func (w *Window) nLogs() int {
	if w.NLogs <= 0 || w.NLogs > apiclient.MaxAccessLogs {
		return apiclient.MaxAccessLogs
	}
	return w.NLogs
}

// Add takes the answer to q, a query of the current round (in any order
// the server chose), and says what to do next.
func (w *Window) Add(q Query, batch []apiclient.AccessLog, now time.Time) Step {
	if !w.round.active {
		w.Begin(now)
	}
	r := &w.round
	r.pages++
	counts := make(map[string]int, len(batch))
	var oldest, pageNewest time.Time
	freshHere := 0
	// The service answers newest first; walking it backwards keeps records
	// that share a timestamp in the order they happened.
	for i := len(batch) - 1; i >= 0; i-- {
		l := batch[i]
		rec := Record{AccessLog: l}
		if at, ok := l.Time(); ok {
			rec.At = at
			if oldest.IsZero() || at.Before(oldest) {
				oldest = at
			}
			if at.After(pageNewest) {
				pageNewest = at
			}
			if at.After(r.newest) {
				r.newest = at
			}
		}
		k := rec.key()
		counts[k]++
		s := w.seen[k]
		if counts[k] > s.n {
			s.n = counts[k]
			s.at = rec.At
			if rec.At.IsZero() {
				s.at = later(w.newest, r.newest)
			}
			w.seen[k] = s
			r.fresh = append(r.fresh, rec)
			freshHere++
		}
	}
	// The answer is complete when it reaches back to the query's start or
	// when the server did not cut it short; a cut one is asked again for
	// its older part, since late records may sit anywhere in the overlap.
	// Whether the server cuts (and at how many) is learned from the pages:
	// a page that finds records its predecessor should have had proves the
	// predecessor cut; one that finds nothing, and is shorter, proves it
	// complete. Until then a page longer than any proven complete is
	// checked with one more request.
	first := r.prevNewest.IsZero()
	prevLen := r.prevLen
	r.prevLen = len(batch)
	if len(batch) == 0 {
		return w.end(nil, false)
	}
	if r.pages > 1 {
		switch {
		case freshHere > 0 && (w.cap == 0 || prevLen < w.cap):
			w.cap = prevLen
		case freshHere == 0 && len(batch) < prevLen:
			w.proven = max(w.proven, prevLen)
			return w.end(nil, false) // nothing older exists
		}
	}
	if !first && r.pages == 1 && oldest.After(r.prevNewest) && (w.cap == 0 || len(batch) < w.cap) {
		// The overlap puts the newest record seen before in every
		// complete answer; this one stops short of it.
		w.cap = len(batch)
	}
	cut := len(batch) >= q.NLogs || (w.cap > 0 && len(batch) >= w.cap)
	uncut := !cut && (len(batch) < w.proven || w.cap > 0)
	switch {
	case !oldest.After(q.Start), uncut:
		return w.end(nil, false)
	case freshHere == 0 && oldest.Equal(pageNewest) && r.pages > 1:
		if cut {
			// A full page, all seen, all in one second: that second holds
			// more than the server will return.
			return w.end(&Gap{From: q.Start, To: oldest}, false)
		}
		return w.end(nil, false)
	case first && r.pages >= w.firstPages():
		return w.end(nil, true)
	case !first && r.pages >= w.MaxPages:
		return w.end(&Gap{From: q.Start, To: oldest}, false)
	}
	// Ask for the older part again; end reaches to the last millisecond
	// of the oldest second so records sharing it are all included.
	next := Query{Start: q.Start, End: oldest.Add(time.Second - time.Millisecond), NLogs: q.NLogs}
	return Step{Next: &next}
}

func (w *Window) firstPages() int { return max(w.FirstPages, 1) }

// end closes the round: fresh records in time order, newest and skew
// updated, and what is older than the overlap forgotten.
func (w *Window) end(gap *Gap, truncated bool) Step {
	r := w.round
	w.round = round{}
	slices.SortStableFunc(r.fresh, func(a, b Record) int {
		if a.At.IsZero() || b.At.IsZero() {
			return 0
		}
		return a.At.Compare(b.At)
	})
	if r.newest.After(w.newest) {
		w.newest = r.newest
	}
	keep := w.newest.Add(-w.Overlap)
	for k, s := range w.seen {
		if s.at.Before(keep) {
			delete(w.seen, k)
		}
	}
	return Step{Fresh: r.fresh, Gap: gap, Truncated: truncated}
}

// NoteClock learns how far the server's clock runs ahead of the dashboard's
// from the newest record, right after an answer arrived.
func (w *Window) NoteClock(now time.Time) {
	if d := w.newest.Sub(now); d > w.skew {
		w.skew = d
	}
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// Abort drops the current round after a failed request: its records are
// forgotten so the next round fetches them again.
func (w *Window) Abort() {
	for _, rec := range w.round.fresh {
		k := rec.key()
		s := w.seen[k]
		if s.n--; s.n <= 0 {
			delete(w.seen, k)
		} else {
			w.seen[k] = s
		}
	}
	w.round = round{}
}

// InRound reports whether a poll round is under way.
func (w *Window) InRound() bool { return w.round.active }
