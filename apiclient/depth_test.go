package apiclient_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apiclient/limits"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// nested is k arrays, one inside the other, around an empty one.
func nested(k int) any {
	var v any = []any{}
	for range k {
		v = []any{v}
	}
	return v
}

// deepMappings is a definition whose mappings.fields.f nests so that the
// whole index document is depth levels deep: the index document and the
// definition (2), mappings and fields (2), f's arrays (depth-4).
func deepMappings(depth int) apiclient.IndexDefinition {
	return apiclient.IndexDefinition{Mappings: &apiclient.Mappings{Fields: map[string]any{"f": nested(depth - 5)}}}
}

// A search index definition deeper than the service stores
// (limits.MaxDocumentDepth) is refused by the client before anything leaves,
// naming the member as apisim does; one at the bound is sent, and apisim
// takes it.
func TestDeepIndexDefinitionsNeverLeave(t *testing.T) {
	f := newFaultySim(t, apisim.Options{Seed: 3}, 10*time.Second)
	ctx := context.Background()
	const cluster = "payments-rs"
	s := f.client.Search()
	// From 10,002 the definition itself nests more than the 10,000 levels
	// encoding/json decodes ("exceeded max depth"): still refused, the
	// member named.
	for _, depth := range []int{limits.MaxDocumentDepth + 1, 300, 3000, 9990, 10001, 10002, 20000} {
		def := deepMappings(depth)
		for what, send := range map[string]func() error{
			"create": func() error {
				_, err := s.Create(ctx, apisim.DemoPaymentsID, cluster, apiclient.SearchIndexCreateRequest{
					Name: "deep", Database: "shop", CollectionName: "orders", Definition: def})
				return err
			},
			"update": func() error {
				_, err := s.Update(ctx, apisim.DemoPaymentsID, cluster, "65a0c0ffee0000000000abcd", apiclient.IndexSearch, def)
				return err
			},
			"update by name": func() error {
				_, err := s.UpdateByName(ctx, apisim.DemoPaymentsID, cluster, "shop", "orders", "deep", apiclient.IndexSearch, def)
				return err
			},
			"create flat": func() error {
				_, err := s.CreateFlat(ctx, apisim.DemoPaymentsID, cluster, apiclient.FTSIndex{
					Name: "deep", Database: "shop", CollectionName: "orders", Mappings: def.Mappings})
				return err
			},
		} {
			err := send()
			var ve *apiclient.ValidationError
			require.ErrorAs(t, err, &ve, "%s at depth %d", what, depth)
			field := "definition.mappings"
			if what == "create flat" {
				field = "mappings"
			}
			assert.Equal(t, field, ve.Field, what)
			assert.Contains(t, ve.Reason, "at most 100 are allowed", what)
			assert.True(t, strings.HasPrefix(ve.Reason, "nests "), what)
		}
	}
	assert.Zero(t, f.writes.Load(), "no refused definition reached the server")

	ix, err := s.Create(ctx, apisim.DemoPaymentsID, cluster, apiclient.SearchIndexCreateRequest{
		Name: "deep-enough", Database: "shop", CollectionName: "orders", Definition: deepMappings(limits.MaxDocumentDepth)})
	require.NoError(t, err, "a definition at the bound is sent and stored")
	assert.Equal(t, "deep-enough", ix.Name)
	assert.EqualValues(t, 1, f.writes.Load())
	stored, err := s.GetByName(ctx, apisim.DemoPaymentsID, cluster, "shop", "orders", "deep-enough")
	require.NoError(t, err, "the simulator holds the index")
	require.NotNil(t, stored.LatestDefinition)
	require.NotNil(t, stored.LatestDefinition.Mappings)
	assert.Equal(t, nested(limits.MaxDocumentDepth-5), stored.LatestDefinition.Mappings.Fields["f"], "with the whole bound-depth mapping")
}
