package alerts

import (
	"context"
	"errors"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// When the pane reads what, once the first full pass is done.
//
// A poll tick first asks two counts, one alert each: every alert of the
// project (the total) and the OPEN ones. Then:
//
//   - OPEN and TRACKING are read whole (the live read) when a count
//     differs from what the store holds, or liveEvery after the last live
//     read (an acknowledgement by someone else, a TRACKING alert that
//     ended: what no count shows). A large live set is read no more often
//     than liveBudget requests a minute allow, whatever changed.
//   - A full pass runs only when something says it is needed: the server
//     holds alerts the store does not (its total is above the store's
//     after the live read: one opened and closed between two reads), or
//     fewer twice in a row (some were deleted), or more alerts left the
//     live lists than are read alone (vanishedGets), or one of them is
//     gone. Never on a timer.
//   - The configurations are read with a full pass, when an alert names
//     one the pane does not hold, every configsEvery, and on the user's r
//     or after a configuration write (any load that is not a tick).
//
// r reads OPEN, TRACKING and the configurations at once, as a tick that
// finds a change does.
const (
	liveEvery    = time.Minute
	liveBudget   = 15 // requests a minute
	configsEvery = 10 * time.Minute
)

// whenState is what the pane remembers to decide (see above).
type whenState struct {
	liveAt    time.Time // the last live read (the client's clock)
	livePages int       // the pages it took
	cfgAt     time.Time // the last read of the configurations
	// fewer: the last check found the server holding fewer alerts than
	// the store; a second in a row asks for a full pass.
	fewer bool
}

// liveGap is how long after a live read of pages pages the next may run:
// no sooner than liveBudget allows, whatever changed.
func liveGap(pages int) time.Duration {
	return time.Duration(pages) * time.Minute / liveBudget
}

// tick is a poll's work: the full pass when one is due or under way, else
// the counts and what they call for.
func (p *Pane) tick() tea.Cmd {
	if p.Ctx.Client == nil || p.Ctx.GroupID == "" {
		return nil
	}
	if p.pass != nil || !p.firstDone || p.needFull {
		return p.load("")
	}
	return p.delta("", true)
}

// delta is the incremental refresh: on a tick the counts first (tick),
// then OPEN and TRACKING, up to vanishedGets alerts that left both lists
// read alone, and the configurations when they are due.
func (p *Pane) delta(task string, tick bool) tea.Cmd {
	client, gid := p.Ctx.Client, p.Ctx.GroupID
	var live []string
	open := 0
	for i := range p.alerts {
		if r := &p.alerts[i]; r.status == apiclient.AlertOpen || r.status == apiclient.AlertTracking {
			live = append(live, r.id)
			if r.open() {
				open++
			}
		}
	}
	known := make(map[string]bool, len(p.configs))
	for id := range p.configs {
		known[id] = true
	}
	now, w := p.Ctx.Now(), p.reads
	held := len(p.alerts)
	since := now.Sub(w.liveAt)
	liveDue := w.liveAt.IsZero() || since >= max(liveEvery, liveGap(w.livePages))
	mayLive := since >= liveGap(w.livePages)
	configsDue := !tick || w.cfgAt.IsZero() || now.Sub(w.cfgAt) >= configsEvery
	return views.Load(&p.Base, "delta", p.listSeq.Next(), task, func(ctx context.Context) (deltaResult, error) {
		var d deltaResult
		if tick {
			total, n, err := counts(ctx, client, gid)
			if err != nil {
				return deltaResult{}, err
			}
			d.probed, d.total = total >= 0, total
			changed := total < 0 || total != held || n != open
			if !liveDue && !(changed && mayLive) {
				return d, nil
			}
		}
		d.read = true
		for _, st := range []apiclient.AlertStatus{apiclient.AlertOpen, apiclient.AlertTracking} {
			as, err := client.Alerts().ListAll(ctx, gid, st)
			if err != nil {
				return deltaResult{}, fmt.Errorf("list %s alerts: %w", st, err)
			}
			d.live = append(d.live, as...)
			d.pages += max(1, (len(as)+perPage-1)/perPage)
		}
		now := make(map[string]bool, len(d.live))
		for _, a := range d.live {
			now[a.ID] = true
			if a.AlertConfigID != "" && !known[a.AlertConfigID] {
				configsDue = true
			}
		}
		for _, id := range live {
			if now[id] {
				continue
			}
			if len(d.ended) >= vanishedGets {
				d.unknown++
				continue
			}
			a, err := client.Alerts().Get(ctx, gid, id)
			var ae *apiclient.Error
			switch {
			case errors.As(err, &ae) && ae.Status == 404:
				d.gone = true
			case err != nil:
				return deltaResult{}, fmt.Errorf("get alert %s: %w", id, err)
			default:
				d.ended = append(d.ended, *a)
			}
		}
		if configsDue {
			d.configsRead = true
			d.configs, d.configErr = client.AlertConfigs().ListAll(ctx, gid)
		}
		return d, nil
	})
}

// counts asks the project's number of alerts and of OPEN ones, one alert
// each; -1 where the server gives no count.
func counts(ctx context.Context, c *apiclient.Client, gid string) (total, open int, err error) {
	yes := true
	one := apiclient.ListOptions{PageNum: 1, ItemsPerPage: 1, IncludeCount: &yes}
	out := [2]int{-1, -1}
	for i, st := range []apiclient.AlertStatus{"", apiclient.AlertOpen} {
		pg, err := c.Alerts().List(ctx, gid, apiclient.AlertListOptions{Status: st, ListOptions: one})
		if err != nil {
			return 0, 0, fmt.Errorf("count alerts: %w", err)
		}
		if pg.HasCount {
			out[i] = pg.TotalCount
		}
	}
	return out[0], out[1], nil
}

// deltaDone merges a refresh and decides whether a full pass is due.
func (p *Pane) deltaDone(msg views.Result[deltaResult]) tea.Cmd {
	if !p.listSeq.Latest(msg.Seq) || p.pass != nil {
		return nil
	}
	if msg.Err != nil {
		p.failed(msg.Err)
		return nil
	}
	d := msg.Value
	now := p.Ctx.Now()
	if d.configsRead {
		p.setConfigs(d.configs, d.configErr)
		if d.configErr == nil {
			p.reads.cfgAt = now
		}
	}
	if !d.read {
		// The counts say nothing changed: the data is current.
		p.succeeded()
		return nil
	}
	p.reads.liveAt, p.reads.livePages = now, d.pages
	news := p.merge(d.live, p.mark)
	p.merge(d.ended, p.mark)
	p.refreshes++
	if d.unknown > 0 || d.gone {
		p.needFull = true
	}
	if d.probed {
		switch held := len(p.alerts); {
		case held < d.total:
			p.needFull = true // opened and closed between two reads
		case held > d.total && p.reads.fewer:
			p.needFull = true // deleted on the server
		default:
			p.reads.fewer = held > d.total
		}
	}
	p.succeeded()
	p.sortAndShow()
	return p.announce(news)
}
