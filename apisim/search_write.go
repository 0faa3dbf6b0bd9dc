package apisim

import (
	"encoding/json"
	"net/http"
)

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
