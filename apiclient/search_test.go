package apiclient

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSearchCreateFlatShape: the flat body goes to the current route with
// its version, the definition members beside the names, and the answer is
// the full index.
func TestSearchCreateFlatShape(t *testing.T) {
	var method, path, accept, body string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		method, path, accept = r.Method, r.URL.Path, r.Header.Get("Accept")
		b, _ := io.ReadAll(r.Body)
		body = string(b)
		w.Header().Set("Content-Type", "application/vnd.atlas.2024-05-30+json")
		w.WriteHeader(201)
		_, _ = w.Write([]byte(`{"indexID":"65a0c0ffee0000000000abcd","name":"flat","database":"shop","collectionName":"orders",
			"type":"search","status":"PENDING","queryable":false,"latestDefinition":{"mappings":{"dynamic":true},"analyzer":"lucene.french"},
			"latestDefinitionVersion":{"version":1},"statusDetail":[{"hostname":"h1","status":"PENDING","queryable":false,
			"mainIndex":{"status":"PENDING","queryable":false,"definitionVersion":{"version":1}}}]}`))
	}))
	defer srv.Close()
	c := newTestClient(t, srv.URL, Options{})
	ix, err := c.Search().CreateFlat(context.Background(), testGroup, "Cluster0", FTSIndex{
		IndexID: "ignored", Status: FTSSteady, Name: "flat", Database: "shop", CollectionName: "orders",
		Analyzer: "lucene.french", Mappings: &Mappings{Dynamic: true}})
	require.NoError(t, err)
	assert.Equal(t, "POST", method)
	assert.Equal(t, "/api/atlas/v2/groups/"+testGroup+"/clusters/Cluster0/search/indexes", path)
	assert.Equal(t, "application/vnd.atlas.2024-05-30+json", accept)
	assert.JSONEq(t, `{"name":"flat","database":"shop","collectionName":"orders","analyzer":"lucene.french","mappings":{"dynamic":true}}`, body,
		"read-only members are not sent")
	assert.Equal(t, IndexPending, ix.Status)
	assert.Equal(t, "lucene.french", ix.LatestDefinition.Analyzer)
	require.Len(t, ix.StatusDetail, 1)
	assert.Equal(t, int64(1), ix.StatusDetail[0].MainIndex.DefinitionVersion.Version)
}

// TestSearchCreateFlatRefusesLocally: a bad analyzer never leaves.
func TestSearchCreateFlatRefusesLocally(t *testing.T) {
	var sent atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { sent.Add(1) }))
	defer srv.Close()
	c := newTestClient(t, srv.URL, Options{})
	_, err := c.Search().CreateFlat(context.Background(), testGroup, "Cluster0", FTSIndex{Name: "x", Database: "d",
		CollectionName: "c", Analyzer: "lucene.klingon", Mappings: &Mappings{}})
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "analyzer", ve.Field)
	assert.Contains(t, ve.Reason, "lucene.klingon")
	assert.Zero(t, sent.Load())
}

// TestSearchIndexDecodesStagedUpdate: the per-host main and staged indexes
// and the synonym statuses decode into their types.
func TestSearchIndexDecodesStagedUpdate(t *testing.T) {
	raw := `{"indexID":"i","name":"n","status":"BUILDING","queryable":true,"synonymMappingStatus":"FAILED",
	"synonymMappingStatusDetail":[{"s1":{"status":"FAILED","queryable":false,"message":"gone"}}],
	"statusDetail":[{"hostname":"h","status":"BUILDING","queryable":true,
	  "mainIndex":{"status":"READY","queryable":true,"definition":{"mappings":{"dynamic":true}},"definitionVersion":{"version":1,"createdAt":"2025-06-01T12:00:00Z"}},
	  "stagedIndex":{"status":"BUILDING","queryable":false,"message":"","definition":{"mappings":{"dynamic":false}},"definitionVersion":{"version":2}}}]}`
	var ix SearchIndex
	require.NoError(t, json.Unmarshal([]byte(raw), &ix))
	h := ix.StatusDetail[0]
	assert.Equal(t, IndexReady, h.MainIndex.Status)
	assert.Equal(t, IndexBuilding, h.StagedIndex.Status)
	assert.Equal(t, int64(2), h.StagedIndex.DefinitionVersion.Version)
	assert.Equal(t, false, h.StagedIndex.Definition.Mappings.Dynamic)
	assert.Equal(t, "gone", ix.SynonymMappingStatusDetail[0]["s1"].Message)
	assert.False(t, IndexBuilding.Done())
	assert.True(t, IndexFailed.Done())
}
