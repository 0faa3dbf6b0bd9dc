package triage

import (
	"slices"

	"charm.land/lipgloss/v2"

	"github.com/dbadmin-tui/dbadmin-tui/components"
)

// A frame is drawn after every message, and at 1,000 projects most
// messages are answers that change nothing on screen. So the lines over
// the table are made again only when what they say may have changed (the
// board's rows, the coverage count, the outcomes of an acknowledgement,
// the size, an age on the coverage line), and the frame is joined again
// only when those lines or the table's text differ from the last frame's.

// topKey is what the lines over the table are made of.
type topKey struct {
	w, h        int
	board       uint64
	cov         *coverageCount
	listed      bool   // the projects are listed
	projErr     string // the projects' listing failed
	unmatched   int
	results     int
	firstResult *string
	resultsHead string
	ages        [3]string // the coverage line's ages
}

// drawn is the last frame and what it was made of.
type drawn struct {
	key topKey
	top []string
	// The last frame, and the lines and table text it joined.
	frameTop []string
	table    string
	frame    string
}

func (p *Pane) topKey() topKey {
	k := topKey{w: p.W, h: p.H, board: p.b.version, listed: p.projects != nil, unmatched: len(p.unmatched),
		results: len(p.results), resultsHead: p.resultsHead}
	if p.projErr != nil {
		k.projErr = p.projErr.Error()
	}
	if len(p.results) > 0 {
		k.firstResult = &p.results[0]
	}
	if p.projErr == nil && p.projects != nil {
		k.cov = p.coverageCounts()
		now := p.Ctx.WallNow()
		for i, part := range []partCount{k.cov.alerts, k.cov.rest, k.cov.auth} {
			if !part.oldest.IsZero() {
				k.ages[i] = components.Age(now.Sub(part.oldest))
			}
		}
	}
	return k
}

// top is what the pane shows over the table (topLines), made again only
// when what it is made of changed.
func (p *Pane) top() []string {
	k := p.topKey()
	if p.drawn.top == nil || k != p.drawn.key {
		p.drawn.key, p.drawn.top = k, p.topLines()
	}
	return p.drawn.top
}

// frame joins the lines over the table and the table's text, or gives
// the last frame when both are the same.
func (p *Pane) frame(top []string, table string) string {
	if p.drawn.frame != "" && table == p.drawn.table && slices.Equal(top, p.drawn.frameTop) {
		return p.drawn.frame
	}
	lines := append(slices.Clone(top), table)
	p.drawn.frameTop, p.drawn.table = top, table
	p.drawn.frame = lipgloss.JoinVertical(lipgloss.Left, lines...)
	return p.drawn.frame
}
