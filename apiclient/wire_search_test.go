package apiclient

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func searchCases() map[string]wireCase {
	base := "/groups/" + wGroup + "/clusters/Cluster0"
	si := base + "/search/indexes"
	fts := base + "/fts/indexes"
	// A name with a space and a slash must stay one escaped path segment.
	const odd = "by title/v2"
	const oddEscaped = "by%20title%2Fv2"
	checkIndex := func(t *testing.T, x SearchIndex) {
		assert.Equal(t, wIndex, x.IndexID)
		assert.Equal(t, IndexSearch, x.Type)
		assert.True(t, x.Queryable)
		require.NotNil(t, x.LatestDefinition)
		d := x.LatestDefinition
		assert.Equal(t, false, d.Mappings.Dynamic)
		assert.Contains(t, d.Mappings.Fields, "title")
		require.Len(t, d.Analyzers, 1)
		assert.Equal(t, "keyword", d.Analyzers[0].Tokenizer["type"])
		assert.Equal(t, "synonyms", d.Synonyms[0].Source.Collection)
		assert.JSONEq(t, `{"include":["title"]}`, string(d.StoredSource))
		assert.EqualValues(t, 2, x.LatestDefinitionVersion.Version)
		require.Len(t, x.StatusDetail, 1)
		h := x.StatusDetail[0]
		assert.Equal(t, IndexReady, h.MainIndex.Status)
		assert.Equal(t, IndexBuilding, h.StagedIndex.Status)
		assert.EqualValues(t, 3, h.StagedIndex.DefinitionVersion.Version)
		assert.Equal(t, SynonymReady, x.SynonymMappingStatusDetail[0]["words"].Status)
	}
	checkVector := func(t *testing.T, x SearchIndex) {
		assert.Equal(t, IndexVectorSearch, x.Type)
		require.Len(t, x.LatestDefinition.Fields, 2)
		f := x.LatestDefinition.Fields[0]
		assert.Equal(t, VectorField{Type: "vector", Path: "embedding", NumDimensions: 1536, Similarity: SimilarityCosine}, f)
		assert.Equal(t, VectorFieldFilter, x.LatestDefinition.Fields[1].Type)
	}
	checkList := func(t *testing.T, v any) {
		l := as[[]SearchIndex](t, v)
		require.Len(t, l, 2)
		checkIndex(t, l[0])
		checkVector(t, l[1])
	}
	checkFTS := func(t *testing.T, x FTSIndex) {
		assert.Equal(t, wIndex, x.IndexID)
		assert.Equal(t, "lucene.standard", x.Analyzer)
		assert.Equal(t, 2, x.NumPartitions)
		assert.Equal(t, true, x.Mappings.Dynamic)
		assert.Equal(t, "true", string(x.StoredSource))
	}
	textDef := IndexDefinition{
		Mappings:       &Mappings{Dynamic: false, Fields: map[string]any{"title": map[string]any{"type": "string", "analyzer": "lucene.english"}}},
		Analyzer:       "lucene.standard",
		SearchAnalyzer: "lowercaser",
		Analyzers:      []Analyzer{{Name: "lowercaser", Tokenizer: map[string]any{"type": "keyword"}, TokenFilters: []map[string]any{{"type": "lowercase"}}}},
	}
	textDefJSON := `{"mappings":{"dynamic":false,"fields":{"title":{"type":"string","analyzer":"lucene.english"}}},
		"analyzer":"lucene.standard","searchAnalyzer":"lowercaser",
		"analyzers":[{"name":"lowercaser","tokenizer":{"type":"keyword"},"tokenFilters":[{"type":"lowercase"}]}]}`
	flat := FTSIndex{IndexID: "read-only", Name: "default", Database: "shop", CollectionName: "products", Analyzer: "lucene.standard",
		Mappings: &Mappings{Dynamic: true}, NumPartitions: 2, StoredSource: json.RawMessage(`true`)}
	flatJSON := `{"name":"default","database":"shop","collectionName":"products","analyzer":"lucene.standard","mappings":{"dynamic":true},"numPartitions":2,"storedSource":true}`
	analyzers := []Analyzer{{Name: "lowercaser", CharFilters: []map[string]any{{"type": "htmlStrip", "ignoredTags": []any{"a"}}},
		Tokenizer: map[string]any{"type": "standard", "maxTokenLength": 200}, TokenFilters: []map[string]any{{"type": "lowercase"}}}}
	checkAnalyzers := func(t *testing.T, v any) {
		l := as[[]Analyzer](t, v)
		require.Len(t, l, 1)
		assert.Equal(t, "lowercaser", l[0].Name)
		assert.Equal(t, "htmlStrip", l[0].CharFilters[0]["type"])
		assert.EqualValues(t, 200, l[0].Tokenizer["maxTokenLength"])
	}
	return map[string]wireCase{
		"createAtlasSearchIndex": {
			path: si,
			body: `{"name":"vec","database":"shop","collectionName":"products","type":"vectorSearch","definition":{
				"fields":[{"type":"vector","path":"embedding","numDimensions":1536,"similarity":"cosine"},{"type":"filter","path":"category"}]}}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Search().Create(ctx, wGroup, "Cluster0", SearchIndexCreateRequest{
					Name: "vec", Database: "shop", CollectionName: "products", Type: IndexVectorSearch,
					Definition: IndexDefinition{Fields: []VectorField{
						{Type: VectorFieldVector, Path: "embedding", NumDimensions: 1536, Similarity: SimilarityCosine},
						{Type: VectorFieldFilter, Path: "category"},
					}},
				})
			},
			check: func(t *testing.T, v any) {
				x := as[*SearchIndex](t, v)
				checkVector(t, *x)
				assert.Equal(t, IndexPending, x.Status)
			},
		},
		"listAtlasSearchIndexes": {
			path: si + "/shop/products",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Search().List(ctx, wGroup, "Cluster0", "shop", "products")
			},
			check: checkList,
		},
		"listAtlasSearchIndexesCluster": {
			path: si,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Search().ListCluster(ctx, wGroup, "Cluster0")
			},
			check: checkList,
		},
		"getAtlasSearchIndex": {
			path: si + "/" + wIndex,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Search().Get(ctx, wGroup, "Cluster0", wIndex)
			},
			check: func(t *testing.T, v any) { checkIndex(t, *as[*SearchIndex](t, v)) },
		},
		"getAtlasSearchIndexByName": {
			path: si + "/shop/products/" + oddEscaped,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Search().GetByName(ctx, wGroup, "Cluster0", "shop", "products", odd)
			},
			check: func(t *testing.T, v any) { checkIndex(t, *as[*SearchIndex](t, v)) },
		},
		"updateAtlasSearchIndex": {
			path: si + "/" + wIndex, body: `{"definition":` + textDefJSON + `}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Search().Update(ctx, wGroup, "Cluster0", wIndex, IndexSearch, textDef)
			},
			check: func(t *testing.T, v any) { assert.Equal(t, IndexPending, as[*SearchIndex](t, v).Status) },
		},
		"updateAtlasSearchIndexByName": {
			path: si + "/shop/products/" + oddEscaped, body: `{"definition":` + textDefJSON + `}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Search().UpdateByName(ctx, wGroup, "Cluster0", "shop", "products", odd, IndexSearch, textDef)
			},
			check: func(t *testing.T, v any) { assert.Equal(t, IndexPending, as[*SearchIndex](t, v).Status) },
		},
		"deleteAtlasSearchIndex": {
			path: si + "/" + wIndex,
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.Search().Delete(ctx, wGroup, "Cluster0", wIndex)
			},
		},
		"deleteAtlasSearchIndexByName": {
			path: si + "/shop/products/" + oddEscaped,
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.Search().DeleteByName(ctx, wGroup, "Cluster0", "shop", "products", odd)
			},
		},
		"listAtlasSearchIndexesDeprecated": {
			path: fts + "/shop/products",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Search().ListFTS(ctx, wGroup, "Cluster0", "shop", "products")
			},
			check: func(t *testing.T, v any) {
				l := as[[]FTSIndex](t, v)
				require.Len(t, l, 1)
				checkFTS(t, l[0])
				assert.Equal(t, FTSSteady, l[0].Status)
			},
		},
		"createAtlasSearchIndexDeprecated": {
			path: fts, body: flatJSON,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Search().CreateFTS(ctx, wGroup, "Cluster0", flat)
			},
			check: func(t *testing.T, v any) {
				x := as[*FTSIndex](t, v)
				checkFTS(t, *x)
				assert.Equal(t, FTSInProgress, x.Status)
			},
		},
		"getAtlasSearchIndexDeprecated": {
			path: fts + "/" + wIndex,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Search().GetFTS(ctx, wGroup, "Cluster0", wIndex)
			},
			check: func(t *testing.T, v any) { checkFTS(t, *as[*FTSIndex](t, v)) },
		},
		"updateAtlasSearchIndexDeprecated": {
			path: fts + "/" + wIndex, body: flatJSON,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Search().UpdateFTS(ctx, wGroup, "Cluster0", wIndex, flat)
			},
			check: func(t *testing.T, v any) { checkFTS(t, *as[*FTSIndex](t, v)) },
		},
		"deleteAtlasSearchIndexDeprecated": {
			path: fts + "/" + wIndex,
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.Search().DeleteFTS(ctx, wGroup, "Cluster0", wIndex)
			},
		},
		"listAtlasSearchAnalyzers": {
			path: base + "/fts/analyzers",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Search().Analyzers(ctx, wGroup, "Cluster0")
			},
			check: checkAnalyzers,
		},
		"updateAtlasSearchAnalyzers": {
			path: base + "/fts/analyzers",
			body: `[{"name":"lowercaser","charFilters":[{"type":"htmlStrip","ignoredTags":["a"]}],"tokenizer":{"type":"standard","maxTokenLength":200},"tokenFilters":[{"type":"lowercase"}]}]`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Search().UpdateAnalyzers(ctx, wGroup, "Cluster0", analyzers)
			},
			check: checkAnalyzers,
		},
	}
}
