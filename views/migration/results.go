package migration

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// result takes the answers of the pane's requests.
// result takes the answers of the pane's requests; ok is false for any
// other message.
func (p *Pane) result(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case views.Result[[]apiclient.AvailableProject]:
		if !p.seqSources.Latest(msg.Seq) {
			return nil, true
		}
		p.sourcesLoaded, p.sourcesErr = true, msg.Err
		if msg.Err == nil {
			p.setSources(msg.Value)
		}
	case views.Result[[]apiclient.Cluster]:
		if !p.seqClusters.Latest(msg.Seq) {
			return nil, true
		}
		p.clustersLoaded, p.clustersErr = true, msg.Err
		if msg.Err == nil {
			p.setClusters(msg.Value)
		}
	case views.Result[tokenResult]:
		return p.tokenResult(msg), true
	case views.Result[*validationState]:
		if msg.Err != nil {
			p.FormDone(formOptions, msg.Err)
			return nil, true
		}
		v := msg.Value
		if v == nil {
			p.FormDone(formOptions, fmt.Errorf("the check answered nothing"))
			return nil, true
		}
		v.at = p.Ctx.Now()
		p.validation = v
		p.notice = ""
		p.FormDone(formOptions, nil)
		return p.Arm(), true
	case views.Result[*apiclient.MigrationValidation]:
		if !p.seqValidation.Latest(msg.Seq) || p.validation == nil {
			return nil, true
		}
		if v := msg.Value; v != nil && msg.Err == nil && v.ID == p.validation.v.ID {
			was := p.validation.v.Status
			p.validation.v = *v
			if was == apiclient.ValidationPending && v.Done() {
				return tea.Batch(p.validationToast(), p.Arm()), true
			}
		}
		return p.Arm(), true
	case views.Result[started]:
		return p.startResult(msg), true
	case views.Result[*apiclient.LiveMigration]:
		return p.jobResult(msg), true
	case views.Result[cutDone]:
		if msg.Err != nil {
			return p.say("cut-over failed: "+views.ErrText(msg.Err), true), true
		}
		if p.job != nil {
			now := p.Ctx.Now()
			p.job.cutoverAt = &now
		}
		return tea.Batch(p.say("cut-over requested: synchronization with the source stops", false), p.pollNow()), true
	default:
		return nil, false
	}
	return nil, true
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
		keep = p.Ctx.ClusterName // `:cluster` picks the destination
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

func (p *Pane) tokenResult(msg views.Result[tokenResult]) tea.Cmd {
	r := msg.Value
	if r.deleted {
		if msg.Err != nil {
			return p.say("delete link token failed: "+views.ErrText(msg.Err), true)
		}
		p.token = tokenState{deletedAt: p.Ctx.Now()}
		// Nothing is linked any more: the source list empties.
		return tea.Batch(p.say("link token deleted", false), p.load(""))
	}
	if msg.Err != nil {
		p.FormDone(formToken, msg.Err)
		return nil
	}
	if r.token == nil || r.token.LinkToken == "" {
		p.FormDone(formToken, fmt.Errorf("the service answered without a token"))
		return nil
	}
	p.token = tokenState{value: components.Sanitize(r.token.LinkToken), createdAt: p.Ctx.Now(), ips: r.ips}
	p.step = stepToken
	p.notice = ""
	p.FormDone(formToken, nil)
	p.Toast("link token created: y copies it; it is shown only once", false)
	return p.load("")
}

func (p *Pane) validationToast() tea.Cmd {
	v := p.validation.v
	if v.Status == apiclient.ValidationSuccess {
		if l := p.lostHere(); l != nil {
			return p.say("check passed: "+p.validation.label+"; an earlier start into "+components.Sanitize(l.dest)+" was "+
				outcomeUnknown+", so only "+p.keyName(actStartAnother)+" starts another", false)
		}
		return p.say("check passed: "+p.validation.label+" can start ("+p.keyName(actStart)+")", false)
	}
	return p.say("check failed: "+components.Sanitize(v.ErrorMessage), true)
}

// startResult: a start the service refused may be made again; one whose
// answer was lost may have made a migration, which cannot be looked up
// (no list, and the id was in the answer): it is recorded, said, and never
// sent again on its own.
func (p *Pane) startResult(msg views.Result[started]) tea.Cmd {
	p.starting = ""
	s := msg.Value
	if s.job == nil {
		return p.say("start failed: "+views.ErrText(msg.Err), true)
	}
	if ou := s.unknown; ou != nil || (msg.Err == nil && s.m == nil) {
		l := lostStart{n: len(p.lost) + 1, groupID: s.job.groupID, source: s.job.source, dest: s.job.dest,
			at: p.Ctx.Now(), how: "the answer held no migration"}
		if ou != nil {
			l.how = "answer lost"
			if ou.Status != 0 {
				l.how = fmt.Sprintf("HTTP %d, unreadable answer", ou.Status)
			}
			if !ou.Sent.IsZero() {
				l.at = ou.Sent
			}
		}
		p.lost = append(p.lost, l)
		return p.say("start of "+components.Sanitize(l.label())+" "+outcomeUnknown+": a migration into "+
			components.Sanitize(l.dest)+" may be running; it cannot be checked (the API lists no migrations)", true)
	}
	if msg.Err != nil {
		return p.say("start failed: "+views.ErrText(msg.Err), true)
	}
	j := s.job
	j.id = s.m.ID
	j.startedAt = p.Ctx.Now()
	j.observe(*s.m, j.startedAt)
	p.job = j
	p.step = stepProgress
	p.notice = ""
	// A refusal read while it was being sent ("no migration started") is
	// no longer true: Update clears it, the cause of a refusal being gone.
	p.Toast("migration "+j.label()+" started", false)
	return p.Arm()
}

func (p *Pane) jobResult(msg views.Result[*apiclient.LiveMigration]) tea.Cmd {
	if !p.seqJob.Latest(msg.Seq) || p.job == nil {
		return nil
	}
	m := msg.Value
	if msg.Err != nil || m == nil || m.ID != p.job.id {
		p.job.failures++
		p.job.pollErr = msg.Err
		return p.Arm()
	}
	wasReady, wasDone := p.job.last.ReadyForCutover, p.job.done()
	p.job.observe(*m, p.Ctx.Now())
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
		// "cut over: waits for readyForCutover" is no longer true: Update
		// clears it.
		cmds = append(cmds, p.say("migration "+p.job.label()+" is ready for cut-over (C)", false))
	}
	return tea.Batch(append(cmds, p.Arm())...)
}
