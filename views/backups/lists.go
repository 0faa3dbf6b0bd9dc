package backups

import (
	"fmt"
	"slices"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// listView is one list view of a cluster: its table, how the data's items
// become its rows, and what it says while it has none.
type listView struct {
	table *components.Table
	what  string // "Snapshots": the noun of its prologue
	// fill sets the table's rows from the data and the filter.
	fill func()
	// holds reports whether the data holds the item id (a jump's target).
	holds func(id string) bool
	// state is how many items the data holds and the last read's error.
	state func() (n int, err error)
	// unavailable is why the cluster's route has no such list ("" when it
	// has); empty what the list says with none, offering its key.
	unavailable func() string
	empty       func() string
}

// newLists are the pane's list views, by view; schedule and compliance are
// texts.
func (p *Pane) newLists() map[view]*listView {
	k := func() keys { return keysOf(p.Ctx.Keys) }
	notShared := func(why string) func() string {
		return func() string {
			if p.data.Route == routeNone {
				return why
			}
			return ""
		}
	}
	dedicated := func(why string) func() string {
		return func() string {
			if p.data.Route != routeCluster {
				return why
			}
			return ""
		}
	}
	return map[view]*listView{
		viewSnapshots: {table: &p.snaps, what: "Snapshots",
			fill:        func() { fill(p, &p.snaps, p.data.Snaps, p.snapRows) },
			holds:       func(id string) bool { _, ok := p.data.snap(id); return ok },
			state:       func() (int, error) { return len(p.data.Snaps), p.data.SnapErr },
			unavailable: notShared("Shared-tier (M0/M2/M5) clusters keep daily snapshots the API only serves one at a time by id (getSharedClusterBackup); there is nothing to list here."),
			empty: func() string {
				return "No snapshots yet." + p.offer(k().Snapshot, "n takes an on-demand snapshot.", "an on-demand snapshot")
			}},
		viewRestores: {table: &p.restores, what: "Restore jobs",
			fill: func() {
				fill(p, &p.restores, p.data.Restores, p.restoreRows)
				if p.focusRestore != "" && p.restores.SetCursorID(p.focusRestore) {
					p.focusRestore = ""
				}
			},
			holds:       func(id string) bool { _, ok := p.data.restore(id); return ok },
			state:       func() (int, error) { return len(p.data.Restores), p.data.RestErr },
			unavailable: notShared("Restores of shared-tier clusters are not available through this API."),
			empty: func() string {
				return "No restore jobs." + p.offer(k().Restore, "R on a completed snapshot starts one.", "a restore")
			}},
		viewExports: {table: &p.exports, what: "Export jobs",
			fill: func() { fill(p, &p.exports, p.data.Exports, p.exportRows) },
			holds: func(id string) bool {
				return slices.ContainsFunc(p.data.Exports, func(e apiclient.ExportJob) bool { return e.ID == id })
			},
			state:       func() (int, error) { return len(p.data.Exports), p.data.ExpErr },
			unavailable: dedicated("Exports to a bucket are available for dedicated clusters only."),
			empty: func() string {
				return "No export jobs." + p.offer(k().Export, "E on a completed snapshot exports it to a bucket.", "an export")
			}},
		viewBuckets: {table: &p.buckets, what: "Export buckets",
			fill: func() { fill(p, &p.buckets, p.data.Buckets, bucketRows) },
			holds: func(id string) bool {
				return slices.ContainsFunc(p.data.Buckets, func(b apiclient.ExportBucket) bool { return b.ID == id })
			},
			state:       func() (int, error) { return len(p.data.Buckets), p.data.BuckErr },
			unavailable: dedicated("Export buckets are used by dedicated clusters only."),
			empty: func() string {
				return "No export buckets." + p.offer(k().NewBucket, "b registers one.", "registering a bucket")
			}},
	}
}

func pickerColumns() []components.Column {
	return []components.Column{
		{Title: "CLUSTER", MinWidth: 14, Flex: 2},
		{Title: "KIND", Width: 11, Priority: 1},
		{Title: "TIER", Width: 10, Priority: 3},
		{Title: "VERSION", Width: 8, Priority: 4},
		{Title: "BACKUP", Width: 6, Priority: 2},
	}
}

func snapColumns() []components.Column {
	return []components.Column{
		// TYPE and STATUS are the key; EXPIRES goes first, then SIZE.
		{Title: "TYPE", Width: 12},
		{Title: "STATUS", Width: 11},
		{Title: "CREATED", Width: 16, Priority: 3},
		{Title: "EXPIRES", Width: 16, Priority: 6},
		{Title: "SIZE", Width: 9, Align: components.AlignRight, Priority: 5},
		{Title: "FREQUENCY", Width: 9, Priority: 2},
		{Title: "DESCRIPTION", MinWidth: 10, Flex: 1, Priority: 4},
	}
}

func restoreColumns() []components.Column {
	return []components.Column{
		{Title: "STATE", Width: 16},
		{Title: "DELIVERY", Width: 11, Priority: 3},
		{Title: "SNAPSHOT", Width: 9, Priority: 4},
		{Title: "TARGET", MinWidth: 10, Flex: 1, Priority: 1},
		{Title: "STARTED", Width: 16, Priority: 5},
		{Title: "ELAPSED", Width: 8, Align: components.AlignRight, Priority: 2},
		{Title: "RESULT", MinWidth: 10, Flex: 2, Priority: 1},
	}
}

func exportColumns() []components.Column {
	return []components.Column{
		{Title: "STATE", Width: 12},
		{Title: "PROGRESS", Width: 8, Align: components.AlignRight, Priority: 2},
		{Title: "SNAPSHOT", Width: 9, Priority: 4},
		{Title: "BUCKET", MinWidth: 10, Flex: 1, Priority: 1},
		{Title: "CREATED", Width: 16, Priority: 6},
		{Title: "FINISHED", Width: 16, Priority: 5},
		{Title: "PREFIX", MinWidth: 10, Flex: 2, Priority: 3},
	}
}

func bucketColumns() []components.Column {
	return []components.Column{
		{Title: "NAME", MinWidth: 12, Flex: 2},
		{Title: "PROVIDER", Width: 8, Priority: 2},
		{Title: "ROLE", Width: 24, Priority: 3},
		{Title: "REGION", Width: 10, Priority: 1},
		{Title: "ID", Width: 24, Priority: 4},
	}
}

// tables are the cluster list's and the list views' tables.
func (p *Pane) tables() []*components.Table {
	return []*components.Table{&p.picker, &p.snaps, &p.restores, &p.exports, &p.buckets}
}

// fill sets t's rows from items: each item's row, then the rows under it
// (a sharded snapshot's members), where the filter matches the item's
// cells or id.
func fill[T any](p *Pane, t *components.Table, items []T, rows func(T) []components.Row) {
	var out []components.Row
	for _, it := range items {
		r := rows(it)
		if !views.MatchFilter(p.filter, append(slices.Clip(r[0].Cells), r[0].ID)...) {
			continue
		}
		out = append(out, r...)
	}
	t.SetRows(out)
}

func (p *Pane) rebuild() {
	fill(p, &p.picker, p.clusters, pickerRows)
	for _, l := range p.lists {
		l.fill()
	}
	if l := p.lists[p.view]; l != nil {
		p.want.Select(l.table.SetCursorID)
	}
	p.refreshDetail()
	p.refreshOpen()
}

func pickerRows(c clusterRef) []components.Row {
	backup := "on"
	if !c.Backup {
		backup = "off"
	}
	class := ""
	if c.Kind == kindTenant || !c.Backup {
		class = "muted"
	}
	return []components.Row{{ID: c.Name, Cells: []string{c.Name, c.Kind.String(), c.Tier, c.Version, backup}, Class: class}}
}

func (p *Pane) snapRows(s snapRow) []components.Row {
	typ := s.Type
	if s.Sharded {
		mark := "▸ "
		if p.expanded[s.ID] {
			mark = "▾ "
		}
		typ = mark + typ
	}
	rows := []components.Row{{ID: s.ID, Class: snapClass(s),
		Cells: []string{typ, s.Status, fmtTime(s.Created), fmtTime(s.Expires), fmtSize(s.Size), s.Frequency, s.Description}}}
	if s.Sharded && p.expanded[s.ID] {
		for _, m := range s.Members {
			rows = append(rows, components.Row{ID: s.ID + "/" + m.ID, Class: "muted",
				Cells: []string{"  └ member", "", "", "", "", components.Sanitize(m.CloudProvider), components.Sanitize(m.ReplicaSetName) + "  " + m.ID}})
		}
	}
	return rows
}

func snapClass(s snapRow) string {
	switch {
	case s.Status == string(apiclient.SnapshotFailed):
		return "failed"
	case !s.Done:
		return "running"
	}
	return ""
}

func (p *Pane) restoreRows(r restoreRow) []components.Row {
	now := p.Ctx.Now()
	state := string(r.State)
	class := "ok"
	switch r.State {
	case apiclient.RestoreRunning:
		state, class = spinner(now)+" running", "running"
	case apiclient.RestoreFailed, apiclient.RestoreCancelled, apiclient.RestoreExpired:
		class = "failed"
	}
	if _, mine := p.watching[r.ID]; mine {
		state += " ★"
	}
	target := r.Target
	if target == "" {
		target = "-"
	}
	result := "-"
	switch {
	case len(r.URLs) > 0:
		result = r.URLs[0]
	case r.Finished != nil:
		result = "finished " + fmtTime(r.Finished)
	case r.State == apiclient.RestoreRunning:
		result = "in progress"
	}
	snap := short(r.SnapshotID)
	if snap == "" && (r.PointInTime != 0 || r.OplogTs != 0) {
		snap = "PIT" // no snapshot: a point in time (the detail says which)
	}
	return []components.Row{{ID: r.ID, Class: class,
		Cells: []string{state, r.Delivery, snap, target, fmtTime(r.Started), p.elapsed(r, now), result}}}
}

func (p *Pane) bucketName(id string) string {
	for _, b := range p.data.Buckets {
		if b.ID == id {
			return b.BucketName
		}
	}
	return short(id)
}

func (p *Pane) exportRows(e apiclient.ExportJob) []components.Row {
	prog := "-"
	if s := e.ExportStatus; s != nil && s.TotalCollections > 0 {
		prog = fmt.Sprintf("%d/%d", s.ExportedCollections, s.TotalCollections)
	}
	created := e.CreatedAt
	class := ""
	switch {
	case !e.Done():
		class = "running"
	case e.State != apiclient.ExportSuccessful:
		class = "failed"
	}
	return []components.Row{{ID: e.ID, Class: class,
		Cells: []string{string(e.State), prog, short(e.SnapshotID), p.bucketName(e.ExportBucketID), fmtTime(&created), fmtTime(e.FinishedAt), e.Prefix}}}
}

func bucketRows(b apiclient.ExportBucket) []components.Row {
	role := b.IAMRoleID
	if role == "" {
		role = b.RoleID
	}
	return []components.Row{{ID: b.ID, Cells: []string{b.BucketName, string(b.CloudProvider), role, b.Region, b.ID}}}
}
