package apisim

import "strings"

// The performance advisor: drop-index and suggested-index advice, enveloped
// in {content, status} as the 2024-08-05 schema requires.

func init() {
	handle("listDropIndexes", func(c *call) (any, error) {
		cl, err := c.clusterAPICluster("clusterName", true)
		if err != nil {
			return nil, err
		}
		idx := func(name, ns string, acc int) any {
			return map[string]any{"name": name, "namespace": ns, "accessCount": acc, "sizeBytes": 1 << 20, "index": []any{map[string]any{name[:strings.IndexByte(name, '_')]: 1}}}
		}
		return advisorEnvelope(map[string]any{
			"hiddenIndexes":    []any{},
			"redundantIndexes": []any{idx("status_1", cl.Name+"db.orders", 120)},
			"unusedIndexes":    []any{idx("legacyRef_1", cl.Name+"db.customers", 0)},
		}), nil
	})
	handle("listClusterSuggestedIndexes", func(c *call) (any, error) {
		cl, err := c.clusterAPICluster("clusterName", true)
		if err != nil {
			return nil, err
		}
		shape := "5f" + cl.ID[2:]
		return advisorEnvelope(map[string]any{
			"shapes": []any{map[string]any{"id": shape, "avgMs": 412, "count": 1873, "inefficiencyScore": 4210, "namespace": "shop.orders",
				"operations": []any{map[string]any{"predicates": []any{map[string]any{"find": map[string]any{"customerId": "<val>"}}}, "stats": map[string]any{"ms": 412, "nReturned": 3, "nExamined": 120000, "ts": c.now.UnixMilli()}}}}},
			"suggestedIndexes": []any{map[string]any{"id": cl.ID, "impact": []string{shape}, "index": []any{map[string]any{"customerId": 1}}, "namespace": "shop.orders", "weight": 98.5}},
		}), nil
	})
}

// advisorEnvelope wraps an answer as the 2024-08-05 schema requires:
// {content, status}.
func advisorEnvelope(content any) any {
	return map[string]any{"content": content, "status": 200}
}
