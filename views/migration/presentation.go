package migration

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dbadmin-tui/dbadmin-tui/components"
)

func bigLagShort(sec int64) string { return formatLag(sec) }

// presentationView shows status, lag and readiness in large type. When the
// large type does not fit the height, the blank lines between the values
// go first, then the large type (plain text); the caption (what, and how
// to leave) wraps onto more lines and ends the view, cut to one line only
// when even the plainest form leaves no room for it.
func (p *Pane) presentationView(w, h int) string {
	st := p.Ctx.Theme.Styles
	if hl := p.Health(); hl.Stale() && len(hl.Parts) == 0 && h > 1 {
		h-- // the root's stale line covers the last row
	}
	var status, lag, ready, caption string
	lost := p.lostFor(p.Ctx.GroupID, "")
	switch {
	case p.job == nil && lost != nil:
		status, lag, ready = "UNKNOWN", "—", ""
		caption = "start of " + components.Sanitize(lost.label()) + " " + outcomeUnknown + ": a migration may be running"
	case p.job == nil:
		status, lag, ready = "IDLE", "—", ""
		caption = "no migration started in this session"
	default:
		j := p.job
		status = string(j.status())
		if j.cutoverAt != nil && !j.done() {
			status = "CUTOVER"
		}
		lag = "—"
		if j.last.LagTimeSeconds != nil {
			lag = bigLag(*j.last.LagTimeSeconds)
		}
		switch {
		case j.done(), status == "CUTOVER":
			// Cut-over asked: STATUS says so; readiness is past (the
			// service may report it false meanwhile, which read as
			// "SYNCING" under "READY FOR CUT-OVER").
			ready = ""
		case j.last.ReadyForCutover:
			ready = "READY"
		default:
			ready = "SYNCING"
		}
		caption = components.Sanitize(j.label()) + " · " + j.phase() + " · elapsed " + formatElapsed(j.elapsed(p.Ctx.Now()))
	}
	full, short := p.captionLines(caption, w)

	statusStyle := st.StateRunning
	switch status {
	case "COMPLETE":
		statusStyle = st.StateOK
	case "FAILED", "EXPIRED", "UNKNOWN":
		statusStyle = st.StateFailed
	}
	blocks := []bigBlock{{"STATUS", status, statusStyle}, {"LAG", lag, lipgloss.NewStyle()}}
	if ready != "" {
		readyStyle := st.StateRunning
		if ready == "READY" {
			readyStyle = st.StateOK
		}
		blocks = append(blocks, bigBlock{"READY FOR CUT-OVER", ready, readyStyle})
	}
	// The whole caption comes before large type: it says what is known.
	var lines []string
	capLines := short
	for _, fit := range []struct{ big, gaps bool }{{true, true}, {true, false}, {false, true}, {false, false}} {
		lines = p.presentationLines(blocks, w, fit.big, fit.gaps)
		if len(lines)+len(full) <= h {
			capLines = full
			break
		}
	}
	// Smaller than the plainest form with the whole caption: the caption
	// on one line, cut, with how to leave, still shows.
	lines = lines[:min(len(lines), max(h-len(capLines), 0))]
	lines = append(lines, capLines...)
	for i := range lines {
		lines[i] = components.Truncate(lines[i], w)
	}
	return strings.Join(lines, "\n")
}

// captionLines are the caption wrapped to w, how to leave ("· P leaves")
// at the end of the last line and never split, and the same on one line,
// cut to fit, for a screen too short for the whole.
func (p *Pane) captionLines(caption string, w int) (full, short []string) {
	st := p.Ctx.Theme.Styles
	leave := "· " + p.keyName(actPresentation) + " leaves"
	room := max(w-1, 1)
	words := wrapText(caption, room)
	if n := len(words); n > 0 && ansi.StringWidth(words[n-1])+1+ansi.StringWidth(leave) <= room {
		words[n-1] += " " + leave
	} else {
		words = append(words, leave)
	}
	for _, l := range words {
		full = append(full, " "+st.Muted.Render(l))
	}
	one := components.Truncate(caption, max(room-1-ansi.StringWidth(leave), 1)) + " " + leave
	return full, []string{" " + st.Muted.Render(one)}
}

// bigBlock is one value of presentation mode.
type bigBlock struct {
	label, text string
	style       lipgloss.Style
}

// presentationLines draws the blocks without the caption: in large type
// when big (a value too wide for w is plain), with a blank line before
// each block and before the caption when gaps.
func (p *Pane) presentationLines(blocks []bigBlock, w int, big, gaps bool) []string {
	st := p.Ctx.Theme.Styles
	var lines []string
	for _, b := range blocks {
		if gaps {
			lines = append(lines, "")
		}
		lines = append(lines, " "+st.Muted.Render(b.label))
		if !big || bigWidth(b.text)+2 > w {
			lines = append(lines, "  "+b.style.Render(b.text))
			continue
		}
		for _, r := range bigText(b.text) {
			lines = append(lines, "  "+b.style.Render(r))
		}
	}
	if gaps {
		lines = append(lines, "")
	}
	return lines
}
