package apisim

import (
	"hash/fnv"
	"regexp"
	"strings"
	"time"
)

// Database measurements.

func init() {
	handle("getDatabaseMeasurements", getDatabaseMeasurements)
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
