package apisim

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

// searchEnv is a server on a manual clock and the shared client as the org owner.
func searchEnv(t *testing.T) (*testEnv, *apiclient.Client) {
	t.Helper()
	e := newEnv(t, Options{})
	c, err := apiclient.New(apiclient.Options{BaseURL: e.ts.URL, Service: "atlas",
		Auth: apiclient.DigestAuth("org-owner", "org-owner-secret"), MaxRetries: -1})
	require.NoError(t, err)
	return e, c
}

func textDef(extra string) apiclient.IndexDefinition {
	var d apiclient.IndexDefinition
	if err := json.Unmarshal([]byte(`{"mappings":{"dynamic":true}`+extra+`}`), &d); err != nil {
		panic(err)
	}
	return d
}

// textIndex is a request for a dynamic-mapping search index name on
// shop.collection.
func textIndex(name, collection string) apiclient.SearchIndexCreateRequest {
	return apiclient.SearchIndexCreateRequest{Name: name, Database: "shop", CollectionName: collection, Definition: textDef("")}
}

// apiErr asserts err is an API error with that status and code, and returns it.
func apiErr(t *testing.T, err error, status int, code string) *apiclient.Error {
	t.Helper()
	ae, ok := apiclient.AsError(err)
	require.True(t, ok, "want an API error, got %v", err)
	assert.Equal(t, status, ae.Status)
	assert.Equal(t, code, ae.ErrorCode)
	return ae
}

func hostStatuses(ix *apiclient.SearchIndex) []apiclient.IndexStatus {
	var out []apiclient.IndexStatus
	for _, h := range ix.StatusDetail {
		out = append(out, h.Status)
	}
	return out
}

func TestSearchIndexBuildsPerHost(t *testing.T) {
	e, c := searchEnv(t)
	ctx := context.Background()
	s := c.Search()
	ix, err := s.Create(ctx, DemoPaymentsID, "payments-rs", textIndex("by-sku", "orders"))
	require.NoError(t, err)
	assert.Equal(t, apiclient.IndexPending, ix.Status)
	assert.False(t, ix.Queryable)
	require.Len(t, ix.StatusDetail, 3, "one entry per replica set member")
	assert.Equal(t, int64(1), ix.LatestDefinitionVersion.Version)

	// Hosts start one after another: at 6s the first builds, the last waits.
	e.clock.Advance(6 * time.Second)
	ix, err = s.Get(ctx, DemoPaymentsID, "payments-rs", ix.IndexID)
	require.NoError(t, err)
	assert.Equal(t, []apiclient.IndexStatus{"BUILDING", "PENDING", "PENDING"}, hostStatuses(ix))
	assert.Equal(t, apiclient.IndexPending, ix.Status, "the overall status is the least advanced host")

	e.clock.Advance(26 * time.Second)
	ix, err = s.GetByName(ctx, DemoPaymentsID, "payments-rs", "shop", "orders", "by-sku")
	require.NoError(t, err)
	assert.Equal(t, []apiclient.IndexStatus{"READY", "READY", "BUILDING"}, hostStatuses(ix))
	assert.False(t, ix.Queryable)

	e.clock.Advance(10 * time.Second)
	ix, err = s.Get(ctx, DemoPaymentsID, "payments-rs", ix.IndexID)
	require.NoError(t, err)
	assert.Equal(t, apiclient.IndexReady, ix.Status)
	assert.True(t, ix.Queryable)
	for _, h := range ix.StatusDetail {
		require.NotNil(t, h.MainIndex)
		assert.Nil(t, h.StagedIndex)
		assert.Equal(t, int64(1), h.MainIndex.DefinitionVersion.Version)
	}

	// An update builds as the staged index while version 1 keeps serving.
	upd := textDef(`,"analyzer":"lucene.english"`)
	ix, err = s.Update(ctx, DemoPaymentsID, "payments-rs", ix.IndexID, apiclient.IndexSearch, upd)
	require.NoError(t, err)
	assert.Equal(t, int64(2), ix.LatestDefinitionVersion.Version)
	assert.Equal(t, "lucene.english", ix.LatestDefinition.Analyzer)
	assert.True(t, ix.Queryable, "the old definition still answers queries")
	for _, h := range ix.StatusDetail {
		require.NotNil(t, h.MainIndex)
		require.NotNil(t, h.StagedIndex, "host %s", h.Hostname)
		assert.Equal(t, apiclient.IndexReady, h.MainIndex.Status)
		assert.Equal(t, int64(1), h.MainIndex.DefinitionVersion.Version)
		assert.Equal(t, "", h.MainIndex.Definition.Analyzer)
		assert.Equal(t, apiclient.IndexPending, h.StagedIndex.Status)
		assert.Equal(t, int64(2), h.StagedIndex.DefinitionVersion.Version)
	}
	e.clock.Advance(time.Minute)
	ix, err = s.Get(ctx, DemoPaymentsID, "payments-rs", ix.IndexID)
	require.NoError(t, err)
	assert.Equal(t, apiclient.IndexReady, ix.Status)
	for _, h := range ix.StatusDetail {
		assert.Nil(t, h.StagedIndex)
		assert.Equal(t, int64(2), h.MainIndex.DefinitionVersion.Version)
	}
}

func TestSearchIndexFailuresCarryMessages(t *testing.T) {
	e, c := searchEnv(t)
	ctx := context.Background()
	s := c.Search()
	var bad apiclient.IndexDefinition
	require.NoError(t, json.Unmarshal([]byte(`{"mappings":{"dynamic":false,"fields":{"title":{"type":"strng"}}}}`), &bad))
	ix, err := s.Create(ctx, DemoPaymentsID, "payments-rs", apiclient.SearchIndexCreateRequest{
		Name: "typo", Database: "shop", CollectionName: "products", Definition: bad})
	require.NoError(t, err, "the definition is valid JSON of the right shape; it fails while building")
	e.clock.Advance(time.Minute)
	ix, err = s.Get(ctx, DemoPaymentsID, "payments-rs", ix.IndexID)
	require.NoError(t, err)
	assert.Equal(t, apiclient.IndexFailed, ix.Status)
	assert.False(t, ix.Queryable)
	for _, h := range ix.StatusDetail {
		assert.Equal(t, apiclient.IndexFailed, h.Status)
		assert.Contains(t, h.MainIndex.Message, `unsupported field type "strng"`)
	}

	// A failed update keeps serving the last good definition.
	good, err := s.Create(ctx, DemoPaymentsID, "payments-rs", textIndex("good", "products"))
	require.NoError(t, err)
	e.clock.Advance(time.Minute)
	_, err = s.Update(ctx, DemoPaymentsID, "payments-rs", good.IndexID, apiclient.IndexSearch, bad)
	require.NoError(t, err)
	e.clock.Advance(time.Minute)
	good, err = s.Get(ctx, DemoPaymentsID, "payments-rs", good.IndexID)
	require.NoError(t, err)
	assert.Equal(t, apiclient.IndexFailed, good.Status)
	assert.True(t, good.Queryable)
	h := good.StatusDetail[0]
	assert.Equal(t, apiclient.IndexReady, h.MainIndex.Status)
	assert.Equal(t, apiclient.IndexFailed, h.StagedIndex.Status)
	assert.Contains(t, h.StagedIndex.Message, "strng")

	// Synonyms: one mapping on a collection that exists, one that does not.
	var syn apiclient.IndexDefinition
	require.NoError(t, json.Unmarshal([]byte(`{"mappings":{"dynamic":true},"synonyms":[
		{"name":"ok","analyzer":"lucene.standard","source":{"collection":"product_synonyms"}},
		{"name":"lost","analyzer":"lucene.standard","source":{"collection":"nowhere"}}]}`), &syn))
	ix, err = s.Create(ctx, DemoPaymentsID, "payments-rs", apiclient.SearchIndexCreateRequest{
		Name: "syn", Database: "shop", CollectionName: "products", Definition: syn})
	require.NoError(t, err)
	assert.Equal(t, apiclient.SynonymFailed, ix.SynonymMappingStatus)
	e.clock.Advance(time.Minute)
	ix, err = s.Get(ctx, DemoPaymentsID, "payments-rs", ix.IndexID)
	require.NoError(t, err)
	assert.Equal(t, apiclient.IndexReady, ix.Status)
	assert.Equal(t, apiclient.SynonymFailed, ix.SynonymMappingStatus)
	require.Len(t, ix.SynonymMappingStatusDetail, 2)
	assert.Equal(t, apiclient.SynonymReady, ix.SynonymMappingStatusDetail[0]["ok"].Status)
	assert.Contains(t, ix.SynonymMappingStatusDetail[1]["lost"].Message, "shop.nowhere does not exist")
	assert.Equal(t, apiclient.SynonymFailed, ix.StatusDetail[0].MainIndex.SynonymMappingStatus)
}

func TestSearchIndexDeleteIsEventual(t *testing.T) {
	for _, byName := range []bool{false, true} {
		e, c := searchEnv(t)
		ctx := context.Background()
		s := c.Search()
		ix, err := s.Create(ctx, DemoPaymentsID, "payments-rs", textIndex("tmp", "orders"))
		require.NoError(t, err)
		if byName {
			require.NoError(t, s.DeleteByName(ctx, DemoPaymentsID, "payments-rs", "shop", "orders", "tmp"))
		} else {
			require.NoError(t, s.Delete(ctx, DemoPaymentsID, "payments-rs", ix.IndexID))
		}
		got, err := s.Get(ctx, DemoPaymentsID, "payments-rs", ix.IndexID)
		require.NoError(t, err, "still there right after the delete")
		assert.Equal(t, apiclient.IndexDeleting, got.Status)
		assert.False(t, got.Queryable)
		assert.Equal(t, apiclient.IndexDeleting, got.StatusDetail[0].Status)
		_, err = s.Update(ctx, DemoPaymentsID, "payments-rs", ix.IndexID, apiclient.IndexSearch, textDef(""))
		apiErr(t, err, 409, "INDEX_BEING_DELETED")
		_, err = s.Create(ctx, DemoPaymentsID, "payments-rs", textIndex("tmp", "orders"))
		ae := apiErr(t, err, 409, "INDEX_ALREADY_EXISTS")
		assert.Contains(t, ae.Detail, "being deleted")

		e.clock.Advance(11 * time.Second)
		_, err = s.Get(ctx, DemoPaymentsID, "payments-rs", ix.IndexID)
		apiErr(t, err, 404, "INDEX_NOT_FOUND")
		list, err := s.List(ctx, DemoPaymentsID, "payments-rs", "shop", "orders")
		require.NoError(t, err)
		for _, x := range list {
			assert.NotEqual(t, "tmp", x.Name)
		}
		// The name is free again.
		_, err = s.Create(ctx, DemoPaymentsID, "payments-rs", textIndex("tmp", "orders"))
		require.NoError(t, err)
	}
}

func TestSearchIndexCreateShapesAndRoutes(t *testing.T) {
	_, c := searchEnv(t)
	ctx := context.Background()
	s := c.Search()
	// The flat shape on the current route answers with the full index.
	flat, err := s.CreateFlat(ctx, DemoPaymentsID, "payments-rs", apiclient.FTSIndex{Name: "flat", Database: "shop",
		CollectionName: "orders", Analyzer: "lucene.french", Mappings: &apiclient.Mappings{Dynamic: true}, NumPartitions: 2})
	require.NoError(t, err)
	assert.Equal(t, apiclient.IndexSearch, flat.Type)
	assert.Equal(t, "lucene.french", flat.LatestDefinition.Analyzer)
	assert.Equal(t, 2, flat.LatestDefinition.NumPartitions)
	// The definition shape, a vector index.
	vec, err := s.Create(ctx, DemoPaymentsID, "payments-rs", apiclient.SearchIndexCreateRequest{Name: "vec", Database: "shop",
		CollectionName: "orders", Type: apiclient.IndexVectorSearch, Definition: apiclient.IndexDefinition{Fields: []apiclient.VectorField{
			{Type: "vector", Path: "emb", NumDimensions: 4, Similarity: apiclient.SimilarityCosine}, {Type: "filter", Path: "tenant"}}}})
	require.NoError(t, err)
	assert.Equal(t, apiclient.IndexVectorSearch, vec.Type)
	assert.Empty(t, vec.SynonymMappingStatus)
	// The deprecated flat route sees both.
	fts, err := s.ListFTS(ctx, DemoPaymentsID, "payments-rs", "shop", "orders")
	require.NoError(t, err)
	names := map[string]apiclient.FTSIndexStatus{}
	for _, x := range fts {
		names[x.Name] = x.Status
	}
	assert.Equal(t, apiclient.FTSInProgress, names["flat"])
	assert.Contains(t, names, "vec")
	// By name and by id reach the same index; the cluster list has everything.
	byName, err := s.GetByName(ctx, DemoPaymentsID, "payments-rs", "shop", "orders", "vec")
	require.NoError(t, err)
	assert.Equal(t, vec.IndexID, byName.IndexID)
	upd, err := s.UpdateByName(ctx, DemoPaymentsID, "payments-rs", "shop", "orders", "flat", apiclient.IndexSearch, textDef(""))
	require.NoError(t, err)
	assert.Equal(t, int64(2), upd.LatestDefinitionVersion.Version)
	all, err := s.ListCluster(ctx, DemoPaymentsID, "payments-rs")
	require.NoError(t, err)
	assert.GreaterOrEqual(t, len(all), 5, "three seeded and two new")

	// Duplicate names per namespace: 409; the same name elsewhere is fine.
	_, err = s.Create(ctx, DemoPaymentsID, "payments-rs", textIndex("vec", "orders"))
	apiErr(t, err, http.StatusConflict, "INDEX_ALREADY_EXISTS")
	_, err = s.Create(ctx, DemoPaymentsID, "payments-rs", textIndex("vec", "customers"))
	require.NoError(t, err)
}

func TestSearchRefusesClustersWithoutSearch(t *testing.T) {
	_, c := searchEnv(t)
	ctx := context.Background()
	for _, tc := range []struct{ group, cluster, code, says string }{
		{DemoPaymentsID, "payments-legacy", "SEARCH_UNSUPPORTED_MONGODB_VERSION", "4.2"},
		{DemoAnalyticsID, "analytics-old", "SEARCH_UNSUPPORTED_MONGODB_VERSION", "3.6.23"},
		{DemoAnalyticsID, "sandbox-m0", "TENANT_CLUSTER_UNSUPPORTED", "M0 shared-tier"},
		{DemoStagingID, "staging-m5", "TENANT_CLUSTER_UNSUPPORTED", "M5"},
		{DemoPaymentsID, "payments-serverless", "CANNOT_USE_SERVERLESS_INSTANCE_IN_CLUSTER_API", "serverless"},
	} {
		_, err := c.Search().ListCluster(ctx, tc.group, tc.cluster)
		ae := apiErr(t, err, 400, tc.code)
		assert.Contains(t, ae.Detail, tc.says, tc.cluster)
		_, err = c.Search().Create(ctx, tc.group, tc.cluster, apiclient.SearchIndexCreateRequest{Name: "x", Database: "d",
			CollectionName: "c", Definition: textDef("")})
		apiErr(t, err, 400, tc.code)
	}
}

// TestSearchValidationNamesTheField sends bodies past the client's own checks
// (through Do) so the server's 400s are what is asserted.
func TestSearchValidationNamesTheField(t *testing.T) {
	_, c := searchEnv(t)
	ctx := context.Background()
	params := map[string]string{"groupId": DemoPaymentsID, "clusterName": "payments-rs"}
	create := func(body string) error {
		_, err := c.Do(ctx, "createAtlasSearchIndex", apiclient.Request{Params: params, Body: json.RawMessage(body)}, nil)
		return err
	}
	ns := `"name":"v","database":"shop","collectionName":"orders"`
	for _, tc := range []struct{ body, code, field string }{
		{`{"database":"shop","collectionName":"orders","definition":{"mappings":{}}}`, "MISSING_ATTRIBUTE", "name"},
		{`{"name":"v","collectionName":"orders","definition":{"mappings":{}}}`, "MISSING_ATTRIBUTE", "database"},
		{`{"name":"v","database":"shop","definition":{"mappings":{}}}`, "MISSING_ATTRIBUTE", "collectionName"},
		{`{` + ns + `,"definition":{}}`, "MISSING_ATTRIBUTE", "definition.mappings"},
		{`{` + ns + `,"definition":{"mappings":{},"analyzer":"lucene.klingon"}}`, "VALIDATION_ERROR", "definition.analyzer"},
		{`{` + ns + `,"definition":{"mappings":{},"searchAnalyzer":"english"}}`, "VALIDATION_ERROR", "definition.searchAnalyzer"},
		{`{` + ns + `,"definition":{"mappings":{},"numPartitions":3}}`, "VALIDATION_ERROR", "definition.numPartitions"},
		{`{` + ns + `,"definition":{"mappings":{},"storedSource":{"include":["a"],"exclude":["b"]}}}`, "VALIDATION_ERROR", "definition.storedSource"},
		{`{` + ns + `,"definition":{"mappings":{},"analyzers":[{"name":"a"}]}}`, "MISSING_ATTRIBUTE", "definition.analyzers[0].tokenizer"},
		{`{` + ns + `,"definition":{"mappings":{},"synonyms":[{"name":"s","analyzer":"lucene.nope","source":{"collection":"x"}}]}}`, "VALIDATION_ERROR", "definition.synonyms[0].analyzer"},
		{`{` + ns + `,"definition":{"mappings":{},"synonyms":[{"name":"s","analyzer":"lucene.standard"}]}}`, "MISSING_ATTRIBUTE", "definition.synonyms[0].source.collection"},
		{`{` + ns + `,"definition":{"mappings":{},"colour":"red"}}`, "INVALID_ATTRIBUTE", "definition.colour"},
		{`{` + ns + `,"type":"vectorSearch","definition":{"fields":[{"type":"vector","path":"e","numDimensions":3,"similarity":"manhattan"}]}}`, "VALIDATION_ERROR", "definition.fields[0].similarity"},
		{`{` + ns + `,"type":"vectorSearch","definition":{"fields":[{"type":"vector","path":"e","similarity":"cosine"}]}}`, "MISSING_ATTRIBUTE", "definition.fields[0].numDimensions"},
		{`{` + ns + `,"type":"vectorSearch","definition":{"fields":[]}}`, "VALIDATION_ERROR", "definition.fields"},
		{`{` + ns + `,"type":"fulltext","definition":{"mappings":{}}}`, "VALIDATION_ERROR", "type"},
		{`{` + ns + `,"mappings":{},"numPartitions":5}`, "VALIDATION_ERROR", "numPartitions"},
		{`{` + ns + `,"mappings":{},"analyzer":"lucene.klingon"}`, "VALIDATION_ERROR", "analyzer"},
	} {
		err := create(tc.body)
		ae, ok := apiclient.AsError(err)
		if !assert.True(t, ok, "%s: %v", tc.body, err) {
			continue
		}
		assert.Equal(t, 400, ae.Status, tc.body)
		assert.Equal(t, tc.code, ae.ErrorCode, tc.body)
		assert.Contains(t, ae.Detail, tc.field, tc.body)
	}
	// A custom analyzer defined in the definition, or on the cluster, is accepted.
	require.NoError(t, create(`{`+ns+`,"definition":{"mappings":{},"analyzer":"mine","analyzers":[{"name":"mine","tokenizer":{"type":"standard"}}]}}`))
	require.NoError(t, create(`{"name":"w","database":"shop","collectionName":"orders","definition":{"mappings":{},"analyzer":"sku-analyzer"}}`))
}

func TestSearchAnalyzersLegacyRoute(t *testing.T) {
	_, c := searchEnv(t)
	ctx := context.Background()
	s := c.Search()
	got, err := s.Analyzers(ctx, DemoPaymentsID, "payments-rs")
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, "sku-analyzer", got[0].Name)
	out, err := s.UpdateAnalyzers(ctx, DemoPaymentsID, "payments-rs", []apiclient.Analyzer{
		{Name: "a1", Tokenizer: map[string]any{"type": "whitespace"}}, {Name: "a2", Tokenizer: map[string]any{"type": "keyword"}}})
	require.NoError(t, err)
	assert.Len(t, out, 2)
	got, err = s.Analyzers(ctx, DemoPaymentsID, "payments-rs")
	require.NoError(t, err)
	assert.Equal(t, "a2", got[1].Name)
	_, err = s.UpdateAnalyzers(ctx, DemoPaymentsID, "payments-rs", []apiclient.Analyzer{{Name: "a1", Tokenizer: map[string]any{}}})
	ae := apiErr(t, err, 400, "MISSING_ATTRIBUTE")
	assert.Contains(t, ae.Detail, "[0].tokenizer.type")
	_, err = s.UpdateAnalyzers(ctx, DemoPaymentsID, "payments-rs", []apiclient.Analyzer{{Name: "lucene.mine", Tokenizer: map[string]any{"type": "standard"}}})
	apiErr(t, err, 400, "VALIDATION_ERROR")
}

// A definition deeper than a stored document may nest is refused with a
// 400 naming the member; one at the limit is accepted.
func TestSearchRefusesDefinitionsDeeperThanTheService(t *testing.T) {
	_, c := searchEnv(t)
	ctx := context.Background()
	params := map[string]string{"groupId": DemoPaymentsID, "clusterName": "payments-rs"}
	nested := func(arrays int) string {
		return `{"name":"deep","database":"shop","collectionName":"orders","definition":{"mappings":{"dynamic":false,"fields":{"f":` +
			strings.Repeat("[", arrays) + strings.Repeat("]", arrays) + `}}}}`
	}
	for _, depth := range []int{300, 3000, 9990} {
		_, err := c.Do(ctx, "createAtlasSearchIndex", apiclient.Request{Params: params, Body: json.RawMessage(nested(depth))}, nil)
		ae, ok := apiclient.AsError(err)
		require.True(t, ok, "depth %d: %v", depth, err)
		assert.Equal(t, 400, ae.Status)
		assert.Equal(t, "VALIDATION_ERROR", ae.ErrorCode)
		assert.Contains(t, ae.Detail, "definition.mappings")
		assert.Contains(t, ae.Detail, "at most 100")
	}
	// definition (1) + the index (1) + mappings (1) + fields (1) + arrays = 100
	_, err := c.Do(ctx, "createAtlasSearchIndex", apiclient.Request{Params: params, Body: json.RawMessage(nested(100 - 4))}, nil)
	require.NoError(t, err)
}
