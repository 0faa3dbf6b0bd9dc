package ui

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
	"github.com/dbadmin-tui/dbadmin-tui/apiclient/limits"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"golang.org/x/sync/errgroup"
)

// connectTimeout bounds the whole start-up conversation.
const connectTimeout = 30 * time.Second

type org struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type project struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	OrgID string `json:"orgId"`
}

type cluster struct {
	Name           string `json:"name"`
	ClusterType    string `json:"clusterType"`
	MongoDBVersion string `json:"mongoDBVersion"`
	StateName      string `json:"stateName"`
}

// scope is what the caller can see and what is selected.
type scope struct {
	roles    []catalog.Assignment
	orgs     []org
	projects []project
	clusters []cluster // of the selected project
	org      org
	project  project
	cluster  string
	// partialLists: orgs and projects hold only the selected ones (a
	// start by project id asks for nothing else); the full lists load
	// in the background.
	partialLists bool
}

func (s scope) orgName(id string) string {
	for _, o := range s.orgs {
		if o.ID == id {
			return o.Name
		}
	}
	return id
}

// want is the context asked for at start: flags, else the remembered one.
type want struct {
	orgID, project, cluster string
}

type connectedMsg struct {
	attempt int
	scope   scope
	warn    string
	err     error
	// cachedAt: the scope came from the start cache, read then.
	cachedAt time.Time
}

// Prestart begins the start-up conversation now, before the program has
// set up the terminal and asked for Init: the first reads leave while the
// terminal is readied (about 10 ms, a query of tmux among it), and Init
// takes their answer. Call it once, just before the program runs; without
// it Init connects.
//
// A start in a project named by id on a pane that says what it reads
// first (views.Registration.FirstReads) sends those reads ahead too: the
// pane's first page arrives with the start's answers, not a round trip
// after them.
func (m *Model) Prestart() {
	if m.prestarted != nil || m.attempt != 0 {
		return
	}
	cmd := m.connect()
	answer := make(chan tea.Msg, 1)
	go func() { answer <- cmd() }()
	m.prestarted = func() tea.Msg { return <-answer }
	if w := m.wanted(); hexID(w.project) && m.client != nil && m.active < len(m.opts.Panes) {
		if first := m.opts.Panes[m.active].FirstReads; first != nil {
			for _, r := range first(w.project) {
				m.client.ReadAhead(r.Op, r.Request)
			}
		}
	}
}

// wanted is the context the start asks for: the flags, else the one
// remembered.
func (m *Model) wanted() want {
	w := want{orgID: m.opts.OrgID, project: m.opts.Project, cluster: m.opts.Cluster}
	if w.project == "" && m.opts.State != nil {
		if r, ok := m.opts.State.Load(m.opts.Profile); ok {
			w = want{orgID: r.OrgID, project: r.GroupID, cluster: r.ClusterName}
			if m.opts.Cluster != "" {
				w.cluster = m.opts.Cluster
			}
		}
	}
	return w
}

// connect asks who the caller is and loads the organizations, projects and
// the selected project's clusters. Everything it needs is captured first.
func (m *Model) connect() tea.Cmd {
	m.attempt++
	m.phase = phaseConnecting
	client, attempt := m.client, m.attempt
	w := m.wanted()
	if m.opts.Cache != nil && !m.cacheTried {
		// Only the first try: a retry after a failure asks the service.
		m.cacheTried = true
		if s, at, ok := scopeFromCache(m.opts.Cache, w); ok {
			return func() tea.Msg { return connectedMsg{attempt: attempt, scope: s, cachedAt: at} }
		}
	}
	cache := m.opts.Cache
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
		defer cancel()
		s, warn, err := loadScope(ctx, client, w)
		if err == nil {
			saveScope(cache, s, time.Now())
		}
		return connectedMsg{attempt: attempt, scope: s, warn: warn, err: err}
	}
}

// loadScope asks in parallel what does not depend on anything: who the
// caller is, the organizations, the projects and, when the project asked for
// is an id, its clusters. Only when the project is known by name do its
// clusters wait for the project list: at most two round trips.
func loadScope(ctx context.Context, c *apiclient.Client, w want) (scope, string, error) {
	if hexID(w.project) {
		if s, warn, err, ok := loadScopeByID(ctx, c, w); ok {
			return s, warn, err
		}
	}
	return loadScopeFull(ctx, c, w)
}

// loadScopeByID starts in a project named by id with no organization or
// project list: who the caller is, the project and its clusters, at once.
// The organization's name is not waited for (it would be a round trip more
// before the first pane reads anything): the scope names the organization
// by its id until orgNamed takes the name in. ok is false when the project
// is not found (the full lists then say what the caller can see instead).
func loadScopeByID(ctx context.Context, c *apiclient.Client, w want) (s scope, warn string, err error, ok bool) {
	var p *apiclient.Project
	var cs []cluster
	var csErr error
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) {
		s.roles, err = callerRoles(gctx, c)
		return err
	})
	g.Go(func() (err error) {
		if p, err = c.Projects().Get(gctx, w.project); err != nil {
			return fmt.Errorf("get project %s: %w", w.project, err)
		}
		return nil
	})
	g.Go(func() error {
		cs, csErr = listClusters(gctx, c, w.project)
		return nil
	})
	if err := g.Wait(); err != nil {
		if apiclient.IsNotFound(err) {
			return s, "", nil, false
		}
		return s, "", err, true
	}
	if csErr != nil {
		return s, "", fmt.Errorf("list clusters of %s: %w", p.Name, csErr), true
	}
	s.project = project{ID: p.ID, Name: p.Name, OrgID: p.OrgID}
	s.org = org{ID: p.OrgID, Name: p.OrgID}
	s.orgs, s.projects, s.clusters, s.partialLists = []org{s.org}, []project{s.project}, cs, true
	return s, selectCluster(&s, w, ""), nil, true
}

// callerRoles is who the caller is, as roles: nil when the server does not
// say (a user's credentials, not an API key's), empty when it says none.
func callerRoles(ctx context.Context, c *apiclient.Client) ([]catalog.Assignment, error) {
	who, err := c.WhoAmI(ctx)
	if err != nil || who.APIKey == nil {
		return nil, err
	}
	if who.APIKey.Roles == nil {
		return []catalog.Assignment{}, nil
	}
	return who.APIKey.Roles, nil
}

// selectCluster picks the asked-for cluster in s and returns warn, or a
// warning that it is not there when warn is empty.
func selectCluster(s *scope, w want, warn string) string {
	if w.cluster == "" {
		return warn
	}
	for _, cl := range s.clusters {
		if cl.Name == w.cluster {
			s.cluster = cl.Name
		}
	}
	if s.cluster == "" && warn == "" {
		warn = fmt.Sprintf("cluster %q not found in %s", w.cluster, s.project.Name)
	}
	return warn
}

// loadScopeFull asks for everything the caller can see.
func loadScopeFull(ctx context.Context, c *apiclient.Client, w want) (scope, string, error) {
	var s scope
	var early []cluster
	var earlyErr error
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) {
		s.roles, err = callerRoles(gctx, c)
		return err
	})
	g.Go(func() (err error) {
		if s.orgs, err = apiclient.ListAll[org](gctx, c, "listOrganizations", apiclient.Request{}, apiclient.AllOptions{}); err != nil {
			return fmt.Errorf("list organizations: %w", err)
		}
		return nil
	})
	g.Go(func() (err error) {
		if s.projects, s.partialLists, err = projectsUntil(gctx, c, w); err != nil {
			return fmt.Errorf("list projects: %w", err)
		}
		return nil
	})
	earlyID := hexID(w.project)
	if earlyID {
		g.Go(func() error {
			// A failure here is judged once the project is known.
			early, earlyErr = listClusters(gctx, c, w.project)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return s, "", err
	}
	var warn string
	p, found := pickProject(s.projects, w.orgID, w.project)
	if !found && w.project != "" {
		warn = fmt.Sprintf("project %q not found", w.project)
	}
	s.project = p
	s.org = org{ID: p.OrgID, Name: s.orgName(p.OrgID)}
	if p.ID == "" && w.orgID != "" {
		s.org = org{ID: w.orgID, Name: s.orgName(w.orgID)}
	}
	if p.ID == "" {
		return s, warn, nil
	}
	var err error
	if earlyID && p.ID == w.project && earlyErr == nil {
		s.clusters = early
	} else if s.clusters, err = listClusters(ctx, c, p.ID); err != nil {
		return s, "", fmt.Errorf("list clusters of %s: %w", p.Name, err)
	}
	return s, selectCluster(&s, w, warn), nil
}

// projectsUntil lists the caller's projects a page at a time until the one
// the start asks for is among them (by id or name; with none asked, one of
// the organization asked for, or any): partial says pages were left
// unread. A start needs no more, and every page comes from the tightest
// bucket (10 tokens, 5 a minute): the 10 pages of 5,000 projects, with
// who-am-I and the organizations, would hold a start past its timeout,
// and each retry would spend the tokens again. The rest load in the
// background afterwards (listsLoaded), as after a start by project id.
func projectsUntil(ctx context.Context, c *apiclient.Client, w want) (ps []project, partial bool, err error) {
	for page := 1; ; page++ {
		pg, _, err := apiclient.ListPage[project](ctx, c, "listProjects", apiclient.Request{
			List: &apiclient.ListOptions{PageNum: page, ItemsPerPage: limits.MaxItemsPerPage}})
		if err != nil {
			return nil, false, fmt.Errorf("page %d: %w", page, err)
		}
		ps = append(ps, pg.Results...)
		last := len(pg.Results) < limits.MaxItemsPerPage || (pg.HasCount && len(ps) >= pg.TotalCount)
		if last {
			return ps, false, nil
		}
		if len(ps) >= apiclient.MaxRows {
			return ps, true, nil // a list past any caller's: the pickers show these
		}
		if _, found := pickProject(ps, w.orgID, w.project); found && (w.project != "" || hasOrg(ps, w.orgID)) {
			return ps, true, nil
		}
	}
}

// hasOrg reports whether a project of org (any, when empty) is in ps.
func hasOrg(ps []project, orgID string) bool {
	for _, p := range ps {
		if orgID == "" || p.OrgID == orgID {
			return true
		}
	}
	return false
}

// hexID reports whether s looks like a project id (24 hex digits).
func hexID(s string) bool {
	if len(s) != 24 {
		return false
	}
	for _, r := range s {
		if !strings.ContainsRune("0123456789abcdef", r) {
			return false
		}
	}
	return true
}

// listClusters lists every deployment of the project the pickers offer:
// clusters, then flex clusters and serverless instances (their lists are
// best effort: a refusal or an error there leaves them out).
func listClusters(ctx context.Context, c *apiclient.Client, groupID string) ([]cluster, error) {
	req := apiclient.Request{Params: map[string]string{"groupId": groupID}}
	// The three lists are independent: asked at once, so start-up waits
	// one round trip for them, not three.
	kinds := []struct{ op, kind string }{{"listClusters", ""}, {"listFlexClusters", "FLEX"}, {"listServerlessInstances", "SERVERLESS"}}
	lists := make([][]cluster, len(kinds))
	errs := make([]error, len(kinds))
	var wg sync.WaitGroup
	for i, k := range kinds {
		wg.Go(func() {
			lists[i], errs[i] = apiclient.ListAll[cluster](ctx, c, k.op, req, apiclient.AllOptions{})
		})
	}
	wg.Wait()
	if errs[0] != nil {
		return nil, errs[0]
	}
	cs := lists[0]
	for i, k := range kinds[1:] {
		if errs[i+1] != nil {
			continue
		}
		for _, m := range lists[i+1] {
			// A flex cluster's own clusterType reads REPLICASET: the
			// picker names what it is, as the Backups pane does.
			m.ClusterType = k.kind
			cs = append(cs, m)
		}
	}
	return cs, nil
}

// pickProject finds the asked-for project by id or name (case-insensitive);
// with nothing asked, the first project of the org, else the first at all.
func pickProject(ps []project, orgID, ask string) (project, bool) {
	if ask != "" {
		for _, p := range ps {
			if p.ID == ask {
				return p, true
			}
		}
		for _, p := range ps {
			if strings.EqualFold(p.Name, ask) {
				return p, true
			}
		}
	}
	for _, p := range ps {
		if orgID == "" || p.OrgID == orgID {
			return p, ask == ""
		}
	}
	return project{}, ask == ""
}

// retryStartMsg is a failed start's retry coming due.
type retryStartMsg struct{ attempt int }

// startRetryDelay is the wait before the next try after n failed starts:
// 2 s, 4 s, 8 s, ... at most 60 s.
func startRetryDelay(n int) time.Duration {
	d := 2 * time.Second << min(n, 5)
	return min(d, time.Minute)
}

// retryStart connects again if the retry is still the one due.
func (m *Model) retryStart(msg retryStartMsg) tea.Cmd {
	if msg.attempt != m.attempt || m.phase != phaseFailed {
		return nil // r retried first, or the start succeeded
	}
	return m.connect()
}

// retryText is the countdown under a failed start.
func (m *Model) retryText() string {
	if m.retryAt.IsZero() {
		return ""
	}
	s := int(time.Until(m.retryAt).Round(time.Second) / time.Second)
	if s <= 0 {
		return "retrying…"
	}
	return fmt.Sprintf("retrying in %d s", s)
}

// connected takes the start-up answer: on failure the error screen, on
// success the panes are built and the first one starts.
func (m *Model) connected(msg connectedMsg) tea.Cmd {
	if msg.attempt != m.attempt {
		return nil
	}
	if msg.err != nil {
		m.phase = phaseFailed
		m.connErr = msg.err
		m.pending = nil // typed for a dashboard that did not start
		if apiclient.IsUnauthorized(msg.err) || apiclient.IsForbidden(msg.err) {
			m.retryAt = time.Time{} // refused credentials wait for r
			return nil
		}
		// Retry by itself, waiting longer each time; r retries at once.
		wait := startRetryDelay(m.failures)
		m.failures++
		m.retryAt = time.Now().Add(wait)
		attempt := m.attempt
		return tea.Tick(wait, func(time.Time) tea.Msg { return retryStartMsg{attempt: attempt} })
	}
	m.phase = phaseReady
	m.connErr = nil
	m.failures, m.retryAt = 0, time.Time{}
	m.scope = msg.scope
	if msg.scope.roles != nil { // nil: the server did not say; keep the profile's
		m.gate.SetRoles(msg.scope.roles)
	}
	for _, p := range msg.scope.projects {
		m.gate.SetProjectOrg(p.ID, p.OrgID)
	}
	m.syncContext()
	var cmds []tea.Cmd
	if msg.warn != "" {
		cmds = append(cmds, m.toast(msg.warn, true))
	}
	if w := m.opts.CacheWarning; w != "" {
		m.opts.CacheWarning = ""
		cmds = append(cmds, m.toast(clean(w), true))
	}
	if m.panes == nil {
		cmds = append(cmds, m.useStartCopies())
		m.panes = make([]views.Pane, 0, len(m.opts.Panes))
		for _, r := range m.opts.Panes {
			m.panes = append(m.panes, r.New(m.ctx))
		}
		m.inited = make([]bool, len(m.panes))
		if m.active >= len(m.panes) {
			m.active = 0
		}
	} else {
		cmds = append(cmds, m.contextChanged(true))
	}
	m.layoutPanes()
	cmds = append(cmds, m.show(m.active), m.remember(), m.replayTypeAhead(), m.afterStart(msg))
	return tea.Batch(cmds...)
}

// syncContext rebuilds the panes' Context from the model and re-gates the
// keymap so help shows what is allowed now.
func (m *Model) syncContext() {
	s := m.scope
	m.ctx.OrgID, m.ctx.OrgName = s.org.ID, s.org.Name
	m.ctx.GroupID, m.ctx.ProjectName = s.project.ID, s.project.Name
	m.ctx.ClusterName = s.cluster
	m.ctx.Theme = m.theme
	m.tasks.SetTheme(m.theme)
	m.toasts.SetTheme(m.theme)
	m.ctx.ReadOnly = m.gate.ReadOnly()
	m.ctx.Paused = m.paused
	m.ctx.Layout = views.LayoutFor(m.width)
	m.keys.Gate(func(a keymap.Action) (bool, string) { return m.check(a) })
}
