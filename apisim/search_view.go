package apisim

import (
	"encoding/json"
	"strings"
	"time"
)

func defVersion(v int, at time.Time) map[string]any {
	return map[string]any{"version": v, "createdAt": fmtTime(at)}
}

func rawOrEmpty(def json.RawMessage) json.RawMessage {
	if len(def) == 0 {
		return json.RawMessage("{}")
	}
	return def
}

// generation is a mainIndex or stagedIndex entry.
func (c *call) generation(ix *SearchIndex, def json.RawMessage, version int, at time.Time, st string, queryable bool, msg string) map[string]any {
	g := map[string]any{"status": st, "queryable": queryable, "definition": rawOrEmpty(def), "definitionVersion": defVersion(version, at)}
	if msg != "" {
		g["message"] = msg
	}
	if ix.Type == "search" {
		if s, d := c.synonymStatus(ix, def, st); s != "" {
			g["synonymMappingStatus"], g["synonymMappingStatusDetail"] = s, d
		}
	}
	return g
}

// searchHosts are the hosts that run the cluster's search engine.
func (c *call) searchHosts(ix *SearchIndex) []*Process {
	var hs []*Process
	for _, h := range c.w.Hosts {
		if h.GroupID == ix.GroupID && h.ClusterName == ix.ClusterName && strings.HasPrefix(h.TypeName, "REPLICA") {
			hs = append(hs, h)
		}
	}
	return hs
}

// statusRank orders statuses from best to worst for the index's overall status.
var statusRank = map[string]int{"READY": 0, "BUILDING": 1, "PENDING": 2, "FAILED": 3, "DELETING": 4}

func (c *call) searchIndexView(ix *SearchIndex) any {
	hosts := c.searchHosts(ix)
	failure := buildFailure(ix.Type, ix.Definition)
	serving := len(ix.Serving) > 0
	overall, allQueryable := "READY", len(hosts) > 0
	details := make([]any, 0, len(hosts))
	for i, h := range hosts {
		st := ix.hostBuild(c.now, i)
		var entry map[string]any
		switch {
		case ix.DeletedAt != nil:
			st = "DELETING"
			entry = map[string]any{"hostname": h.Hostname, "status": st, "queryable": false,
				"mainIndex": c.generation(ix, ix.Definition, ix.Version, ix.UpdatedAt, st, false, "")}
		case st == "READY" || !serving:
			msg := ""
			if st == "FAILED" {
				msg = failure
			}
			q := st == "READY"
			entry = map[string]any{"hostname": h.Hostname, "status": st, "queryable": q,
				"mainIndex": c.generation(ix, ix.Definition, ix.Version, ix.UpdatedAt, st, q, msg)}
		default:
			// The previous definition keeps serving while the new one builds (or failed).
			msg := ""
			if st == "FAILED" {
				msg = failure
			}
			entry = map[string]any{"hostname": h.Hostname, "status": st, "queryable": true,
				"mainIndex":   c.generation(ix, ix.Serving, ix.ServingVersion, ix.ServingSince, "READY", true, ""),
				"stagedIndex": c.generation(ix, ix.Definition, ix.Version, ix.UpdatedAt, st, false, msg)}
		}
		if statusRank[st] > statusRank[overall] {
			overall = st
		}
		if q, _ := entry["queryable"].(bool); !q {
			allQueryable = false
		}
		details = append(details, entry)
	}
	if len(hosts) == 0 { // nothing to build on: report the build as if on one host
		overall = ix.hostBuild(c.now, 0)
		allQueryable = overall == "READY" || serving
		if ix.DeletedAt != nil {
			overall, allQueryable = "DELETING", false
		}
	}
	v := map[string]any{
		"indexID": ix.ID, "name": ix.Name, "database": ix.Database, "collectionName": ix.CollectionName,
		"type": ix.Type, "status": overall, "queryable": allQueryable, "latestDefinition": rawOrEmpty(ix.Definition),
		"latestDefinitionVersion": defVersion(ix.Version, ix.UpdatedAt),
		"statusDetail":            details,
	}
	if ix.Type == "search" {
		latest := overall
		if latest == "DELETING" {
			latest = "READY"
		}
		if s, d := c.synonymStatus(ix, ix.Definition, latest); s != "" {
			v["synonymMappingStatus"], v["synonymMappingStatusDetail"] = s, d
		}
	}
	return v
}

// flatView is the deprecated ClusterSearchIndex: definition members inline.
func (c *call) flatView(ix *SearchIndex) any {
	full, _ := c.searchIndexView(ix).(map[string]any)
	v := map[string]any{}
	_ = json.Unmarshal(ix.Definition, &v)
	v["indexID"], v["name"], v["database"], v["collectionName"], v["type"] = ix.ID, ix.Name, ix.Database, ix.CollectionName, ix.Type
	v["status"] = map[string]string{"PENDING": "IN_PROGRESS", "BUILDING": "IN_PROGRESS", "READY": "STEADY",
		"FAILED": "FAILED", "DELETING": "IN_PROGRESS"}[full["status"].(string)]
	return v
}
