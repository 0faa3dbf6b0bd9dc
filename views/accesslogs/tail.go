package accesslogs

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// pollState: the tail polls while visible and following, one round at a
// time, until an error it cannot get past stops it.
func (p *Pane) pollState() views.PollState {
	return views.PollState{Off: !p.live() || p.inflight}
}

// pollNow starts a poll round unless one is under way.
func (p *Pane) pollNow(task string) tea.Cmd {
	if !p.ready() || p.inflight || p.stopped != nil || !p.following || p.Paused() {
		return nil
	}
	p.Stop()
	return p.fetch(p.win.Begin(p.Ctx.Now()), task)
}

// pollResult is the answer to one query of a round.
type pollResult struct {
	q    Query
	logs []apiclient.AccessLog
	// denied: the role may not read it (views.NotVisible); not a failure.
	denied string
}

// fetch sends one query; everything it needs is captured here.
func (p *Pane) fetch(q Query, task string) tea.Cmd {
	client, gid, cluster, host := p.Ctx.Client, p.Ctx.GroupID, p.cluster(), p.host
	p.inflight = true
	return views.Load(&p.Base, "poll", p.seq.Next(), task, func(ctx context.Context) (pollResult, error) {
		var logs []apiclient.AccessLog
		var err error
		if host != "" {
			logs, err = client.AccessLogs().ByHost(ctx, gid, host, q.Options())
		} else {
			logs, err = client.AccessLogs().ByCluster(ctx, gid, cluster, q.Options())
		}
		if why, ok := views.NotVisible(err); ok {
			return pollResult{q: q, denied: why}, nil
		}
		return pollResult{q: q, logs: logs}, err
	})
}

// restart forgets the tail and loads the since window again (new target,
// new since preset, new context).
func (p *Pane) restart(task string) tea.Cmd {
	p.seq.Next() // answers to the old target are dropped
	p.inflight = false
	p.Stop()
	p.win = p.newWindow()
	p.st.reset(p.Ctx.Theme, p.Ctx.Keys, p.lineWidth(), p.bodyRows()+1)
	p.stopped, p.err, p.failures, p.loaded, p.denied = nil, nil, 0, false, ""
	p.gaps, p.lastGap, p.truncated, p.match, p.summary = 0, nil, false, -1, ""
	p.pending = nil // a save asked for has lost its records
	return p.pollNow(task)
}

func (p *Pane) onPoll(msg views.Result[pollResult]) tea.Cmd {
	if !p.seq.Latest(msg.Seq) {
		return nil
	}
	if msg.Err != nil {
		p.inflight = false
		p.win.Abort()
		p.err = msg.Err
		p.failures++
		if stopsPolling(msg.Err) {
			p.stopped = msg.Err
			p.Stop()
			return nil
		}
		return p.Arm()
	}
	res := msg.Value
	if res.denied != "" {
		p.inflight = false
		p.win.Abort()
		p.err, p.failures, p.denied = nil, 0, res.denied
		p.stopped = errors.New(res.denied)
		p.Stop()
		return nil
	}
	now := p.Ctx.Now()
	step := p.win.Add(res.q, res.logs, now)
	if step.Next != nil {
		return p.fetch(*step.Next, "")
	}
	p.inflight = false
	p.win.NoteClock(now)
	p.err, p.failures, p.loaded = nil, 0, true
	if step.Gap != nil {
		p.gaps++
		p.lastGap = step.Gap
	}
	if step.Truncated {
		p.truncated = true
	}
	if len(step.Fresh) > 0 {
		p.st.add(step.Fresh)
		p.summary = summarize(p.st, p.win.Newest())
	}
	return p.Arm()
}

// stopsPolling: errors that another poll cannot fix (the cluster has no
// access log, the role is missing, the cluster is gone). The rest (5xx,
// 429, the network) back off and retry.
func stopsPolling(err error) bool {
	if apiclient.IsValidation(err) {
		return true
	}
	var ae *apiclient.Error
	if errors.As(err, &ae) {
		switch ae.Status {
		case http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound:
			return true
		}
	}
	return false
}

func sinceText(d time.Duration) string {
	switch {
	case d >= time.Hour && d%time.Hour == 0:
		return fmt.Sprintf("%dh", d/time.Hour)
	default:
		return fmt.Sprintf("%dm", d/time.Minute)
	}
}

// summarize counts the failures of the last five minutes of records.
func summarize(s *store, newest time.Time) string {
	const span = 5 * time.Minute
	cutoff := newest.Add(-span)
	fails := 0
	byIP := map[string]int{}
	for i := s.recs.Len() - 1; i >= 0; i-- {
		r := s.held(i)
		if !r.At.IsZero() && r.At.Before(cutoff) {
			break
		}
		if !r.AuthResult {
			fails++
			byIP[r.IPAddress]++
		}
	}
	ips := make([]string, 0, len(byIP))
	for ip := range byIP {
		ips = append(ips, ip)
	}
	slices.SortFunc(ips, func(a, b string) int {
		if byIP[a] != byIP[b] {
			return byIP[b] - byIP[a]
		}
		return strings.Compare(a, b)
	})
	out := fmt.Sprintf("failures %.1f/min (last 5m)", float64(fails)/span.Minutes())
	if len(ips) > 0 {
		var top []string
		for _, ip := range ips[:min(3, len(ips))] {
			top = append(top, fmt.Sprintf("%s ×%d", components.Sanitize(ip), byIP[ip]))
		}
		out += " · top failing: " + strings.Join(top, ", ")
	}
	return out
}
