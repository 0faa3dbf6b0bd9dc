package apisim

import (
	"math"
	"net/http"
	"time"

	"golang.org/x/time/rate"
)

// Another client on the same buckets: the service's buckets are kept per
// organization, project, user or IP, so teammates, Terraform and the
// cloud's CLI spend the tokens a dashboard plans with. The control API
// plays that client:
//
//	PUT /api/{service}/sim/ratelimits/spend
//	{"endpointSetId": "alertsRead_group", "groupId": "...",
//	 "perMinute": 50, "now": 10}
//
// takes "now" tokens at once and then "perMinute" tokens a minute of server
// time from the bucket of that set and scope ("groupId" for a project's
// set, "orgId" for an organization's, "publicKey" for a user's, "ip" for an
// address's), as long as the bucket holds them (the other client's own
// 429s are not logged). perMinute 0 stops it. It answers the set, the
// scope, the rate and the tokens left.

// spender is one such client on one bucket.
type spender struct {
	perMin float64
	owed   float64   // tokens due and not yet taken
	last   time.Time // server time accounted up to
}

// spendTick is how often (wall time) spenders take what they owe.
const spendTick = 100 * time.Millisecond

// bucketLocked finds or makes a bucket (tb.mu held).
func (tb *tokenBuckets) bucketLocked(set *activeSet, scope string) *rate.Limiter {
	key := bucketKey{set.ID, scope}
	lim := tb.buckets[key]
	if lim == nil {
		lim = rate.NewLimiter(set.limit.perSecond(), set.limit.Capacity)
		tb.buckets[key] = lim
	}
	return lim
}

// takeLocked takes up to n whole tokens the bucket holds now.
func takeLocked(lim *rate.Limiter, now time.Time, n int) {
	if have := int(math.Floor(lim.TokensAt(now))); n > have {
		n = have
	}
	if n > 0 {
		lim.ReserveN(now, n)
	}
}

// spend sets the other client on a bucket and starts the loop that makes
// it spend, once.
func (tb *tokenBuckets) spend(set *activeSet, scope string, now int, perMin float64) (remaining int) {
	t := tb.clock.Now()
	tb.mu.Lock()
	defer tb.mu.Unlock()
	lim := tb.bucketLocked(set, scope)
	takeLocked(lim, t, now)
	key := bucketKey{set.ID, scope}
	if perMin <= 0 {
		delete(tb.spenders, key)
	} else {
		tb.spenders[key] = &spender{perMin: perMin, last: t}
		if tb.stop == nil {
			tb.stop = make(chan struct{})
			go tb.spendLoop(tb.stop)
		}
	}
	return int(math.Floor(lim.TokensAt(t)))
}

// spendLoop makes every spender take what it owes, a few times a second,
// until close.
func (tb *tokenBuckets) spendLoop(stop chan struct{}) {
	tick := time.NewTicker(spendTick)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		tb.spendDue(tb.clock.Now())
	}
}

// spendDue makes every spender take what it owes by now.
func (tb *tokenBuckets) spendDue(now time.Time) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	for key, sp := range tb.spenders {
		if el := now.Sub(sp.last); el > 0 {
			sp.owed += sp.perMin / 60 * el.Seconds()
			sp.last = now
		}
		n := int(math.Floor(sp.owed))
		if n <= 0 {
			continue
		}
		sp.owed -= float64(n)
		if lim := tb.buckets[key]; lim != nil {
			takeLocked(lim, now, n) // what the bucket lacks, the other client meets as 429s
		}
	}
}

// close stops the spenders.
func (tb *tokenBuckets) close() {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	if tb.stop != nil {
		close(tb.stop)
		tb.stop = nil
	}
}

func (s *Server) rateLimitControlRoutes(mux *http.ServeMux, root string) {
	mux.HandleFunc("PUT "+root+"/ratelimits/spend", s.control(func(w http.ResponseWriter, r *http.Request) (int, any, *apiError) {
		var b struct {
			EndpointSetID string  `json:"endpointSetId"`
			GroupID       string  `json:"groupId"`
			OrgID         string  `json:"orgId"`
			PublicKey     string  `json:"publicKey"`
			IP            string  `json:"ip"`
			PerMinute     float64 `json:"perMinute"`
			Now           int     `json:"now"`
		}
		if e := readJSON(w, r, &b); e != nil {
			return 0, nil, e
		}
		var set *activeSet
		for _, a := range s.limiter.sets {
			if a.ID == b.EndpointSetID {
				set = a
			}
		}
		if set == nil {
			return 0, nil, errField("endpointSetId", "must be one of the endpoint sets at GET /rateLimits")
		}
		var scope string
		switch set.Scope {
		case ScopeProject:
			scope = "group:" + b.GroupID
			if b.GroupID == "" {
				return 0, nil, errField("groupId", "is required for a project's endpoint set")
			}
		case ScopeOrganization:
			scope = "org:" + b.OrgID
			if b.OrgID == "" {
				return 0, nil, errField("orgId", "is required for an organization's endpoint set")
			}
		case ScopeIP:
			scope = "ip:" + b.IP
			if b.IP == "" {
				return 0, nil, errField("ip", "is required for an address's endpoint set")
			}
		default:
			scope = "user:" + b.PublicKey
			if b.PublicKey == "" {
				return 0, nil, errField("publicKey", "is required for a user's endpoint set")
			}
		}
		if b.PerMinute < 0 || b.PerMinute > 1e6 || b.Now < 0 || b.Now > 1e6 {
			return 0, nil, errField("perMinute", "perMinute and now must be between 0 and 1000000")
		}
		left := s.limiter.spend(set, scope, b.Now, b.PerMinute)
		return http.StatusOK, map[string]any{"endpointSetId": set.ID, "scope": scope, "perMinute": b.PerMinute, "remaining": left}, nil
	}))
}
