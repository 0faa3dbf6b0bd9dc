package apiclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/limits"
)

// SearchService manages search indexes: the current /search/indexes routes,
// the deprecated flat /fts/indexes routes, and the legacy (v1.0) analyzers.
type SearchService struct{ c *Client }

// Search is the search index service.
func (c *Client) Search() SearchService { return SearchService{c} }

// IndexType is a search index's type.
type IndexType string

const (
	IndexSearch       IndexType = "search"
	IndexVectorSearch IndexType = "vectorSearch"
)

// IndexStatus is a search index's (or one host's) status.
type IndexStatus string

const (
	IndexDeleting     IndexStatus = "DELETING"
	IndexFailed       IndexStatus = "FAILED"
	IndexStale        IndexStatus = "STALE"
	IndexPending      IndexStatus = "PENDING"
	IndexBuilding     IndexStatus = "BUILDING"
	IndexReady        IndexStatus = "READY"
	IndexDoesNotExist IndexStatus = "DOES_NOT_EXIST"
)

// Done reports a status a build watch can stop at.
func (s IndexStatus) Done() bool {
	return s == IndexReady || s == IndexFailed || s == IndexStale || s == IndexDoesNotExist
}

// SynonymStatus is a synonym mapping's status.
type SynonymStatus string

const (
	SynonymFailed   SynonymStatus = "FAILED"
	SynonymBuilding SynonymStatus = "BUILDING"
	SynonymReady    SynonymStatus = "READY"
)

// FTSIndexStatus is a deprecated-route index's status.
type FTSIndexStatus string

const (
	FTSInProgress FTSIndexStatus = "IN_PROGRESS"
	FTSSteady     FTSIndexStatus = "STEADY"
	FTSFailed     FTSIndexStatus = "FAILED"
	FTSMigrating  FTSIndexStatus = "MIGRATING"
	FTSStale      FTSIndexStatus = "STALE"
	FTSPaused     FTSIndexStatus = "PAUSED"
)

// VectorSimilarity is how a vector field compares vectors.
type VectorSimilarity string

const (
	SimilarityEuclidean  VectorSimilarity = "euclidean"
	SimilarityCosine     VectorSimilarity = "cosine"
	SimilarityDotProduct VectorSimilarity = "dotProduct"
)

// Vector definition field types.
const (
	VectorFieldVector = "vector"
	VectorFieldFilter = "filter"
)

// IndexDefinition is a search index definition. A text (type search)
// definition uses Mappings and the analyzer members; a vector (type
// vectorSearch) definition uses Fields and NestedRoot. Both may set
// NumPartitions and StoredSource.
type IndexDefinition struct {
	// Text search.
	Mappings       *Mappings        `json:"mappings,omitempty"`
	Analyzer       string           `json:"analyzer,omitempty"`
	SearchAnalyzer string           `json:"searchAnalyzer,omitempty"`
	Analyzers      []Analyzer       `json:"analyzers,omitempty"`
	Synonyms       []SynonymMapping `json:"synonyms,omitempty"`
	TypeSets       json.RawMessage  `json:"typeSets,omitempty"`
	Sort           json.RawMessage  `json:"sort,omitempty"`

	// Vector search.
	Fields     []VectorField `json:"fields,omitempty"`
	NestedRoot string        `json:"nestedRoot,omitempty"`

	// Both.
	NumPartitions int             `json:"numPartitions,omitempty"` // 1, 2 or 4
	StoredSource  json.RawMessage `json:"storedSource,omitempty"`  // true, false, or {include|exclude: [...]}
}

// Mappings is a text index's field mapping. Dynamic is a bool or an object
// (typeSet); Fields maps a field name to its free-form definition.
type Mappings struct {
	Dynamic any            `json:"dynamic,omitempty"`
	Fields  map[string]any `json:"fields,omitempty"`
}

// Analyzer is a user-defined analyzer.
type Analyzer struct {
	Name         string           `json:"name"`
	CharFilters  []map[string]any `json:"charFilters,omitempty"`
	Tokenizer    map[string]any   `json:"tokenizer"`
	TokenFilters []map[string]any `json:"tokenFilters,omitempty"`
}

// SynonymMapping names a synonyms source collection.
type SynonymMapping struct {
	Name     string        `json:"name"`
	Analyzer string        `json:"analyzer"`
	Source   SynonymSource `json:"source"`
}

// SynonymSource is where a synonym mapping's documents live.
type SynonymSource struct {
	Collection string `json:"collection"`
}

// VectorField is one member of a vector definition's fields: a "vector"
// with its dimensions and similarity, or a "filter" path.
type VectorField struct {
	Type          string           `json:"type"`
	Path          string           `json:"path"`
	NumDimensions int              `json:"numDimensions,omitempty"`
	Similarity    VectorSimilarity `json:"similarity,omitempty"`
	Quantization  string           `json:"quantization,omitempty"`
}

// BuiltInAnalyzers lists the analyzer names the API accepts ("lucene.standard", ...).
func BuiltInAnalyzers() []string { return limits.BuiltInAnalyzers() }

// ValidAnalyzer reports whether name is one of the built-in analyzers.
func ValidAnalyzer(name string) bool { return limits.BuiltInAnalyzer(name) }

// analyzerKnown accepts a built-in analyzer or one the definition defines.
func analyzerKnown(name string, custom []Analyzer) bool {
	if ValidAnalyzer(name) {
		return true
	}
	for _, a := range custom {
		if a.Name == name {
			return true
		}
	}
	return false
}

// validPartitions checks numPartitions when it is set (0: the default, 1).
func validPartitions(n int) error {
	if n == 0 {
		return nil
	}
	return limits.NumPartitions(n)
}

// validateText checks a text definition's analyzers and partitions.
func validateText(prefix, analyzer, searchAnalyzer string, analyzers []Analyzer, synonyms []SynonymMapping, partitions int) error {
	if err := validPartitions(partitions); err != nil {
		return err
	}
	if analyzer != "" && !analyzerKnown(analyzer, analyzers) {
		return invalidField(prefix+"analyzer", "unknown analyzer %q", analyzer)
	}
	if searchAnalyzer != "" && !analyzerKnown(searchAnalyzer, analyzers) {
		return invalidField(prefix+"searchAnalyzer", "unknown analyzer %q", searchAnalyzer)
	}
	for i, a := range analyzers {
		if a.Name == "" {
			return invalidField(fmt.Sprintf("%sanalyzers[%d].name", prefix, i), "required")
		}
	}
	for i, s := range synonyms {
		if s.Name == "" || s.Source.Collection == "" {
			return invalidField(fmt.Sprintf("%ssynonyms[%d]", prefix, i), "name and source.collection are required")
		}
		if !analyzerKnown(s.Analyzer, analyzers) {
			return invalidField(fmt.Sprintf("%ssynonyms[%d].analyzer", prefix, i), "unknown analyzer %q", s.Analyzer)
		}
	}
	return nil
}

// documentDepth refuses a definition (or the flat index document around
// one) that nests deeper than the service stores (limits.MaxDocumentDepth),
// naming the member as apisim does: each member of doc in name order,
// inside the definition and the index document around it (two levels).
func documentDepth(prefix string, doc any) error {
	raw, err := json.Marshal(doc)
	if err != nil {
		return invalidField(strings.TrimSuffix(prefix, "."), "cannot be encoded: %v", err)
	}
	members, ok := objectMembers(raw)
	if !ok {
		return nil // not an object: the shape checks say what is wrong
	}
	for _, k := range slices.Sorted(maps.Keys(members)) {
		if err := limits.DocumentDepth(prefix+k, members[k], 2); err != nil {
			return err
		}
	}
	return nil
}

// objectMembers splits the JSON object raw into its members' texts token by
// token, building none of their values: json.Unmarshal refuses more than
// 10,000 levels of nesting ("exceeded max depth"), which must not pass for
// "not an object", while a json.Decoder's tokens have no depth limit.
func objectMembers(raw []byte) (map[string][]byte, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	members := map[string][]byte{}
	for dec.More() {
		t, err := dec.Token()
		name, isName := t.(string)
		if err != nil || !isName {
			return nil, false
		}
		start := dec.InputOffset() // before the colon, which limits.DocumentDepth skips
		for level := 0; ; {
			t, err := dec.Token()
			if err != nil {
				return nil, false
			}
			switch t {
			case json.Delim('{'), json.Delim('['):
				level++
			case json.Delim('}'), json.Delim(']'):
				level--
			}
			if level == 0 {
				break
			}
		}
		members[name] = raw[start:dec.InputOffset()]
	}
	return members, true
}

// Validate checks the definition for an index of type t ("" means search):
// first its depth (see documentDepth), then its shape.
func (d IndexDefinition) Validate(t IndexType) error {
	if err := documentDepth("definition.", d); err != nil {
		return err
	}
	switch t {
	case "", IndexSearch:
		if d.Mappings == nil {
			return invalidField("definition.mappings", "required for a search index")
		}
		return validateText("definition.", d.Analyzer, d.SearchAnalyzer, d.Analyzers, d.Synonyms, d.NumPartitions)
	case IndexVectorSearch:
		if err := validPartitions(d.NumPartitions); err != nil {
			return err
		}
		if len(d.Fields) == 0 {
			return invalidField("definition.fields", "a vector index needs at least one field")
		}
		for i, f := range d.Fields {
			name := fmt.Sprintf("definition.fields[%d]", i)
			if f.Path == "" {
				return invalidField(name+".path", "required")
			}
			switch f.Type {
			case VectorFieldFilter:
			case VectorFieldVector:
				if f.NumDimensions < 1 {
					return invalidField(name+".numDimensions", "must be at least 1, got %d", f.NumDimensions)
				}
				switch f.Similarity {
				case SimilarityEuclidean, SimilarityCosine, SimilarityDotProduct:
				default:
					return invalidField(name+".similarity", "must be euclidean, cosine or dotProduct, got %q", f.Similarity)
				}
			default:
				return invalidField(name+".type", "must be vector or filter, got %q", f.Type)
			}
		}
		return nil
	}
	return invalidField("type", "must be search or vectorSearch, got %q", t)
}

// SearchIndexCreateRequest is the current create body (with a definition).
type SearchIndexCreateRequest struct {
	Name           string          `json:"name"`
	Database       string          `json:"database"`
	CollectionName string          `json:"collectionName"`
	Type           IndexType       `json:"type,omitempty"`
	Definition     IndexDefinition `json:"definition"`
}

// Validate checks the request locally.
func (r SearchIndexCreateRequest) Validate() error {
	if err := requireNamespace(r.Name, r.Database, r.CollectionName); err != nil {
		return err
	}
	return r.Definition.Validate(r.Type)
}

func requireNamespace(name, database, collection string) error {
	return firstError(required("name", name), required("database", database), required("collectionName", collection))
}

// searchIndexUpdate is SearchIndexUpdateRequest.
type searchIndexUpdate struct {
	Definition IndexDefinition `json:"definition"`
}

// SearchIndex is SearchIndexResponse.
type SearchIndex struct {
	IndexID                    string                            `json:"indexID"`
	Name                       string                            `json:"name"`
	Database                   string                            `json:"database"`
	CollectionName             string                            `json:"collectionName"`
	Type                       IndexType                         `json:"type,omitempty"`
	Status                     IndexStatus                       `json:"status"`
	Queryable                  bool                              `json:"queryable"`
	LatestDefinition           *IndexDefinition                  `json:"latestDefinition,omitempty"`
	LatestDefinitionVersion    *DefinitionVersion                `json:"latestDefinitionVersion,omitempty"`
	StatusDetail               []HostIndexStatus                 `json:"statusDetail,omitempty"`
	SynonymMappingStatus       SynonymStatus                     `json:"synonymMappingStatus,omitempty"`
	SynonymMappingStatusDetail []map[string]SynonymMappingDetail `json:"synonymMappingStatusDetail,omitempty"`
}

// DefinitionVersion numbers a definition.
type DefinitionVersion struct {
	Version   int64      `json:"version"`
	CreatedAt *time.Time `json:"createdAt,omitempty"`
}

// HostIndexStatus is one host's view of an index.
type HostIndexStatus struct {
	Hostname    string           `json:"hostname"`
	Status      IndexStatus      `json:"status"`
	Queryable   bool             `json:"queryable"`
	MainIndex   *IndexGeneration `json:"mainIndex,omitempty"`
	StagedIndex *IndexGeneration `json:"stagedIndex,omitempty"`
}

// IndexGeneration is the serving (main) or building (staged) index on a host.
type IndexGeneration struct {
	Status                     IndexStatus                       `json:"status"`
	Queryable                  bool                              `json:"queryable"`
	Message                    string                            `json:"message,omitempty"`
	Definition                 *IndexDefinition                  `json:"definition,omitempty"`
	DefinitionVersion          *DefinitionVersion                `json:"definitionVersion,omitempty"`
	SynonymMappingStatus       SynonymStatus                     `json:"synonymMappingStatus,omitempty"`
	SynonymMappingStatusDetail []map[string]SynonymMappingDetail `json:"synonymMappingStatusDetail,omitempty"`
}

// SynonymMappingDetail is one synonym mapping's status.
type SynonymMappingDetail struct {
	Status    SynonymStatus `json:"status"`
	Queryable bool          `json:"queryable"`
	Message   string        `json:"message,omitempty"`
}

// FTSIndex is ClusterSearchIndex: the flat shape of the deprecated /fts
// routes, used as both body and answer.
type FTSIndex struct {
	IndexID        string           `json:"indexID,omitempty"`
	Name           string           `json:"name"`
	Database       string           `json:"database"`
	CollectionName string           `json:"collectionName"`
	Type           IndexType        `json:"type,omitempty"`
	Status         FTSIndexStatus   `json:"status,omitempty"`
	Analyzer       string           `json:"analyzer,omitempty"`
	SearchAnalyzer string           `json:"searchAnalyzer,omitempty"`
	Analyzers      []Analyzer       `json:"analyzers,omitempty"`
	Mappings       *Mappings        `json:"mappings,omitempty"`
	Synonyms       []SynonymMapping `json:"synonyms,omitempty"`
	StoredSource   json.RawMessage  `json:"storedSource,omitempty"`
	NumPartitions  int              `json:"numPartitions,omitempty"`
	Fields         []VectorField    `json:"fields,omitempty"`
}

// Validate checks the flat body locally.
func (x FTSIndex) Validate() error {
	if err := requireNamespace(x.Name, x.Database, x.CollectionName); err != nil {
		return err
	}
	if err := documentDepth("", x.writable()); err != nil {
		return err
	}
	return validateText("", x.Analyzer, x.SearchAnalyzer, x.Analyzers, x.Synonyms, x.NumPartitions)
}

func (x FTSIndex) writable() FTSIndex {
	x.IndexID, x.Status = "", ""
	return x
}

func byName(groupID, clusterName, database, collection, name string) map[string]string {
	return clusterParams(groupID, clusterName, "databaseName", database, "collectionName", collection, "indexName", name)
}

// Create creates a search or vector index.
func (s SearchService) Create(ctx context.Context, groupID, clusterName string, req SearchIndexCreateRequest) (*SearchIndex, error) {
	return sendChecked[SearchIndex](ctx, s.c, "create search index", req.Validate(), "createAtlasSearchIndex", Request{Params: clusterParams(groupID, clusterName), Body: req})
}

// CreateFlat creates an index on the current route with the flat request
// shape: the definition's members next to the names, as the spec's first
// create shape allows. The answer is the full index.
func (s SearchService) CreateFlat(ctx context.Context, groupID, clusterName string, idx FTSIndex) (*SearchIndex, error) {
	return sendChecked[SearchIndex](ctx, s.c, "create search index", idx.Validate(), "createAtlasSearchIndex", Request{Params: clusterParams(groupID, clusterName), Body: idx.writable()})
}

// List lists a collection's indexes.
func (s SearchService) List(ctx context.Context, groupID, clusterName, database, collection string) ([]SearchIndex, error) {
	return getList[SearchIndex](ctx, s.c, "listAtlasSearchIndexes", Request{Params: clusterParams(groupID, clusterName, "databaseName", database, "collectionName", collection)})
}

// ListCluster lists every index of a cluster.
func (s SearchService) ListCluster(ctx context.Context, groupID, clusterName string) ([]SearchIndex, error) {
	return getList[SearchIndex](ctx, s.c, "listAtlasSearchIndexesCluster", Request{Params: clusterParams(groupID, clusterName)})
}

// Get fetches an index by id.
func (s SearchService) Get(ctx context.Context, groupID, clusterName, indexID string) (*SearchIndex, error) {
	return getJSON[SearchIndex](ctx, s.c, "getAtlasSearchIndex", Request{Params: clusterParams(groupID, clusterName, "indexId", indexID)})
}

// GetByName fetches an index by namespace and name.
func (s SearchService) GetByName(ctx context.Context, groupID, clusterName, database, collection, name string) (*SearchIndex, error) {
	return getJSON[SearchIndex](ctx, s.c, "getAtlasSearchIndexByName", Request{Params: byName(groupID, clusterName, database, collection, name)})
}

// Update replaces an index's definition; t is the index's type (for local checks).
func (s SearchService) Update(ctx context.Context, groupID, clusterName, indexID string, t IndexType, def IndexDefinition) (*SearchIndex, error) {
	return sendChecked[SearchIndex](ctx, s.c, "update search index", def.Validate(t), "updateAtlasSearchIndex", Request{Params: clusterParams(groupID, clusterName, "indexId", indexID), Body: searchIndexUpdate{def}})
}

// UpdateByName replaces the definition of the index with that name.
func (s SearchService) UpdateByName(ctx context.Context, groupID, clusterName, database, collection, name string, t IndexType, def IndexDefinition) (*SearchIndex, error) {
	return sendChecked[SearchIndex](ctx, s.c, "update search index", def.Validate(t), "updateAtlasSearchIndexByName", Request{Params: byName(groupID, clusterName, database, collection, name), Body: searchIndexUpdate{def}})
}

// Delete removes an index by id (eventually consistent).
func (s SearchService) Delete(ctx context.Context, groupID, clusterName, indexID string) error {
	return callNoBody(ctx, s.c, "deleteAtlasSearchIndex", Request{Params: clusterParams(groupID, clusterName, "indexId", indexID)})
}

// DeleteByName removes an index by namespace and name.
func (s SearchService) DeleteByName(ctx context.Context, groupID, clusterName, database, collection, name string) error {
	return callNoBody(ctx, s.c, "deleteAtlasSearchIndexByName", Request{Params: byName(groupID, clusterName, database, collection, name)})
}

// CreateFTS creates an index with the deprecated flat body.
func (s SearchService) CreateFTS(ctx context.Context, groupID, clusterName string, idx FTSIndex) (*FTSIndex, error) {
	return sendChecked[FTSIndex](ctx, s.c, "create search index", idx.Validate(), "createAtlasSearchIndexDeprecated", Request{Params: clusterParams(groupID, clusterName), Body: idx.writable()})
}

// ListFTS lists a collection's indexes in the flat shape.
func (s SearchService) ListFTS(ctx context.Context, groupID, clusterName, database, collection string) ([]FTSIndex, error) {
	return getList[FTSIndex](ctx, s.c, "listAtlasSearchIndexesDeprecated", Request{Params: clusterParams(groupID, clusterName, "databaseName", database, "collectionName", collection)})
}

// GetFTS fetches an index in the flat shape.
func (s SearchService) GetFTS(ctx context.Context, groupID, clusterName, indexID string) (*FTSIndex, error) {
	return getJSON[FTSIndex](ctx, s.c, "getAtlasSearchIndexDeprecated", Request{Params: clusterParams(groupID, clusterName, "indexId", indexID)})
}

// UpdateFTS replaces an index with the flat body.
func (s SearchService) UpdateFTS(ctx context.Context, groupID, clusterName, indexID string, idx FTSIndex) (*FTSIndex, error) {
	return sendChecked[FTSIndex](ctx, s.c, "update search index", idx.Validate(), "updateAtlasSearchIndexDeprecated", Request{Params: clusterParams(groupID, clusterName, "indexId", indexID), Body: idx.writable()})
}

// DeleteFTS removes an index through the deprecated route.
func (s SearchService) DeleteFTS(ctx context.Context, groupID, clusterName, indexID string) error {
	return callNoBody(ctx, s.c, "deleteAtlasSearchIndexDeprecated", Request{Params: clusterParams(groupID, clusterName, "indexId", indexID)})
}

// Analyzers lists a cluster's user-defined analyzers (v1.0 route).
func (s SearchService) Analyzers(ctx context.Context, groupID, clusterName string) ([]Analyzer, error) {
	return getList[Analyzer](ctx, s.c, "listAtlasSearchAnalyzers", Request{Params: clusterParams(groupID, clusterName)})
}

// UpdateAnalyzers replaces a cluster's user-defined analyzers (v1.0 route);
// an empty list removes them all.
func (s SearchService) UpdateAnalyzers(ctx context.Context, groupID, clusterName string, analyzers []Analyzer) ([]Analyzer, error) {
	for i, a := range analyzers {
		if a.Name == "" {
			return nil, fmt.Errorf("update analyzers: %w", invalidField(fmt.Sprintf("[%d].name", i), "required"))
		}
	}
	if analyzers == nil {
		analyzers = []Analyzer{}
	}
	return getList[Analyzer](ctx, s.c, "updateAtlasSearchAnalyzers", Request{Params: clusterParams(groupID, clusterName), Body: analyzers})
}
