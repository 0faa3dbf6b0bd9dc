package triage

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// The board's rounds: the projects listed, then each poll's fan-out of
// the parts (alerts, the rest, failed authentications) over them, and
// each project's answer taken into the board.

// The rest (clusters, backups, indexes, migrations) changes slowly and
// costs several requests a cluster, so it is read again per project, as
// it needs: every restEvery polls where something is under way or the
// last read failed, every restSlow polls otherwise, the quiet projects
// spread over the polls so that no poll reads them all. Alerts are read
// every poll.
const (
	restEvery = 4
	restSlow  = 20
)

// loadProjects lists the projects the board covers (the profile narrows
// them).
func (p *Pane) loadProjects() tea.Cmd {
	client := p.Ctx.Client
	if client == nil {
		return nil
	}
	scope := Scope{Orgs: p.Ctx.TriageOrgs, Projects: p.Ctx.TriageProjects}
	return views.Background(&p.Base, keyProjects, p.seq.Next(), "listing projects", func(ctx context.Context) (projectsResult, error) {
		return fetchProjects(ctx, client, scope)
	})
}

// fanOut asks every visible project for one part (alerts or rest).
func (p *Pane) fanOut(key string) tea.Cmd {
	if p.Ctx.Client == nil {
		return nil
	}
	for _, pr := range p.projects {
		if !p.hidden[pr.ID] {
			p.fetchPart(key, pr, false)
		}
	}
	return p.fan.start()
}

// restFanOut asks the projects whose rest is due (see restSlow) for it.
func (p *Pane) restFanOut() tea.Cmd {
	if p.Ctx.Client == nil {
		return nil
	}
	authDue := p.pending[keyAuth] == 0
	for i, pr := range p.projects {
		switch {
		case p.hidden[pr.ID]:
		case p.restIsDue(i, pr.ID):
			p.fetchPart(keyRest, pr, false) // the bursts follow
		case authDue && p.tick-p.authTick[pr.ID] >= restEvery:
			// Bursts are about the last minutes: read every restEvery
			// polls, on the clusters the last rest read listed.
			p.fetchAuth(pr, p.rest[pr.ID].LogClusters)
		}
	}
	return p.fan.start()
}

// restIsDue: project i has never been read, or its last read is restEvery
// polls old and showed something under way or failed, or it is restSlow
// polls old and this is its turn among the quiet ones.
func (p *Pane) restIsDue(i int, gid string) bool {
	last, read := p.restTick[gid]
	r, answered := p.rest[gid]
	switch age := p.tick - last; {
	case !read || !answered:
		return true
	case age < restEvery:
		return false
	case r.Moving || r.Errs > 0:
		return true
	default:
		return age >= restSlow || (age >= restSlow/2 && (p.tick+i)%restSlow == 0)
	}
}

// fetchPart queues one project's request for one part, as background work
// stamped with the fan-out's generation (its Seq); a part never read
// goes before the parts read again, alerts before the rest, and front
// before everything (the alerts of a project just written). The fan's
// start runs it.
func (p *Pane) fetchPart(key string, pr Project, front bool) {
	client, clock := p.Ctx.Client, clockOf(p.Ctx)
	if client == nil {
		return
	}
	p.pending[key]++
	if key == keyRest {
		p.restTick[pr.ID] = p.tick
	}
	known := p.configs[pr.ID]
	_, read := p.partsOf(key)[pr.ID]
	p.fan.add(views.Background(&p.Base, key, p.gen, "", func(ctx context.Context) (partResult, error) {
		if key == keyAlerts {
			return fetchAlerts(ctx, client, pr, known, clock), nil
		}
		return fetchRest(ctx, client, pr, clock), nil
	}), laneOf(key == keyAlerts, !read, front))
}

// fetchAuth queues one project's request for its failed-authentication
// bursts on the clusters its rest read listed, as background work like
// the rest.
func (p *Pane) fetchAuth(pr Project, clusters []string) {
	client, clock, threshold := p.Ctx.Client, clockOf(p.Ctx), p.Ctx.TriageAuthBursts
	if client == nil || threshold <= 0 {
		return
	}
	p.pending[keyAuth]++
	p.authTick[pr.ID] = p.tick
	_, read := p.auth[pr.ID]
	p.fan.add(views.Background(&p.Base, keyAuth, p.gen, "", func(ctx context.Context) (partResult, error) {
		return fetchAuth(ctx, client, pr, clusters, threshold, clock), nil
	}), laneOf(false, !read, false))
}

// poll is a tick's work: every project's alerts, and the rest every
// restEvery ticks, unless a round is still under way.
func (p *Pane) poll() tea.Cmd {
	p.tick++
	if p.boardDirty || p.b.agesDue(p.Ctx.Now()) {
		p.rebuild() // what changed since, and the ages the rows show
	}
	var cmds []tea.Cmd
	if p.pending[keyAlerts] == 0 {
		cmds = append(cmds, p.fanOut(keyAlerts))
	}
	if p.pending[keyRest] == 0 {
		cmds = append(cmds, p.restFanOut())
	}
	return tea.Batch(append(cmds, p.Arm())...)
}

// part takes one project's answer; a project's rest queues its failed
// authentications (the caller starts the fan).
func (p *Pane) part(m views.Result[partResult]) {
	if m.Seq != p.gen {
		return
	}
	part := m.Value
	part.Wall = p.Ctx.WallNow()
	if !m.CachedAt.IsZero() {
		part.Wall, part.Copied = m.CachedAt, true // as old as the copy; the next round checks it
	}
	p.pending[m.Key] = max(p.pending[m.Key]-1, 0)
	if part.Hidden && !p.hidden[part.GroupID] {
		p.hidden[part.GroupID] = true
		p.boardDirty = true // its "not visible (role)" row
	}
	prev, had := p.partsOf(m.Key)[part.GroupID]
	switch m.Key {
	case keyAlerts:
		if part.Configs != nil {
			p.configs[part.GroupID] = part.Configs
		}
		p.alerts[part.GroupID] = keep(part, p.alerts[part.GroupID])
	case keyAuth:
		p.auth[part.GroupID] = keep(part, p.auth[part.GroupID])
	default:
		p.rest[part.GroupID] = keep(part, p.rest[part.GroupID])
		// The failed authentications follow each project's rest, on the
		// clusters it listed (the last good read's when this one failed).
		if pr, ok := p.project(part.GroupID); ok && !part.Hidden {
			p.fetchAuth(pr, p.rest[part.GroupID].LogClusters)
		}
	}
	if p.place(m.Key, part.GroupID) || p.boardDirty {
		p.boardDirty = true
	}
	switch {
	case p.boardDirty && p.flushNow(m.Key):
		p.rebuild()
	case p.healthChanged(m.Key, part, prev, had):
		p.setHealth()
	}
}

func (p *Pane) project(gid string) (Project, bool) {
	for _, pr := range p.projects {
		if pr.ID == gid {
			return pr, true
		}
	}
	return Project{}, false
}
