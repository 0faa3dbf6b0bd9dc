package apisim

import (
	"encoding/json"
	"net/http"
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
	for _, ix := range c.w.SearchIndexes {
		if ix.GroupID == cl.GroupID && ix.ClusterName == cl.Name && !ix.gone(c.now) &&
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

func (c *call) addIndex(cl *Cluster, name, db, coll, typ string, def json.RawMessage) (*SearchIndex, *apiError) {
	c.pruneGone()
	for _, ix := range c.w.SearchIndexes {
		if ix.GroupID == cl.GroupID && ix.ClusterName == cl.Name && ix.Database == db && ix.CollectionName == coll && ix.Name == name {
			if ix.DeletedAt != nil {
				return nil, errConflict("INDEX_ALREADY_EXISTS", "A search index named %s on %s.%s is still being deleted; try again shortly.", name, db, coll)
			}
			return nil, errConflict("INDEX_ALREADY_EXISTS", "A search index named %s already exists on %s.%s.", name, db, coll)
		}
	}
	ix := &SearchIndex{ID: c.w.newID(), GroupID: cl.GroupID, ClusterName: cl.Name, Name: name, Database: db,
		CollectionName: coll, Type: typ, Definition: def, Version: 1, CreatedAt: c.now, UpdatedAt: c.now}
	c.w.SearchIndexes = append(c.w.SearchIndexes, ix)
	c.markChanged()
	return ix, nil
}

// replaceDefinition submits a new definition: what the hosts served, or
// finished building by now, becomes the serving one while the new builds.
func (c *call) replaceDefinition(ix *SearchIndex, def json.RawMessage) *apiError {
	if ix.DeletedAt != nil {
		return errConflict("INDEX_BEING_DELETED", "Search index %s is being deleted and cannot be updated.", ix.Name)
	}
	if ix.builtBy(c.now, len(c.searchHosts(ix))) {
		ix.Serving, ix.ServingVersion, ix.ServingSince = ix.Definition, ix.Version, ix.UpdatedAt
	}
	ix.Definition = def
	ix.Version++
	ix.UpdatedAt = c.now
	c.markChanged()
	return nil
}

func requireNames(name, db, coll string) *apiError {
	switch {
	case name == "":
		return errMissing("name")
	case db == "":
		return errMissing("database")
	case coll == "":
		return errMissing("collectionName")
	case len(name) > 255 || len(db) > 64 || len(coll) > 255:
		return errField("name", "name, database and collectionName are too long")
	}
	return nil
}

func createSearchIndex(c *call) (any, error) {
	cl, err := c.searchCluster()
	if err != nil {
		return nil, err
	}
	var probe map[string]json.RawMessage
	if e := decodeJSON(c.body, &probe); e != nil {
		return nil, e
	}
	if _, ok := probe["definition"]; !ok {
		// The flat shape: the definition's members sit next to the names.
		return c.createFlat(cl, false)
	}
	var b struct {
		Name           string                     `json:"name"`
		Database       string                     `json:"database"`
		CollectionName string                     `json:"collectionName"`
		Type           string                     `json:"type"`
		Definition     map[string]json.RawMessage `json:"definition"`
	}
	if e := c.decode(&b); e != nil {
		return nil, e
	}
	if e := requireNames(b.Name, b.Database, b.CollectionName); e != nil {
		return nil, e
	}
	if b.Type == "" {
		b.Type = "search"
	}
	if b.Type != "search" && b.Type != "vectorSearch" {
		return nil, errField("type", "must be search or vectorSearch, got %q", b.Type)
	}
	if b.Definition == nil {
		return nil, errMissing("definition")
	}
	if e := c.validateDefinition("definition.", b.Type, b.Definition); e != nil {
		return nil, e
	}
	def, _ := json.Marshal(b.Definition)
	ix, e := c.addIndex(cl, b.Name, b.Database, b.CollectionName, b.Type, def)
	if e != nil {
		return nil, e
	}
	return c.searchIndexView(ix), nil
}

// flatDefinitionKeys are the members of the flat shape that form the definition.
var flatDefinitionKeys = []string{"analyzer", "analyzers", "mappings", "searchAnalyzer", "storedSource", "synonyms", "numPartitions", "fields"}

func (c *call) decodeFlat() (name, db, coll, typ string, def json.RawMessage, e *apiError) {
	var m map[string]json.RawMessage
	if e = decodeJSON(c.body, &m); e != nil {
		return
	}
	str := func(k string) (string, *apiError) {
		raw, ok := m[k]
		if !ok {
			return "", nil
		}
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", errField(k, "must be a string")
		}
		return s, nil
	}
	defm := map[string]json.RawMessage{}
	for k, v := range m {
		switch {
		case k == "name" || k == "database" || k == "collectionName" || k == "type" || k == "indexID" || k == "status":
		case contains(flatDefinitionKeys, k):
			defm[k] = v
		default:
			e = errInvalidAttribute(k, "a search index")
			return
		}
	}
	for _, p := range []struct {
		k   string
		dst *string
	}{{"name", &name}, {"database", &db}, {"collectionName", &coll}, {"type", &typ}} {
		if *p.dst, e = str(p.k); e != nil {
			return
		}
	}
	if typ == "" {
		typ = "search"
	}
	if typ != "search" && typ != "vectorSearch" {
		e = errField("type", "must be search or vectorSearch, got %q", typ)
		return
	}
	if e = c.validateDefinition("", typ, defm); e != nil {
		return
	}
	def, _ = json.Marshal(defm)
	return
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// createFlat creates from the flat shape; legacy answers in the flat shape
// (the deprecated route), otherwise with the full index.
func (c *call) createFlat(cl *Cluster, legacy bool) (any, error) {
	name, db, coll, typ, def, e := c.decodeFlat()
	if e != nil {
		return nil, e
	}
	if e := requireNames(name, db, coll); e != nil {
		return nil, e
	}
	ix, e := c.addIndex(cl, name, db, coll, typ, def)
	if e != nil {
		return nil, e
	}
	if legacy {
		return c.flatView(ix), nil
	}
	return c.searchIndexView(ix), nil
}

func createSearchIndexFlat(c *call) (any, error) {
	cl, err := c.searchCluster()
	if err != nil {
		return nil, err
	}
	return c.createFlat(cl, true)
}

func updateSearchIndex(c *call) (any, error) {
	_, ix, err := c.searchIndex()
	if err != nil {
		return nil, err
	}
	var b struct {
		Definition map[string]json.RawMessage `json:"definition"`
	}
	if e := c.decode(&b); e != nil {
		return nil, e
	}
	if b.Definition == nil {
		return nil, errMissing("definition")
	}
	if e := c.validateDefinition("definition.", ix.Type, b.Definition); e != nil {
		return nil, e
	}
	def, _ := json.Marshal(b.Definition)
	if e := c.replaceDefinition(ix, def); e != nil {
		return nil, e
	}
	return c.searchIndexView(ix), nil
}

func updateSearchIndexFlat(c *call) (any, error) {
	_, ix, err := c.searchIndex()
	if err != nil {
		return nil, err
	}
	name, db, coll, _, def, e := c.decodeFlat()
	if e != nil {
		return nil, e
	}
	if (name != "" && name != ix.Name) || (db != "" && db != ix.Database) || (coll != "" && coll != ix.CollectionName) {
		return nil, newError(http.StatusBadRequest, "ATTRIBUTE_READ_ONLY", "name, database and collectionName of an index cannot change.")
	}
	if e := c.replaceDefinition(ix, def); e != nil {
		return nil, e
	}
	return c.flatView(ix), nil
}

func analyzerKey(c *call) string { return c.project.ID + "/" + c.param("clusterName") }

// clusterAnalyzers are the names of the cluster's user-defined analyzers,
// which a definition may use as if it defined them itself.
func (c *call) clusterAnalyzers() []string {
	var xs []struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(c.w.Analyzers[analyzerKey(c)], &xs)
	out := make([]string, 0, len(xs))
	for _, a := range xs {
		out = append(out, a.Name)
	}
	return out
}

func listAnalyzers(c *call) (any, error) {
	if _, err := c.searchCluster(); err != nil {
		return nil, err
	}
	out := list{}
	if raw := c.w.Analyzers[analyzerKey(c)]; len(raw) > 0 {
		var xs []any
		_ = json.Unmarshal(raw, &xs)
		out = xs
	}
	return out, nil
}

func updateAnalyzers(c *call) (any, error) {
	if _, err := c.searchCluster(); err != nil {
		return nil, err
	}
	var xs []map[string]json.RawMessage
	if e := c.decode(&xs); e != nil {
		return nil, e
	}
	seen := map[string]bool{}
	for i, a := range xs {
		field := "[" + itoa(i) + "]."
		if e := validateCustomAnalyzer(field, a); e != nil {
			return nil, e
		}
		var name string
		_ = json.Unmarshal(a["name"], &name)
		if seen[name] {
			return nil, errField(field+"name", "duplicate analyzer name %s", name)
		}
		seen[name] = true
	}
	raw, _ := json.Marshal(xs)
	c.w.Analyzers[analyzerKey(c)] = raw
	c.markChanged()
	out := make(list, len(xs))
	for i, a := range xs {
		out[i] = a
	}
	return out, nil
}
