// Loading: what each route reads of a cluster, the poll round, and how an
// answer is merged into what is shown.

package backups

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// loadClusters lists every deployment of the project: the cluster API's,
// then flex clusters and serverless instances (which it does not list).
func loadClusters(ctx context.Context, c *apiclient.Client, gid string) ([]clusterRef, error) {
	cls, err := c.Clusters().All(ctx, gid)
	if err != nil {
		return nil, fmt.Errorf("list clusters: %w", err)
	}
	var out []clusterRef
	for _, cl := range cls {
		k := kindReplicaSet
		switch {
		case cl.Tenant():
			k = kindTenant
		case cl.ClusterType == "SHARDED" || cl.ClusterType == "GEOSHARDED":
			k = kindSharded
		}
		out = append(out, clusterRef{Name: cl.Name, Kind: k, Tier: cl.InstanceSize(), Version: cl.MongoDBVersion, Backup: cl.BackupEnabled})
	}
	// Flex and serverless lists are best effort: a project may have none,
	// and an older server may not know the route.
	if fl, err := c.Clusters().AllFlex(ctx, gid); err == nil {
		for _, f := range fl {
			out = append(out, clusterRef{Name: f.Name, Kind: kindFlex, Tier: "FLEX", Version: f.MongoDBVersion, Backup: true})
		}
	}
	if sl, err := c.Clusters().AllServerless(ctx, gid); err == nil {
		for _, s := range sl {
			out = append(out, clusterRef{Name: s.Name, Kind: kindServerless, Tier: "SERVERLESS", Version: s.MongoDBVersion, Backup: true})
		}
	}
	slices.SortStableFunc(out, func(a, b clusterRef) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// parts says which parts of a cluster's data a load fetches.
type parts struct{ snaps, restores, exports, rest bool }

var allParts = parts{true, true, true, true}

// list reads one list of a cluster and makes its rows; it runs on a Cmd's
// goroutine.
type list[R any] func(ctx context.Context, b apiclient.BackupsService, gid, name string) ([]R, error)

// rowsOf is the list read by read (a BackupsService method), each item
// made a row by row.
func rowsOf[T, R any](read func(apiclient.BackupsService, context.Context, string, string) ([]T, error), row func(T) R) list[R] {
	return func(ctx context.Context, b apiclient.BackupsService, gid, name string) ([]R, error) {
		items, err := read(b, ctx, gid, name)
		if err != nil {
			return nil, err
		}
		var rows []R
		for _, it := range items {
			rows = append(rows, row(it))
		}
		return rows, nil
	}
}

// lists is what a route reads of a cluster: its snapshots (a sharded
// cluster's its own way) and restore jobs, each nil where the route has
// none; a dedicated cluster's route also has export jobs, export buckets,
// its schedule and the project's compliance policy.
type lists struct {
	snaps, sharded list[snapRow]
	restores       list[restoreRow]
	dedicated      bool
}

// routes are the lists each route reads.
var routes = map[route]lists{
	routeNone: {},
	routeFlex: {
		snaps:    rowsOf(apiclient.BackupsService.AllFlexSnapshots, flexSnapRow),
		restores: rowsOf(apiclient.BackupsService.AllFlexRestoreJobs, flexRestoreRow),
	},
	routeServerless: {
		snaps:    rowsOf(apiclient.BackupsService.AllServerlessSnapshots, serverlessSnapRow),
		restores: rowsOf(apiclient.BackupsService.AllServerlessRestoreJobs, restoreRowOf),
	},
	routeCluster: {
		snaps:     rowsOf(apiclient.BackupsService.AllSnapshots, snapRowOf),
		sharded:   rowsOf(shardedSnapshots, shardedSnapRow),
		restores:  rowsOf(apiclient.BackupsService.AllRestoreJobs, restoreRowOf),
		dedicated: true,
	},
}

// shardedSnapshots is a sharded cluster's snapshots, as a list.
func shardedSnapshots(b apiclient.BackupsService, ctx context.Context, gid, name string) ([]apiclient.ShardedSnapshot, error) {
	p, err := b.ShardedSnapshots(ctx, gid, name)
	if err != nil {
		return nil, err
	}
	return p.Results, nil
}

// loadCluster fetches the parts asked for, as its route reads them; it
// runs on a Cmd's goroutine and uses only its arguments.
func loadCluster(ctx context.Context, c *apiclient.Client, gid string, cl clusterRef, now time.Time, want parts) clusterData {
	d := clusterData{Cluster: cl}
	d.Route, d.Note = routeFor(cl.Kind, now)
	b, rt := c.Backups(), routes[d.Route]
	snaps := rt.snaps
	if cl.Kind == kindSharded && rt.sharded != nil {
		snaps = rt.sharded
	}
	if want.snaps && snaps != nil {
		d.Snaps, d.SnapErr = snaps(ctx, b, gid, cl.Name)
	}
	if want.restores && rt.restores != nil {
		d.Restores, d.RestErr = rt.restores(ctx, b, gid, cl.Name)
	}
	if !rt.dedicated {
		return d
	}
	if want.exports {
		d.Exports, d.ExpErr = b.AllExportJobs(ctx, gid, cl.Name)
	}
	if want.rest {
		d.Buckets, d.BuckErr = b.AllExportBuckets(ctx, gid)
		d.Schedule, d.SchedErr = b.Schedule(ctx, gid, cl.Name)
		d.Policy, d.PolErr = b.CompliancePolicy(ctx, gid)
	}
	return d
}

// moving reports whether anything shown is still changing.
func (p *Pane) moving() bool {
	if p.cluster == nil || !p.loaded {
		return false
	}
	for _, s := range p.data.Snaps {
		if !s.Done {
			return true
		}
	}
	for _, r := range p.data.Restores {
		if r.running() {
			return true
		}
	}
	for _, e := range p.data.Exports {
		if !e.Done() {
			return true
		}
	}
	return p.data.Policy != nil && p.data.Policy.State != "" && p.data.Policy.State != apiclient.ComplianceActive
}

// WatchEvery is how often a moving job is polled, as the cloud CLI's
// watch does.
const WatchEvery = 4 * time.Second

// pollState: visible, always (fast while something moves); hidden, only
// while a job this session started is unfinished.
func (p *Pane) pollState() views.PollState {
	return views.PollState{Off: p.Ctx.GroupID == "", Moving: p.moving(), Watching: len(p.watching) > 0, Fast: WatchEvery}
}

// tick is one poll: visible, the parts of the shown cluster that move (or
// everything at the normal interval); hidden, each watched job.
func (p *Pane) tick() tea.Cmd {
	if p.Visible() {
		if p.cluster == nil {
			return p.loadClusters("")
		}
		want := allParts
		if p.moving() {
			want = parts{}
			for _, s := range p.data.Snaps {
				want.snaps = want.snaps || !s.Done
			}
			for _, r := range p.data.Restores {
				want.restores = want.restores || r.running()
			}
			for _, e := range p.data.Exports {
				want.exports = want.exports || !e.Done()
			}
			if pol := p.data.Policy; pol != nil && pol.State != "" && pol.State != apiclient.ComplianceActive {
				want.rest = true
			}
			// A part whose last read failed (an outage emptied it) and one
			// holding a job this session watches are read too: else a
			// watched restore that ended while the server was away would
			// stay watched while only a snapshot moves.
			want.snaps = want.snaps || p.data.SnapErr != nil || p.watchingHere("snapshot")
			want.restores = want.restores || p.data.RestErr != nil || p.watchingHere("restore")
			want.exports = want.exports || p.data.ExpErr != nil || p.watchingHere("export")
		}
		// A watched job on another cluster is checked on its own.
		cmds := []tea.Cmd{p.loadData("", want, keyPoll)}
		for _, w := range p.watching {
			if w.Cluster.Name != p.cluster.Name {
				cmds = append(cmds, p.checkWatch(w))
			}
		}
		return tea.Batch(cmds...)
	}
	var cmds []tea.Cmd
	for _, w := range p.watching {
		cmds = append(cmds, p.checkWatch(w))
	}
	return tea.Batch(cmds...)
}

func (p *Pane) loadClusters(task string) tea.Cmd {
	client, gid := p.Ctx.Client, p.Ctx.GroupID
	if client == nil || gid == "" {
		return nil
	}
	return views.Load(&p.Base, keyClusters, p.seq.Next(), task, func(ctx context.Context) ([]clusterRef, error) {
		return loadClusters(ctx, client, gid)
	})
}

// dataResult carries a load and the parts it fetched.
type dataResult struct {
	Data clusterData
	Want parts
}

func (p *Pane) loadData(task string, want parts, key string) tea.Cmd {
	client, gid, now := p.Ctx.Client, p.Ctx.GroupID, p.Ctx.Now()
	if client == nil || gid == "" || p.cluster == nil {
		return nil
	}
	cl := *p.cluster
	return views.Load(&p.Base, key, p.seq.Next(), task, func(ctx context.Context) (dataResult, error) {
		d := loadCluster(ctx, client, gid, cl, now, want)
		return dataResult{Data: d, Want: want}, firstErr(want, d)
	})
}

// firstErr is the error of the first part asked for that failed; a poll
// backs off on it.
// A part the caller's role may not read is no failure: the pane says so in
// its place (views.NotVisible) and is not stale for it.
func firstErr(want parts, d clusterData) error {
	failed := func(err error) bool {
		_, denied := views.NotVisible(err)
		return err != nil && !denied
	}
	switch {
	case want.snaps && failed(d.SnapErr):
		return d.SnapErr
	case want.restores && failed(d.RestErr):
		return d.RestErr
	case want.exports && failed(d.ExpErr):
		return d.ExpErr
	}
	return nil
}

func (p *Pane) clustersResult(msg views.Result[[]clusterRef]) tea.Cmd {
	{
		if !p.seq.Latest(msg.Seq) && p.loadedList {
			return nil
		}
		p.clustersErr = msg.Err
		if msg.Err == nil {
			p.clusters, p.loadedList = msg.Value, true
		}
		fill(p, &p.picker, p.clusters, pickerRows)
		if p.cluster == nil && p.Ctx.ClusterName != "" {
			for _, c := range p.clusters {
				if c.Name == p.Ctx.ClusterName {
					return p.open(c)
				}
			}
		}
		return nil
	}
}

// dataResult merges a load into what is shown; a poll replaces only the
// parts it fetched. Watched jobs that ended raise their toast here.
func (p *Pane) dataResult(msg views.Result[dataResult]) tea.Cmd {
	res := msg.Value
	if p.cluster == nil || res.Data.Cluster.Name != p.cluster.Name {
		return nil
	}
	// Loads and polls overlap: an answer older than one already shown
	// would take the screen back in time.
	if msg.Seq <= p.appliedSeq {
		return nil
	}
	p.appliedSeq = msg.Seq
	d, w := res.Data, res.Want
	// A list read before and failing now (an outage) keeps its rows as of
	// the last good read: the footer says they are stale and since when,
	// as every pane's do. A role's refusal, or a first read, shows why.
	fresh := func(err, was error, had bool) bool {
		_, denied := views.NotVisible(err)
		return err == nil || denied || was != nil || !had
	}
	if w.snaps && fresh(d.SnapErr, p.data.SnapErr, len(p.data.Snaps) > 0) {
		p.data.Snaps, p.data.SnapErr = d.Snaps, d.SnapErr
	}
	if w.restores && fresh(d.RestErr, p.data.RestErr, len(p.data.Restores) > 0) {
		p.data.Restores, p.data.RestErr = d.Restores, d.RestErr
	}
	if w.exports && fresh(d.ExpErr, p.data.ExpErr, len(p.data.Exports) > 0) {
		p.data.Exports, p.data.ExpErr = d.Exports, d.ExpErr
	}
	if w.rest {
		if fresh(d.BuckErr, p.data.BuckErr, len(p.data.Buckets) > 0) {
			p.data.Buckets, p.data.BuckErr = d.Buckets, d.BuckErr
		}
		if fresh(d.SchedErr, p.data.SchedErr, p.data.Schedule != nil) {
			p.data.Schedule, p.data.SchedErr = d.Schedule, d.SchedErr
		}
		if fresh(d.PolErr, p.data.PolErr, p.data.Policy != nil) {
			p.data.Policy, p.data.PolErr = d.Policy, d.PolErr
		}
	}
	p.data.Cluster, p.data.Route, p.data.Note = d.Cluster, d.Route, d.Note
	p.loaded = true
	p.layout() // a list that reached the row cap adds a note line
	now := p.Ctx.Now()
	for _, r := range p.data.Restores {
		if _, ok := p.firstSeen[r.ID]; !ok && r.running() {
			p.firstSeen[r.ID] = now
		}
	}
	ended := p.settleWatches()
	p.rebuild()
	// What the new data makes untrue goes first, so a toast it raised
	// now is not taken with it.
	p.settle(false)
	for _, t := range ended {
		p.Toast(t.Text, t.Err)
	}
	return p.armClock()
}
