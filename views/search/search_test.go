package search

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// save returns an editor step that replaces the user's text, keeping our header.
func save(text string) func(string) (string, error) {
	return func(string) (string, error) { return text, nil }
}

const newIndexJSON = `{
  "name": "by-customer",
  "database": "shop",
  "collectionName": "orders",
  "type": "search",
  "definition": {"analyzer": "lucene.english", "mappings": {"dynamic": false, "fields": {"customer": {"type": "string"}}}}
}`

func TestTreeGolden(t *testing.T) {
	for _, tc := range []struct {
		name          string
		cluster       string
		width, height int
	}{
		{"tree_all_clusters_wide_140x30", "", 140, 30},
		{"tree_cluster_compact_100x30", "payments-rs", 100, 30},
		{"tree_cluster_narrow_70x16", "payments-rs", 70, 16},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			h := newHarness(t, w, tc.cluster, tc.width, tc.height)
			h.selectIndex("products-autocomplete")
			got := h.Screen()
			for _, l := range strings.Split(got, "\n") {
				assert.LessOrEqual(t, len([]rune(l)), tc.width)
			}
			requireGolden(t, tc.name, got)
		})
	}
}

func TestTreeShowsStatusesAndUnsupportedClusters(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "", 140, 30)
	s := h.Screen()
	assert.Contains(t, s, "payments-legacy")
	assert.Contains(t, s, "MongoDB 4.0.28")
	require.True(t, h.P.table.SetCursorID(clusterRowID("payments-legacy")))
	h.P.refreshDetail()
	assert.Contains(t, h.Screen(), "MongoDB 4.0.28: search needs 4.2 or later.")
	assert.Contains(t, s, "ledger-search") // seeded 10s ago: still building
	assert.Regexp(t, `ledger-search\s+search\s+PENDING|ledger-search\s+search\s+BUILDING`, s)
	assert.Contains(t, s, "not ready (live)")

	// Live while something is not READY: the fast interval is armed.
	assert.True(t, h.P.Polling())
	assert.True(t, h.P.moving(false))
	w.Clock.Advance(2 * time.Minute)
	h.Refresh()
	assert.False(t, h.P.moving(false))
	assert.NotContains(t, h.Screen(), "not ready")

	// Folding a database hides its collections.
	require.True(t, h.P.table.SetCursorID(dbRowID("payments-rs", "shop")))
	h.ActionKey("enter")
	assert.NotContains(t, h.Screen(), "embeddings")
	h.ActionKey("enter")
	assert.Contains(t, h.Screen(), "embeddings")
}

func TestDetailGolden(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 100, 60)
	h.selectIndex("products-autocomplete")
	h.ActionKey("enter")
	require.Equal(t, modeDetail, h.P.mode)
	requireGolden(t, "detail_ready_100x60", h.Screen())

	// During an update the staged definition shows next to the serving one.
	ix, err := indexOf(w, "payments-rs", "shop", "products", "products-autocomplete")
	require.NoError(t, err)
	def := *ix.LatestDefinition
	def.Analyzer = "lucene.french"
	_, err = w.Client.Search().Update(t.Context(), apisim.DemoPaymentsID, "payments-rs", ix.IndexID, apiclient.IndexSearch, def)
	require.NoError(t, err)
	w.Clock.Advance(8 * time.Second)
	h.Refresh()
	s := h.Screen()
	assert.Contains(t, s, "Latest definition (version 4)")
	assert.Contains(t, s, "The latest definition is staged (BUILDING on the hosts)")
	assert.Regexp(t, `shard-00-00\S*\s+\| BUILDING\s+\| yes\s+\| v3 READY\s+\| v4 BUILDING`, s)
	assert.Contains(t, s, "Serving definition (version 3)")
	requireGolden(t, "detail_staged_100x60", s)
	h.ActionKey("esc")
	assert.Equal(t, modeTree, h.P.mode)
}

func TestCreateWatchUpdateDelete(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 30)
	h.selectIndex("default") // shop.orders: the template starts there
	h.ed.steps = append(h.ed.steps, save(newIndexJSON))
	h.ActionKey("n")
	require.Len(t, h.ed.seen, 1)
	assert.Contains(t, h.ed.seen[0], `"database": "shop"`)
	assert.Contains(t, h.ed.seen[0], `"collectionName": "orders"`)
	assert.Equal(t, []string{"POST /api/atlas/v2/groups/65a0c0ffee0000000000b001/clusters/payments-rs/search/indexes"}, w.Writes())
	ix, err := indexOf(w, "payments-rs", "shop", "orders", "by-customer")
	require.NoError(t, err)
	assert.Equal(t, "lucene.english", ix.LatestDefinition.Analyzer)
	assert.Contains(t, h.LastToast().Text, "index by-customer created")
	assert.Regexp(t, `by-customer\s+search\s+PENDING`, h.Screen())

	w.Clock.Advance(time.Minute)
	h.Refresh()
	assert.Regexp(t, `by-customer\s+search\s+READY\s+yes\s+3 READY`, h.Screen())

	// Edit starts from the current definition and sends an update.
	h.selectIndex("by-customer")
	h.ed.steps = append(h.ed.steps, func(file string) (string, error) {
		assert.Contains(t, file, "Editing the index by-customer (shop.orders) on payments-rs")
		assert.Contains(t, file, `"analyzer": "lucene.english"`)
		return strings.Replace(file, "lucene.english", "lucene.german", 1), nil
	})
	h.ActionKey("e")
	ix, err = indexOf(w, "payments-rs", "shop", "orders", "by-customer")
	require.NoError(t, err)
	assert.Equal(t, "lucene.german", ix.LatestDefinition.Analyzer)
	assert.Equal(t, int64(2), ix.LatestDefinitionVersion.Version)
	assert.Contains(t, h.LastToast().Text, "updated to version 2")

	// Delete asks for the name, then shows DELETING until it is gone.
	h.selectIndex("by-customer")
	h.ActionKey("d")
	require.Len(t, h.Confirms, 1)
	c := h.Confirms[0]
	assert.Equal(t, "by-customer", c.TypeToConfirm)
	assert.Len(t, w.Writes(), 2, "nothing deleted before the confirmation")
	c.Action.Confirmed = true
	h.Send(c.Action)
	assert.Contains(t, w.Writes()[2], "DELETE ")
	assert.Regexp(t, `by-customer\s+search\s+DELETING`, h.Screen())
	ix, err = indexOf(w, "payments-rs", "shop", "orders", "by-customer")
	require.NoError(t, err)
	assert.Equal(t, apiclient.IndexDeleting, ix.Status)
	w.Clock.Advance(15 * time.Second)
	h.Refresh()
	assert.NotContains(t, h.Screen(), "by-customer")
	assert.Empty(t, h.P.deleting)
	_, err = indexOf(w, "payments-rs", "shop", "orders", "by-customer")
	ae, ok := apiclient.AsError(err)
	require.True(t, ok)
	assert.Equal(t, 404, ae.Status)
}

func TestInvalidAnalyzerRefusedLocallyAndTextKept(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 30)
	bad := strings.Replace(newIndexJSON, "lucene.english", "lucene.klingon", 1)
	h.ed.steps = append(h.ed.steps, save(bad)) // the second run saves unchanged
	h.ActionKey("n")
	require.Len(t, h.ed.seen, 2, "the editor reopens once with the reason")
	assert.Contains(t, h.ed.seen[1], `// ERROR: line 10, column 18: definition.analyzer: unknown analyzer "lucene.klingon"`)
	assert.Contains(t, h.ed.seen[1], bad, "the user's text is kept")
	assert.Empty(t, w.Writes(), "nothing was sent")
	assert.Contains(t, h.Screen(), `definition refused, nothing sent: line 10, column 18: definition.analyzer: unknown analyzer "lucene.klingon"`)
	assert.Contains(t, h.LastToast().Text, "lucene.klingon")

	// The draft survives: n opens it again, and fixing it sends it.
	h.ed.steps = append(h.ed.steps, func(file string) (string, error) {
		assert.Contains(t, file, "lucene.klingon")
		text, _ := views.StripHeader(file)
		return strings.ReplaceAll(text, "lucene.klingon", "lucene.english"), nil
	})
	h.ActionKey("n")
	assert.Len(t, w.Writes(), 1)
	assert.NotContains(t, h.Screen(), "refused")
}

// The saves below replace the whole file, header and all: a line named in
// the reopened file counts its four header lines (see problemIn).
func TestSyntaxAndRequiredFieldErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"{\n  \"name\": \"x\",\n  \"database\": \"shop\"\n  \"collectionName\": \"c\"\n}", "line 8, column 3: JSON syntax error"},
		{`{"name": "x", "database": "shop", "collectionName": "c", "definition": {"mappings": {}, "numPartitions": 3}}`, "line 5, column 89: definition.numPartitions: must be 1, 2 or 4"},
		{`{"name": "x", "collectionName": "c", "definition": {"mappings": {}}}`, "line 5, column 1: database: required"},                // not there: the document that lacks it
		{`{"name": "x", "database": "d", "collectionName": "c", "definition": {}}`, "line 5, column 55: definition.mappings: required"}, // at "definition", which lacks it
		{`{"name": "x", "database": "d", "collectionName": "c", "definition": {"mappings": {}, "colour": 1}}`, `line 5, column 86: unknown member "colour"`},
		{`{"name": 7}`, "line 5, column 11: name must be a JSON string"},
		{`{"name": "x", "database": "d", "collectionName": "c", "definition": {"mappings": {}, "analyzers": [{"name": "a"}]}}`, "line 5, column 100: definition.analyzers[0].tokenizer.type: required"},
		{`{"name": "v", "database": "d", "collectionName": "c", "type": "vectorSearch", "definition": {"fields": [{"type": "vector", "path": "e", "numDimensions": 3, "similarity": "manhattan"}]}}`, "line 5, column 157: definition.fields[0].similarity"},
	} {
		w := newWorld(t)
		h := newHarness(t, w, "payments-rs", 120, 30)
		h.ed.steps = append(h.ed.steps, save(tc.text))
		h.ActionKey("n")
		require.Len(t, h.ed.seen, 2, tc.text)
		assert.Contains(t, h.ed.seen[1], "// ERROR: "+tc.want, tc.text)
		assert.Contains(t, h.ed.seen[1], tc.text)
		assert.Empty(t, w.Writes())
	}
}

func TestServerRefusalReopensWithItsWords(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 30)
	dup := strings.Replace(newIndexJSON, "by-customer", "default", 1)
	h.ed.steps = append(h.ed.steps, save(dup))
	h.ActionKey("n")
	require.Len(t, h.ed.seen, 2)
	assert.Contains(t, h.ed.seen[1], "409 INDEX_ALREADY_EXISTS: A search index named default already exists on shop.orders.")
	assert.Contains(t, h.ed.seen[1], dup)
	assert.Len(t, w.Writes(), 1)
	assert.Contains(t, h.Screen(), "INDEX_ALREADY_EXISTS")
}

func TestEditorFailureKeepsDraft(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 30)
	h.ed.steps = append(h.ed.steps, func(string) (string, error) { return "", errors.New("exit status 1") })
	h.ActionKey("n")
	assert.Empty(t, w.Writes())
	assert.Contains(t, h.LastToast().Text, "editor failed (exit status 1)")
	// The kept draft (the template) comes back; saved unchanged it sends
	// nothing, as its header says, and stays kept.
	h.ActionKey("n")
	require.Len(t, h.ed.seen, 2)
	assert.Contains(t, h.ed.seen[1], `"collectionName": "mycollection"`, "the cursor is on the shop database: the template names it and a placeholder collection")
	assert.Empty(t, w.Writes())
	assert.Equal(t, "no changes: nothing sent (your draft is kept: press n to continue)", h.LastToast().Text)
	assert.Contains(t, h.P.drafts, editSession{Kind: editCreate, Group: h.P.Ctx.GroupID, Cluster: "payments-rs"}.key())
}

func TestAnalyzersView(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 100, 24)
	h.ActionKey("A")
	require.Equal(t, modeAnalyzers, h.P.mode)
	s := h.Screen()
	assert.Contains(t, s, "sku-analyzer")
	assert.Contains(t, s, "keyword")
	requireGolden(t, "analyzers_100x24", s)

	// In this view `e` is gated as the analyzers update.
	for _, a := range h.P.Actions() {
		if a.Name == "search.edit" {
			assert.Equal(t, "updateAtlasSearchAnalyzers", a.Op)
		}
	}
	h.ed.steps = append(h.ed.steps, save(`[{"name": "sku-analyzer"}]`))
	h.ActionKey("e")
	require.Len(t, h.ed.seen, 2)
	assert.Contains(t, h.ed.seen[1], "// ERROR: line 5, column 2: [0].tokenizer.type: required")
	assert.Empty(t, w.Writes())

	h.ed.steps = append(h.ed.steps, save(`[{"name": "sku-analyzer", "tokenizer": {"type": "keyword"}}, {"name": "words", "tokenizer": {"type": "whitespace"}}]`))
	h.ActionKey("e")
	assert.Equal(t, []string{"PUT /api/atlas/v1.0/groups/65a0c0ffee0000000000b001/clusters/payments-rs/fts/analyzers"}, w.Writes())
	got, err := w.Client.Search().Analyzers(t.Context(), "65a0c0ffee0000000000b001", "payments-rs")
	require.NoError(t, err)
	assert.Len(t, got, 2)
	assert.Contains(t, h.Screen(), "words")
	h.ActionKey("esc")
	assert.Equal(t, modeTree, h.P.mode)
}

func TestFilterKeepsParents(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 30)
	h.Send(filterMsg("embed"))
	s := h.Screen()
	assert.Contains(t, s, "embeddings")
	assert.Contains(t, s, "products")
	assert.NotContains(t, s, "orders")
	h.Send(filterMsg("nothing-like-this"))
	assert.Contains(t, h.Screen(), "No index matches the filter")
}

func TestEveryKeyFieldNamesARegisteredAction(t *testing.T) {
	assert.Empty(t, views.MissingKeys[keys](Registration))
}

// A delete confirmed without the index it was asked for (a bare id) is
// refused on screen; nothing is sent.
func TestDeleteWithoutTheIndexRefIsRefused(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 30)
	require.NotEmpty(t, h.P.clusters)
	require.NotEmpty(t, h.P.clusters[0].Indexes)
	h.selectIndex(h.P.clusters[0].Indexes[0].Name)
	h.ActionKey("d")
	require.Len(t, h.Confirms, 1)
	a := h.Confirms[0].Action
	a.Confirmed, a.Payload = true, nil
	h.Send(a)
	assert.Empty(t, w.Writes())
	assert.True(t, h.LastToast().Err)
	assert.Contains(t, h.LastToast().Text, "nothing deleted")
	assert.Empty(t, h.P.deleting)
}
