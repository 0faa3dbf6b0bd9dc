package apisim

import (
	"encoding/json"
)

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
