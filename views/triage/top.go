package triage

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
)

// What the pane shows over the table: the counts, the coverage line and
// the outcomes of the last acknowledgement, wrapped to the pane's width.

// coverage is the line over the board: how many projects answered each
// part, how many are not visible, and how fresh each part is.
func (p *Pane) coverage() string { return strings.Join(p.coverageParts(), " · ") }

// coverageParts are the coverage line's parts, where it may wrap.
func (p *Pane) coverageParts() []string {
	if p.projErr != nil {
		return []string{"triage: " + p.projErr.Error()}
	}
	if p.projects == nil {
		return []string{"listing organizations and projects…"}
	}
	c := p.coverageCounts()
	// Ages count the user's seconds, as the header's do (the demo's world
	// runs faster than the wall clock).
	now := p.Ctx.WallNow()
	// part says, for one part, how many projects answered, how old the
	// oldest answer is, and which failed: their rows are the last good
	// read's, stale, with the error.
	part := func(name string, k partCount) string {
		s := fmt.Sprintf("%s %d/%d", name, k.done, c.n-c.hid)
		if !k.oldest.IsZero() {
			s += " (" + components.Age(now.Sub(k.oldest)) + " ago)"
		}
		if k.stale > 0 {
			s += fmt.Sprintf(", %d stale (%s)", k.stale, k.firstErr)
		}
		if k.capped > 0 {
			// A project whose list reached the row cap: its rows are the
			// first apiclient.MaxRows, there may be more.
			s += ", " + components.Sanitize(k.firstCapped) + ": " + apiclient.ShowingFirst(apiclient.MaxRows)
			switch k.capped {
			case 1:
			case 2:
				s += " (and 1 more project)"
			default:
				s += fmt.Sprintf(" (and %d more projects)", k.capped-1)
			}
		}
		return s
	}
	first := fmt.Sprintf("%d of %d projects", c.seen, c.n-c.hid)
	if len(p.Ctx.TriageOrgs)+len(p.Ctx.TriageProjects) > 0 {
		first += " (narrowed by the profile)"
	}
	parts := []string{first}
	if len(p.unmatched) > 0 {
		parts = append(parts, "profile: "+strings.Join(p.unmatched, ", ")+" matches nothing")
	}
	parts = append(parts, part("alerts", c.alerts), part("clusters/backups/search", c.rest))
	if p.Ctx.TriageAuthBursts > 0 {
		auth := part("auth bursts", c.auth)
		if c.denied > 0 {
			auth += fmt.Sprintf(", logs of %d clusters not visible (role)", c.denied)
		}
		parts = append(parts, auth)
	}
	if c.hid > 0 {
		parts = append(parts, fmt.Sprintf("%d not visible (role)", c.hid))
	}
	return append(parts, "migrations: this session's only (the API lists none)")
}

// Over the board, each wraps onto at most this many lines (the last cut,
// ending in "…", only when that is not enough).
const (
	headLines     = 2
	coverageLines = 4
)

// top is what the pane shows over the table, at its width: the counts,
// the coverage line and the outcomes of the last acknowledgement. Each
// wraps between its parts rather than being cut, so that no fact is lost
// at 80 columns.
func (p *Pane) topLines() []string {
	w := max(p.W, 1)
	counts, total := p.b.counts, p.b.total()
	head := []string{fmt.Sprintf("Triage · %d need a human", total)}
	for _, k := range Kinds {
		if counts[k] > 0 {
			head = append(head, fmt.Sprintf("%d %s", counts[k], k))
		}
	}
	if len(head) > 1 {
		head = append([]string{head[0] + ": " + head[1]}, head[2:]...)
	}
	lines := wrapParts(head, ", ", w, headLines)
	covMax := coverageLines
	if p.H < 16 {
		covMax = 2 // a short terminal keeps room for the rows
	}
	lines = append(lines, wrapParts(p.coverageParts(), " · ", w, covMax)...)
	if len(p.results) > 0 {
		lines = append(lines, wrapParts(strings.Split(p.resultsHead, " · "), " · ", w, 2)...)
		lines = append(lines, p.outcomeLines(w, max(p.H/3-1, 1))...)
	}
	if len(lines) >= p.H && p.H > 1 {
		// Never more than the pane: the table keeps a line.
		lines = lines[:p.H-1]
		lines[len(lines)-1] = cutOff(lines[len(lines)-1], w)
	}
	return lines
}

// outcomeLines are the outcomes of the last acknowledgement in at most n
// lines, each row's whole outcome wrapped under its mark; the rows that
// do not fit are counted on the last line.
func (p *Pane) outcomeLines(w, n int) []string {
	rows := make([][]string, len(p.results))
	total := 0
	for i, r := range p.results {
		rows[i] = hang(r, w)
		total += len(rows[i])
	}
	if total <= n {
		var out []string
		for _, r := range rows {
			out = append(out, r...)
		}
		return out
	}
	var out []string
	shown := 0
	for _, r := range rows {
		if len(out)+len(r) > n-1 {
			break
		}
		out = append(out, r...)
		shown++
	}
	if shown == 0 && n > 1 {
		// Not even one row whole: what fits of the first.
		out = append(rows[0][:n-2], cutOff(rows[0][n-2], w))
		shown = 1
	}
	return append(out, components.Truncate(fmt.Sprintf("  … and %d more", len(p.results)-shown), w))
}

// hang wraps one outcome to w cells: "  " before its first line, "    "
// before the others.
func hang(s string, w int) []string {
	s = components.Sanitize(s)
	first := strings.Split(ansi.Wrap(s, max(w-2, 1), ""), "\n")
	out := []string{"  " + first[0]}
	if len(first) == 1 {
		return out
	}
	rest := strings.Join(first[1:], " ")
	for _, l := range strings.Split(ansi.Wrap(rest, max(w-4, 1), ""), "\n") {
		out = append(out, "    "+l)
	}
	return out
}

// wrapParts lays parts out in lines of at most w cells, sep between two
// parts: a line breaks between parts (ending in the separator, "," or
// " ·", when it fits, so that it reads as going on), and within a part
// only when the part alone is wider than a line. Past most lines, the
// last is cut, ending in "…".
func wrapParts(parts []string, sep string, w, most int) []string {
	var lines []string
	cur := ""
	end := strings.TrimRight(sep, " ")
	for _, part := range parts {
		part = components.Sanitize(part)
		switch {
		case cur != "" && components.Width(cur+sep+part) <= w:
			cur += sep + part
		case components.Width(part) > w:
			// Wider than a line wherever it starts: it goes on from
			// the line so far, broken between words.
			if cur != "" {
				part = cur + sep + part
			}
			wrapped := strings.Split(ansi.Wrap(part, w, ""), "\n")
			lines = append(lines, wrapped[:len(wrapped)-1]...)
			cur = wrapped[len(wrapped)-1]
		default:
			if cur != "" {
				if components.Width(cur+end) <= w {
					cur += end
				}
				lines = append(lines, cur)
			}
			cur = part
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	if most > 0 && len(lines) > most {
		lines = append(lines[:most-1], cutOff(lines[most-1], w))
	}
	return lines
}

// cutOff marks a line whose continuation is left out: it ends in "…".
func cutOff(line string, w int) string {
	line = strings.TrimRight(line, " ·,") // a break's separator
	if strings.HasSuffix(line, "…") {
		return line
	}
	if line = components.Truncate(line, max(w-1, 0)); strings.HasSuffix(line, "…") {
		return line
	}
	return line + "…"
}
