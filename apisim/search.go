package apisim

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Search indexes: the 2024-05-30 /search/indexes routes, the deprecated flat
// /fts/indexes routes and the v1.0 user-defined analyzers. An index is
// PENDING, then BUILDING, then READY, by the clock since its last change.

type SearchIndex struct {
	ID             string          `json:"id"`
	GroupID        string          `json:"groupId"`
	ClusterName    string          `json:"clusterName"`
	Name           string          `json:"name"`
	Database       string          `json:"database"`
	CollectionName string          `json:"collectionName"`
	Type           string          `json:"type"`
	Definition     json.RawMessage `json:"definition"`
	Version        int             `json:"version"`
	CreatedAt      time.Time       `json:"createdAt"`
	UpdatedAt      time.Time       `json:"updatedAt"`
}

const (
	indexPendingFor = 5 * time.Second
	indexBuildFor   = 25 * time.Second
)

func (ix *SearchIndex) status(now time.Time) (string, bool) {
	since := now.Sub(ix.UpdatedAt)
	queryable := ix.Version > 1 // an older definition keeps serving while a new one builds
	switch {
	case since < indexPendingFor:
		return "PENDING", queryable
	case since < indexPendingFor+indexBuildFor:
		return "BUILDING", queryable
	}
	return "READY", true
}

func (c *call) searchIndexView(ix *SearchIndex) any {
	st, q := ix.status(c.now)
	def := ix.Definition
	if len(def) == 0 {
		def = json.RawMessage("{}")
	}
	var details []any
	for _, h := range c.w.Hosts {
		if h.GroupID == ix.GroupID && h.ClusterName == ix.ClusterName && strings.HasPrefix(h.TypeName, "REPLICA") {
			details = append(details, map[string]any{
				"hostname": h.Hostname, "status": st, "queryable": q,
				"mainIndex": map[string]any{"status": st, "queryable": q, "definition": def,
					"definitionVersion": map[string]any{"version": ix.Version, "createdAt": fmtTime(ix.UpdatedAt)}},
			})
		}
	}
	if details == nil {
		details = []any{}
	}
	v := map[string]any{
		"indexID": ix.ID, "name": ix.Name, "database": ix.Database, "collectionName": ix.CollectionName,
		"type": ix.Type, "status": st, "queryable": q, "latestDefinition": def,
		"latestDefinitionVersion": map[string]any{"version": ix.Version, "createdAt": fmtTime(ix.UpdatedAt)},
		"statusDetail":            details,
	}
	if ix.Type == "search" {
		v["synonymMappingStatus"] = map[string]string{"PENDING": "BUILDING", "BUILDING": "BUILDING", "READY": "READY"}[st]
	}
	return v
}

// flatView is the deprecated ClusterSearchIndex: definition members inline.
func (c *call) flatView(ix *SearchIndex) any {
	st, _ := ix.status(c.now)
	v := map[string]any{}
	_ = json.Unmarshal(ix.Definition, &v)
	v["indexID"], v["name"], v["database"], v["collectionName"], v["type"] = ix.ID, ix.Name, ix.Database, ix.CollectionName, ix.Type
	v["status"] = map[string]string{"PENDING": "IN_PROGRESS", "BUILDING": "IN_PROGRESS", "READY": "STEADY"}[st]
	return v
}

// searchCluster finds the cluster and refuses versions before 4.2.
func (c *call) searchCluster() (*Cluster, error) {
	cl, err := c.clusterAPICluster("clusterName", false)
	if err != nil {
		return nil, err
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

func (c *call) indexesOf(cl *Cluster, match func(*SearchIndex) bool) list {
	var out []*SearchIndex
	for _, ix := range c.w.SearchIndexes {
		if ix.GroupID == cl.GroupID && ix.ClusterName == cl.Name && match(ix) {
			out = append(out, ix)
		}
	}
	return listOf(out, func(ix *SearchIndex) any { return c.searchIndexView(ix) })
}

// findIndex resolves either {indexId} or {databaseName}/{collectionName}/{indexName}.
func (c *call) findIndex(cl *Cluster) (*SearchIndex, error) {
	id, db, coll, name := c.param("indexId"), c.param("databaseName"), c.param("collectionName"), c.param("indexName")
	ix := find(c.w.SearchIndexes, func(x *SearchIndex) bool {
		if x.GroupID != cl.GroupID || x.ClusterName != cl.Name {
			return false
		}
		if id != "" {
			return x.ID == id
		}
		return x.Database == db && x.CollectionName == coll && x.Name == name
	})
	if ix == nil {
		return nil, errNotFound("INDEX_NOT_FOUND", "No search index %s exists on cluster %s.", strings.Trim(id+" "+db+"."+coll+"."+name, ". "), cl.Name)
	}
	return ix, nil
}

func init() {
	handle("listAtlasSearchIndexesCluster", func(c *call) (any, error) {
		cl, err := c.searchCluster()
		if err != nil {
			return nil, err
		}
		return c.indexesOf(cl, func(*SearchIndex) bool { return true }), nil
	})
	handle("listAtlasSearchIndexes", func(c *call) (any, error) {
		cl, err := c.searchCluster()
		if err != nil {
			return nil, err
		}
		db, coll := c.param("databaseName"), c.param("collectionName")
		return c.indexesOf(cl, func(ix *SearchIndex) bool { return ix.Database == db && ix.CollectionName == coll }), nil
	})
	handle("listAtlasSearchIndexesDeprecated", func(c *call) (any, error) {
		cl, err := c.searchCluster()
		if err != nil {
			return nil, err
		}
		db, coll := c.param("databaseName"), c.param("collectionName")
		var out list
		for _, ix := range c.w.SearchIndexes {
			if ix.GroupID == cl.GroupID && ix.ClusterName == cl.Name && ix.Database == db && ix.CollectionName == coll {
				out = append(out, c.flatView(ix))
			}
		}
		return out, nil
	})
	get := func(view func(*call, *SearchIndex) any) opHandler {
		return func(c *call) (any, error) {
			cl, err := c.searchCluster()
			if err != nil {
				return nil, err
			}
			ix, err := c.findIndex(cl)
			if err != nil {
				return nil, err
			}
			return view(c, ix), nil
		}
	}
	full := func(c *call, ix *SearchIndex) any { return c.searchIndexView(ix) }
	flat := func(c *call, ix *SearchIndex) any { return c.flatView(ix) }
	handle("getAtlasSearchIndex", get(full))
	handle("getAtlasSearchIndexByName", get(full))
	handle("getAtlasSearchIndexDeprecated", get(flat))
	handle("createAtlasSearchIndex", createSearchIndex)
	handle("createAtlasSearchIndexDeprecated", createSearchIndexFlat)
	handle("updateAtlasSearchIndex", updateSearchIndex)
	handle("updateAtlasSearchIndexByName", updateSearchIndex)
	handle("updateAtlasSearchIndexDeprecated", updateSearchIndexFlat)
	del := func(c *call) (any, error) {
		cl, err := c.searchCluster()
		if err != nil {
			return nil, err
		}
		ix, err := c.findIndex(cl)
		if err != nil {
			return nil, err
		}
		remove(&c.w.SearchIndexes, func(x *SearchIndex) bool { return x == ix })
		c.markChanged()
		return nil, nil
	}
	handle("deleteAtlasSearchIndex", del)
	handle("deleteAtlasSearchIndexByName", del)
	handle("deleteAtlasSearchIndexDeprecated", del)
	handle("listAtlasSearchAnalyzers", listAnalyzers)
	handle("updateAtlasSearchAnalyzers", updateAnalyzers)
}

// validateDefinition checks the parts of a definition the spec constrains.
func validateDefinition(field, typ string, def map[string]json.RawMessage) *apiError {
	if raw, ok := def["numPartitions"]; ok {
		var n int
		if json.Unmarshal(raw, &n) != nil || (n != 1 && n != 2 && n != 4) {
			return errField(field+"numPartitions", "must be 1, 2 or 4")
		}
	}
	switch typ {
	case "search":
		if _, ok := def["mappings"]; !ok {
			return errMissing(field + "mappings")
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(def["mappings"], &m) != nil {
			return errField(field+"mappings", "must be an object")
		}
	case "vectorSearch":
		var fields []map[string]any
		if json.Unmarshal(def["fields"], &fields) != nil || len(fields) == 0 {
			return errField(field+"fields", "must be a non-empty array of vector field definitions")
		}
	}
	for _, k := range []string{"analyzer", "searchAnalyzer"} {
		if raw, ok := def[k]; ok {
			var s string
			if json.Unmarshal(raw, &s) != nil || s == "" {
				return errField(field+k, "must be an analyzer name such as lucene.standard")
			}
		}
	}
	return nil
}

func (c *call) addIndex(cl *Cluster, name, db, coll, typ string, def json.RawMessage) (*SearchIndex, *apiError) {
	for _, ix := range c.w.SearchIndexes {
		if ix.GroupID == cl.GroupID && ix.ClusterName == cl.Name && ix.Database == db && ix.CollectionName == coll && ix.Name == name {
			return nil, errConflict("INDEX_ALREADY_EXISTS", "A search index named %s already exists on %s.%s.", name, db, coll)
		}
	}
	ix := &SearchIndex{ID: c.w.newID(), GroupID: cl.GroupID, ClusterName: cl.Name, Name: name, Database: db,
		CollectionName: coll, Type: typ, Definition: def, Version: 1, CreatedAt: c.now, UpdatedAt: c.now}
	c.w.SearchIndexes = append(c.w.SearchIndexes, ix)
	c.markChanged()
	return ix, nil
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
		return nil, errField("type", "must be search or vectorSearch")
	}
	if b.Definition == nil {
		return nil, errMissing("definition")
	}
	if e := validateDefinition("definition.", b.Type, b.Definition); e != nil {
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

func decodeFlat(c *call) (name, db, coll, typ string, def json.RawMessage, e *apiError) {
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
			e = errField(k, "is not an attribute of a search index")
			e.Code = "INVALID_ATTRIBUTE"
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
		e = errField("type", "must be search or vectorSearch")
		return
	}
	if e = validateDefinition("", typ, defm); e != nil {
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

func createSearchIndexFlat(c *call) (any, error) {
	cl, err := c.searchCluster()
	if err != nil {
		return nil, err
	}
	name, db, coll, typ, def, e := decodeFlat(c)
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
	return c.flatView(ix), nil
}

func updateSearchIndex(c *call) (any, error) {
	cl, err := c.searchCluster()
	if err != nil {
		return nil, err
	}
	ix, err := c.findIndex(cl)
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
	if e := validateDefinition("definition.", ix.Type, b.Definition); e != nil {
		return nil, e
	}
	ix.Definition, _ = json.Marshal(b.Definition)
	ix.Version++
	ix.UpdatedAt = c.now
	c.markChanged()
	return c.searchIndexView(ix), nil
}

func updateSearchIndexFlat(c *call) (any, error) {
	cl, err := c.searchCluster()
	if err != nil {
		return nil, err
	}
	ix, err := c.findIndex(cl)
	if err != nil {
		return nil, err
	}
	name, db, coll, _, def, e := decodeFlat(c)
	if e != nil {
		return nil, e
	}
	if (name != "" && name != ix.Name) || (db != "" && db != ix.Database) || (coll != "" && coll != ix.CollectionName) {
		return nil, newError(http.StatusBadRequest, "ATTRIBUTE_READ_ONLY", "name, database and collectionName of an index cannot change.")
	}
	ix.Definition = def
	ix.Version++
	ix.UpdatedAt = c.now
	c.markChanged()
	return c.flatView(ix), nil
}

func analyzerKey(c *call) string { return c.project.ID + "/" + c.param("clusterName") }

func listAnalyzers(c *call) (any, error) {
	if _, err := c.searchCluster(); err != nil {
		return nil, err
	}
	var out list
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
	var xs []map[string]any
	if e := c.decode(&xs); e != nil {
		return nil, e
	}
	seen := map[string]bool{}
	for i, a := range xs {
		name, _ := a["name"].(string)
		if name == "" {
			return nil, errMissing("[" + itoa(i) + "].name")
		}
		if seen[name] {
			return nil, errField("["+itoa(i)+"].name", "duplicate analyzer name %s", name)
		}
		seen[name] = true
		tok, ok := a["tokenizer"].(map[string]any)
		if !ok {
			return nil, errMissing("[" + itoa(i) + "].tokenizer")
		}
		if t, _ := tok["type"].(string); t == "" {
			return nil, errMissing("[" + itoa(i) + "].tokenizer.type")
		}
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
