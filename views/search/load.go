package search

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// listResult is what one load found.
type listResult struct{ Clusters []clusterState }

// load lists the scope's clusters and each one's indexes. Everything the
// request needs is captured before the Cmd runs.
func (p *Pane) load(task string) tea.Cmd {
	client, gid, only := p.Ctx.Client, p.Ctx.GroupID, p.Ctx.ClusterName
	if client == nil || gid == "" {
		return nil
	}
	return views.Load(&p.Base, keyList, p.seq.Next(), task, func(ctx context.Context) (listResult, error) {
		var cls []apiclient.Cluster
		if only != "" {
			cl, err := client.Clusters().Get(ctx, gid, only)
			if err != nil {
				return listResult{}, fmt.Errorf("cluster %s: %w", only, err)
			}
			cls = []apiclient.Cluster{*cl}
		} else {
			var err error
			if cls, err = client.Clusters().All(ctx, gid); err != nil {
				return listResult{}, fmt.Errorf("list clusters: %w", err)
			}
		}
		out := listResult{}
		var failed error // the first cluster whose listing failed: the pane is stale
		for _, cl := range cls {
			st := clusterState{Name: cl.Name, Version: cl.MongoDBVersion}
			switch {
			case cl.Tenant():
				st.Unsupported = "shared tier " + cl.InstanceSize() + ": no search indexes through the API"
			case versionBefore(cl.MongoDBVersion, 4, 2):
				st.Unsupported = "MongoDB " + cl.MongoDBVersion + ": search needs 4.2 or later"
			default:
				st.Indexes, st.Err = client.Search().ListCluster(ctx, gid, cl.Name)
				if _, denied := views.NotVisible(st.Err); st.Err != nil && !denied && failed == nil {
					failed = fmt.Errorf("cluster %s: %w", cl.Name, st.Err)
				}
			}
			out.Clusters = append(out.Clusters, st)
		}
		return out, failed
	})
}

func versionBefore(v string, major, minor int) bool {
	var a, b int
	if n, _ := fmt.Sscanf(v, "%d.%d", &a, &b); n < 2 {
		return false
	}
	return a < major || (a == major && b < minor)
}

// poll is one poll round: the list, and the analyzers when shown.
func (p *Pane) poll() tea.Cmd {
	cmds := []tea.Cmd{p.load("")}
	if p.mode == modeAnalyzers && p.Visible() {
		cmds = append(cmds, p.loadAnalyzers(""))
	}
	return tea.Batch(cmds...)
}

func (p *Pane) listDone(msg views.Result[listResult]) tea.Cmd {
	if !p.seq.Latest(msg.Seq) {
		return nil
	}
	p.listErr = msg.Err
	if msg.Err != nil && msg.Value.Clusters != nil {
		// The clusters were listed; some of their indexes could not be
		// read (an outage): those keep what was last read, marked stale,
		// rather than the tree giving way to an error.
		p.listErr = nil
		old := map[string]clusterState{}
		for _, cl := range p.clusters {
			old[cl.Name] = cl
		}
		for i := range msg.Value.Clusters {
			cl := &msg.Value.Clusters[i]
			_, denied := views.NotVisible(cl.Err)
			if was, ok := old[cl.Name]; ok && cl.Err != nil && !denied && was.Err == nil {
				cl.Indexes, cl.Stale, cl.Err = was.Indexes, cl.Err, nil
			}
		}
		p.clusters, p.loaded = msg.Value.Clusters, true
		p.settle()
	} else if msg.Err == nil {
		p.clusters, p.loaded = msg.Value.Clusters, true
		p.settle()
		// The list shows what the server holds: a create whose outcome
		// stayed unknown may be looked at (and sent) again.
		for k, st := range p.creating {
			if st == createUnsettled {
				delete(p.creating, k)
			}
		}
	}
	p.rebuild()
	return p.Arm()
}

func (p *Pane) analyzersDone(msg views.Result[[]apiclient.Analyzer]) {
	if !p.seq.Latest(msg.Seq) {
		return
	}
	p.analyzersErr = msg.Err
	if msg.Err == nil {
		p.analyzers, p.analyzersLoaded = msg.Value, true
	}
	p.rebuildAnalyzers()
}

// settle forgets deletes and watches that are over: an index that is no
// longer listed, or a watched one that reached a final state.
func (p *Pane) settle() {
	listed := map[string]apiclient.IndexStatus{}
	for _, cl := range p.clusters {
		if cl.Err != nil { // unknown, not gone
			return
		}
		for _, ix := range cl.Indexes {
			listed[ix.IndexID] = ix.Status
		}
	}
	for id := range p.deleting {
		if _, ok := listed[id]; !ok {
			delete(p.deleting, id)
		}
	}
	for id := range p.watching {
		if st, ok := listed[id]; !ok || st.Done() {
			delete(p.watching, id)
		}
	}
}
