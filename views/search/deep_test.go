package search

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

// deepIndex is an index whose mappings.fields.f is depth nested arrays, as a
// hostile or broken server could send it (apisim itself refuses them).
func deepIndex(t testing.TB, depth int) apiclient.SearchIndex {
	raw := `{"mappings":{"dynamic":false,"fields":{"f":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + `}}}`
	var def apiclient.IndexDefinition
	require.NoError(t, json.Unmarshal([]byte(raw), &def))
	return apiclient.SearchIndex{IndexID: fmt.Sprintf("deep%020d", depth), Name: fmt.Sprintf("deep-%d", depth),
		Database: "shop", CollectionName: "orders", Status: apiclient.IndexReady, Queryable: true,
		Type: apiclient.IndexSearch, LatestDefinition: &def}
}

// injectDeep adds the index to the loaded tree and returns its row id and
// the row id of the row above it.
func injectDeep(t testing.TB, h *harness, ix apiclient.SearchIndex) (row, above string) {
	for i := range h.P.clusters {
		if h.P.clusters[i].Name == "payments-rs" {
			h.P.clusters[i].Indexes = append(h.P.clusters[i].Indexes, ix)
		}
	}
	h.P.rebuild()
	row = indexRowID("payments-rs", ix.IndexID)
	require.True(t, h.P.table.SetCursorID(row))
	h.P.table.MoveCursor(-1)
	above = h.P.table.SelectedID()
	require.NotEqual(t, row, above)
	h.P.refreshDetail()
	return row, above
}

// Moving the cursor onto a deeply nested definition and back does bounded
// work: the definition is measured in one pass and summarised, glamour gets
// a few KB, and the allocations stay far below the 100 MB budget. (Asserted
// on work done, not on wall time; BenchmarkDeepDefinitionCursor times it.)
func TestDeepDefinitionCursorDoesBoundedWork(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 100, 40)
	for _, depth := range []int{300, 3000, 9990} {
		t.Run(fmt.Sprint(depth), func(t *testing.T) {
			row, above := injectDeep(t, h, deepIndex(t, depth))
			_ = h.Screen()
			bytesBefore := h.P.detail.RenderedBytes()
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)

			h.Press("down")
			require.Equal(t, row, h.P.table.SelectedID())
			onto := h.Screen()
			h.Press("up")
			require.Equal(t, above, h.P.table.SelectedID())
			_ = h.Screen()

			runtime.ReadMemStats(&after)
			assert.Contains(t, onto, "too large to show")
			assert.Contains(t, onto, fmt.Sprintf("depth %d", depth+3))
			assert.Contains(t, onto, "y copies it, e opens it in $EDITOR")
			rendered := h.P.detail.RenderedBytes() - bytesBefore
			assert.Less(t, rendered, 8<<10, "markdown given to glamour")
			alloc := after.TotalAlloc - before.TotalAlloc
			assert.Less(t, alloc, uint64(20<<20), "allocated %d bytes for two key presses", alloc)

			// y copies the whole definition; e would open it in the editor.
			h.P.table.SetCursorID(row)
			sel := h.P.Selected()
			assert.True(t, strings.HasPrefix(sel, `{"mappings":`), "y copies the definition")
			assert.Equal(t, depth, strings.Count(sel, "["))
		})
	}
}

// BenchmarkDeepDefinitionCursor is key-to-frame for the cursor moving onto
// a deeply nested definition and back (two key presses, two frames).
func BenchmarkDeepDefinitionCursor(b *testing.B) {
	for _, depth := range []int{300, 3000, 9990} {
		b.Run(fmt.Sprint(depth), func(b *testing.B) {
			h := newHarness(b, newWorld(b), "payments-rs", 100, 40)
			injectDeep(b, h, deepIndex(b, depth))
			b.ReportAllocs()
			for b.Loop() {
				h.Press("down")
				_ = h.Screen()
				h.Press("up")
				_ = h.Screen()
			}
		})
	}
}
