package triage

import (
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// The coverage line's counts go over every project; at 1,000 projects
// that is too much for every answer and every frame, so they are counted
// when the board's health is set (setHealth: with the rows given to the
// table, a part's errors or a project's first answer at most once a
// second, the end of a round) and kept until then. Between two counts an oldest answer can only be
// newer than the one the line shows: its age errs on the old side.

// partCount is one part's line: how many projects answered, how many of
// them failed (the first one's error), and the oldest answer.
type partCount struct {
	done, stale int
	oldest      time.Time
	firstErr    string
	// capped counts the projects whose list reached the client's row cap,
	// firstCapped names the first.
	capped      int
	firstCapped string
}

// coverageCount is what the coverage line says, counted.
type coverageCount struct {
	n, hid, seen, denied int
	alerts, rest, auth   partCount
}

// coverageCounts counts the coverage line, or gives the last count.
func (p *Pane) coverageCounts() *coverageCount {
	if p.cov != nil {
		return p.cov
	}
	c := &coverageCount{n: len(p.projects)}
	count := func(m map[string]partResult) partCount {
		var k partCount
		for _, pr := range p.projects {
			r, ok := m[pr.ID]
			if !ok || r.Hidden {
				continue
			}
			k.done++
			if k.oldest.IsZero() || r.Wall.Before(k.oldest) {
				k.oldest = r.Wall
			}
			if r.Capped {
				if k.capped++; k.firstCapped == "" {
					k.firstCapped = pr.Name
				}
			}
			if r.Errs > 0 {
				k.stale++
				if k.firstErr == "" && r.Err != nil {
					k.firstErr = pr.Name + ": " + views.ErrText(r.Err)
				}
			}
		}
		return k
	}
	for _, pr := range p.projects {
		if p.hidden[pr.ID] {
			c.hid++
			continue
		}
		_, a := p.alerts[pr.ID]
		_, r := p.rest[pr.ID]
		if a && r {
			c.seen++
		}
		if r, ok := p.auth[pr.ID]; ok {
			c.denied += r.Denied
		}
	}
	c.alerts, c.rest, c.auth = count(p.alerts), count(p.rest), count(p.auth)
	p.cov = c
	return c
}

// healthChanged reports whether an answer changes what setHealth and the
// coverage line say beyond an answer's age, and whether to say it now:
// the last answer of a round, at once; a project's first answer of a
// part, a failed read or one that no longer fails, at most once per
// flushEvery (at 1,000 projects counting on each of them is most of the
// work of a round); the round's last answer says the rest.
func (p *Pane) healthChanged(key string, part partResult, prev partResult, had bool) bool {
	switch {
	case p.pending[key] == 0:
		return true
	case had && !part.Hidden && part.Errs == 0 && prev.Errs == 0:
		return false
	}
	return p.Ctx.WallNow().Sub(p.healthAt) >= flushEvery
}
