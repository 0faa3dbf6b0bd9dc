package search

import (
	"fmt"
	"testing"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

// BenchmarkBuildRows lays out a cluster with 10,000 indexes over 100
// collections in 10 databases, the work of every poll and filter change.
func BenchmarkBuildRows(b *testing.B) {
	cl := clusterState{Name: "big"}
	for i := range 10_000 {
		cl.Indexes = append(cl.Indexes, apiclient.SearchIndex{IndexID: fmt.Sprintf("%024x", i), Name: fmt.Sprintf("idx-%05d", i),
			Database: fmt.Sprintf("db%d", i%10), CollectionName: fmt.Sprintf("c%d", i%100), Status: apiclient.IndexReady, Queryable: true,
			StatusDetail: []apiclient.HostIndexStatus{{Status: apiclient.IndexReady}, {Status: apiclient.IndexReady}, {Status: apiclient.IndexBuilding}}})
	}
	clusters := []clusterState{cl}
	b.ReportAllocs()
	for b.Loop() {
		if rows := buildRows(clusters, false, map[string]bool{}, "", nil); len(rows) != 10_110 {
			b.Fatalf("rows = %d", len(rows))
		}
	}
}
