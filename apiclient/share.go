package apiclient

import (
	"math"
	"sort"
	"strings"
	"time"

	"golang.org/x/time/rate"
)

// A bucket is the service's, not the client's: teammates, Terraform and the
// cloud's CLI spend the same organization's, project's or user's tokens.
// budgetShare finds out how much of a bucket others spend, from what the
// server says remains: over a window of some seconds (shareWindow), the tokens
// the bucket lost (what remained at the start, plus the refill, minus what
// remains now) less the requests of ours the server answered in it are
// someone else's. A window in which the bucket may have been full is not
// judged (a full bucket wastes its refill, which would read as spending).
// While others spend, the bucket is paced at what they leave, and
// Scheduler.Sharing says so.

// shareWindow is the shortest window judged: long enough for ten tokens'
// refill, and at least a second.
func shareWindow(refill float64) time.Duration {
	return max(time.Second, time.Duration(10/refill*float64(time.Second)))
}

// shareHold is how long sharing is assumed after the last window that
// showed it.
const shareHold = 2 * time.Minute

type budgetShare struct {
	start     time.Time // the window's start; zero: none open
	remaining int       // what the server said remained then
	ours      int       // our requests the server answered since
	// full: the bucket may have filled up in the window (between two
	// answers it had time to); prevAt, prev: the last answer's.
	full   bool
	prevAt time.Time
	prev   int
	others float64   // tokens a second others spend (smoothed); 0: none seen
	until  time.Time // sharing is assumed until then
}

// observe takes one answer's RateLimit-Remaining (b's lock held).
func (sh *budgetShare) observe(b *rateBucket, now time.Time, remaining int) {
	if !b.limit.valid() {
		return
	}
	refill := float64(b.limit.RefillRate) / float64(b.limit.RefillSeconds)
	if sh.start.IsZero() {
		sh.start, sh.remaining, sh.ours, sh.full = now, remaining, 0, false
		sh.prevAt, sh.prev = now, remaining
		return
	}
	sh.ours++
	if float64(sh.prev)+refill*now.Sub(sh.prevAt).Seconds() >= float64(b.limit.Capacity)-1 {
		sh.full = true
	}
	sh.prevAt, sh.prev = now, remaining
	el := now.Sub(sh.start)
	if el < shareWindow(refill) {
		return
	}
	if !sh.full {
		// The bucket was never full in the window: every token it lost
		// was spent. One token of slack for the rounding of Remaining.
		// Our reads still on their way were counted by the server but are
		// not answered yet: theirs too are ours, not another client's.
		spent := float64(sh.remaining) + refill*el.Seconds() - float64(remaining)
		others := max(0, spent-float64(sh.ours)-float64(b.inflight)-1) / el.Seconds()
		if others >= 0.1*refill {
			if sh.others == 0 {
				sh.others = others
			} else {
				sh.others = (sh.others + others) / 2
			}
			sh.until = now.Add(shareHold)
		}
	}
	if !sh.until.After(now) {
		sh.others = 0
	}
	sh.pace(b, now, refill)
	sh.start, sh.remaining, sh.ours, sh.full = now, remaining, 0, false
}

// pace sets the bucket's refill to what others leave (never under a tenth
// of the whole), or back to the whole once they stopped.
func (sh *budgetShare) pace(b *rateBucket, now time.Time, refill float64) {
	left := refill
	if sh.others > 0 {
		left = max(refill-sh.others, 0.1*refill)
	}
	if want := rate.Limit(refillMargin * left); b.lim.Limit() != want {
		b.lim.SetLimitAt(now, want)
	}
}

// Share is a bucket others spend too: its endpoint set, the refill of the
// whole bucket and what others take of it, in tokens a minute.
type Share struct {
	Set          string // the endpoint set (or operation) the bucket belongs to
	Name         string // a short name: "alerts" for alertsRead_group
	PerMinute    float64
	OthersPerMin float64
	// Source is the source (WithSource, else WithPriority's tag) of the
	// latest request that named one and drew from the bucket: the pane
	// whose reads it paces; empty: none known.
	Source string
}

// Sharing lists the buckets others are spending now, the largest share of
// others first.
func (s *Scheduler) Sharing() []Share {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	seen := map[string]bool{}
	var out []Share
	for b, key := range s.shared {
		if b.share.others == 0 || !b.share.until.After(now) {
			delete(s.shared, b)
			continue
		}
		if !b.limit.valid() {
			continue
		}
		set, _, _ := strings.Cut(key, "|")
		if seen[set] {
			continue
		}
		seen[set] = true
		per := 60 * float64(b.limit.RefillRate) / float64(b.limit.RefillSeconds)
		out = append(out, Share{Set: set, Name: shareName(set), PerMinute: per, OthersPerMin: 60 * b.share.others, Source: b.source})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].OthersPerMin > out[j].OthersPerMin })
	return out
}

// shareName shortens an endpoint set's id for the header: alertsRead_group
// is "alerts", projectWrite_group "project writes".
func shareName(set string) string {
	base, _, _ := strings.Cut(set, "_")
	switch {
	case strings.HasSuffix(base, "Read"):
		return strings.TrimSuffix(base, "Read")
	case strings.HasSuffix(base, "Write"):
		return strings.TrimSuffix(base, "Write") + " writes"
	}
	return base
}

// reserve is how many of the tokens the server says remain others may take
// before a request of ours arrives: what they spend in a second.
func (sh *budgetShare) reserve(now time.Time) int {
	if sh.others == 0 || !sh.until.After(now) {
		return 0
	}
	return int(math.Ceil(sh.others))
}
