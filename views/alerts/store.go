package alerts

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// How the pane keeps a project's alerts, however many.
//
// The list API filters by status only (OPEN, TRACKING, CLOSED) and has no
// "changed since". An alert is born OPEN (or TRACKING) and ends CLOSED or
// CANCELLED, never to change again; what changes while it lives (an
// acknowledgement, its values) shows in the OPEN and TRACKING lists, which
// stay small while the closed history grows. So:
//
//   - A full pass reads every page (500 alerts each), page 1 first: its
//     rows show before the rest arrive. Then as many pages are in flight as
//     the alerts bucket allows while leaving most of it to others
//     (passLanes). Pages are merged into
//     the store in place, by id; a failed page does not stop the others and
//     is fetched again on the next tick, the data held meanwhile.
//   - A refresh after that reads OPEN and TRACKING (one page each in a
//     typical project): when a tick's counts say something changed, or
//     rarely (when.go). An alert that left both lists is read alone
//     (getAlert, at most 2 a refresh) to learn how it ended; more than
//     that, or one that is gone, asks for a full pass at the next tick.
//   - A full pass runs again only when something says it is needed
//     (when.go), and drops what it did not see.
//
// The store holds one copy: a compact record per alert (record.go) in
// arrival order (updated in place, so indexes stay valid), an index by id
// and the display order as indexes. A page's alerts become records as
// they are merged and the page is dropped; only the alert the detail shows
// is kept whole.
const (
	perPage      = apiclient.MaxItemsPerPage
	minLanes     = 4
	maxLanes     = 32
	vanishedGets = 2
	// showEvery: during a first pass the rows are sorted and rebuilt after
	// page 1, then at most this often (wall time), and at the end: not on
	// every page, nor every so many pages (with many lanes pages arrive
	// faster than a screen is worth sorting 100,000 alerts for).
	showEvery = time.Second
	// countEvery: during a first pass the header's counts are counted
	// again at most this often (wall time), not on every frame: each page
	// makes them stale, and counting 100,000 alerts each frame was a
	// tenth of the CPU of the whole load.
	countEvery = 100 * time.Millisecond
)

// store is a project's alerts as the pane keeps them (see above): the
// records in arrival order, updated in place, their index and display
// order, the pass under way and what the refreshes decided, and the
// health of the loads. The pane holds one and draws its rows from it.
type store struct {
	alerts []record
	byID   map[string]int // alert id -> index in alerts
	order  []int32        // display order: indexes into alerts
	// full is the whole alert fullID names (the detail's), kept current
	// with each refresh.
	full   *apiclient.Alert
	fullID string
	intern map[string]string
	places map[[3]string]*place

	pass      *pass // the full pass under way, nil between passes
	passSeq   views.Seq
	listSeq   views.Seq // of the incremental refreshes
	mark      uint32
	refreshes int       // incremental refreshes since the last full pass
	needFull  bool      // a refresh could not account for every alert
	firstDone bool      // a full pass has completed
	reads     whenState // when the pane reads what (when.go)

	loaded   bool  // a page arrived since the last reset
	err      error // the last load's failure, nil once one succeeds
	freshAt  time.Time
	errSince time.Time

	// The header's counts of the alerts in scope (Pane.counts): current
	// until countsTil, for the cluster countsFor, while countsOK.
	countsOK  bool
	open      int
	acked     int
	inScopeN  int // alerts about the cluster narrowed to (all when none)
	countsFor string
	countsTil time.Time
	countedAt time.Time // wall clock (countEvery)
}

// pass is one full read of the list.
type pass struct {
	pages    int // 0 until page 1 gave the total
	total    int
	next     int // next page never asked for
	inflight int
	got      int
	failed   []int // pages to ask again
	halted   bool  // a page failed: no new page until the next tick
	mark     uint32
	seq      uint64    // the pass's number: answers of an older pass are dropped
	shownAt  time.Time // when the rows were last rebuilt (wall clock)
	// copyAt: pages came from the last start's copies, the oldest read
	// then; the next tick starts a full pass on the service.
	copyAt time.Time
}

// pageResult is one page of a full pass.
type pageResult struct {
	n        int
	total    int
	hasCount bool
	alerts   []listedAlert
}

// listedAlert is an alert as a full pass reads it: the members the store
// keeps (record) and those the detail shows that an acknowledgement
// changes. Decoding the rest (links, values, notification times, project
// and organization) was half the allocations of a page of 500 and a fifth
// of its decoding (BenchmarkDecodeListedPage).
type listedAlert struct {
	ID                     string                `json:"id"`
	AlertConfigID          string                `json:"alertConfigId"`
	Created                time.Time             `json:"created"`
	Status                 apiclient.AlertStatus `json:"status"`
	EventTypeName          string                `json:"eventTypeName"`
	AcknowledgedUntil      *time.Time            `json:"acknowledgedUntil"`
	AcknowledgementComment string                `json:"acknowledgementComment"`
	AcknowledgingUsername  string                `json:"acknowledgingUsername"`
	ClusterName            string                `json:"clusterName"`
	HostnameAndPort        string                `json:"hostnameAndPort"`
	ReplicaSetName         string                `json:"replicaSetName"`
}

// alert is the listed members as an apiclient.Alert (the rest empty).
func (l *listedAlert) alert() apiclient.Alert {
	return apiclient.Alert{ID: l.ID, AlertConfigID: l.AlertConfigID, Created: l.Created, Status: l.Status,
		EventTypeName: l.EventTypeName, AcknowledgedUntil: l.AcknowledgedUntil, AcknowledgementComment: l.AcknowledgementComment,
		AcknowledgingUsername: l.AcknowledgingUsername, ClusterName: l.ClusterName, HostnameAndPort: l.HostnameAndPort,
		ReplicaSetName: l.ReplicaSetName}
}

// deltaResult is one incremental refresh (when.go).
type deltaResult struct {
	probed      bool              // total is the server's count of every alert
	total       int               //
	read        bool              // OPEN and TRACKING were read (else the counts showed no change)
	pages       int               // the pages that took
	live        []apiclient.Alert // OPEN and TRACKING now
	ended       []apiclient.Alert // read alone after leaving both lists
	unknown     int               // left both lists, not read this time
	gone        bool              // one of them no longer exists
	configsRead bool
	configs     []apiclient.AlertConfig
	configErr   error
}

// configsResult is the configurations read at the start of a full pass.
type configsResult struct {
	configs []apiclient.AlertConfig
}

// resetStore forgets every alert (a new project).
func (p *Pane) resetStore() {
	p.store.reset()
	p.rowAlert = nil
}

// reset forgets every alert; answers to the reads under way are dropped.
func (s *store) reset() {
	s.alerts, s.byID, s.order, s.full = nil, map[string]int{}, nil, nil
	s.pass, s.refreshes, s.needFull, s.firstDone, s.reads = nil, 0, false, false, whenState{}
	s.loaded, s.err, s.freshAt, s.errSince = false, nil, time.Time{}, time.Time{}
	s.intern, s.places = map[string]string{}, nil
	s.countsOK, s.countedAt = false, time.Time{}
	s.passSeq.Next()
	s.listSeq.Next()
}

// load is a tick's work: continue or start a full pass when one is due,
// else an incremental refresh. It captures what it needs so it never
// touches the pane on its goroutine.
func (p *Pane) load(task string) tea.Cmd {
	if p.Ctx.Client == nil || p.Ctx.GroupID == "" {
		return nil
	}
	if ps := p.pass; ps != nil {
		if ps.inflight > 0 {
			return nil // still arriving
		}
		ps.halted = false
		return p.claim(task)
	}
	if !p.firstDone || p.needFull {
		return p.startPass(task)
	}
	return p.delta(task, false)
}

// startPass begins a full pass: page 1 and the configurations.
func (p *Pane) startPass(task string) tea.Cmd {
	p.mark++
	seq := p.passSeq.Next()
	p.pass = &pass{next: 1, mark: p.mark, seq: seq}
	p.listSeq.Next() // a refresh still running is superseded
	client, gid := p.Ctx.Client, p.Ctx.GroupID
	cfg := views.Get(&p.Base, "configs", seq, "", func(ctx context.Context) (configsResult, error) {
		cs, err := client.AlertConfigs().ListAll(ctx, gid)
		return configsResult{configs: cs}, err
	})
	return tea.Batch(p.claim(task), cfg)
}

// passLanes is how many pages of a full pass may be in flight: an eighth
// of the alerts bucket's capacity, and no more than half the tokens it has
// left now, so the refreshes, the other panes and other clients on the
// same key keep the rest; minLanes while nothing is known of the bucket
// (or it is nearly spent: the scheduler then paces them), maxLanes at
// most.
func (p *Pane) passLanes() int {
	s := p.Ctx.Client.Scheduler()
	if s == nil {
		return minLanes
	}
	capacity, tokens, ok := s.Budget("listAlerts", p.Ctx.GroupID)
	if !ok {
		return minLanes
	}
	return min(max(min(capacity/8, int(tokens/2)), minLanes), maxLanes)
}

// claim asks for the failed pages first, then new ones, up to the lanes;
// page 1 alone until it tells the total.
func (p *Pane) claim(task string) tea.Cmd {
	ps := p.pass
	var cmds []tea.Cmd
	lanes := p.passLanes()
	for ps.inflight < lanes && !ps.halted {
		var n int
		switch {
		case len(ps.failed) > 0:
			n, ps.failed = ps.failed[0], ps.failed[1:]
		case ps.pages == 0 && ps.inflight > 0:
			// Page 1 (or, with no count, the previous page) not in yet.
		case ps.pages == 0 || ps.next <= ps.pages:
			n = ps.next
			ps.next++
		}
		if n == 0 {
			break
		}
		ps.inflight++
		cmds = append(cmds, p.fetchPage(n, task))
		task = ""
		if ps.pages == 0 {
			break
		}
	}
	return tea.Batch(cmds...)
}

// pageRequest is page n of a full pass of the project gid's alerts (and,
// for page 1, the pane's first read: FirstReads).
func pageRequest(gid string, n int) apiclient.Request {
	return apiclient.Request{Params: map[string]string{"groupId": gid}, List: &apiclient.ListOptions{PageNum: n, ItemsPerPage: perPage}}
}

func (p *Pane) fetchPage(n int, task string) tea.Cmd {
	client, gid := p.Ctx.Client, p.Ctx.GroupID
	return views.Load(&p.Base, "page", p.pass.seq, task, func(ctx context.Context) (pageResult, error) {
		pg, _, err := apiclient.ListPage[listedAlert](ctx, client, "listAlerts", pageRequest(gid, n))
		if err != nil {
			return pageResult{n: n}, err
		}
		return pageResult{n: n, total: pg.TotalCount, hasCount: pg.HasCount, alerts: pg.Results}, nil
	})
}

// pageDone merges a page and asks for the next ones.
func (p *Pane) pageDone(msg views.Result[pageResult]) tea.Cmd {
	ps := p.pass
	if !p.passSeq.Latest(msg.Seq) || ps == nil {
		return nil
	}
	r := msg.Value
	ps.inflight--
	if at := msg.CachedAt; !at.IsZero() && (ps.copyAt.IsZero() || at.Before(ps.copyAt)) {
		ps.copyAt = at
	}
	if msg.Err != nil {
		ps.failed = append(ps.failed, r.n)
		ps.halted = true
		p.failed(fmt.Errorf("list alerts: page %d: %w", r.n, msg.Err))
		return nil
	}
	if r.n == 1 || ps.pages == 0 {
		switch {
		case r.hasCount:
			ps.total = r.total
			ps.pages = max(1, (r.total+perPage-1)/perPage)
		case len(r.alerts) < perPage:
			ps.pages = r.n // no count: a short page is the last
		}
	}
	// The pages, not the count (an estimate), end the list: a short or
	// empty page is the last, and no more than apiclient.MaxRows are read.
	if len(r.alerts) < perPage && (ps.pages == 0 || r.n < ps.pages) {
		ps.pages = r.n
	}
	if maxPages := max(1, apiclient.MaxRows/perPage); ps.pages > maxPages {
		// (A cap under a page, as tests set, is one page the client
		// already cut to the cap.)
		ps.pages = maxPages
	}
	ps.got++
	news := p.mergeListed(r.alerts, ps.mark)
	first, announced := !p.loaded, p.firstDone
	p.loaded = true
	complete := ps.pages > 0 && ps.got >= ps.pages
	var cmds []tea.Cmd
	if complete {
		p.finishPass()
	} else if first || (!p.firstDone && time.Since(ps.shownAt) >= showEvery) {
		ps.shownAt = time.Now()
		p.sortAndShow()
	}
	if announced && len(news) > 0 {
		cmds = append(cmds, p.announce(news))
	}
	if !complete {
		cmds = append(cmds, p.claim(""))
	}
	return tea.Batch(cmds...)
}

// finishPass drops what the pass did not see and shows the result.
func (p *Pane) finishPass() {
	p.dropUnseen(p.pass.mark)
	copyAt := p.pass.copyAt
	p.pass, p.refreshes, p.needFull, p.firstDone = nil, 0, false, true
	p.reads.fewer, p.reads.liveAt = false, p.Ctx.Now() // it read the live alerts too
	p.succeeded()
	if !copyAt.IsZero() {
		// The last start's copy: the service is read in full next.
		p.needFull, p.freshAt = true, p.Ctx.Now().Add(-p.Ctx.WallNow().Sub(copyAt))
	}
	p.sortAndShow()
}

// dropUnseen drops the alerts the pass marked mark did not see.
func (s *store) dropUnseen(mark uint32) {
	if !slices.ContainsFunc(s.alerts, func(r record) bool { return r.seen != mark }) {
		return
	}
	keep := 0
	for i := range s.alerts {
		if s.alerts[i].seen == mark {
			s.alerts[keep] = s.alerts[i]
			keep++
		}
	}
	clear(s.alerts[keep:])
	s.alerts = s.alerts[:keep]
	clear(s.byID)
	for i := range s.alerts {
		s.byID[s.alerts[i].id] = i
	}
}

// configsDone takes the configurations read with a full pass.
func (p *Pane) configsDone(msg views.Result[configsResult]) tea.Cmd {
	if !p.passSeq.Latest(msg.Seq) {
		return nil
	}
	r := msg.Value
	p.setConfigs(r.configs, msg.Err)
	if msg.Err == nil {
		p.reads.cfgAt = p.Ctx.Now()
	}
	if p.loaded {
		p.rebuildRows() // severities follow the configurations
	}
	return nil
}

func (p *Pane) setConfigs(cs []apiclient.AlertConfig, err error) {
	p.cfgErr = err
	if err != nil {
		return
	}
	if p.cfgCreating == cfgUnsettled {
		p.cfgCreating = 0 // the list shows what the server holds now
	}
	p.configs = make(map[string]apiclient.AlertConfig, len(cs))
	p.cfgOrder = p.cfgOrder[:0]
	for _, c := range cs {
		p.configs[c.ID] = c
		p.cfgOrder = append(p.cfgOrder, c.ID)
	}
	p.rebuildConfigRows()
}

// failed keeps the data and says since when it is stale.
func (p *Pane) failed(err error) {
	if p.err == nil && views.IsPlannedWait(err) {
		return // kept back for the budget, never sent: no failure (the next tick asks again)
	}
	if p.err == nil {
		p.errSince = p.Ctx.Now()
	}
	p.err = err
}

func (p *Pane) succeeded() {
	p.err, p.errSince = nil, time.Time{}
	p.freshAt = p.Ctx.Now()
}

// merge puts alerts in the store in place, as records marked seen by
// mark; once the first pass is done it returns the new ones (for the bell).
func (s *store) merge(as []apiclient.Alert, mark uint32) []apiclient.Alert {
	var news []apiclient.Alert
	s.growFor()
	for k := range as {
		a := &as[k]
		s.keepFull(a)
		if s.put(a, mark) && s.firstDone {
			news = append(news, *a)
		}
	}
	s.countsOK = false
	return news
}

// mergeListed is merge for a full pass's page. The detail's whole alert
// takes what the page says of it (its acknowledgement, status); the rest
// of it is as the detail or the last refresh read it.
func (s *store) mergeListed(ls []listedAlert, mark uint32) []apiclient.Alert {
	var news []apiclient.Alert
	s.growFor()
	for k := range ls {
		a := ls[k].alert()
		if s.full != nil && a.ID == s.fullID {
			f := *s.full
			f.AlertConfigID, f.Created, f.Status, f.EventTypeName = a.AlertConfigID, a.Created, a.Status, a.EventTypeName
			f.AcknowledgedUntil, f.AcknowledgementComment, f.AcknowledgingUsername = a.AcknowledgedUntil, a.AcknowledgementComment, a.AcknowledgingUsername
			f.ClusterName, f.HostnameAndPort, f.ReplicaSetName = a.ClusterName, a.HostnameAndPort, a.ReplicaSetName
			s.full = &f
		}
		if s.put(&a, mark) && s.firstDone {
			news = append(news, a)
		}
	}
	s.countsOK = false
	return news
}

// growFor makes room for the whole pass at its first page.
func (s *store) growFor() {
	if s.byID == nil {
		s.byID = map[string]int{}
	}
	if len(s.alerts) == 0 && cap(s.alerts) == 0 && s.pass != nil && s.pass.total > 0 {
		s.alerts = make([]record, 0, min(s.pass.total, apiclient.MaxRows))
	}
}

// put puts a's record in place, marked seen by mark, and reports whether
// it is new.
func (s *store) put(a *apiclient.Alert, mark uint32) bool {
	r := s.record(a)
	r.seen = mark
	if i, ok := s.byID[a.ID]; ok {
		if o := &s.alerts[i]; o.created == r.created {
			r.createdCell = o.createdCell
		}
		s.alerts[i] = r
		return false
	}
	s.byID[a.ID] = len(s.alerts)
	s.alerts = append(s.alerts, r)
	return true
}

func (s *store) internString(v string) string {
	if v == "" {
		return ""
	}
	if w, ok := s.intern[v]; ok {
		return w
	}
	if s.intern == nil {
		s.intern = map[string]string{}
	}
	if len(s.intern) < 1<<16 {
		s.intern[v] = v
	}
	return v
}

// sortAndShow orders the display (open first, newest first) and rebuilds
// the rows.
func (p *Pane) sortAndShow() {
	p.sortOrder()
	p.rebuildRows()
	p.unsettled = nil // the list shows what the server holds now
	if p.mode == modeDetail {
		p.renderDetail() // each poll shows the alert as it is now
	}
}

// sortOrder orders the display: open first, newest first.
func (s *store) sortOrder() {
	if cap(s.order) < len(s.alerts) {
		s.order = make([]int32, len(s.alerts), cap(s.alerts))
	}
	s.order = s.order[:len(s.alerts)]
	for i := range s.order {
		s.order[i] = int32(i)
	}
	slices.SortStableFunc(s.order, func(i, j int32) int {
		x, y := &s.alerts[i], &s.alerts[j]
		xo, yo := x.open(), y.open()
		if xo != yo {
			if xo {
				return -1
			}
			return 1
		}
		if c := y.created.compare(x.created); c != 0 {
			return c
		}
		return cmp.Compare(x.id, y.id)
	})
}

// announce rings the bell once for new open CRITICAL or ERROR alerts.
func (p *Pane) announce(news []apiclient.Alert) tea.Cmd {
	if !p.firstDone {
		return nil
	}
	var fresh []apiclient.Alert
	for _, a := range news {
		if a.Status == apiclient.AlertOpen && loud(severityOf(a, p.configs)) {
			fresh = append(fresh, a)
		}
	}
	if len(fresh) == 0 {
		return nil
	}
	slices.SortFunc(fresh, func(x, y apiclient.Alert) int { return y.Created.Compare(x.Created) })
	a := fresh[0]
	text := fmt.Sprintf("new %s alert: %s on %s", severityOf(a, p.configs), a.EventTypeName, target(a))
	if len(fresh) > 1 {
		text += fmt.Sprintf(" (and %d more)", len(fresh)-1)
	}
	// One bell per refresh, however many alerts opened.
	p.Toast(components.Sanitize(text), false)
	return tea.Raw("\a")
}

// progress says how far a first pass is, for the header.
func (s *store) progress() string {
	ps := s.pass
	if ps == nil || s.firstDone || ps.total == 0 {
		return ""
	}
	return fmt.Sprintf("loading %d of %d", min(len(s.alerts), ps.total), ps.total)
}

// staleText says since when the data is stale and why, for the header.
func (p *Pane) staleText() string {
	if p.err == nil {
		return ""
	}
	s := "refresh failed: " + views.ErrText(p.err)
	if !p.freshAt.IsZero() {
		s = "stale, data from " + components.Age(p.Ctx.Now().Sub(p.freshAt)) + " ago · " + s
	}
	return s
}
