package apisim

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Search indexes: the 2024-05-30 /search/indexes routes, the deprecated flat
// /fts/indexes routes and the v1.0 user-defined analyzers.
//
// Every index is built per host: PENDING, then BUILDING, then READY (or
// FAILED with a message, when the definition cannot be built; see
// buildFailure), each host a little after the one before, by the clock since
// the definition last changed. While an update builds, the hosts keep
// serving the previous definition as their mainIndex and build the new one as
// their stagedIndex. A delete marks the index DELETING; it disappears
// indexGoneAfter later (the spec's "eventually consistent").

type SearchIndex struct {
	ID             string          `json:"id"`
	GroupID        string          `json:"groupId"`
	ClusterName    string          `json:"clusterName"`
	Name           string          `json:"name"`
	Database       string          `json:"database"`
	CollectionName string          `json:"collectionName"`
	Type           string          `json:"type"`
	Definition     json.RawMessage `json:"definition"` // the latest
	Version        int             `json:"version"`
	CreatedAt      time.Time       `json:"createdAt"`
	UpdatedAt      time.Time       `json:"updatedAt"` // when the latest definition was submitted
	// Serving is the definition the hosts answered queries with before the
	// latest was submitted (nil for an index that never finished a build).
	Serving        json.RawMessage `json:"serving,omitempty"`
	ServingVersion int             `json:"servingVersion,omitempty"`
	ServingSince   time.Time       `json:"servingSince,omitzero"`
	DeletedAt      *time.Time      `json:"deletedAt,omitempty"`
	// Stuck keeps the build BUILDING for good (a build that hangs).
	Stuck bool `json:"stuck,omitempty"`
}

const (
	indexPendingFor = 5 * time.Second
	indexBuildFor   = 25 * time.Second
	// indexHostStagger delays each host's build after the previous host's.
	indexHostStagger = 2 * time.Second
	// indexGoneAfter is how long a deleted index shows as DELETING.
	indexGoneAfter = 10 * time.Second
)

// maxVectorDimensions is the largest vector the simulated engine builds;
// larger ones pass validation but fail the build, as a data problem would.
const maxVectorDimensions = 8192

// gone reports whether a deleted index has disappeared by now.
func (ix *SearchIndex) gone(now time.Time) bool {
	return ix.DeletedAt != nil && !now.Before(ix.DeletedAt.Add(indexGoneAfter))
}

// hostBuild is the state of the latest definition's build on host number i.
func (ix *SearchIndex) hostBuild(now time.Time, i int) string {
	since := now.Sub(ix.UpdatedAt) - time.Duration(i)*indexHostStagger
	switch {
	case since < indexPendingFor:
		return "PENDING"
	case since < indexPendingFor+indexBuildFor || ix.Stuck:
		return "BUILDING"
	case buildFailure(ix.Type, ix.Definition) != "":
		return "FAILED"
	}
	return "READY"
}

// builtBy reports whether every one of n hosts finished building the latest
// definition successfully by now.
func (ix *SearchIndex) builtBy(now time.Time, n int) bool {
	return ix.hostBuild(now, max(n-1, 0)) == "READY"
}

// knownFieldTypes are the field mapping types the simulated engine builds.
var knownFieldTypes = map[string]bool{
	"autocomplete": true, "boolean": true, "date": true, "dateFacet": true, "document": true,
	"embeddedDocuments": true, "geo": true, "knnVector": true, "number": true, "numberFacet": true,
	"objectId": true, "string": true, "stringFacet": true, "token": true, "uuid": true,
}

// buildFailure is why a definition that passed validation still fails to
// build (the message hosts report), or "". Deterministic so tests and demos
// can produce a FAILED index: a field mapped with an unknown type, or a
// vector wider than the engine supports.
func buildFailure(typ string, def json.RawMessage) string {
	var d struct {
		Mappings struct {
			Fields map[string]json.RawMessage `json:"fields"`
		} `json:"mappings"`
		Fields []struct {
			Path          string `json:"path"`
			NumDimensions int    `json:"numDimensions"`
		} `json:"fields"`
	}
	if json.Unmarshal(def, &d) != nil {
		return ""
	}
	if typ == "vectorSearch" {
		for _, f := range d.Fields {
			if f.NumDimensions > maxVectorDimensions {
				return "Field " + f.Path + ": numDimensions " + strconv.Itoa(f.NumDimensions) + " exceeds the maximum of " + strconv.Itoa(maxVectorDimensions) + "."
			}
		}
		return ""
	}
	names := make([]string, 0, len(d.Mappings.Fields))
	for n := range d.Mappings.Fields {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		raw := d.Mappings.Fields[n]
		var one struct {
			Type string `json:"type"`
		}
		var many []struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(raw, &one) == nil {
			many = append(many, one)
		} else {
			_ = json.Unmarshal(raw, &many)
		}
		for _, m := range many {
			if m.Type != "" && !knownFieldTypes[m.Type] {
				return "Field " + n + ": unsupported field type \"" + m.Type + "\"."
			}
		}
	}
	return ""
}

// knownCollections are the collections of the demo clusters that exist
// besides those that carry an index; a synonym mapping whose source
// collection is not among them fails.
var knownCollections = map[string][]string{
	"payments-rs/shop":      {"orders", "products", "customers", "product_synonyms"},
	"payments-prod/ledger":  {"entries", "accounts", "ledger_synonyms"},
	"analytics-main/events": {"raw", "sessions", "event_synonyms"},
}

func (c *call) collectionExists(ix *SearchIndex, coll string) bool {
	for _, k := range knownCollections[ix.ClusterName+"/"+ix.Database] {
		if k == coll {
			return true
		}
	}
	for _, x := range c.w.SearchIndexes {
		if x.GroupID == ix.GroupID && x.ClusterName == ix.ClusterName && x.Database == ix.Database && x.CollectionName == coll {
			return true
		}
	}
	return false
}

// synonymStatus is the synonym mappings' status for a definition whose build
// is in state st: the overall status and one detail entry per mapping.
func (c *call) synonymStatus(ix *SearchIndex, def json.RawMessage, st string) (string, []any) {
	var d struct {
		Synonyms []struct {
			Name   string `json:"name"`
			Source struct {
				Collection string `json:"collection"`
			} `json:"source"`
		} `json:"synonyms"`
	}
	if json.Unmarshal(def, &d) != nil || len(d.Synonyms) == 0 {
		return "", nil
	}
	overall := "READY"
	var details []any
	for _, s := range d.Synonyms {
		one := map[string]any{"status": "READY", "queryable": true}
		switch {
		case st == "FAILED" || !c.collectionExists(ix, s.Source.Collection):
			one = map[string]any{"status": "FAILED", "queryable": false,
				"message": "Synonym source collection " + ix.Database + "." + s.Source.Collection + " does not exist."}
			overall = "FAILED"
		case st != "READY":
			one = map[string]any{"status": "BUILDING", "queryable": false}
			if overall != "FAILED" {
				overall = "BUILDING"
			}
		}
		details = append(details, map[string]any{s.Name: one})
	}
	return overall, details
}

// searchCluster finds the cluster and refuses those without search: tenant
// tiers, serverless and flex, and versions before 4.2.
func (c *call) searchCluster() (*Cluster, error) {
	cl, err := c.clusterAPICluster("clusterName", false)
	if err != nil {
		return nil, err
	}
	if cl.Kind == KindTenant {
		return nil, errBadRequest("TENANT_CLUSTER_UNSUPPORTED",
			"Cluster %s is a %s shared-tier cluster; search indexes through this API need a dedicated cluster (M10 or larger).", cl.Name, cl.InstanceSize)
	}
	if versionBefore(cl.MongoDBVersion, 4, 2) {
		return nil, errBadRequest("SEARCH_UNSUPPORTED_MONGODB_VERSION",
			"Cluster %s runs MongoDB %s; search indexes need 4.2 or later.", cl.Name, cl.MongoDBVersion)
	}
	return cl, nil
}

func versionBefore(v string, major, minor int) bool {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return false
	}
	a, _ := strconv.Atoi(parts[0])
	b, _ := strconv.Atoi(parts[1])
	return a < major || (a == major && b < minor)
}

// pruneGone drops deleted indexes whose time has come; only mutating calls
// prune, so reads never write.
func (c *call) pruneGone() {
	before := len(c.w.SearchIndexes)
	kept := c.w.SearchIndexes[:0]
	for _, ix := range c.w.SearchIndexes {
		if !ix.gone(c.now) {
			kept = append(kept, ix)
		}
	}
	c.w.SearchIndexes = kept
	if len(kept) != before {
		c.markChanged()
	}
}

// listIndexes answers the search cluster's live indexes in the view's shape;
// inCollection narrows them to the path's {databaseName}/{collectionName}.
func (c *call) listIndexes(view func(*call, *SearchIndex) any, inCollection bool) (any, error) {
	cl, err := c.searchCluster()
	if err != nil {
		return nil, err
	}
	db, coll := c.param("databaseName"), c.param("collectionName")
	var out []*SearchIndex
	for _, ix := range c.w.searchIndexesAt(cl.GroupID, cl.Name) {
		if !ix.gone(c.now) &&
			(!inCollection || (ix.Database == db && ix.CollectionName == coll)) {
			out = append(out, ix)
		}
	}
	return listOf(out, func(ix *SearchIndex) any { return view(c, ix) }), nil
}

// searchIndex resolves the search cluster and then the index the path names.
func (c *call) searchIndex() (*Cluster, *SearchIndex, error) {
	cl, err := c.searchCluster()
	if err != nil {
		return nil, nil, err
	}
	ix, err := c.findIndex(cl)
	if err != nil {
		return nil, nil, err
	}
	return cl, ix, nil
}

// findIndex resolves either {indexId} or {databaseName}/{collectionName}/{indexName}.
func (c *call) findIndex(cl *Cluster) (*SearchIndex, error) {
	id, db, coll, name := c.param("indexId"), c.param("databaseName"), c.param("collectionName"), c.param("indexName")
	ix := find(c.w.SearchIndexes, func(x *SearchIndex) bool {
		if x.GroupID != cl.GroupID || x.ClusterName != cl.Name || x.gone(c.now) {
			return false
		}
		if id != "" {
			return x.ID == id
		}
		return x.Database == db && x.CollectionName == coll && x.Name == name
	})
	if ix == nil {
		what := id
		if what == "" {
			what = db + "." + coll + "." + name
		}
		return nil, errNotFound("INDEX_NOT_FOUND", "No search index %s exists on cluster %s.", what, cl.Name)
	}
	return ix, nil
}

func init() {
	full := func(c *call, ix *SearchIndex) any { return c.searchIndexView(ix) }
	flat := func(c *call, ix *SearchIndex) any { return c.flatView(ix) }
	handle("listAtlasSearchIndexesCluster", func(c *call) (any, error) { return c.listIndexes(full, false) })
	handle("listAtlasSearchIndexes", func(c *call) (any, error) { return c.listIndexes(full, true) })
	handle("listAtlasSearchIndexesDeprecated", func(c *call) (any, error) { return c.listIndexes(flat, true) })
	get := func(view func(*call, *SearchIndex) any) opHandler {
		return func(c *call) (any, error) {
			_, ix, err := c.searchIndex()
			if err != nil {
				return nil, err
			}
			return view(c, ix), nil
		}
	}
	handle("getAtlasSearchIndex", get(full))
	handle("getAtlasSearchIndexByName", get(full))
	handle("getAtlasSearchIndexDeprecated", get(flat))
	handle("createAtlasSearchIndex", createSearchIndex)
	handle("createAtlasSearchIndexDeprecated", createSearchIndexFlat)
	handle("updateAtlasSearchIndex", updateSearchIndex)
	handle("updateAtlasSearchIndexByName", updateSearchIndex)
	handle("updateAtlasSearchIndexDeprecated", updateSearchIndexFlat)
	del := func(c *call) (any, error) {
		_, ix, err := c.searchIndex()
		if err != nil {
			return nil, err
		}
		c.pruneGone()
		if ix.DeletedAt == nil { // deleting again is a no-op, not a new countdown
			at := c.now
			ix.DeletedAt = &at
			c.markChanged()
		}
		return nil, nil
	}
	handle("deleteAtlasSearchIndex", del)
	handle("deleteAtlasSearchIndexByName", del)
	handle("deleteAtlasSearchIndexDeprecated", del)
	handle("listAtlasSearchAnalyzers", listAnalyzers)
	handle("updateAtlasSearchAnalyzers", updateAnalyzers)
}
