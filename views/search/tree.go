package search

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// clusterState is one cluster of the scope and what listing its indexes gave.
type clusterState struct {
	Name    string
	Version string
	// Unsupported says why the cluster has no search indexes (tenant tier,
	// version before 4.2), so it is not asked at all.
	Unsupported string
	Err         error
	Indexes     []apiclient.SearchIndex
	// Stale: reading the indexes again failed (an outage); Indexes are
	// the last read's.
	Stale error
}

// Row ids: the tree's rows are clusters, databases, collections and
// indexes; each id says which, so the cursor and collapse state survive a
// refresh.
func clusterRowID(c string) string        { return "c\x00" + c }
func dbRowID(c, db string) string         { return "d\x00" + c + "\x00" + db }
func collRowID(c, db, coll string) string { return "n\x00" + c + "\x00" + db + "\x00" + coll }
func indexRowID(c, indexID string) string { return "i\x00" + c + "\x00" + indexID }
func rowKind(id string) byte              { return id[0] }
func rowParts(id string) []string         { return strings.Split(id, "\x00")[1:] }

// indexMatches applies the root's filter to an index.
func indexMatches(filter, cluster string, ix apiclient.SearchIndex) bool {
	return views.MatchFilter(filter, cluster, ix.Database, ix.CollectionName, ix.Name, string(ix.Type), string(ix.Status))
}

// buildRows lays the tree out as table rows: clusters (only when the scope
// has several), databases, collections and their indexes, sorted by name.
func buildRows(clusters []clusterState, showClusters bool, collapsed map[string]bool, filter string, deleting map[string]bool) []components.Row {
	var rows []components.Row
	for _, cl := range clusters {
		indent := ""
		if showClusters {
			cells := []string{"▾ " + cl.Name, "cluster", "", "", "", ""}
			class := ""
			switch {
			case cl.Unsupported != "":
				cells[4], class = cl.Unsupported, "muted"
			case cl.Err != nil:
				cells[4], class = views.ErrText(cl.Err), "failed"
				if why, ok := views.NotVisible(cl.Err); ok {
					cells[4], class = why, "muted"
				}
			}
			if collapsed[clusterRowID(cl.Name)] {
				cells[0] = "▸ " + cl.Name
			}
			rows = append(rows, components.Row{ID: clusterRowID(cl.Name), Cells: cells, Class: class})
			if collapsed[clusterRowID(cl.Name)] {
				continue
			}
			indent = "  "
		} else if cl.Err != nil || cl.Unsupported != "" {
			msg := cl.Unsupported
			if cl.Err != nil {
				msg = views.ErrText(cl.Err)
				if why, ok := views.NotVisible(cl.Err); ok {
					msg = why
				}
			}
			rows = append(rows, components.Row{ID: clusterRowID(cl.Name), Cells: []string{cl.Name, "cluster", "", "", msg, ""}, Class: "failed"})
			continue
		}
		byDB := map[string]map[string][]apiclient.SearchIndex{}
		for _, ix := range cl.Indexes {
			if !indexMatches(filter, cl.Name, ix) {
				continue
			}
			if byDB[ix.Database] == nil {
				byDB[ix.Database] = map[string][]apiclient.SearchIndex{}
			}
			byDB[ix.Database][ix.CollectionName] = append(byDB[ix.Database][ix.CollectionName], ix)
		}
		for _, db := range sortedKeys(byDB) {
			id := dbRowID(cl.Name, db)
			rows = append(rows, components.Row{ID: id, Cells: []string{indent + glyph(collapsed[id]) + db, "database", "", "", count(byDB[db]), ""}})
			if collapsed[id] {
				continue
			}
			for _, coll := range sortedKeys(byDB[db]) {
				cid := collRowID(cl.Name, db, coll)
				ixs := byDB[db][coll]
				rows = append(rows, components.Row{ID: cid, Cells: []string{indent + "  " + glyph(collapsed[cid]) + coll, "collection", "", "", plural(len(ixs), "index", "indexes"), ""}})
				if collapsed[cid] {
					continue
				}
				sort.Slice(ixs, func(i, j int) bool { return ixs[i].Name < ixs[j].Name })
				for _, ix := range ixs {
					rows = append(rows, indexRow(cl.Name, indent+"    ", ix, deleting[ix.IndexID]))
				}
			}
		}
	}
	return rows
}

func indexRow(cluster, indent string, ix apiclient.SearchIndex, deleting bool) components.Row {
	status := string(ix.Status)
	if deleting && ix.Status != apiclient.IndexDeleting {
		status = string(apiclient.IndexDeleting)
	}
	class := status
	if status == string(apiclient.IndexDeleting) {
		class = "muted"
	}
	q := "no"
	if ix.Queryable {
		q = "yes"
	}
	ver := ""
	if ix.LatestDefinitionVersion != nil {
		ver = fmt.Sprintf("v%d", ix.LatestDefinitionVersion.Version)
	}
	return components.Row{ID: indexRowID(cluster, ix.IndexID), Class: class,
		Cells: []string{indent + ix.Name, typeLabel(ix.Type), status, q, hostSummary(ix), ver}}
}

func typeLabel(t apiclient.IndexType) string {
	if t == "" {
		return string(apiclient.IndexSearch)
	}
	return string(t)
}

// hostSummary counts hosts per status, in build order: "2 READY 1 BUILDING".
func hostSummary(ix apiclient.SearchIndex) string {
	if len(ix.StatusDetail) == 0 {
		return ""
	}
	n := map[apiclient.IndexStatus]int{}
	for _, h := range ix.StatusDetail {
		n[h.Status]++
	}
	var parts []string
	for _, st := range []apiclient.IndexStatus{apiclient.IndexReady, apiclient.IndexBuilding, apiclient.IndexPending,
		apiclient.IndexFailed, apiclient.IndexStale, apiclient.IndexDeleting, apiclient.IndexDoesNotExist} {
		if n[st] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[st], st))
			delete(n, st)
		}
	}
	for st, k := range n { // statuses this build does not know yet
		parts = append(parts, fmt.Sprintf("%d %s", k, st))
	}
	return strings.Join(parts, " ")
}

func glyph(collapsed bool) string {
	if collapsed {
		return "▸ "
	}
	return "▾ "
}

func count(colls map[string][]apiclient.SearchIndex) string {
	n := 0
	for _, ixs := range colls {
		n += len(ixs)
	}
	return plural(len(colls), "collection", "collections") + ", " + plural(n, "index", "indexes")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
