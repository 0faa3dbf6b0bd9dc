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
// resolution, several records share one, and a record shows up a little
// after its timestamp (the server's lag). A poll that re-read the recent
// past to catch late records would pay for it every time: at a 5 s poll and
// a lag of a few seconds, half of every answer would be records already
// held. So the tail reads only settled time: each poll asks for the records
// from where the previous one stopped up to the server's now minus the lag
// (Lag), and what is newer waits for the next poll. The lag is learned: the
// first poll after the since window was loaded re-reads Overlap and measures
// how late the records it finds arrived; afterwards every poll re-reads a
// short Probe before where the previous one stopped, and a record found
// there raises Lag to what it showed. So a poll re-reads only the probe
// (about 10% of what it brings at a 5 s poll), and the tail shows records
// Lag after they happened. A record later than Lag plus Probe before any was
// seen that late can be missed.
//
// The server's now is taken from the caller's clock when that follows the
// server's (ServerClock: the client's Now, corrected by the Date header),
// else from the records: the dashboard's clock plus the largest difference
// seen between the newest record and it, so a skewed laptop cannot move the
// window past what the server has. Start comes from where the previous poll
// stopped.
// Records are told apart by content, counting identical records, so two
// genuine attempts that look the same are both kept.
//
// A server may return fewer records than asked (a cap, a truncated page).
// An answer is complete when it reaches back to the query's start or the
// server is known not to have cut it; otherwise the poll asks again for the
// older part, up to MaxPages, and reports a Gap if it still cannot close it.

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
	// Overlap is how far before the newest record the first poll after a
	// load re-reads to measure the lag; records seen within it are
	// remembered.
	Overlap time.Duration
	// Lag is how long after its timestamp a record is taken to be
	// visible: polls read up to the server's now minus Lag. It starts at
	// its initial value and grows to the lag observed.
	Lag time.Duration
	// Probe is how far before where the previous poll stopped each poll
	// re-reads, to observe records later than Lag.
	Probe time.Duration
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
	// ServerClock says the now passed in is the server's clock to within
	// a second (the client's Now, which follows the Date header), so
	// polls may read up to it less Lag; without it the server's now is
	// judged from its records alone.
	ServerClock bool

	floor  time.Time // start of the since window
	newest time.Time // newest timestamp seen; zero before any
	seen   map[string]seenRecord
	skew   time.Duration // how far the server's clock was seen ahead of ours
	cap    int           // how many records the server returns when it cuts an answer short; 0: not seen
	proven int           // the longest answer proven complete

	offset     time.Duration // server clock minus ours, at least: the newest record's time minus ours when it came
	offsetOK   bool          // offset was measured
	calibrated bool          // the lag was measured since the last load
	settled    time.Time     // where the previous poll stopped: all before it was read
	lastAsk    time.Time     // the server's now (as estimated) when the previous poll began
	read, kept int           // records received and records that were new, since NewWindow

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
	mode       roundMode
	asked      time.Time // the server's now (as estimated) at Begin
	end        time.Time // the first query's end
	late       time.Duration
}

// roundMode says what a poll round reads.
type roundMode int

const (
	loadRound      roundMode = iota // the since window, nothing seen yet
	calibrateRound                  // Overlap before the newest, to measure the lag
	settledRound                    // from where the previous poll stopped to now minus Lag
)

// Defaults of NewWindow.
const (
	DefaultOverlap  = 2 * time.Minute
	DefaultLag      = 5 * time.Second
	DefaultProbe    = 500 * time.Millisecond
	DefaultHorizon  = 24 * time.Hour
	DefaultMaxPages = 5
)

// NewWindow returns a window over the last since (by now).
func NewWindow(since time.Duration, now time.Time) *Window {
	w := &Window{Overlap: DefaultOverlap, Lag: DefaultLag, Probe: DefaultProbe, Horizon: DefaultHorizon, MaxPages: DefaultMaxPages, FirstPages: DefaultMaxPages, NLogs: apiclient.MaxAccessLogs}
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
	w.calibrated, w.settled, w.lastAsk = false, time.Time{}, time.Time{}
}

// Newest is the newest record time seen (zero before any).
func (w *Window) Newest() time.Time { return w.newest }

// Skew is how far the server's clock has been seen ahead of the dashboard's.
func (w *Window) Skew() time.Duration { return w.skew }

// Counts returns the records received and the records among them that were
// new, since the window was made.
func (w *Window) Counts() (read, fresh int) { return w.read, w.kept }

// Begin starts a poll round and returns its first query.
func (w *Window) Begin(now time.Time) Query {
	// srv is the server's now as far as its records prove it: never
	// past it, whichever way the clocks differ; with ServerClock, now
	// itself less a second.
	srv := w.newest
	if w.offsetOK {
		srv = later(now.Add(w.offset), w.newest)
	}
	if w.ServerClock {
		srv = later(srv, now.Add(-time.Second))
	}
	far := later(now.Add(w.skew), w.newest).Add(w.Horizon)
	r := round{active: true, prevNewest: w.newest, asked: srv}
	var start, end time.Time
	switch {
	case w.newest.IsZero():
		r.mode = loadRound
		start, end = w.floor, far
	case !w.calibrated:
		r.mode = calibrateRound
		start, end = later(w.floor, w.newest.Add(-w.Overlap)), far
	default:
		r.mode = settledRound
		start = later(w.floor, w.settled.Add(-w.Probe))
		// end is the last millisecond before the settled second, so the
		// next poll's start (end plus 1 ms) is a whole second.
		end = later(srv.Add(-w.Lag).Truncate(time.Second), w.settled).Add(-time.Millisecond)
	}
	r.end = end
	w.round = r
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
	w.read += len(batch)
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
			w.kept++
			w.noteLate(rec.At)
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
	if !first && r.pages == 1 && !r.prevNewest.Before(q.Start) && !r.prevNewest.After(q.End) &&
		oldest.After(r.prevNewest) && (w.cap == 0 || len(batch) < w.cap) {
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

// noteLate measures a new record against the previous poll: one it should
// have had (timestamped before that poll's start of settled time, or before
// that poll when it read to now) arrived at least that late.
func (w *Window) noteLate(at time.Time) {
	r := &w.round
	if at.IsZero() || w.lastAsk.IsZero() {
		return
	}
	var due bool
	switch r.mode {
	case calibrateRound:
		due = !at.After(w.lastAsk)
	case settledRound:
		due = at.Before(w.settled)
	}
	if due {
		r.late = max(r.late, w.lastAsk.Sub(at))
	}
}

// end closes the round: fresh records in time order, newest, skew and lag
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
	if r.late > 0 {
		// A record seen late arrived somewhere between two polls, so
		// its lag was more than measured: a quarter more, to the next
		// whole second.
		w.Lag = max(w.Lag, (r.late + r.late/4 + time.Second - 1).Truncate(time.Second))
	}
	switch r.mode {
	case loadRound:
	case calibrateRound:
		w.calibrated = true
		w.settled = r.asked.Add(-w.Lag).Truncate(time.Second)
	case settledRound:
		w.settled = later(w.settled, r.end.Add(time.Millisecond))
	}
	w.lastAsk = later(r.asked, r.newest)
	keep := w.newest.Add(-w.Overlap)
	if !w.settled.IsZero() {
		keep = earlier(keep, w.settled.Add(-w.Probe-time.Second))
	}
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
	if w.newest.IsZero() {
		return
	}
	d := w.newest.Sub(now)
	w.skew = max(w.skew, d)
	if !w.offsetOK || d > w.offset {
		w.offset, w.offsetOK = d, true
	}
}

func earlier(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
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
