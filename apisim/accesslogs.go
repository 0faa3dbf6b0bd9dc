package apisim

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"net"
	"time"
)

// Database access history. The log is not stored: an entry exists every
// accessLogStep of server time, and its content is a hash of the seed, the
// cluster and the step, so the log is deterministic and keeps growing as the
// clock runs.

const (
	accessLogStep    = 45 * time.Second
	accessLogDefault = 7 * 24 * time.Hour // window when start/end are absent
	maxNLogs         = 20000
)

func init() {
	handle("listAccessLogsByClusterName", func(c *call) (any, error) {
		cl, err := c.clusterAPICluster("clusterName", true)
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
		cl := c.w.cluster(c.project.ID, h.ClusterName)
		if cl == nil || !cl.dedicated() {
			return nil, errBadRequest("TENANT_CLUSTER_UNSUPPORTED", "Access history is not available for host %s.", host)
		}
		return c.accessLogs(cl, h.Hostname)
	})
}

func (c *call) accessLogs(cl *Cluster, onlyHost string) (any, error) {
	q := c.query
	nLogs, e := queryInt(q, "nLogs", maxNLogs, 0, maxNLogs)
	if e != nil {
		return nil, e
	}
	start, hasStart, e := queryInt64(q, "start", 0, 1<<53)
	if e != nil {
		return nil, e
	}
	end, hasEnd, e := queryInt64(q, "end", 0, 1<<53)
	if e != nil {
		return nil, e
	}
	if hasStart != hasEnd {
		missing := "end"
		if !hasStart {
			missing = "start"
		}
		return nil, errField(missing, "start and end must be given together")
	}
	authFilter, hasAuth := false, false
	if q.Get("authResult") != "" {
		if authFilter, e = queryBool(q, "authResult", false); e != nil {
			return nil, e
		}
		hasAuth = true
	}
	ipFilter := q.Get("ipAddress")
	if ipFilter != "" && net.ParseIP(ipFilter) == nil {
		return nil, errField("ipAddress", "must be an IP address")
	}
	from, to := c.now.Add(-accessLogDefault), c.now
	if hasStart {
		from, to = time.UnixMilli(start), time.UnixMilli(end)
		if to.Before(from) {
			return nil, errField("end", "must not be before start")
		}
		if to.After(c.now) {
			to = c.now
		}
	}
	var hosts []*Process
	for _, h := range c.w.Hosts {
		if h.GroupID == cl.GroupID && h.ClusterName == cl.Name && (onlyHost == "" || h.Hostname == onlyHost) && h.TypeName != "SHARD_MONGOS" {
			hosts = append(hosts, h)
		}
	}
	logs := []any{}
	if len(hosts) == 0 {
		return map[string]any{"accessLogs": logs}, nil
	}
	// Walk back from the newest step; the scan is bounded whatever the filters.
	k := to.UnixNano() / int64(accessLogStep)
	for scanned := 0; len(logs) < nLogs && scanned < 3*maxNLogs; scanned, k = scanned+1, k-1 {
		t := time.Unix(0, k*int64(accessLogStep)).UTC()
		if t.Before(from) {
			break
		}
		entry := accessLogEntry(c.w.Seed, cl, hosts, k, t)
		if hasAuth && entry["authResult"] != authFilter {
			continue
		}
		if ipFilter != "" && entry["ipAddress"] != ipFilter {
			continue
		}
		logs = append(logs, entry)
	}
	return map[string]any{"accessLogs": logs}, nil
}

var accessUsers = []string{"app-payments", "app-reports", "etl-runner", "admin", "grafana", "alice", "bob"}

func accessLogEntry(seed int64, cl *Cluster, hosts []*Process, k int64, t time.Time) map[string]any {
	h := fnv.New64a()
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], uint64(seed))
	binary.LittleEndian.PutUint64(b[8:], uint64(k))
	h.Write(b[:])
	h.Write([]byte(cl.ID))
	r := h.Sum64()
	host := hosts[r%uint64(len(hosts))]
	user := accessUsers[(r>>8)%uint64(len(accessUsers))]
	ip := fmt.Sprintf("10.%d.%d.%d", (r>>16)%4, (r>>24)%256, 1+(r>>32)%250)
	ok := (r>>40)%10 != 0 // one in ten fails
	e := map[string]any{
		"authResult": ok, "authSource": "admin", "failureReason": nil, "groupId": cl.GroupID,
		"hostname": host.Hostname, "ipAddress": ip, "timestamp": t.Format("Mon Jan 02 15:04:05 MST 2006"), "username": user,
	}
	result := "Successfully authenticated"
	if !ok {
		e["failureReason"] = "AuthenticationFailed: SCRAM authentication failed, storedKey mismatch"
		result = "Authentication failed"
	}
	e["logLine"] = fmt.Sprintf(`{"t":{"$date":"%s"},"s":"I","c":"ACCESS","msg":"%s","attr":{"mechanism":"SCRAM-SHA-256","user":"%s","db":"admin","remote":"%s:%d"}}`,
		t.Format("2006-01-02T15:04:05.000Z"), result, user, ip, 40000+(r>>48)%20000)
	return e
}
