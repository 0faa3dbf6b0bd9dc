package apisim

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/limits"
)

// Database access history. Each dedicated cluster has a stream of
// authentication attempts on the server clock: a few a second across its
// hosts, mostly successes, and now and then a burst of failures from one
// outside address guessing user names. The stream is not stored: the
// events of one second are a pure function of the seed, the cluster and the
// second, so it is deterministic, survives restarts and keeps growing as the
// clock runs. A cluster keeps the last accessLogRetention of it (a bounded
// window: about 70,000 records at the stream's rate); older records are
// gone, as on the real service.
//
// Records carry second-resolution timestamps like the service's, so several
// share a timestamp, and each becomes visible a few seconds after it
// happened (log shipping lag), so a tail that polls from its newest record
// must re-read an overlap to miss nothing.

const (
	accessLogRetention = 24 * time.Hour
	maxNLogs           = limits.MaxNLogs
	// accessBurstEpoch: at most one failure burst per cluster per epoch.
	accessBurstEpoch = 10 * time.Minute
	// accessMaxLag is the longest delay between an attempt and its record
	// showing up.
	accessMaxLag = 4 * time.Second
	// accessTimestampLayout is how the service writes timestamp.
	accessTimestampLayout = "Mon Jan 02 2006 15:04:05 GMT-0700 (MST)"
)

func init() {
	handle("listAccessLogsByClusterName", func(c *call) (any, error) {
		cl, err := c.accessLogCluster(c.param("clusterName"))
		if err != nil {
			return nil, err
		}
		return c.accessLogs(cl, "")
	})
	handle("listAccessLogsByHostname", func(c *call) (any, error) {
		host := c.param("hostname")
		h := find(c.w.Hosts, func(x *Process) bool { return x.GroupID == c.project.ID && (x.Hostname == host || x.ID == host) })
		if h == nil {
			return nil, errNotFound("HOST_NOT_FOUND", "No host %s exists in group %s.", host, c.project.ID)
		}
		cl, err := c.accessLogCluster(h.ClusterName)
		if err != nil {
			return nil, err
		}
		return c.accessLogs(cl, h.Hostname)
	})
}

// accessLogCluster finds a cluster whose access history can be read: tenant
// tiers (M0/M2/M5), flex clusters and serverless instances have none.
func (c *call) accessLogCluster(name string) (*Cluster, error) {
	cl := c.w.cluster(c.project.ID, name)
	switch {
	case cl == nil:
		return nil, errNotFound("CLUSTER_NOT_FOUND", "No cluster named %s exists in group %s.", name, c.project.ID)
	case cl.Kind == KindTenant:
		return nil, errBadRequest("TENANT_CLUSTER_UNSUPPORTED",
			"Access history is not available on tenant clusters (M0, M2, M5); %s is %s.", name, cl.InstanceSize)
	case cl.Kind == KindServerless:
		return nil, errBadRequest("SERVERLESS_INSTANCE_UNSUPPORTED", "Access history is not available for serverless instances; %s is one.", name)
	case cl.Kind == KindFlex:
		return nil, errBadRequest("FLEX_CLUSTER_UNSUPPORTED", "Access history is not available for flex clusters; %s is one.", name)
	}
	return cl, nil
}

// accessLogQuery is a validated access history query.
type accessLogQuery struct {
	nLogs    int
	from, to time.Time // inclusive, server time
	auth     *bool
	ip       string
	host     string // "" for the whole cluster
}

// parseAccessLogQuery validates the query parameters; every error names its
// parameter.
func parseAccessLogQuery(c *call) (accessLogQuery, *apiError) {
	q := c.query
	var out accessLogQuery
	var e *apiError
	if out.nLogs, e = queryInt(q, "nLogs", maxNLogs, limits.NLogs); e != nil {
		return out, e
	}
	start, hasStart, e := queryInt64(q, "start", 0, 1<<53)
	if e != nil {
		return out, e
	}
	end, hasEnd, e := queryInt64(q, "end", 0, 1<<53)
	if e != nil {
		return out, e
	}
	if hasStart != hasEnd {
		missing := "end"
		if !hasStart {
			missing = "start"
		}
		return out, errField(missing, "start and end must be given together (epoch milliseconds)")
	}
	if q.Get("authResult") != "" {
		v, e := queryBool(q, "authResult", false)
		if e != nil {
			return out, e
		}
		out.auth = &v
	}
	out.ip = q.Get("ipAddress")
	if out.ip != "" {
		if ip := net.ParseIP(out.ip); ip == nil || ip.To4() == nil {
			return out, errField("ipAddress", "must be an IPv4 address, got %q", out.ip)
		}
	}
	out.from, out.to = c.now.Add(-accessLogRetention), c.now
	if hasStart {
		if end < start {
			return out, errField("end", "must not be before start")
		}
		if s := time.UnixMilli(start).UTC(); s.After(out.from) {
			out.from = s
		}
		if t := time.UnixMilli(end).UTC(); t.Before(out.to) {
			out.to = t
		}
	}
	return out, nil
}

// accessLogRecord is one MongoDBAccessLogs entry on the wire.
type accessLogRecord struct {
	AuthResult    bool    `json:"authResult"`
	AuthSource    string  `json:"authSource"`
	FailureReason *string `json:"failureReason,omitempty"`
	GroupID       string  `json:"groupId"`
	Hostname      string  `json:"hostname"`
	IPAddress     string  `json:"ipAddress"`
	LogLine       string  `json:"logLine"`
	Timestamp     string  `json:"timestamp"`
	Username      string  `json:"username"`
}

func (c *call) accessLogs(cl *Cluster, onlyHost string) (any, error) {
	q, e := parseAccessLogQuery(c)
	if e != nil {
		return nil, e
	}
	q.host = onlyHost
	var hosts []*Process
	for _, h := range c.w.Hosts {
		if h.GroupID == cl.GroupID && h.ClusterName == cl.Name {
			hosts = append(hosts, h)
		}
	}
	events := accessLogEvents(c.w.Seed, cl, hosts, q, c.now)
	out := make([]accessLogRecord, len(events))
	for i, ev := range events {
		out[i] = ev.record(cl.GroupID)
	}
	return map[string]any{"accessLogs": out}, nil
}

// accessEvent is one authentication attempt of the stream.
type accessEvent struct {
	at      time.Time // millisecond precision
	visible time.Time // when its record shows up
	host    *Process
	user    string
	source  string
	ip      string
	port    int
	conn    int
	ok      bool
	reason  string // failureReason; empty on success
	burst   bool   // part of a failure burst
}

// accessLogEvents walks the stream back from q.to, newest first, and keeps
// the records visible at now that match q, at most q.nLogs. The walk is
// bounded by the retention window whatever the filters.
func accessLogEvents(seed int64, cl *Cluster, hosts []*Process, q accessLogQuery, now time.Time) []accessEvent {
	var out []accessEvent
	if q.nLogs == 0 || len(hosts) == 0 || cl.Paused || q.to.Before(q.from) {
		return out
	}
	g := newAccessStream(seed, cl, hosts)
	first, last := q.from.Unix(), q.to.Unix()
	for sec := last; sec >= first; sec-- {
		evs := g.second(sec)
		for i := len(evs) - 1; i >= 0; i-- {
			ev := evs[i]
			switch {
			case ev.visible.After(now), ev.at.Before(q.from), ev.at.After(q.to),
				q.host != "" && ev.host.Hostname != q.host,
				q.auth != nil && ev.ok != *q.auth,
				q.ip != "" && ev.ip != q.ip:
				continue
			}
			out = append(out, ev)
			if len(out) == q.nLogs {
				return out
			}
		}
	}
	return out
}

// accessStream generates a cluster's events second by second.
type accessStream struct {
	key      uint64 // seed and cluster
	hosts    []*Process
	appIPs   []string
	appUsers []string
}

var (
	accessAppUsers = []string{"app-payments", "app-reports", "etl-runner", "grafana", "alice", "bob", "svc-backup"}
	// Names a credential-stuffing script tries, one with an escape sequence
	// (the dashboard must render it harmlessly).
	accessGuessUsers = []string{"admin", "root", "test", "mongo", "sa", "user", "\x1b]0;pwned\x07admin"}
	accessFailures   = []string{
		"AuthenticationFailed: SCRAM authentication failed, storedKey mismatch",
		"UserNotFound: Could not find user in the authentication database",
		"AuthenticationFailed: authentication mechanism is not supported",
	}
)

func newAccessStream(seed int64, cl *Cluster, hosts []*Process) *accessStream {
	h := fnv.New64a()
	h.Write([]byte(cl.ID))
	key := splitmix(uint64(seed) ^ h.Sum64())
	g := &accessStream{key: key, hosts: hosts, appUsers: accessAppUsers}
	// Each cluster's applications connect from a dozen private addresses.
	for i := range 12 {
		r := splitmix(key ^ uint64(i+1)*0x51)
		g.appIPs = append(g.appIPs, fmt.Sprintf("10.%d.%d.%d", r%4, (r>>8)%256, 1+(r>>16)%250))
	}
	return g
}

// rng is a small deterministic generator for one second or one epoch.
type rng struct{ s uint64 }

func (r *rng) next() uint64 { r.s += 0x9e3779b97f4a7c15; return splitmix(r.s) }
func (r *rng) intn(n int) int {
	return int(r.next() % uint64(n))
}

func splitmix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// burst is the failure burst of an epoch, if it has one.
type burst struct {
	from, to int64 // seconds, [from, to)
	ip       string
	host     *Process
}

func (g *accessStream) burstOf(epoch int64) (burst, bool) {
	r := rng{s: g.key ^ uint64(epoch)*0xb5ad4eceda1ce2a9 ^ 0xb0b}
	if r.intn(2) != 0 { // about every other epoch
		return burst{}, false
	}
	length := int64(accessBurstEpoch / time.Second)
	start := epoch*length + int64(r.intn(int(length)-90))
	ip := fmt.Sprintf("203.0.113.%d", 1+r.intn(250))
	if r.intn(2) == 0 {
		ip = fmt.Sprintf("198.51.100.%d", 1+r.intn(250))
	}
	return burst{from: start, to: start + 20 + int64(r.intn(60)), ip: ip, host: g.hosts[r.intn(len(g.hosts))]}, true
}

// second returns the events of one second, oldest first.
func (g *accessStream) second(sec int64) []accessEvent {
	r := rng{s: g.key ^ uint64(sec)*0x9fb21c651e98df25}
	n := 0
	switch p := r.intn(100); {
	case p < 50:
	case p < 80:
		n = 1
	case p < 94:
		n = 2
	default:
		n = 3
	}
	var evs []accessEvent
	base := time.Unix(sec, 0).UTC()
	for range n {
		ev := accessEvent{
			at:     base.Add(time.Duration(r.intn(1000)) * time.Millisecond),
			host:   g.hosts[r.intn(len(g.hosts))],
			user:   g.appUsers[r.intn(len(g.appUsers))],
			source: "admin",
			ip:     g.appIPs[r.intn(len(g.appIPs))],
			port:   32768 + r.intn(28000),
			conn:   1000 + r.intn(90000),
			ok:     r.intn(20) != 0,
		}
		if ev.user == "alice" || ev.user == "bob" {
			ev.source = "$external" // LDAP users
		}
		if !ev.ok {
			ev.reason = accessFailures[r.intn(len(accessFailures))]
		}
		ev.visible = ev.at.Add(time.Duration(r.intn(int(accessMaxLag/time.Second))) * time.Second)
		evs = append(evs, ev)
	}
	if b, ok := g.burstOf(sec / int64(accessBurstEpoch/time.Second)); ok && sec >= b.from && sec < b.to {
		for range 2 + r.intn(4) {
			ev := accessEvent{
				at:     base.Add(time.Duration(r.intn(1000)) * time.Millisecond),
				host:   b.host,
				user:   accessGuessUsers[r.intn(len(accessGuessUsers))],
				source: "admin",
				ip:     b.ip,
				port:   32768 + r.intn(28000),
				conn:   1000 + r.intn(90000),
				reason: accessFailures[r.intn(2)],
				burst:  true,
			}
			ev.visible = ev.at.Add(time.Duration(r.intn(2)) * time.Second)
			evs = append(evs, ev)
		}
	}
	// Oldest first by millisecond; equal ones keep their order.
	for i := 1; i < len(evs); i++ {
		for j := i; j > 0 && evs[j].at.Before(evs[j-1].at); j-- {
			evs[j], evs[j-1] = evs[j-1], evs[j]
		}
	}
	return evs
}

// logLine is the raw mongod structured log line of the attempt.
type accessLogLine struct {
	T struct {
		Date string `json:"$date"`
	} `json:"t"`
	S    string        `json:"s"`
	C    string        `json:"c"`
	ID   int           `json:"id"`
	Ctx  string        `json:"ctx"`
	Msg  string        `json:"msg"`
	Attr accessLogAttr `json:"attr"`
}

type accessLogAttr struct {
	Mechanism string `json:"mechanism"`
	Principal string `json:"principalName"`
	AuthDB    string `json:"authenticationDatabase"`
	Remote    string `json:"remote"`
	Error     string `json:"error,omitempty"`
}

func (ev accessEvent) record(groupID string) accessLogRecord {
	line := accessLogLine{S: "I", C: "ACCESS", ID: 20250, Ctx: fmt.Sprintf("conn%d", ev.conn), Msg: "Authentication succeeded",
		Attr: accessLogAttr{Mechanism: "SCRAM-SHA-256", Principal: ev.user, AuthDB: ev.source, Remote: fmt.Sprintf("%s:%d", ev.ip, ev.port)}}
	line.T.Date = ev.at.Format("2006-01-02T15:04:05.000-07:00")
	if ev.source == "$external" {
		line.Attr.Mechanism = "PLAIN"
	}
	rec := accessLogRecord{AuthResult: ev.ok, AuthSource: ev.source, GroupID: groupID, Hostname: ev.host.Hostname,
		IPAddress: ev.ip, Timestamp: ev.at.Format(accessTimestampLayout), Username: ev.user}
	if !ev.ok {
		line.ID, line.Msg, line.Attr.Error = 20249, "Authentication failed", ev.reason
		reason := ev.reason
		rec.FailureReason = &reason
	}
	b, _ := json.Marshal(line) // plain strings and ints: cannot fail
	rec.LogLine = string(b)
	return rec
}
