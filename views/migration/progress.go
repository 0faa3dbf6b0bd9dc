package migration

import (
	"fmt"
	"strings"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

func (p *Pane) progressView(w int) []string {
	st := p.Ctx.Theme.Styles
	j := p.job
	lost := p.lostFor(p.Ctx.GroupID, "")
	if j == nil && lost != nil {
		return append([]string{components.Truncate(" The start of "+components.Sanitize(lost.label())+" was sent; its outcome is unknown:", w), ""},
			p.lostLines(w, lost)...)
	}
	if j == nil {
		return []string{components.Truncate(" "+st.Muted.Render("No migration started in this session: set it up in steps 1-4, then "+p.keyName(actStart)+" starts it."), w)}
	}
	s := components.Sanitize
	now := p.Ctx.Now()
	statusStyle := st.Class(string(j.status()))
	switch j.status() {
	case apiclient.MigrationWorking, apiclient.MigrationNew:
		statusStyle = st.StateRunning
	case apiclient.MigrationComplete:
		statusStyle = st.StateOK
	case apiclient.MigrationFailed, apiclient.MigrationExpired:
		statusStyle = st.StateFailed
	}
	half := max((w-2)/2, 24)
	pair := func(k1, v1, k2, v2 string) string {
		left := padRight(p.kv(half, k1, v1), half)
		return components.Truncate(left+strings.TrimPrefix(p.kv(w-half, k2, v2), ""), w)
	}
	lines := []string{
		components.Truncate(" "+st.DialogTitle.Render("Live migration "+s(j.id))+"  "+s(j.source)+" ("+s(j.sourceProject)+") → "+s(j.dest), w),
		"",
		pair("Status", statusStyle.Render(s(string(j.status()))), "Phase", j.phase()),
		pair("Lag", j.lagText(), "Elapsed", formatElapsed(j.elapsed(now))),
		p.kv(w, "Ready", p.readiness(now)),
		p.kv(w, "Hosts", s(strings.Join(j.last.MigrationHosts, ", "))),
	}
	if len(j.last.SkippedTimeSeriesCollections) > 0 {
		lines = append(lines, p.kv(w, "Skipped", s(strings.Join(j.last.SkippedTimeSeriesCollections, ", "))+st.Muted.Render(" (time-series, not migrated on 6.0+)")))
	}
	if j.pollErr != nil {
		lines = append(lines, p.kv(w, "Last poll", st.ErrorText.Render(views.ErrText(j.pollErr))))
	}
	if lost != nil {
		lines = append(lines, p.kv(w, "Lost start", st.SeverityWarning.Render(outcomeUnknown)+": "+s(lost.label())+" at "+
			lost.at.UTC().Format("15:04:05")+"; that migration may be running too (it cannot be checked)"))
	}
	lines = append(lines, "", components.Truncate(" "+st.FieldLabel.Render("Lag over time")+st.Muted.Render(fmt.Sprintf(" (%d samples, one per poll)", len(j.lags))), w))
	lines = append(lines, p.sparkline(w)...)
	return lines
}

// readiness says whether the cut-over may start, and what it is waiting for.
func (p *Pane) readiness(now time.Time) string {
	st := p.Ctx.Theme.Styles
	j := p.job
	switch {
	case j.status() == apiclient.MigrationComplete && j.cutoverAt != nil:
		return st.StateOK.Render("cut over") + fmt.Sprintf(": complete in %s; %s is the primary copy", formatElapsed(j.completedAt.Sub(*j.cutoverAt)), components.Sanitize(j.dest))
	case j.status() == apiclient.MigrationComplete:
		return st.StateOK.Render("complete")
	case j.status() == apiclient.MigrationExpired:
		return st.StateFailed.Render("expired") + ": no cut-over within 120 hours of readiness"
	case j.status() == apiclient.MigrationFailed:
		return st.StateFailed.Render("failed") + ": v checks the request again to see why"
	case j.cutoverAt != nil:
		return st.StateRunning.Render("cutting over") + " since " + j.cutoverAt.UTC().Format("15:04:05") +
			fmt.Sprintf(" (%s): synchronization with the source stopped", formatElapsed(now.Sub(*j.cutoverAt)))
	case j.last.ReadyForCutover:
		left := 120*time.Hour - now.Sub(j.readyAt)
		return st.StateOK.Render("YES") + ": C cuts over (within " + formatElapsed(left) + ", or it expires)"
	}
	return "not yet: C unlocks when the destination has caught up (readyForCutover)"
}

var sparkRunes = []rune("▁▂▃▄▅▆▇█")

// sparkline draws the last samples that fit, scaled to the largest lag
// shown, with the scale on the left.
func (p *Pane) sparkline(w int) []string {
	st := p.Ctx.Theme.Styles
	j := p.job
	if len(j.lags) == 0 {
		return []string{components.Truncate(" "+st.Muted.Render("no lag reported yet"), w)}
	}
	label := 8
	room := max(w-label-3, 4)
	samples := j.lags
	if len(samples) > room {
		samples = samples[len(samples)-room:]
	}
	var top int64 = 1
	for _, s := range samples {
		top = max(top, s.lag)
	}
	var b strings.Builder
	for _, s := range samples {
		i := int(s.lag * int64(len(sparkRunes)-1) / top)
		b.WriteRune(sparkRunes[clamp(i, 0, len(sparkRunes)-1)])
	}
	return []string{
		components.Truncate(" "+padLeft(bigLagShort(top), label)+" ┤"+b.String(), w),
		components.Truncate(" "+padLeft("0 s", label)+" ┴"+strings.Repeat("─", len(samples)), w),
	}
}
