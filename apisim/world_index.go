package apisim

// The world's lists are plain slices that handlers append to, prepend to
// and remove from in many places; the reads a dashboard makes over and over
// (a project, its clusters, its alerts and alert configurations, a
// cluster's snapshots, restore and export jobs and search indexes) look
// them up through indexes instead of scanning every project's items, so a
// request costs about the same in a world of 5,000 projects as of 100.
//
// An index is kept lazily and checked on every lookup, in constant time,
// against the list it indexes: its length, first and last element. The
// lists change only by appending new elements, prepending new elements and
// removing elements (the order of the others kept), and the fields an
// index keys on never change; under those changes a list with the same
// length, first and last element as when it was indexed holds the same
// elements, and one that grew with the same first element and its old last
// element at the old last place only had elements appended (the index
// takes those). Anything else rebuilds the index, once, on the next lookup.
// Lookups run under the server's lock, as every read of the world does.

// index groups one of the world's lists by a key, in the list's order.
type index[T any] struct {
	key         func(*T) string
	n           int
	first, last *T
	by          map[string][]*T
}

// of is the elements whose key is k, in the list's order. The caller
// must not change the slice.
func (ix *index[T]) of(xs []*T, k string) []*T {
	ix.sync(xs)
	v := ix.by[k]
	return v[:len(v):len(v)] // a caller's append never writes into the index
}

// sync brings the index up to date with the list.
func (ix *index[T]) sync(xs []*T) {
	n := ix.n
	switch {
	case ix.by != nil && len(xs) == n && (n == 0 || xs[0] == ix.first && xs[n-1] == ix.last):
		return
	case ix.by != nil && n > 0 && len(xs) > n && xs[0] == ix.first && xs[n-1] == ix.last:
		ix.add(xs[n:])
	default:
		ix.by = make(map[string][]*T)
		ix.add(xs)
	}
	ix.n = len(xs)
	if len(xs) > 0 {
		ix.first, ix.last = xs[0], xs[len(xs)-1]
	} else {
		ix.first, ix.last = nil, nil
	}
}

func (ix *index[T]) add(xs []*T) {
	for _, x := range xs {
		k := ix.key(x)
		ix.by[k] = append(ix.by[k], x)
	}
}

// worldIndex is the world's indexes; not saved, made again as needed.
type worldIndex struct {
	projects      index[Project]
	clusters      index[Cluster]
	alerts        index[Alert]
	alertConfigs  index[AlertConfig]
	snapshots     index[Snapshot]
	restoreJobs   index[RestoreJob]
	exportJobs    index[ExportJob]
	searchIndexes index[SearchIndex]
}

// clusterKey names a project's cluster in the per-cluster indexes.
func clusterKey(groupID, cluster string) string { return groupID + "/" + cluster }

// indexes is the world's indexes, made on first use.
func (w *World) indexes() *worldIndex {
	if w.idx == nil {
		w.idx = &worldIndex{
			projects:      index[Project]{key: func(p *Project) string { return p.ID }},
			clusters:      index[Cluster]{key: func(c *Cluster) string { return c.GroupID }},
			alerts:        index[Alert]{key: func(a *Alert) string { return a.GroupID }},
			alertConfigs:  index[AlertConfig]{key: func(a *AlertConfig) string { return a.GroupID }},
			snapshots:     index[Snapshot]{key: func(s *Snapshot) string { return clusterKey(s.GroupID, s.ClusterName) }},
			restoreJobs:   index[RestoreJob]{key: func(j *RestoreJob) string { return clusterKey(j.GroupID, j.ClusterName) }},
			exportJobs:    index[ExportJob]{key: func(j *ExportJob) string { return clusterKey(j.GroupID, j.ClusterName) }},
			searchIndexes: index[SearchIndex]{key: func(x *SearchIndex) string { return clusterKey(x.GroupID, x.ClusterName) }},
		}
	}
	return w.idx
}

// projectAlerts is a project's alerts, oldest first as the world holds them.
func (w *World) projectAlerts(groupID string) []*Alert {
	return w.indexes().alerts.of(w.Alerts, groupID)
}

// alertConfigsOf is a project's alert configurations.
func (w *World) alertConfigsOf(groupID string) []*AlertConfig {
	return w.indexes().alertConfigs.of(w.AlertConfigs, groupID)
}

// snapshotsAt is a cluster's snapshots of every kind, in the world's order.
func (w *World) snapshotsAt(groupID, cluster string) []*Snapshot {
	return w.indexes().snapshots.of(w.Snapshots, clusterKey(groupID, cluster))
}

// restoreJobsAt is a cluster's restore jobs of every kind.
func (w *World) restoreJobsAt(groupID, cluster string) []*RestoreJob {
	return w.indexes().restoreJobs.of(w.RestoreJobs, clusterKey(groupID, cluster))
}

// exportJobsAt is a cluster's export jobs.
func (w *World) exportJobsAt(groupID, cluster string) []*ExportJob {
	return w.indexes().exportJobs.of(w.ExportJobs, clusterKey(groupID, cluster))
}

// searchIndexesAt is a cluster's search indexes, deleted ones included.
func (w *World) searchIndexesAt(groupID, cluster string) []*SearchIndex {
	return w.indexes().searchIndexes.of(w.SearchIndexes, clusterKey(groupID, cluster))
}
