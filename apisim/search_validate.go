package apisim

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/limits"
)

// Validation of search index definitions: every 400 names the field, with
// the prefix the body used ("definition." or none for the flat shape).

func str(raw json.RawMessage) (string, bool) {
	var s string
	return s, json.Unmarshal(raw, &s) == nil
}

// validateCustomAnalyzer checks one user-defined analyzer object.
func validateCustomAnalyzer(field string, a map[string]json.RawMessage) *apiError {
	name, ok := str(a["name"])
	if _, present := a["name"]; !present || (ok && name == "") {
		return errMissing(field + "name")
	}
	if !ok {
		return errField(field+"name", "must be a string")
	}
	if strings.HasPrefix(name, "lucene.") || strings.HasPrefix(name, "builtin.") || strings.HasPrefix(name, "mongodb.") {
		return errField(field+"name", "%s uses a reserved prefix (lucene., builtin., mongodb.)", name)
	}
	raw, present := a["tokenizer"]
	if !present {
		return errMissing(field + "tokenizer")
	}
	var tok map[string]json.RawMessage
	if json.Unmarshal(raw, &tok) != nil || tok == nil {
		return errField(field+"tokenizer", "must be an object with a type")
	}
	if t, ok := str(tok["type"]); !ok || t == "" {
		return errMissing(field + "tokenizer.type")
	}
	for _, k := range []string{"charFilters", "tokenFilters"} {
		if raw, ok := a[k]; ok {
			var xs []map[string]json.RawMessage
			if json.Unmarshal(raw, &xs) != nil {
				return errField(field+k, "must be an array of objects")
			}
			for i, x := range xs {
				if t, ok := str(x["type"]); !ok || t == "" {
					return errMissing(field + k + "[" + itoa(i) + "].type")
				}
			}
		}
	}
	return unknownMember(field, a, []string{"name", "tokenizer", "charFilters", "tokenFilters"}, "an analyzer")
}

// validateDefinition checks a text or vector definition.
func (c *call) validateDefinition(field, typ string, def map[string]json.RawMessage) *apiError {
	// Deeper than a stored document may be (limits.MaxDocumentDepth, the
	// database's 100 levels): refused before anything else reads it. The
	// definition itself is one level, and the index document around it one
	// more.
	for _, k := range sortedRawKeys(def) {
		if e := limitError("", limits.DocumentDepth(field+k, def[k], 2)); e != nil {
			return e
		}
	}
	if raw, ok := def["numPartitions"]; ok {
		var n int
		if json.Unmarshal(raw, &n) != nil {
			return errField(field+"numPartitions", "must be 1, 2 or 4, got %s", string(raw))
		}
		if e := limitError(field, limits.NumPartitions(n)); e != nil {
			return e
		}
	}
	if raw, ok := def["storedSource"]; ok {
		if e := validateStoredSource(field+"storedSource", raw); e != nil {
			return e
		}
	}
	if typ == "vectorSearch" {
		return validateVector(field, def)
	}
	return c.validateText(field, def)
}

func validateStoredSource(field string, raw json.RawMessage) *apiError {
	var b bool
	if json.Unmarshal(raw, &b) == nil {
		return nil
	}
	var o map[string]json.RawMessage
	if json.Unmarshal(raw, &o) != nil {
		return errField(field, "must be true, false or an object with include or exclude")
	}
	_, inc := o["include"]
	_, exc := o["exclude"]
	if inc == exc {
		return errField(field, "needs exactly one of include or exclude")
	}
	for k, v := range o {
		var paths []string
		if (k != "include" && k != "exclude") || json.Unmarshal(v, &paths) != nil {
			return errField(field+"."+k, "must be an array of field paths under include or exclude")
		}
	}
	return nil
}

func (c *call) validateText(field string, def map[string]json.RawMessage) *apiError {
	raw, ok := def["mappings"]
	if !ok {
		return errMissing(field + "mappings")
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return errField(field+"mappings", "must be an object")
	}
	if d, ok := m["dynamic"]; ok {
		var b bool
		var o map[string]any
		if json.Unmarshal(d, &b) != nil && json.Unmarshal(d, &o) != nil {
			return errField(field+"mappings.dynamic", "must be true, false or an object")
		}
	}
	if f, ok := m["fields"]; ok {
		var o map[string]json.RawMessage
		if json.Unmarshal(f, &o) != nil {
			return errField(field+"mappings.fields", "must be an object of field name to field definition")
		}
	}
	custom := c.clusterAnalyzers()
	if raw, ok := def["analyzers"]; ok {
		var xs []map[string]json.RawMessage
		if json.Unmarshal(raw, &xs) != nil {
			return errField(field+"analyzers", "must be an array of analyzer objects")
		}
		for i, a := range xs {
			af := field + "analyzers[" + itoa(i) + "]."
			if e := validateCustomAnalyzer(af, a); e != nil {
				return e
			}
			n, _ := str(a["name"])
			custom = append(custom, n)
		}
	}
	known := func(name string) bool { return limits.BuiltInAnalyzer(name) || contains(custom, name) }
	for _, k := range []string{"analyzer", "searchAnalyzer"} {
		if raw, ok := def[k]; ok {
			s, ok := str(raw)
			if !ok || !known(s) {
				return errField(field+k, "unknown analyzer %s; use lucene.standard, another lucene.* analyzer or one defined in analyzers", string(raw))
			}
		}
	}
	if raw, ok := def["synonyms"]; ok {
		var xs []map[string]json.RawMessage
		if json.Unmarshal(raw, &xs) != nil {
			return errField(field+"synonyms", "must be an array of synonym mappings")
		}
		for i, s := range xs {
			sf := field + "synonyms[" + itoa(i) + "]."
			if n, ok := str(s["name"]); !ok || n == "" {
				return errMissing(sf + "name")
			}
			a, ok := str(s["analyzer"])
			if _, present := s["analyzer"]; !present {
				return errMissing(sf + "analyzer")
			}
			if !ok || !known(a) {
				return errField(sf+"analyzer", "unknown analyzer %s", string(s["analyzer"]))
			}
			var src struct {
				Collection string `json:"collection"`
			}
			if json.Unmarshal(s["source"], &src) != nil || src.Collection == "" {
				return errMissing(sf + "source.collection")
			}
		}
	}
	return unknownMember(field, def, []string{"mappings", "analyzer", "searchAnalyzer", "analyzers", "synonyms", "storedSource", "numPartitions", "typeSets", "sort"}, "a search index definition")
}

func validateVector(field string, def map[string]json.RawMessage) *apiError {
	raw, ok := def["fields"]
	if !ok {
		return errMissing(field + "fields")
	}
	var fields []map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil || len(fields) == 0 {
		return errField(field+"fields", "must be a non-empty array of vector and filter fields")
	}
	for i, f := range fields {
		ff := field + "fields[" + itoa(i) + "]."
		if p, ok := str(f["path"]); !ok || p == "" {
			return errMissing(ff + "path")
		}
		t, _ := str(f["type"])
		switch t {
		case "filter":
		case "vector":
			var n int
			if _, ok := f["numDimensions"]; !ok {
				return errMissing(ff + "numDimensions")
			}
			if json.Unmarshal(f["numDimensions"], &n) != nil || n < 1 {
				return errField(ff+"numDimensions", "must be a positive integer, got %s", string(f["numDimensions"]))
			}
			if _, ok := f["similarity"]; !ok {
				return errMissing(ff + "similarity")
			}
			if s, _ := str(f["similarity"]); s != "euclidean" && s != "cosine" && s != "dotProduct" {
				return errField(ff+"similarity", "must be euclidean, cosine or dotProduct, got %s", string(f["similarity"]))
			}
		case "":
			return errMissing(ff + "type")
		default:
			return errField(ff+"type", "must be vector or filter, got %q", t)
		}
	}
	return unknownMember(field, def, []string{"fields", "numPartitions", "storedSource", "nestedRoot"}, "a vector search index definition")
}

// sortedRawKeys lists a JSON object's members in order, so the first
// problem reported is the same on every run.
func sortedRawKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
