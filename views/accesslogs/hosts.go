package accesslogs

import (
	"context"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// hostList is the in-pane list that picks the tail's target: the whole
// cluster or one of its hosts.
type hostList struct {
	items  []hostItem
	cursor int
}

type hostItem struct {
	label string
	host  string // "" for the whole cluster
}

func (l *hostList) fill(cluster string, hosts []apiclient.Process, current string) {
	l.items = []hostItem{{label: "whole cluster " + cluster}}
	for _, h := range hosts {
		l.items = append(l.items, hostItem{label: h.Hostname + "  " + string(h.TypeName), host: h.Hostname})
	}
	for i, it := range l.items {
		if it.host == current {
			l.cursor = i
		}
	}
}

// clusterHosts keeps the processes of one cluster: the service names them
// <cluster>-shard-NN-NN, -config-NN-NN and -mongos-NN-NN.
func clusterHosts(procs []apiclient.Process, cluster string) []apiclient.Process {
	prefix := strings.ToLower(cluster) + "-"
	var out []apiclient.Process
	for _, p := range procs {
		name := strings.ToLower(p.Hostname)
		rest, ok := strings.CutPrefix(name, prefix)
		if ok && (strings.HasPrefix(rest, "shard-") || strings.HasPrefix(rest, "config-") || strings.HasPrefix(rest, "mongos-")) {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b apiclient.Process) int { return strings.Compare(a.Hostname, b.Hostname) })
	return slices.CompactFunc(out, func(a, b apiclient.Process) bool { return a.Hostname == b.Hostname })
}

// openHosts shows the list, loading the project's processes the first time.
func (p *Pane) openHosts() tea.Cmd {
	if !p.ready() {
		if p.choosing() {
			p.Toast("pick a cluster first (enter on the list, or @)", false)
			return nil
		}
		p.Toast("pick a cluster first (@)", false)
		return nil
	}
	p.hostList = &hostList{}
	p.hostList.fill(p.cluster(), p.hosts, p.host)
	if p.hosts != nil || p.hostsBusy {
		return nil
	}
	client, gid := p.Ctx.Client, p.Ctx.GroupID
	p.hostsBusy, p.hostsErr = true, nil
	return views.Get(&p.Base, "hosts", p.hostSeq.Next(), "loading hosts", func(ctx context.Context) ([]apiclient.Process, error) {
		return client.Clusters().AllProcesses(ctx, gid)
	})
}

func (p *Pane) hostKey(msg tea.KeyPressMsg) tea.Cmd {
	l := p.hostList
	k := msg.String()
	nav := p.Ctx.Keys
	is := func(keys []string) bool { return slices.Contains(keys, k) }
	switch {
	case p.isClose(msg):
		p.hostList = nil
	case k == "enter":
		it := l.items[l.cursor]
		p.hostList = nil
		if it.host == p.host {
			return nil
		}
		p.host = it.host
		return p.restart("loading access log of " + p.target())
	case nav != nil && is(nav.Navigation.Up.Keys()):
		l.cursor = max(0, l.cursor-1)
	case nav != nil && is(nav.Navigation.Down.Keys()):
		l.cursor = min(len(l.items)-1, l.cursor+1)
	case nav != nil && is(nav.Navigation.Home.Keys()):
		l.cursor = 0
	case nav != nil && is(nav.Navigation.End.Keys()):
		l.cursor = len(l.items) - 1
	}
	return nil
}

// CanGoBack: the host list is open; esc closes it before the root clears
// a filter.
func (p *Pane) CanGoBack() bool { return p.hostList != nil }

// isClose reports whether a key is the keymap's close key (esc unless
// remapped): it backs out of the lists and clears the search and filters.
func (p *Pane) isClose(msg tea.KeyPressMsg) bool {
	if p.Ctx.Keys == nil {
		return msg.String() == "esc"
	}
	return slices.Contains(p.Ctx.Keys.Global.Close.Keys(), msg.String())
}
