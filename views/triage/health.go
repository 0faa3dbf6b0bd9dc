package triage

import (
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// The board's health, for the header: how fresh each part is.

// restParts names, for the header, the kinds the rest reads per cluster.
var restParts = []struct {
	kind Kind
	name string
}{{KindSnapshot, "snapshots"}, {KindRestore, "restores"}, {KindExport, "exports"}, {KindIndex, "search"}, {KindMigration, "migrations"}}

// setHealth tells the kit how fresh each part of the board is, for the
// header: per part the oldest answer of the projects that answered and,
// when some project's read of it failed, since when and why.
func (p *Pane) setHealth() {
	now := p.Ctx.WallNow()
	var parts []views.PartHealth
	note := func(name string, ok time.Time, copied, failed bool, err error) {
		i := slices.IndexFunc(parts, func(h views.PartHealth) bool { return h.Name == name })
		if i < 0 {
			parts = append(parts, views.PartHealth{Name: name})
			i = len(parts) - 1
		}
		h := &parts[i]
		if !ok.IsZero() && (h.OK.IsZero() || ok.Before(h.OK)) {
			h.OK = ok
		}
		h.Cached = h.Cached || copied
		if failed && h.Err == nil && !views.IsPlannedWait(err) { // a read the budget held is no failure
			h.Err = err
			if h.Err == nil {
				h.Err = errors.New("read failed")
			}
		}
	}
	if p.projErr != nil {
		note("projects", time.Time{}, false, true, p.projErr)
	}
	for _, pr := range p.projects {
		if p.hidden[pr.ID] {
			continue
		}
		if r, ok := p.alerts[pr.ID]; ok && !r.Hidden {
			note("alerts", r.Wall, r.Copied, r.Errs > 0, r.Err)
		}
		if r, ok := p.auth[pr.ID]; ok && !r.Hidden {
			note("auth bursts", r.Wall, r.Copied, r.Errs > 0, r.Err)
		}
		if r, ok := p.rest[pr.ID]; ok && !r.Hidden {
			whole := r.Failed[""]
			note("clusters", r.Wall, r.Copied, whole, r.Err)
			for _, k := range restParts {
				failed := whole
				for scope := range r.Failed {
					failed = failed || strings.HasPrefix(scope, string(k.kind)+"/")
				}
				note(k.name, r.Wall, r.Copied, failed, r.Err)
			}
		}
	}
	since := map[string]time.Time{}
	for i := range parts {
		h := &parts[i]
		if h.Err == nil {
			continue
		}
		if h.StaleSince = p.staleSince[h.Name]; h.StaleSince.IsZero() {
			h.StaleSince = now
		}
		since[h.Name] = h.StaleSince
	}
	p.staleSince = since
	p.SetParts(parts)
	p.cov, p.healthAt = nil, p.Ctx.WallNow() // counted again with what the health says
}
