package ui

import (
	"context"
	"fmt"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
	"github.com/dbadmin-tui/dbadmin-tui/components"
)

// cacheTrust is how long a start trusts the cached scope before asking the
// service again: starts in quick succession spend nothing on who the caller
// is or what they can see.
const cacheTrust = 2 * time.Minute

// cacheMaxAge is the oldest cache a start draws from; an older one is
// asked for again.
const cacheMaxAge = 7 * 24 * time.Hour

// listsDelay is how long after a start by project id the full organization
// and project lists are asked for (in the background, for the pickers and
// the palette), so they do not compete with the first screen.
const listsDelay = 20 * time.Second

// Cache entries.
const (
	cacheRoles    = "roles"
	cacheOrgs     = "orgs"
	cacheProjects = "projects"
	cacheClusters = "clusters:" // + project id
	// CacheScreen is the last start's first screen: the answers to the
	// reads of the pane on screen at start (apiclient.StartCopies).
	CacheScreen = "screen"
)

type cachedRoles struct {
	Said  bool                 `json:"said"` // the server named the roles
	Roles []catalog.Assignment `json:"roles"`
}

type cachedOrg struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type cachedProject struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	OrgID string `json:"orgId"`
}

type cachedCluster struct {
	Name           string `json:"name"`
	ClusterType    string `json:"clusterType,omitempty"`
	MongoDBVersion string `json:"mongoDBVersion,omitempty"`
	StateName      string `json:"stateName,omitempty"`
}

// scopeFromCache draws the scope from the cache, with the time of its
// oldest entry; ok is false when something it needs is missing or the
// project asked for is not in it.
func scopeFromCache(c *apiclient.StartCache, w want) (s scope, at time.Time, ok bool) {
	var roles cachedRoles
	var orgs []cachedOrg
	var projects []cachedProject
	rAt, ok1 := c.Get(cacheRoles, &roles)
	oAt, ok2 := c.Get(cacheOrgs, &orgs)
	pAt, ok3 := c.Get(cacheProjects, &projects)
	if !ok1 || !ok2 || !ok3 || len(projects) == 0 {
		return s, at, false
	}
	at = rAt
	for _, t := range []time.Time{oAt, pAt} {
		if t.Before(at) {
			at = t
		}
	}
	if roles.Said {
		s.roles = roles.Roles
		if s.roles == nil {
			s.roles = []catalog.Assignment{}
		}
	}
	for _, o := range orgs {
		s.orgs = append(s.orgs, org(o))
	}
	for _, p := range projects {
		s.projects = append(s.projects, project(p))
	}
	p, found := pickProject(s.projects, w.orgID, w.project)
	if !found || p.ID == "" {
		return s, at, false
	}
	var cs []cachedCluster
	cAt, ok4 := c.Get(cacheClusters+p.ID, &cs)
	if !ok4 {
		return s, at, false
	}
	if cAt.Before(at) {
		at = cAt
	}
	if time.Since(at) > cacheMaxAge {
		return s, at, false
	}
	for _, cl := range cs {
		s.clusters = append(s.clusters, cluster(cl))
	}
	s.project = p
	s.org = org{ID: p.OrgID, Name: s.orgName(p.OrgID)}
	if selectCluster(&s, w, "") != "" {
		return s, at, false
	}
	return s, at, true
}

// saveScope records what the service said; lists holding only the selected
// project are merged into the cached ones, not put in their place.
func saveScope(c *apiclient.StartCache, s scope, now time.Time) {
	if c == nil {
		return
	}
	c.Put(cacheRoles, cachedRoles{Said: s.roles != nil, Roles: s.roles}, now)
	orgs, projects := s.orgs, s.projects
	var atO, atP time.Time
	if s.partialLists {
		var co []cachedOrg
		var cp []cachedProject
		atO, _ = c.Get(cacheOrgs, &co)
		atP, _ = c.Get(cacheProjects, &cp)
		orgs, projects = nil, nil
		sel := s.org
		for _, o := range co {
			switch {
			case o.ID != s.org.ID:
				orgs = append(orgs, org(o))
			case sel.Name == sel.ID && o.Name != "":
				sel.Name = o.Name // a name not read yet this start is not forgotten
			}
		}
		for _, p := range cp {
			if p.ID != s.project.ID {
				projects = append(projects, project(p))
			}
		}
		orgs, projects = append(orgs, sel), append(projects, s.project)
	}
	if atO.IsZero() {
		atO = now
	}
	if atP.IsZero() {
		atP = now
	}
	co := make([]cachedOrg, 0, len(orgs))
	for _, o := range orgs {
		co = append(co, cachedOrg(o))
	}
	cp := make([]cachedProject, 0, len(projects))
	for _, p := range projects {
		cp = append(cp, cachedProject(p))
	}
	c.Put(cacheOrgs, co, atO)
	c.Put(cacheProjects, cp, atP)
	if s.project.ID != "" {
		cs := make([]cachedCluster, 0, len(s.clusters))
		for _, cl := range s.clusters {
			cs = append(cs, cachedCluster(cl))
		}
		c.Put(cacheClusters+s.project.ID, cs, now)
	}
	_ = c.Save()
}

// afterStart plans what a start owes: the check of a cached scope, the
// full lists after a start by project id.
func (m *Model) afterStart(msg connectedMsg) tea.Cmd {
	m.cachedAt, m.verifyAt = msg.cachedAt, time.Time{}
	var cmds []tea.Cmd
	if !msg.cachedAt.IsZero() {
		m.verifyAt = msg.cachedAt.Add(cacheTrust)
		if now := m.opts.Wall(); m.verifyAt.Before(now) {
			m.verifyAt = now
		}
		cmds = append(cmds, m.planVerify(time.Until(m.verifyAt)))
	}
	if msg.scope.partialLists {
		attempt := m.attempt
		cmds = append(cmds, tea.Tick(listsDelay, func(time.Time) tea.Msg { return listsLoadedMsg{attempt: attempt, due: true} }))
		if o := msg.scope.org; o.ID != "" && o.Name == o.ID {
			cmds = append(cmds, m.nameOrg(o.ID))
		}
	}
	return tea.Batch(cmds...)
}

// orgNamedMsg is the name of the organization a start by project id
// selected, read after the start.
type orgNamedMsg struct {
	attempt int
	org     org
	err     error
}

// nameOrg reads the organization's name in the background: a start by
// project id shows its id until then (loadScopeByID).
func (m *Model) nameOrg(id string) tea.Cmd {
	client, attempt := m.client, m.attempt
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
		defer cancel()
		o, err := client.Projects().Org(ctx, id)
		if err != nil {
			return orgNamedMsg{attempt: attempt, org: org{ID: id}, err: err}
		}
		return orgNamedMsg{attempt: attempt, org: org{ID: o.ID, Name: o.Name}}
	}
}

// orgNamed takes in the selected organization's name. A failed read (a
// key with project roles only may not read its organization) keeps the id
// in its place, as the start did before; the full lists, loaded later,
// name it if they can.
func (m *Model) orgNamed(msg orgNamedMsg) tea.Cmd {
	if msg.attempt != m.attempt || msg.org.ID != m.scope.org.ID || msg.err != nil || msg.org.Name == "" {
		return nil
	}
	m.nameOrgs(msg.org)
	return tea.Batch(m.saveScopeCmd(), m.presentationChanged())
}

// saveScopeCmd saves a copy of the scope as it is now, off the UI loop:
// the start cache's file holds the last screen's copies too (up to 256 KB
// of them), rewritten whole on each save, which a start is still loading
// its first pane beside.
func (m *Model) saveScopeCmd() tea.Cmd {
	cache := m.opts.Cache
	if cache == nil {
		return nil
	}
	s := m.scope
	s.orgs, s.projects, s.clusters = slices.Clone(s.orgs), slices.Clone(s.projects), slices.Clone(s.clusters)
	return func() tea.Msg {
		saveScope(cache, s, time.Now())
		return nil
	}
}

// nameOrgs gives o's name to the selected organization and to o in the
// list of organizations.
func (m *Model) nameOrgs(o org) {
	if m.scope.org.ID == o.ID {
		m.scope.org.Name = o.Name
	}
	for i := range m.scope.orgs {
		if m.scope.orgs[i].ID == o.ID {
			m.scope.orgs[i].Name = o.Name
		}
	}
}

// verifyScopeMsg is the check of a cached scope coming due.
type verifyScopeMsg struct{ attempt int }

// scopeVerifiedMsg is what the service said of a cached scope.
type scopeVerifiedMsg struct {
	attempt int
	scope   scope
	err     error
}

func (m *Model) planVerify(in time.Duration) tea.Cmd {
	attempt := m.attempt
	return tea.Tick(max(in, 0), func(time.Time) tea.Msg { return verifyScopeMsg{attempt: attempt} })
}

// verifyScope asks the service, in the background, for everything the
// cached scope holds.
func (m *Model) verifyScope(msg verifyScopeMsg) tea.Cmd {
	if msg.attempt != m.attempt || m.cachedAt.IsZero() {
		return nil
	}
	client, cache, attempt := m.client, m.opts.Cache, m.attempt
	w := want{orgID: m.scope.org.ID, project: m.scope.project.ID, cluster: m.scope.cluster}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		ctx = apiclient.WithPriority(ctx, apiclient.PriorityBackground, "")
		s, _, err := loadScopeFull(ctx, client, w)
		if err == nil {
			saveScope(cache, s, time.Now())
		}
		return scopeVerifiedMsg{attempt: attempt, scope: s, err: err}
	}
}

// scopeVerified takes the service's answer over the cached one; the
// selected project and cluster stay, and a project no longer visible is
// said.
func (m *Model) scopeVerified(msg scopeVerifiedMsg) tea.Cmd {
	if msg.attempt != m.attempt || m.cachedAt.IsZero() {
		return nil
	}
	if msg.err != nil {
		// Keep the cached scope, marked; try again in a minute.
		m.verifyAt = m.opts.Wall().Add(time.Minute)
		return m.planVerify(time.Minute)
	}
	m.cachedAt, m.verifyAt = time.Time{}, time.Time{}
	s := msg.scope
	m.scope.roles, m.scope.orgs, m.scope.projects, m.scope.partialLists = s.roles, s.orgs, s.projects, false
	if name := m.scope.orgName(m.scope.org.ID); name != m.scope.org.ID {
		m.scope.org.Name = name
	}
	if s.project.ID == m.scope.project.ID {
		m.scope.clusters = s.clusters
	}
	if s.roles != nil {
		m.gate.SetRoles(s.roles)
	}
	for _, p := range s.projects {
		m.gate.SetProjectOrg(p.ID, p.OrgID)
	}
	m.syncContext()
	if s.project.ID != m.scope.project.ID {
		return m.toast(fmt.Sprintf("project %s is no longer among those this key can see", clean(m.scope.project.Name)), true)
	}
	return nil
}

// listsLoadedMsg is the full lists' load coming due (due) or its answer.
type listsLoadedMsg struct {
	attempt  int
	due      bool
	orgs     []org
	projects []project
	err      error
}

// listsLoaded loads the full organization and project lists after a start
// by project id, in the background, and takes them in.
func (m *Model) listsLoaded(msg listsLoadedMsg) tea.Cmd {
	if msg.attempt != m.attempt || !m.scope.partialLists {
		return nil
	}
	if msg.due {
		client, attempt := m.client, m.attempt
		return func() tea.Msg {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			ctx = apiclient.WithPriority(ctx, apiclient.PriorityBackground, "")
			orgs, err := apiclient.ListAll[org](ctx, client, "listOrganizations", apiclient.Request{}, apiclient.AllOptions{})
			if err != nil {
				return listsLoadedMsg{attempt: attempt, err: err}
			}
			ps, err := apiclient.ListAll[project](ctx, client, "listProjects", apiclient.Request{}, apiclient.AllOptions{})
			return listsLoadedMsg{attempt: attempt, orgs: orgs, projects: ps, err: err}
		}
	}
	if msg.err != nil {
		attempt := m.attempt
		return tea.Tick(time.Minute, func(time.Time) tea.Msg { return listsLoadedMsg{attempt: attempt, due: true} })
	}
	m.scope.orgs, m.scope.projects, m.scope.partialLists = msg.orgs, msg.projects, false
	for _, p := range msg.projects {
		m.gate.SetProjectOrg(p.ID, p.OrgID)
	}
	if name := m.scope.orgName(m.scope.org.ID); name != m.scope.org.Name {
		m.scope.org.Name = name // the selected one's name, if its own read failed
		return tea.Batch(m.saveScopeCmd(), m.presentationChanged())
	}
	return m.saveScopeCmd()
}

// cachedText is the header's note on a scope drawn from the cache: "cached
// 2h ago".
func (m *Model) cachedText() string {
	if m.cachedAt.IsZero() {
		return ""
	}
	return "cached " + components.Age(m.opts.Wall().Sub(m.cachedAt)) + " ago"
}

// waitingText says what a start waits for: "waiting for GET /orgs: rate
// limited until 13:42:10".
func (m *Model) waitingText() string {
	if m.client == nil || m.client.Scheduler() == nil {
		return ""
	}
	ws := m.client.Scheduler().Waiting()
	if len(ws) == 0 {
		return ""
	}
	w := ws[0]
	why := "keeping to the rate limit"
	if w.Throttled {
		why = "rate limited"
	}
	path := w.Path
	if path == "" {
		path = "/ (who am I)"
	}
	return fmt.Sprintf("waiting for %s %s: %s until %s", w.Method, path, why, w.Until.Local().Format("15:04:05"))
}

// useStartCopies gives the first start of the dashboard the copies the last
// one kept of its first screen's reads, and keeps the reads of the pane on
// screen now for the next; what it kept is saved once the window to keep
// closes (and at exit: SaveScreen).
func (m *Model) useStartCopies() tea.Cmd {
	cache := m.opts.Cache
	if cache == nil || m.client == nil || m.client.StartCopies() != nil || m.active >= len(m.opts.Panes) {
		return nil
	}
	var last []apiclient.StartCopy
	cache.Get(CacheScreen, &last)
	m.client.UseStartCopies(apiclient.NewStartCopies(last, string(m.opts.Panes[m.active].ID), cacheMaxAge, nil))
	client := m.client
	return tea.Tick(apiclient.StartCopiesWindow+time.Second, func(time.Time) tea.Msg {
		SaveScreen(cache, client)
		_ = cache.Save()
		return nil
	})
}

// SaveScreen puts in the cache what the client's start copies kept (Save
// writes it).
func SaveScreen(cache *apiclient.StartCache, client *apiclient.Client) {
	if cache == nil || client == nil {
		return
	}
	if kept := client.StartCopies().Kept(); len(kept) > 0 {
		cache.Put(CacheScreen, kept, time.Now())
	}
}
