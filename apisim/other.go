package apisim

import (
	"hash/fnv"
	"regexp"
	"strings"
	"time"
)

// The other paths of the release history: performance advisor, encryption
// at rest private endpoints, serverless private endpoints, database
// measurements.

type EARPrivateEndpoint struct {
	ID            string     `json:"id"`
	GroupID       string     `json:"groupId"`
	CloudProvider string     `json:"cloudProvider"`
	RegionName    string     `json:"regionName"`
	CreatedAt     time.Time  `json:"createdAt"`
	DeletingSince *time.Time `json:"deletingSince,omitempty"`
}

type ServerlessPrivateEndpoint struct {
	ID           string    `json:"id"`
	GroupID      string    `json:"groupId"`
	InstanceName string    `json:"instanceName"`
	Comment      string    `json:"comment"`
	CreatedAt    time.Time `json:"createdAt"`
}

const earDeleteFor = 30 * time.Second

func init() {
	handle("listDropIndexes", func(c *call) (any, error) {
		cl, err := c.clusterAPICluster("clusterName", true)
		if err != nil {
			return nil, err
		}
		idx := func(name, ns string, acc int) any {
			return map[string]any{"name": name, "namespace": ns, "accessCount": acc, "sizeBytes": 1 << 20, "index": []any{map[string]any{name[:strings.IndexByte(name, '_')]: 1}}}
		}
		return map[string]any{
			"hiddenIndexes":    []any{},
			"redundantIndexes": []any{idx("status_1", cl.Name+"db.orders", 120)},
			"unusedIndexes":    []any{idx("legacyRef_1", cl.Name+"db.customers", 0)},
		}, nil
	})
	handle("listClusterSuggestedIndexes", func(c *call) (any, error) {
		cl, err := c.clusterAPICluster("clusterName", true)
		if err != nil {
			return nil, err
		}
		shape := "5f" + cl.ID[2:]
		return map[string]any{
			"shapes": []any{map[string]any{"id": shape, "avgMs": 412, "count": 1873, "inefficiencyScore": 4210, "namespace": "shop.orders",
				"operations": []any{map[string]any{"predicates": []any{map[string]any{"find": map[string]any{"customerId": "<val>"}}}, "stats": map[string]any{"ms": 412, "nReturned": 3, "nExamined": 120000, "ts": c.now.UnixMilli()}}}}},
			"suggestedIndexes": []any{map[string]any{"id": cl.ID, "impact": []string{shape}, "index": []any{map[string]any{"customerId": 1}}, "namespace": "shop.orders", "weight": 98.5}},
		}, nil
	})
	handle("getEncryptionAtRestPrivateEndpoint", func(c *call) (any, error) {
		ep, err := c.earEndpoint()
		if err != nil {
			return nil, err
		}
		return ep.view(c.now), nil
	})
	handle("requestEncryptionAtRestPrivateEndpointDeletion", func(c *call) (any, error) {
		ep, err := c.earEndpoint()
		if err != nil {
			return nil, err
		}
		if ep.DeletingSince == nil {
			now := c.now
			ep.DeletingSince = &now
			c.markChanged()
		}
		return nil, nil
	})
	handle("listServerlessPrivateEndpoints", func(c *call) (any, error) {
		cl, err := c.kindCluster("instanceName", KindServerless)
		if err != nil {
			return nil, err
		}
		var out list
		for _, ep := range c.w.ServerlessPrivateEndpoints {
			if ep.GroupID == cl.GroupID && ep.InstanceName == cl.Name {
				out = append(out, ep.view(c.now))
			}
		}
		return out, nil
	})
	handle("createServerlessPrivateEndpoint", func(c *call) (any, error) {
		cl, err := c.kindCluster("instanceName", KindServerless)
		if err != nil {
			return nil, err
		}
		var b struct {
			Comment string `json:"comment"`
		}
		if len(c.body) > 0 {
			if e := c.decode(&b); e != nil {
				return nil, e
			}
		}
		if len(b.Comment) > 80 {
			return nil, errField("comment", "must be at most 80 characters")
		}
		ep := &ServerlessPrivateEndpoint{ID: c.w.newID(), GroupID: cl.GroupID, InstanceName: cl.Name, Comment: b.Comment, CreatedAt: c.now}
		c.w.ServerlessPrivateEndpoints = append(c.w.ServerlessPrivateEndpoints, ep)
		c.markChanged()
		return ep.view(c.now), nil
	})
	handle("getDatabaseMeasurements", getDatabaseMeasurements)
}

func (c *call) earEndpoint() (*EARPrivateEndpoint, error) {
	id, cp := c.param("endpointId"), c.param("cloudProvider")
	ep := find(c.w.EARPrivateEndpoints, func(x *EARPrivateEndpoint) bool {
		return x.ID == id && x.GroupID == c.project.ID && x.CloudProvider == cp
	})
	if ep == nil || (ep.DeletingSince != nil && !c.now.Before(ep.DeletingSince.Add(earDeleteFor))) {
		return nil, errNotFound("ENCRYPTION_AT_REST_PRIVATE_ENDPOINT_NOT_FOUND", "No %s private endpoint with ID %s exists in group %s.", cp, id, c.project.ID)
	}
	return ep, nil
}

func (ep *EARPrivateEndpoint) view(now time.Time) any {
	status := "ACTIVE"
	if ep.DeletingSince != nil {
		status = "DELETING"
	}
	return map[string]any{
		"id": ep.ID, "cloudProvider": ep.CloudProvider, "regionName": ep.RegionName, "status": status,
		"errorMessage": nil, "privateEndpointConnectionName": "pe-" + ep.ID[16:],
	}
}

func (ep *ServerlessPrivateEndpoint) view(now time.Time) any {
	status := "RESERVATION_REQUESTED"
	if now.Sub(ep.CreatedAt) >= 10*time.Second {
		status = "RESERVED"
	}
	return map[string]any{
		"_id": ep.ID, "comment": ep.Comment, "status": status, "providerName": "AWS", "errorMessage": nil,
		"cloudProviderEndpointId": nil, "endpointServiceName": "com.amazonaws.vpce.us-east-1.vpce-svc-" + ep.ID[12:],
	}
}

var (
	isoDuration       = regexp.MustCompile(`^P(T?\d+[MHDS]|\d+D|T\d+M|T\d+H)$`)
	granularities     = map[string]time.Duration{"PT10S": 10 * time.Second, "PT1M": time.Minute, "PT5M": 5 * time.Minute, "PT1H": time.Hour, "P1D": 24 * time.Hour}
	databaseMeasNames = []string{"DATABASE_AVERAGE_OBJECT_SIZE", "DATABASE_COLLECTION_COUNT", "DATABASE_DATA_SIZE", "DATABASE_STORAGE_SIZE",
		"DATABASE_INDEX_SIZE", "DATABASE_INDEX_COUNT", "DATABASE_EXTENT_COUNT", "DATABASE_OBJECT_COUNT", "DATABASE_VIEW_COUNT"}
)

func getDatabaseMeasurements(c *call) (any, error) {
	pid := c.param("processId")
	h := find(c.w.Hosts, func(x *Process) bool { return x.GroupID == c.project.ID && x.ID == pid })
	if h == nil {
		return nil, errNotFound("PROCESS_NOT_FOUND", "No process %s exists in group %s.", pid, c.project.ID)
	}
	g := c.query.Get("granularity")
	if g == "" {
		return nil, errMissing("granularity")
	}
	step, ok := granularities[g]
	if !ok {
		return nil, errField("granularity", "must be one of PT10S, PT1M, PT5M, PT1H, P1D")
	}
	period := time.Hour
	if p := c.query.Get("period"); p != "" {
		d, ok := parseISODuration(p)
		if !ok || !isoDuration.MatchString(p) {
			return nil, errField("period", "must be an ISO 8601 duration such as PT1H or P1D")
		}
		period = d
	}
	if period/step > 2000 {
		return nil, errField("period", "spans too many data points for granularity %s", g)
	}
	names := databaseMeasNames
	if m := c.query["m"]; len(m) > 0 {
		for _, n := range m {
			if !contains(databaseMeasNames, n) {
				return nil, errField("m", "unknown measurement %s", n)
			}
		}
		names = m
	}
	end := c.now.Truncate(step)
	start := end.Add(-period)
	var ms []any
	for _, n := range names {
		hs := fnv.New32a()
		hs.Write([]byte(h.ID + c.param("databaseName") + n))
		base := float64(hs.Sum32()%5000 + 100)
		var pts []any
		for t := start; !t.After(end); t = t.Add(step) {
			pts = append(pts, map[string]any{"timestamp": fmtTime(t), "value": base + float64(t.Unix()/int64(step/time.Second)%7)})
		}
		unit := "SCALAR"
		if strings.HasSuffix(n, "SIZE") {
			unit = "BYTES"
		}
		ms = append(ms, map[string]any{"name": n, "units": unit, "dataPoints": pts})
	}
	return map[string]any{
		"databaseName": c.param("databaseName"), "start": fmtTime(start), "end": fmtTime(end), "granularity": g,
		"groupId": c.project.ID, "hostId": h.ID, "processId": h.ID, "measurements": ms,
	}, nil
}

// parseISODuration understands the single-unit durations the API uses.
func parseISODuration(s string) (time.Duration, bool) {
	if !strings.HasPrefix(s, "P") || len(s) < 3 {
		return 0, false
	}
	s = s[1:]
	timePart := strings.HasPrefix(s, "T")
	s = strings.TrimPrefix(s, "T")
	unit := s[len(s)-1]
	n := 0
	for _, r := range s[:len(s)-1] {
		if r < '0' || r > '9' || n > 1e6 {
			return 0, false
		}
		n = n*10 + int(r-'0')
	}
	if n == 0 {
		return 0, false
	}
	switch {
	case unit == 'D' && !timePart:
		return time.Duration(n) * 24 * time.Hour, true
	case unit == 'H' && timePart:
		return time.Duration(n) * time.Hour, true
	case unit == 'M' && timePart:
		return time.Duration(n) * time.Minute, true
	case unit == 'S' && timePart:
		return time.Duration(n) * time.Second, true
	}
	return 0, false
}
