package accesslogs

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// clusterChoice is one deployment of the project in the in-pane cluster
// list. why is empty for clusters whose access history can be read; for
// the others (shared tiers, flex, serverless) it says why not, and the row
// is shown greyed and cannot be picked.
type clusterChoice struct {
	name, kind, why string
}

// loadClusters lists the project's deployments: the cluster API's, then
// flex clusters and serverless instances, which it does not list (best
// effort: an older server may not know those routes).
func loadClusters(ctx context.Context, c *apiclient.Client, gid string) ([]clusterChoice, error) {
	cls, err := c.Clusters().All(ctx, gid)
	if err != nil {
		return nil, err
	}
	var out []clusterChoice
	for _, cl := range cls {
		ch := clusterChoice{name: cl.Name, kind: strings.TrimSpace(cl.InstanceSize() + " " + strings.ToLower(string(cl.ClusterType)))}
		if cl.Tenant() {
			ch.why = "shared tier " + cl.InstanceSize() + ": no access history"
		}
		out = append(out, ch)
	}
	if fl, err := c.Clusters().AllFlex(ctx, gid); err == nil {
		for _, f := range fl {
			out = append(out, clusterChoice{name: f.Name, kind: "flex", why: "flex cluster: no access history"})
		}
	}
	if sl, err := c.Clusters().AllServerless(ctx, gid); err == nil {
		for _, s := range sl {
			out = append(out, clusterChoice{name: s.Name, kind: "serverless", why: "serverless instance: no access history"})
		}
	}
	// Pickable clusters first, each group by name.
	slices.SortStableFunc(out, func(a, b clusterChoice) int {
		if (a.why == "") != (b.why == "") {
			if a.why == "" {
				return -1
			}
			return 1
		}
		return strings.Compare(a.name, b.name)
	})
	return out, nil
}

// choosing reports whether the pane shows the cluster list: a project is
// selected but no cluster, neither globally nor in the pane.
func (p *Pane) choosing() bool {
	return p.Ctx.GroupID != "" && p.cluster() == ""
}

// cluster is the cluster tailed: the one of the context, or the one picked
// in the pane when the context names none.
func (p *Pane) cluster() string {
	if p.Ctx.ClusterName != "" {
		return p.Ctx.ClusterName
	}
	return p.picked
}

// fetchClusters loads the cluster list unless it is loaded or loading.
func (p *Pane) fetchClusters(force bool) tea.Cmd {
	if !p.choosing() || p.Ctx.Client == nil || p.clustersBusy || (p.clustersLoaded && !force) {
		return nil
	}
	client, gid := p.Ctx.Client, p.Ctx.GroupID
	p.clustersBusy = true
	return views.Get(&p.Base, "clusters", p.clusterSeq.Next(), "loading clusters", func(ctx context.Context) ([]clusterChoice, error) {
		return loadClusters(ctx, client, gid)
	})
}

func (p *Pane) onClusters(msg views.Result[[]clusterChoice]) {
	if !p.clusterSeq.Latest(msg.Seq) {
		return
	}
	p.clustersBusy, p.clustersLoaded, p.clustersErr = false, true, msg.Err
	if msg.Err != nil {
		return
	}
	p.clusters = msg.Value
	p.clusterCursor = clampIndex(p.clusterCursor, len(p.clusters))
}

func clampIndex(i, n int) int { return max(0, min(i, n-1)) }

// pickCluster is enter on the cluster list.
func (p *Pane) pickCluster() tea.Cmd {
	if len(p.clusters) == 0 {
		p.Toast("no cluster to pick (r reloads the list)", true)
		return nil
	}
	c := p.clusters[p.clusterCursor]
	if c.why != "" {
		p.Toast("access logs of "+components.Sanitize(c.name)+" cannot be read: "+c.why, true)
		return nil
	}
	p.picked = c.name
	p.host, p.hosts, p.hostList, p.hostsErr = "", nil, nil, nil
	// A cluster is open: the "pick a cluster first" answers are done with.
	p.ErrorsResolved()
	return p.restart("loading access log of " + components.Sanitize(c.name))
}

// unpick goes back from a cluster picked in the pane to the list.
func (p *Pane) unpick() tea.Cmd {
	p.picked = ""
	p.host, p.hosts, p.hostList, p.hostsErr = "", nil, nil, nil
	// The old cluster's records go with it (answers for it are dropped,
	// and no poll starts without a cluster): nothing of a log out of
	// sight stays to be saved or searched.
	return tea.Batch(p.restart(""), p.fetchClusters(true))
}

// clusterKey moves in and picks from the cluster list.
func (p *Pane) clusterKey(msg tea.KeyPressMsg) tea.Cmd {
	k := msg.String()
	km := p.Ctx.Keys
	is := func(keys []string) bool { return slices.Contains(keys, k) }
	switch {
	case k == "enter":
		return p.pickCluster()
	case km != nil && is(km.Navigation.Up.Keys()):
		p.clusterCursor = clampIndex(p.clusterCursor-1, len(p.clusters))
	case km != nil && is(km.Navigation.Down.Keys()):
		p.clusterCursor = clampIndex(p.clusterCursor+1, len(p.clusters))
	case km != nil && is(km.Navigation.Home.Keys()):
		p.clusterCursor = 0
	case km != nil && is(km.Navigation.End.Keys()):
		p.clusterCursor = clampIndex(len(p.clusters)-1, len(p.clusters))
	}
	return nil
}

// clusterView is the whole pane while no cluster is chosen.
func (p *Pane) clusterView() string {
	st := p.Ctx.Theme.Styles
	// The hint wraps rather than lose its end at 80 columns.
	var rows []string
	hint := "no cluster selected · access logs are per cluster: pick one with enter (or @ for every pane)"
	for _, l := range strings.Split(ansi.Wordwrap(hint, max(p.W-2, 10), ""), "\n") {
		rows = append(rows, st.TableHeader.Render(cell(" "+l, p.W)))
	}
	line, said := (views.Prologue{Noun: "clusters", Loaded: p.clustersLoaded && p.clustersErr == nil, Err: p.clustersErr,
		Empty: len(p.clusters) == 0, EmptyText: "this project has no clusters"}).View(st)
	switch {
	case said:
		rows = append(rows, cell(" "+line, p.W))
	default:
		n := 0
		for _, c := range p.clusters {
			if c.why == "" {
				n++
			}
		}
		rows = append(rows, st.Muted.Render(cell(fmt.Sprintf(" %d of %d deployments keep an access log", n, len(p.clusters)), p.W)))
	}
	nameW := 4
	for _, c := range p.clusters {
		nameW = max(nameW, len([]rune(components.Sanitize(c.name))))
	}
	avail := max(p.H-len(rows), 0)
	first := max(0, p.clusterCursor-avail+1)
	for i := first; i < len(p.clusters) && len(rows) < p.H; i++ {
		c := p.clusters[i]
		text := fmt.Sprintf("%-*s  %s", nameW, components.Sanitize(c.name), components.Sanitize(c.kind))
		if c.why != "" {
			text += "  — " + c.why
		}
		mark := "   "
		if i == p.clusterCursor {
			mark = " › "
		}
		line := cell(mark+text, p.W)
		switch {
		case i == p.clusterCursor:
			line = st.TableSelected.Render(line)
		case c.why != "":
			line = st.Disabled.Render(line)
		}
		rows = append(rows, line)
	}
	for len(rows) < p.H {
		rows = append(rows, "")
	}
	return strings.Join(rows[:p.H], "\n")
}
