package migration

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/ui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// result takes the answers of the pane's requests.
func (p *Pane) result(msg views.ResultMsg) tea.Cmd {
	switch msg.Key {
	case keySources:
		if !p.seqSources.Latest(msg.Seq) {
			return nil
		}
		p.sourcesLoaded, p.sourcesErr = true, msg.Err
		if projects, ok := msg.Value.([]apiclient.AvailableProject); ok && msg.Err == nil {
			p.setSources(projects)
		}
	case keyClusters:
		if !p.seqClusters.Latest(msg.Seq) {
			return nil
		}
		p.clustersLoaded, p.clustersErr = true, msg.Err
		if cls, ok := msg.Value.([]apiclient.Cluster); ok && msg.Err == nil {
			p.setClusters(cls)
		}
	case keyToken:
		return p.tokenResult(msg)
	case keyValidate:
		if msg.Err != nil {
			return views.FormDone(ID, formOptions, msg.Err)
		}
		v, _ := msg.Value.(*validationState)
		if v == nil {
			return views.FormDone(ID, formOptions, fmt.Errorf("the check answered nothing"))
		}
		v.at = p.ctx.Now()
		p.validation = v
		p.notice = ""
		return tea.Batch(views.FormDone(ID, formOptions, nil), p.arm())
	case keyValidation:
		if !p.seqValidation.Latest(msg.Seq) || p.validation == nil {
			return nil
		}
		if v, ok := msg.Value.(*apiclient.MigrationValidation); ok && msg.Err == nil && v.ID == p.validation.v.ID {
			was := p.validation.v.Status
			p.validation.v = *v
			if was == apiclient.ValidationPending && v.Done() {
				return tea.Batch(p.validationToast(), p.arm())
			}
		}
		return p.arm()
	case keyStart:
		return p.startResult(msg)
	case keyJob:
		return p.jobResult(msg)
	case keyCutover:
		if msg.Err != nil {
			return p.say("cut-over failed: "+errText(msg.Err), true)
		}
		if p.job != nil {
			now := p.ctx.Now()
			p.job.cutoverAt = &now
		}
		return tea.Batch(p.say("cut-over requested: synchronization with the source stops", false), p.pollNow())
	}
	return nil
}

func (p *Pane) setSources(projects []apiclient.AvailableProject) {
	keep := ""
	if r, ok := p.currentSource(); ok {
		keep = r.id()
	}
	p.sources = p.sources[:0]
	for _, pr := range projects {
		for _, d := range pr.Deployments {
			p.sources = append(p.sources, sourceRow{project: pr, dep: d})
		}
	}
	p.srcCursor = clamp(p.srcCursor, 0, len(p.sources)-1)
	for i, r := range p.sources {
		if r.id() == keep {
			p.srcCursor = i
		}
	}
}

// setClusters keeps the dedicated clusters: a push migration lands only on
// an M10 or larger cluster.
func (p *Pane) setClusters(cls []apiclient.Cluster) {
	keep := ""
	if c, ok := p.currentCluster(); ok {
		keep = c.Name
	} else {
		keep = p.ctx.ClusterName // `:cluster` picks the destination
	}
	p.clusters, p.clustersHidden = p.clusters[:0], 0
	for _, c := range cls {
		if c.Tenant() || c.ClusterType == "" {
			p.clustersHidden++
			continue
		}
		p.clusters = append(p.clusters, c)
	}
	p.dstCursor = clamp(p.dstCursor, 0, len(p.clusters)-1)
	for i, c := range p.clusters {
		if c.Name == keep {
			p.dstCursor = i
		}
	}
}

func (p *Pane) currentSource() (sourceRow, bool) {
	if p.srcCursor < 0 || p.srcCursor >= len(p.sources) {
		return sourceRow{}, false
	}
	return p.sources[p.srcCursor], true
}

func (p *Pane) currentCluster() (apiclient.Cluster, bool) {
	if p.dstCursor < 0 || p.dstCursor >= len(p.clusters) {
		return apiclient.Cluster{}, false
	}
	return p.clusters[p.dstCursor], true
}

func (p *Pane) tokenResult(msg views.ResultMsg) tea.Cmd {
	r, _ := msg.Value.(tokenResult)
	if r.deleted {
		if msg.Err != nil {
			return p.say("delete link token failed: "+errText(msg.Err), true)
		}
		p.token = tokenState{deletedAt: p.ctx.Now()}
		// Nothing is linked any more: the source list empties.
		return tea.Batch(p.say("link token deleted", false), p.load(""))
	}
	if msg.Err != nil {
		return views.FormDone(ID, formToken, msg.Err)
	}
	if r.token == nil || r.token.LinkToken == "" {
		return views.FormDone(ID, formToken, fmt.Errorf("the service answered without a token"))
	}
	p.token = tokenState{value: components.Sanitize(r.token.LinkToken), createdAt: p.ctx.Now(), ips: r.ips}
	p.step = stepToken
	p.notice = ""
	return tea.Batch(views.FormDone(ID, formToken, nil),
		views.Toast("link token created: y copies it; it is shown only once", false), p.load(""))
}

func (p *Pane) validationToast() tea.Cmd {
	v := p.validation.v
	if v.Status == apiclient.ValidationSuccess {
		return p.say("check passed: "+p.validation.label+" can start (m)", false)
	}
	return p.say("check failed: "+components.Sanitize(v.ErrorMessage), true)
}

func (p *Pane) startResult(msg views.ResultMsg) tea.Cmd {
	s, _ := msg.Value.(started)
	if msg.Err != nil || s.m == nil {
		err := msg.Err
		if err == nil {
			err = fmt.Errorf("the service answered without a migration")
		}
		return p.say("start failed: "+errText(err), true)
	}
	j := s.job
	j.id = s.m.ID
	j.startedAt = p.ctx.Now()
	j.observe(*s.m, j.startedAt)
	p.job = j
	p.step = stepProgress
	p.notice = ""
	return tea.Batch(views.Toast("migration "+j.label()+" started", false), p.arm())
}

func (p *Pane) jobResult(msg views.ResultMsg) tea.Cmd {
	if !p.seqJob.Latest(msg.Seq) || p.job == nil {
		return nil
	}
	m, ok := msg.Value.(*apiclient.LiveMigration)
	if msg.Err != nil || !ok || m == nil || m.ID != p.job.id {
		p.job.failures++
		p.job.pollErr = msg.Err
		return p.arm()
	}
	wasReady, wasDone := p.job.last.ReadyForCutover, p.job.done()
	p.job.observe(*m, p.ctx.Now())
	var cmds []tea.Cmd
	switch {
	case !wasDone && p.job.done():
		switch m.Status {
		case apiclient.MigrationComplete:
			cmds = append(cmds, p.say("migration "+p.job.label()+" complete: "+p.job.dest+" is the primary copy", false))
		case apiclient.MigrationExpired:
			cmds = append(cmds, p.say("migration "+p.job.label()+" expired: no cut-over within 120 hours", true))
		default:
			cmds = append(cmds, p.say("migration "+p.job.label()+" "+strings.ToLower(string(m.Status)), true))
		}
	case !wasReady && m.ReadyForCutover:
		cmds = append(cmds, p.say("migration "+p.job.label()+" is ready for cut-over (C)", false))
	}
	return tea.Batch(append(cmds, p.arm())...)
}

// errText is an error for one line: the API's errorCode and detail.
func errText(err error) string {
	if err == nil {
		return ""
	}
	if e, ok := apiclient.AsError(err); ok {
		if e.Detail != "" {
			return components.Sanitize(e.ErrorCode + ": " + e.Detail)
		}
		return components.Sanitize(e.Error())
	}
	return components.Sanitize(err.Error())
}
