// Package accesslogs is the access-log tail pane: a cluster's or one host's
// authentication log, followed live with a moving window (window.go), kept
// in a ring buffer with filters, search, and a summary of failures.
package accesslogs

import (
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// sincePresets are what S cycles through; each refetches the window.
var sincePresets = []time.Duration{5 * time.Minute, 15 * time.Minute, time.Hour, 24 * time.Hour}

// defaultSince is the window loaded when the pane opens.
const defaultSince = 15 * time.Minute

// Pane is the access-log tail.
type Pane struct {
	views.Base

	// picked is the cluster chosen in the pane's own list while the
	// context names none; clusters is that list.
	picked         string
	clusters       []clusterChoice
	clustersErr    error
	clustersBusy   bool
	clustersLoaded bool
	clusterCursor  int
	clusterSeq     views.Seq

	host      string // "" tails the whole cluster
	hostList  *hostList
	hosts     []apiclient.Process
	hostsErr  error
	hostSeq   views.Seq
	hostsBusy bool

	win       *Window
	since     time.Duration
	following bool // polling (f)
	inflight  bool
	seq       views.Seq
	failures  int   // consecutive failed polls
	err       error // the last poll's error, nil after a success
	stopped   error // an error polling cannot get past (a tenant cluster, a missing role)
	// denied says, when the caller's role may not read the access log,
	// what shows in its place ("not visible with your role (needs …)"):
	// no failure, never stale, not polled again until r.
	denied    string
	loaded    bool
	gaps      int
	lastGap   *Gap
	truncated bool

	st      *store
	search  string
	match   int // shown line of the current search match; -1: none
	summary string

	pending *pendingSave // the save dialog open, if any (save.go)
}

// New is the pane's Factory. The buffer holds the context's LogBuffer
// lines (the profile's log_buffer), or components.DefaultLogCapacity when
// that is 0.
func New(ctx views.Context) views.Pane { return newPane(ctx, ctx.LogBuffer) }

// NewWithBuffer returns a Factory whose buffer holds capacity lines.
func NewWithBuffer(capacity int) views.Factory {
	return func(ctx views.Context) views.Pane { return newPane(ctx, capacity) }
}

func newPane(ctx views.Context, capacity int) *Pane {
	p := &Pane{since: defaultSince, following: true, match: -1}
	p.Base = views.NewBase(ID, ctx, p.pollState)
	p.st = newStore(capacity, ctx.Theme, ctx.Keys)
	p.win = p.newWindow()
	return p
}

func (p *Pane) newWindow() *Window {
	w := NewWindow(p.since, p.Ctx.Now())
	// Loading the since window stops once the buffer is full.
	w.FirstPages = max(1, p.st.capacity()/apiclient.MaxAccessLogs)
	w.ServerClock = true // the context's clock is the client's Now or the simulator's
	if p.win != nil {
		w.Lag = max(w.Lag, p.win.Lag) // the server's lag, learned before
	}
	return w
}

func (p *Pane) Busy() string { return "" }

// Actions are the pane's keys; those that need an open log are greyed
// with the reason while the pane shows no log (no project, or its cluster
// list), so help and the footer say what the key would answer.
func (p *Pane) Actions() []keymap.Action {
	if p.Ctx.Keys == nil {
		return nil
	}
	out := p.Ctx.Keys.Scope(ID.Scope())
	k := keysOf(p.Ctx.Keys)
	for i, a := range out {
		if why := p.refusedHere(k, a.Name); why != "" {
			out[i] = a.Disabled(why)
		}
	}
	return out
}

// refusedHere is why the action named cannot run on what the pane shows,
// or "" when it can. With no log open every key but G (the list's last
// row) is refused: none may change the view of a log out of sight.
func (p *Pane) refusedHere(k keys, name string) string {
	switch {
	case p.Ctx.GroupID == "":
		return "no project selected (press @ or :project)"
	case p.choosing():
		if name == k.End.Name {
			return ""
		}
		return "pick a cluster first (enter on the list, or @)"
	case p.hostList != nil:
		switch name {
		case k.Raw.Name, k.UserFilter.Name, k.Since.Name:
			return "close the host list first (esc)"
		}
	}
	return ""
}

// refuse answers an action the pane refuses as the root answers a greyed
// key: the action, then why.
func (p *Pane) refuse(a keymap.Action, why string) tea.Cmd {
	desc := a.Help().Desc
	if desc == "" {
		desc = a.Name
	}
	p.Toast(desc+": "+why, true)
	return nil
}

func (p *Pane) Init() tea.Cmd {
	return tea.Batch(p.fetchClusters(false), p.pollNow("loading access log"))
}

func (p *Pane) SetSize(w, h int) {
	p.W, p.H = w, h
	if c := columnsFor(p.lineWidth()); c != p.st.format.cols {
		// The columns that fit changed: the held lines are formatted again.
		p.st.format.cols = c
		p.st.rebuild(p.Ctx.Theme, p.Ctx.Keys, p.lineWidth(), p.bodyRows()+1)
	}
	p.st.lv.SetSize(p.lineWidth(), p.bodyRows()+1)
}

func (p *Pane) SetVisible(v bool) tea.Cmd {
	if arm := p.Base.SetVisible(v); !v {
		return arm
	}
	return tea.Batch(p.fetchClusters(false), p.pollNow(""))
}

// target names what is tailed, for titles and file names.
func (p *Pane) target() string {
	if p.host != "" {
		return shortHost(p.host)
	}
	return p.cluster()
}

// live reports whether the pane should be polling.
func (p *Pane) live() bool {
	return p.Visible() && p.following && !p.Paused() && p.stopped == nil && p.ready()
}

func (p *Pane) ready() bool {
	return p.Ctx.Client != nil && p.Ctx.GroupID != "" && p.cluster() != ""
}

func (p *Pane) Update(msg tea.Msg) (views.Pane, tea.Cmd) {
	if pm, ok := msg.(views.PauseMsg); ok {
		p.Handle(pm, nil)
		return p, p.pollNow("") // nothing while paused
	}
	if cmd, done := p.Handle(msg, func() tea.Cmd { return p.pollNow("") }); done {
		return p, cmd
	}
	switch msg := msg.(type) {
	case views.Result[pollResult]:
		return p, p.onPoll(msg)
	case views.Result[[]apiclient.Process]:
		p.onHosts(msg)
	case views.Result[[]clusterChoice]:
		p.onClusters(msg)
	case views.RefreshMsg:
		if p.choosing() {
			return p, p.fetchClusters(true)
		}
		if p.stopped != nil {
			return p, p.restart("retrying access log")
		}
		return p, p.pollNow("refreshing access log")
	case views.FilterMsg:
		// `/` is this pane's own search; the shared filter bar text, if
		// any reaches here, searches too.
		return p, p.setSearch(msg.Text)
	case views.ContextChangedMsg:
		old := p.Ctx
		p.Ctx = msg.Ctx
		if msg.Reload(old) {
			p.host, p.hosts, p.hostList, p.hostsErr = "", nil, nil, nil
			if msg.ProjectChanged(old) {
				p.picked, p.clusters, p.clustersErr, p.clustersLoaded, p.clusterCursor = "", nil, nil, false, 0
				p.clustersBusy = false
				p.clusterSeq.Next() // an answer for the old project is dropped
			}
			return p, tea.Batch(p.restart("loading access log"), p.fetchClusters(false))
		}
	case views.ActionMsg:
		return p, p.onAction(msg)
	case views.SelectMsg:
		return p, p.selectFailures(msg)
	case views.PaneMsg:
		if m, ok := msg.Msg.(savedMsg); ok {
			return p, p.onSaved(m)
		}
	case savedMsg:
		return p, p.onSaved(msg)
	case tea.KeyPressMsg:
		p.pending = nil // a key reaching the pane: no save dialog is open
		return p, p.onKey(msg)
	}
	return p, nil
}

func (p *Pane) onHosts(msg views.Result[[]apiclient.Process]) {
	if !p.hostSeq.Latest(msg.Seq) {
		return
	}
	p.hostsBusy = false
	p.hostsErr = msg.Err
	if msg.Err == nil {
		p.hosts = clusterHosts(msg.Value, p.cluster())
		if p.hostList != nil {
			p.hostList.fill(p.cluster(), p.hosts, p.host)
		}
	}
}

func (p *Pane) onAction(msg views.ActionMsg) tea.Cmd {
	km := p.Ctx.Keys
	if km == nil {
		return nil
	}
	a := keysOf(km)
	if msg.Name != a.Save.Name || !msg.Confirmed {
		// Any other action means the save dialog, if one was open, is gone.
		p.pending = nil
	}
	// The root greys these keys; an action reaching the pane anyway (a
	// confirmation answered after what the pane shows changed) is refused
	// here just the same.
	if why := p.refusedHere(a, msg.Name); why != "" {
		act, _ := km.Lookup(msg.Name)
		return p.refuse(act, why)
	}
	if cmd, ok := views.AskThenDo(msg, p.steps(a)); ok {
		return cmd
	}
	switch msg.Name {
	case a.Hosts.Name:
		if p.hostList != nil {
			p.hostList = nil
			return nil
		}
		return p.openHosts()
	case a.End.Name:
		// G on a list goes to its last row.
		switch {
		case p.hostList != nil:
			p.hostList.cursor = len(p.hostList.items) - 1
			return nil
		case p.choosing():
			p.clusterCursor = clampIndex(len(p.clusters)-1, len(p.clusters))
			return nil
		}
	}
	switch msg.Name {
	case a.Raw.Name:
		p.st.format.raw = !p.st.format.raw
		p.refilter()
		return nil
	case a.Since.Name:
		i := slices.Index(sincePresets, p.since)
		p.since = sincePresets[(i+1)%len(sincePresets)]
		return p.restart("loading the last " + sinceText(p.since))
	case a.Follow.Name:
		p.following = !p.following
		if !p.following {
			p.Stop()
			return nil
		}
		p.st.lv.SetFollow(true)
		return p.pollNow("")
	case a.End.Name:
		p.st.lv.SetFollow(true)
		p.match = -1
		if !p.following {
			p.following = true
			return p.pollNow("")
		}
	case a.FailuresOnly.Name:
		p.st.filter.failuresOnly = !p.st.filter.failuresOnly
		p.refilter()
	case a.Wrap.Name:
		p.st.lv.SetWrap(!p.st.lv.Wrapping())
	case a.Timezone.Name:
		if p.st.format.loc == time.UTC {
			p.st.format.loc = time.Local
		} else {
			p.st.format.loc = time.UTC
		}
		p.refilter()
	case a.NextMatch.Name:
		return p.step(+1)
	case a.PrevMatch.Name:
		return p.step(-1)
	}
	return nil
}

// steps are the actions that ask first: the three text prompts, whose
// answer comes back confirmed with the text in Input, and the save.
func (p *Pane) steps(a keys) map[string]views.Step {
	return map[string]views.Step{
		a.UserFilter.Name: {
			Ask: func() tea.Cmd {
				return p.ask(a.UserFilter.Name, "Filter by user",
					"Show only attempts whose user name contains this (any case).\n"+
						current(p.st.filter.user)+"Leave empty to show every user.", "User name or part of it")
			},
			Do: func(m views.ActionMsg) tea.Cmd {
				p.st.filter.user = strings.TrimSpace(m.Input)
				p.refilter()
				return nil
			}},
		a.IPFilter.Name: {
			Ask: func() tea.Cmd {
				return p.ask(a.IPFilter.Name, "Filter by IP address",
					"Show only attempts from addresses that start with this (203.0.113.7, or 10.2. for a range).\n"+
						current(p.st.filter.ip)+"Leave empty to show every address.", "IP address or prefix")
			},
			Do: func(m views.ActionMsg) tea.Cmd { return p.setIP(m.Input) }},
		a.Search.Name: {
			Ask: func() tea.Cmd {
				return p.ask(a.Search.Name, "Search the access log",
					"Highlight lines containing this text (any case) and jump to the newest; n and N move between matches.\n"+
						current(p.search)+"Leave empty to clear the search.", "Text")
			},
			Do: func(m views.ActionMsg) tea.Cmd { return p.setSearch(m.Input) }},
		a.Save.Name: {Ask: func() tea.Cmd { return p.askSave(a.Save.Name) }, Do: p.save},
	}
}

func (p *Pane) onKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case p.hostList != nil:
		return p.hostKey(msg)
	case p.choosing():
		return p.clusterKey(msg)
	}
	if p.isClose(msg) {
		switch {
		case p.search != "":
			p.search, p.match = "", -1
		case p.st.filter.active():
			p.st.filter = filter{}
			p.refilter()
		case p.Ctx.ClusterName == "" && p.picked != "":
			return p.unpick()
		}
		return nil
	}
	wasFollowing := p.st.lv.Following()
	p.st.lv, _ = p.st.lv.Update(msg)
	if !wasFollowing && p.st.lv.Following() {
		p.match = -1
		if !p.following {
			p.following = true
			return p.pollNow("")
		}
	}
	if p.st.lv.Following() {
		p.match = -1
	}
	return nil
}

// Selected is the line `y` copies: the search match, or the newest line
// while following, or the bottom line on screen.
func (p *Pane) Selected() string {
	i := p.selectedLine()
	if i < 0 {
		return ""
	}
	if p.st.format.raw {
		return components.Sanitize(p.st.line(i).LogLine)
	}
	return p.st.lv.Line(i)
}

func (p *Pane) selectedLine() int {
	n := p.st.lv.Len()
	if n == 0 {
		return -1
	}
	top, rows := p.st.lv.Top(), p.bodyRows()
	if p.match >= 0 && p.match < n && (p.match >= top && p.match < top+rows) {
		return p.match
	}
	if p.st.lv.Following() {
		return n - 1
	}
	return min(n-1, top+max(rows, 1)-1)
}
