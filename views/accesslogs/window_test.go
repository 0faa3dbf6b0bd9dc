package accesslogs

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

var t0 = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// event is one attempt on the simulated server: it happened at (ms
// precision), is reported with a second-resolution timestamp and becomes
// visible at arrives.
type event struct {
	at, arrives time.Time
	log         apiclient.AccessLog
}

func mkEvent(at time.Time, lag time.Duration, id string) event {
	return event{at: at, arrives: at.Add(lag), log: apiclient.AccessLog{
		Timestamp: at.UTC().Format("Mon Jan 02 2006 15:04:05 GMT-0700 (MST)"), AuthResult: true,
		Hostname: "h1", Username: "u", IPAddress: "10.0.0.1", LogLine: id,
	}}
}

// fakeServer answers queries like the service: records visible by now with
// start <= at <= end, newest first (equal ones in a random order), at most
// min(nLogs, limit).
type fakeServer struct {
	events []event
	now    time.Time
	limit  int // 0: none
	rnd    *rand.Rand
	asked  []Query
}

func (s *fakeServer) answer(q Query) []apiclient.AccessLog {
	s.asked = append(s.asked, q)
	var hits []event
	for _, e := range s.events {
		if !e.arrives.After(s.now) && !e.at.Before(q.Start) && !e.at.After(q.End) {
			hits = append(hits, e)
		}
	}
	if s.rnd != nil {
		// Records sharing a timestamp come in any order.
		s.rnd.Shuffle(len(hits), func(i, j int) { hits[i], hits[j] = hits[j], hits[i] })
		slices.SortStableFunc(hits, func(a, b event) int { return b.at.Truncate(time.Second).Compare(a.at.Truncate(time.Second)) })
	} else {
		slices.SortStableFunc(hits, func(a, b event) int { return b.at.Compare(a.at) })
	}
	n := q.NLogs
	if s.limit > 0 && s.limit < n {
		n = s.limit
	}
	var out []apiclient.AccessLog
	for _, e := range hits[:min(n, len(hits))] {
		out = append(out, e.log)
	}
	return out
}

// poll runs one round against s with the dashboard's clock at now.
func poll(w *Window, s *fakeServer, now time.Time) (fresh []Record, gaps []Gap, truncated bool) {
	q := w.Begin(now)
	for {
		st := w.Add(q, s.answer(q), now)
		if st.Next != nil {
			q = *st.Next
			continue
		}
		w.NoteClock(now)
		if st.Gap != nil {
			gaps = append(gaps, *st.Gap)
		}
		return st.Fresh, gaps, st.Truncated
	}
}

func lines(rs []Record) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.LogLine)
	}
	return out
}

func TestWindowTable(t *testing.T) {
	sec := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Second) }
	type pollAt struct {
		server, dash time.Time
		want         []string
	}
	cases := []struct {
		name   string
		events []event
		limit  int
		polls  []pollAt
	}{
		{
			name:   "overlapping polls show each record once, settled ones after the lag",
			events: []event{mkEvent(sec(1), 0, "a"), mkEvent(sec(2), 0, "b"), mkEvent(sec(3), 0, "c"), mkEvent(sec(12), 0, "d")},
			polls: []pollAt{
				{server: sec(5), dash: sec(5), want: []string{"a", "b", "c"}},
				{server: sec(10), dash: sec(10), want: nil},
				{server: sec(15), dash: sec(15), want: nil}, // d is newer than now minus the lag
				{server: sec(20), dash: sec(20), want: []string{"d"}},
			},
		},
		{
			name: "equal timestamps split across polls",
			events: []event{
				mkEvent(sec(5).Add(100*time.Millisecond), 0, "a"),
				mkEvent(sec(5).Add(600*time.Millisecond), 0, "b"),
				mkEvent(sec(5).Add(900*time.Millisecond), 0, "c"),
			},
			polls: []pollAt{
				{server: sec(5).Add(700 * time.Millisecond), dash: sec(5), want: []string{"a", "b"}},
				{server: sec(6), dash: sec(6), want: []string{"c"}},
			},
		},
		{
			name: "identical records are two attempts, kept both",
			events: []event{
				mkEvent(sec(5), 0, "same"), mkEvent(sec(5), 0, "same"), mkEvent(sec(5), 3*time.Second, "same"),
			},
			polls: []pollAt{
				{server: sec(6), dash: sec(6), want: []string{"same", "same"}},
				{server: sec(9), dash: sec(9), want: []string{"same"}},
				{server: sec(20), dash: sec(20), want: nil},
			},
		},
		{
			name:   "late record inside the overlap is not skipped",
			events: []event{mkEvent(sec(10), 0, "early"), mkEvent(sec(8), 30*time.Second, "late"), mkEvent(sec(20), 0, "next")},
			polls: []pollAt{
				{server: sec(21), dash: sec(21), want: []string{"early", "next"}},
				{server: sec(40), dash: sec(40), want: []string{"late"}},
			},
		},
		{
			name:   "server clock three hours ahead",
			events: []event{mkEvent(sec(1), 0, "a"), mkEvent(sec(7), 0, "b")},
			polls: []pollAt{
				{server: sec(2), dash: sec(2).Add(-3 * time.Hour), want: []string{"a"}},
				{server: sec(9), dash: sec(9).Add(-3 * time.Hour), want: []string{"b"}},
			},
		},
		{
			name:   "server clock three hours behind",
			events: []event{mkEvent(sec(1), 0, "a"), mkEvent(sec(7), 0, "b")},
			polls: []pollAt{
				{server: sec(2), dash: sec(2).Add(3 * time.Hour), want: []string{"a"}},
				{server: sec(9), dash: sec(9).Add(3 * time.Hour), want: []string{"b"}},
			},
		},
		{
			name:   "a server that returns fewer than asked is paged back",
			events: []event{mkEvent(sec(1), 0, "a"), mkEvent(sec(3), 0, "b"), mkEvent(sec(4), 0, "c"), mkEvent(sec(5), 0, "d"), mkEvent(sec(6), 0, "e")},
			limit:  2,
			polls: []pollAt{
				{server: sec(2), dash: sec(2), want: []string{"a"}},
				{server: sec(7), dash: sec(7), want: []string{"b", "c", "d", "e"}},
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := &fakeServer{events: tc.events, limit: tc.limit, now: tc.polls[0].server}
			w := NewWindow(time.Hour, tc.polls[0].dash)
			if tc.polls[0].dash.After(tc.polls[0].server) {
				// The dashboard is ahead: its since window must still reach
				// back over the server's records.
				w.Reset(4*time.Hour, tc.polls[0].dash)
			}
			for i, p := range tc.polls {
				s.now = p.server
				fresh, gaps, _ := poll(w, s, p.dash)
				assert.Equal(t, p.want, lines(fresh), "poll %d", i)
				assert.Empty(t, gaps, "poll %d", i)
			}
		})
	}
}

// Every poll after the first starts at the newest record minus the overlap,
// whatever the dashboard's clock says, and end is never before start.
func TestWindowQueriesFollowServerTime(t *testing.T) {
	s := &fakeServer{events: []event{mkEvent(t0, 0, "a")}, now: t0.Add(time.Second)}
	dash := t0.Add(-10 * time.Hour) // far behind the server
	w := NewWindow(24*time.Hour, dash)
	poll(w, s, dash)
	q := w.Begin(dash)
	assert.True(t, t0.Add(-DefaultOverlap).Equal(q.Start), "start %s", q.Start)
	assert.True(t, q.End.After(t0), "end %s must be past the newest record", q.End)
	assert.Equal(t, apiclient.MaxAccessLogs, q.NLogs)
	require.NoError(t, q.Options().Validate())
}

// A page that cannot get past one crowded second, or too many pages, is a
// reported gap, never a silent one.
func TestWindowReportsGaps(t *testing.T) {
	sec := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Second) }
	crowded := []event{mkEvent(sec(1), 0, "seed")}
	for i := range 5 {
		crowded = append(crowded, mkEvent(sec(9), 0, fmt.Sprint("c", i)))
	}
	crowded = append(crowded, mkEvent(sec(5), 0, "hidden"))
	s := &fakeServer{events: crowded[:1], now: sec(2), limit: 3}
	w := NewWindow(time.Hour, sec(2))
	poll(w, s, sec(2))
	s.events, s.now = crowded, sec(10)
	_, gaps, _ := poll(w, s, sec(10))
	require.Len(t, gaps, 1)
	assert.True(t, !gaps[0].From.After(sec(1)) && gaps[0].To.Equal(sec(9)), "gap %v", gaps[0])

	var many []event
	for i := range 50 {
		many = append(many, mkEvent(sec(100+i), 0, fmt.Sprint("m", i)))
	}
	s2 := &fakeServer{events: []event{mkEvent(sec(1), 0, "seed")}, now: sec(2), limit: 5}
	w2 := NewWindow(time.Hour, sec(2))
	w2.MaxPages = 3
	poll(w2, s2, sec(2))
	s2.events, s2.now = append(s2.events, many...), sec(200)
	fresh, gaps, _ := poll(w2, s2, sec(200))
	require.Len(t, gaps, 1)
	assert.False(t, gaps[0].From.After(sec(1)), "gap %v", gaps[0])
	assert.Len(t, fresh, 13, "three pages of five, sharing a boundary second each")
}

// Loading the since window stops after FirstPages full answers.
func TestWindowFirstLoadTruncates(t *testing.T) {
	var evs []event
	for i := range 30 {
		evs = append(evs, mkEvent(t0.Add(time.Duration(i)*time.Second), 0, fmt.Sprint(i)))
	}
	s := &fakeServer{events: evs, now: t0.Add(time.Minute)}
	w := NewWindow(time.Hour, s.now)
	w.NLogs, w.FirstPages = 10, 2
	fresh, gaps, truncated := poll(w, s, s.now)
	assert.True(t, truncated)
	assert.Empty(t, gaps)
	assert.Len(t, fresh, 19) // two pages of ten sharing one second
	assert.Equal(t, "29", fresh[len(fresh)-1].LogLine, "oldest first, newest last")
}

// Property: for random streams (bursts, equal timestamps, identical records,
// late arrivals within the overlap), random poll intervals, clock skew either
// way and servers that cap their answers, the records shown are exactly the
// records of the window: no duplicate, no gap.
func TestWindowPropertyNoDuplicateNoGap(t *testing.T) {
	for seed := range uint64(300) {
		rnd := rand.New(rand.NewPCG(seed, 99))
		skew := time.Duration(rnd.IntN(6*3600)-3*3600) * time.Second
		lagMax := time.Duration(rnd.IntN(60)) * time.Second
		limit := 0
		if rnd.IntN(2) == 0 {
			limit = 16 + rnd.IntN(30) // more than one second ever holds
		}
		start := t0
		var evs []event
		at := start.Add(time.Second)
		for range 200 + rnd.IntN(400) {
			at = at.Add(time.Duration(rnd.IntN(2500)) * time.Millisecond)
			n := 1
			if rnd.IntN(10) == 0 {
				n = 2 + rnd.IntN(6) // a burst within one second
			}
			for range n {
				id := fmt.Sprint(len(evs))
				if rnd.IntN(15) == 0 && len(evs) > 0 {
					id = evs[len(evs)-1].log.LogLine // an identical twin
					evs = append(evs, mkEvent(evs[len(evs)-1].at, time.Duration(rnd.Int64N(int64(lagMax)+1)), id))
					continue
				}
				lag := time.Duration(rnd.Int64N(int64(lagMax) + 1))
				evs = append(evs, mkEvent(at.Add(time.Duration(rnd.IntN(1000))*time.Millisecond), lag, id))
			}
		}
		s := &fakeServer{events: evs, now: start, limit: limit, rnd: rnd}
		w := NewWindow(time.Duration(4+rnd.IntN(3))*time.Hour, start.Add(-skew))
		w.MaxPages, w.FirstPages = 1<<20, 1<<20
		w.Lag = lagMax + time.Second // learning it is TestWindowLearnsTheLag's
		var shown []string
		for s.now.Before(at.Add(lagMax + 2*time.Minute)) {
			fresh, gaps, truncated := poll(w, s, s.now.Add(-skew))
			if len(gaps) > 0 || truncated {
				t.Fatalf("seed %d: gap %v, truncated %v", seed, gaps, truncated)
			}
			shown = append(shown, lines(fresh)...)
			s.now = s.now.Add(time.Duration(1+rnd.IntN(90)) * time.Second)
		}
		var want []string
		for _, e := range evs {
			want = append(want, e.log.LogLine)
		}
		slices.Sort(shown)
		slices.Sort(want)
		if !slices.Equal(shown, want) {
			t.Fatalf("seed %d (skew %s, lag %s, limit %d): shown %d records, want %d", seed, skew, lagMax, limit, len(shown), len(want))
		}
	}
}

// The lag is learned: a window that starts by believing records show up
// within a second, on a stream whose records take up to 20 s, measures it
// on its first poll after the load (and, later, in its probe) and misses
// nothing.
func TestWindowLearnsTheLag(t *testing.T) {
	const maxLag = 20 * time.Second
	rnd := rand.New(rand.NewPCG(7, 7))
	var evs []event
	for i := range 3000 {
		at := t0.Add(time.Duration(i) * 400 * time.Millisecond)
		evs = append(evs, mkEvent(at, time.Duration(rnd.Int64N(int64(maxLag))), fmt.Sprint(i)))
	}
	s := &fakeServer{events: evs, now: t0.Add(2 * time.Minute)}
	w := NewWindow(time.Hour, s.now)
	w.Lag = time.Second
	shown := map[string]bool{}
	for s.now.Before(t0.Add(19 * time.Minute)) {
		fresh, gaps, _ := poll(w, s, s.now)
		require.Empty(t, gaps)
		for _, r := range fresh {
			require.False(t, shown[r.LogLine], "record %s shown twice", r.LogLine)
			shown[r.LogLine] = true
		}
		s.now = s.now.Add(5 * time.Second)
	}
	assert.GreaterOrEqual(t, w.Lag, maxLag/2, "the lag was learned")
	assert.LessOrEqual(t, w.Lag, maxLag*5/4+time.Second, "the lag learned is what was seen and a quarter")
	missed := 0
	for _, e := range evs {
		if !shown[e.log.LogLine] && e.at.Before(w.settled) {
			missed++
		}
	}
	assert.Zero(t, missed, "records missed")
	assert.Greater(t, len(shown), 2500)
}

// On a steady stream a poll re-reads only its probe: the records received
// are at most 20% more than the new ones, where a fixed two-minute overlap
// re-read 24 times as many as it brought.
func TestWindowRereadsLittleOnASteadyStream(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 3))
	var evs []event
	for i := range 6000 {
		// About 1.3 records a second, visible 0 to 4 s after they happen.
		at := t0.Add(time.Duration(i)*750*time.Millisecond + time.Duration(rnd.IntN(500))*time.Millisecond)
		evs = append(evs, mkEvent(at, time.Duration(rnd.IntN(4000))*time.Millisecond, fmt.Sprint(i)))
	}
	s := &fakeServer{events: evs, now: t0.Add(5 * time.Minute)}
	w := NewWindow(time.Hour, s.now)
	for range 2 { // the load and the poll that measures the lag
		poll(w, s, s.now)
		s.now = s.now.Add(5 * time.Second)
	}
	read0, fresh0 := w.Counts()
	for range 600 {
		poll(w, s, s.now)
		s.now = s.now.Add(5 * time.Second)
	}
	read, fresh := w.Counts()
	read, fresh = read-read0, fresh-fresh0
	t.Logf("600 polls: %d records received, %d new (%.1f%% re-read)", read, fresh, 100*float64(read-fresh)/float64(fresh))
	require.Positive(t, fresh)
	assert.LessOrEqual(t, float64(read-fresh), 0.2*float64(fresh), "re-read %d for %d new", read-fresh, fresh)
}
