package migration

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

func (p *Pane) View() string {
	w, h := max(p.W, 20), max(p.H, 4)
	if p.presentation {
		return p.presentationView(w, h)
	}
	st := p.Ctx.Theme.Styles
	body := p.stepBody(w)
	var foot []string
	if p.notice != "" {
		style := st.Muted
		if p.noticeErr {
			style = st.ErrorText
		}
		// Whole when the step's lines leave room, else cut to one line.
		lines := wrapText(p.notice, w-1)
		if len(body)+2+len(lines)+1 > h {
			lines = []string{components.Truncate(p.notice, w-1)}
		}
		for _, l := range lines {
			foot = append(foot, style.Render(components.Truncate(" "+l, w)))
		}
	}
	foot = append(foot, st.Muted.Render(components.Truncate(" "+p.hints(), w)))
	head := []string{p.breadcrumb(w), st.Muted.Render(strings.Repeat("─", w))}
	room := max(h-len(head)-len(foot), 0)
	if len(body) > room {
		body = body[:room]
	}
	for len(body) < room {
		body = append(body, "")
	}
	lines := append(append(head, body...), foot...)
	if len(lines) > h {
		lines = lines[:h]
	}
	return strings.Join(lines, "\n")
}

// breadcrumb shows the steps with the current one highlighted.
func (p *Pane) breadcrumb(w int) string {
	st := p.Ctx.Theme.Styles
	parts := make([]string, 0, 5)
	for s := stepToken; s <= stepProgress; s++ {
		label := fmt.Sprintf("%d %s", int(s)+1, s.title())
		if p.stepDone(s) {
			label += " ✓"
		}
		if s == p.step {
			parts = append(parts, st.TabActive.Render(label))
		} else {
			parts = append(parts, st.TabInactive.Render(label))
		}
	}
	return components.Truncate(" "+strings.Join(parts, st.BreadcrumbSep.Render(" › ")), w)
}

func (p *Pane) stepDone(s step) bool {
	switch s {
	case stepToken:
		return p.token.value != "" || p.token.hidden || len(p.sources) > 0
	case stepSource:
		return p.draft.source != nil
	case stepDestination:
		return p.draft.dest != nil
	case stepOptions:
		return p.validation != nil && p.validation.v.Status == apiclient.ValidationSuccess
	case stepProgress:
		return p.job != nil && p.job.status() == apiclient.MigrationComplete
	}
	return false
}

// hints lists the keys that work now; actions the gate or read-only mode
// refuse are left out.
func (p *Pane) hints() string {
	var out []string
	switch p.step {
	case stepSource:
		if len(p.sources) > 1 {
			out = append(out, "↑/↓ move")
		}
		if _, ok := p.currentSource(); ok {
			out = append(out, "enter pick")
		}
	case stepDestination:
		if len(p.clusters) > 1 {
			out = append(out, "↑/↓ move")
		}
		if c, ok := p.currentCluster(); ok && p.draft.destWhy(c) == "" {
			out = append(out, "enter pick")
		}
	case stepToken:
		out = append(out, "enter next")
	}
	switch p.step {
	case stepToken:
		out = append(out, "→ step")
	case stepProgress:
		out = append(out, "← step")
	default:
		out = append(out, "←/→ step")
	}
	for _, a := range p.Actions() {
		if !a.Enabled() {
			continue
		}
		h := a.Help()
		desc := h.Desc
		if short, ok := shortHints[a.Name]; ok {
			desc = short
		}
		out = append(out, h.Key+" "+desc)
	}
	return strings.Join(out, " · ")
}

// shortHints keep the hint line within 100 columns; help (?) has the long
// descriptions.
var shortHints = map[string]string{
	actLinkToken: "token", actValidate: "check", actStart: "start", actCutover: "cut over",
	actPresentation: "present", actDrop: "drop dest.", actStartAnother: "start another",
}

func (p *Pane) stepBody(w int) []string {
	switch p.step {
	case stepToken:
		return p.tokenView(w)
	case stepSource:
		return p.sourceView(w)
	case stepDestination:
		return p.destView(w)
	case stepOptions:
		return p.optionsView(w)
	}
	return p.progressView(w)
}

func (p *Pane) kv(w int, key, value string) string {
	st := p.Ctx.Theme.Styles
	return components.Truncate(" "+st.FieldLabel.Render(padRight(key, 14))+" "+value, w)
}

func (p *Pane) tokenView(w int) []string {
	st := p.Ctx.Theme.Styles
	s := components.Sanitize
	lines := []string{
		components.Truncate(" The source organization links itself to "+s(p.Ctx.OrgName)+" with a link token made here.", w),
		"",
	}
	t := p.token
	switch {
	case t.value != "":
		lines = append(lines,
			p.kv(w, "Link token", st.StateOK.Render(t.value)),
			p.kv(w, "Created", t.createdAt.UTC().Format("2006-01-02 15:04:05 UTC")+" · access list "+ipList(t.ips)),
			"",
			components.Truncate(" "+st.SeverityWarning.Render("Shown once: y copies it now. It is forgotten when you leave this step."), w))
	case t.hidden:
		lines = append(lines,
			p.kv(w, "Link token", st.Muted.Render("created "+t.createdAt.UTC().Format("15:04:05 UTC")+", shown once and no longer kept")),
			components.Truncate(" If it was lost, l makes a new one (the old one stops working).", w))
	case !t.deletedAt.IsZero():
		lines = append(lines, p.kv(w, "Link token", "deleted at "+t.deletedAt.UTC().Format("15:04:05 UTC")+"; the source organization is unlinked"))
	default:
		lines = append(lines, p.kv(w, "Link token", st.Muted.Render("none made in this session: l creates one (or deletes the org's token)")))
	}
	lines = append(lines, "")
	switch {
	case !p.sourcesLoaded:
		lines = append(lines, p.kv(w, "Linked sources", st.Muted.Render("loading…")))
	case p.sourcesErr != nil:
		lines = append(lines, p.kv(w, "Linked sources", st.ErrorText.Render(views.ErrText(p.sourcesErr))))
	default:
		projects := map[string]bool{}
		for _, r := range p.sources {
			projects[r.project.ProjectID] = true
		}
		lines = append(lines, p.kv(w, "Linked sources", fmt.Sprintf("%d projects, %d deployments available (enter: pick one)", len(projects), len(p.sources))))
	}
	return lines
}

func ipList(ips []string) string {
	if len(ips) == 0 {
		return "none"
	}
	return components.Sanitize(strings.Join(ips, ", "))
}

// column is one column of a step's list.
type column struct {
	title string
	width int
}

func (p *Pane) table(w int, cols []column, rows [][]string, cursor int, empty string) []string {
	return p.tableGreyed(w, cols, rows, cursor, empty, nil)
}

// tableGreyed draws a table whose rows for which greyed is true are shown
// disabled (they cannot be picked).
func (p *Pane) tableGreyed(w int, cols []column, rows [][]string, cursor int, empty string, greyed func(int) bool) []string {
	st := p.Ctx.Theme.Styles
	var head strings.Builder
	head.WriteString("   ")
	for _, c := range cols {
		head.WriteString(padRight(c.title, c.width) + " ")
	}
	lines := []string{st.TableHeader.Render(components.Truncate(head.String(), w))}
	if len(rows) == 0 {
		return append(lines, components.Truncate(" "+st.Muted.Render(empty), w))
	}
	for i, r := range rows {
		var b strings.Builder
		mark := "   "
		if i == cursor {
			mark = " ▸ "
		}
		b.WriteString(mark)
		for j, c := range cols {
			b.WriteString(padRight(components.Truncate(components.Sanitize(r[j]), c.width), c.width) + " ")
		}
		line := components.Truncate(b.String(), w)
		switch {
		case i == cursor:
			line = st.TableSelected.Render(padRight(line, w))
		case greyed != nil && greyed(i):
			line = st.Disabled.Render(line)
		}
		lines = append(lines, line)
	}
	return lines
}

func (p *Pane) sourceView(w int) []string {
	st := p.Ctx.Theme.Styles
	lines := []string{components.Truncate(" Pick the deployment to migrate, from the projects linked to "+components.Sanitize(p.Ctx.OrgName)+":", w), ""}
	if line, ok := (views.Prologue{Noun: "source projects", Loaded: p.sourcesLoaded && p.sourcesErr == nil,
		Err: p.sourcesErr}).View(st); ok {
		return append(lines, components.Truncate(" "+line, w))
	}
	cols := []column{{"PROJECT", 18}, {"DEPLOYMENT", 14}, {"VERSION", 8}, {"SIZE", 9}, {"TOPOLOGY", 12}, {"TLS", 3}, {"MANAGED", 7}}
	rows := make([][]string, len(p.sources))
	for i, r := range p.sources {
		topo := "replica set"
		if r.dep.Sharded {
			topo = fmt.Sprintf("sharded (%d)", r.dep.ShardsSize)
		}
		rows[i] = []string{r.project.Name, r.dep.Name, r.dep.MongoDBVersion, humanBytes(r.dep.DBSizeBytes), topo, yesNo(r.dep.TLSEnabled), yesNo(r.dep.Managed)}
	}
	lines = append(lines, p.table(w, cols, rows, p.srcCursor, "no projects are available: the source organization links itself with a link token (l), then r reloads")...)
	if r, ok := p.currentSource(); ok {
		lines = append(lines, "", p.kv(w, "Migration hosts", components.Sanitize(strings.Join(r.project.MigrationHosts, ", "))),
			p.kv(w, "Agent", components.Sanitize(r.dep.AgentVersion)+" · FCV "+components.Sanitize(r.dep.FeatureCompatibilityVersion)+
				fmt.Sprintf(" · oplog %d MB", r.dep.OplogSizeMB)))
	}
	return lines
}

func (p *Pane) destView(w int) []string {
	st := p.Ctx.Theme.Styles
	lines := []string{components.Truncate(" Pick the destination cluster in "+components.Sanitize(p.Ctx.ProjectName)+":", w), ""}
	off := ""
	if p.Ctx.GroupID == "" {
		off = "no project selected (press @)"
	}
	if line, ok := (views.Prologue{Noun: "clusters", Off: off, Loaded: p.clustersLoaded && p.clustersErr == nil,
		Err: p.clustersErr}).View(st); ok {
		return append(lines, components.Truncate(" "+line, w))
	}
	cols := []column{{"CLUSTER", 20}, {"TYPE", 10}, {"TIER", 5}, {"VERSION", 8}, {"STATE", 9}}
	rows := make([][]string, len(p.clusters))
	why := make([]string, len(p.clusters))
	for i, c := range p.clusters {
		rows[i] = []string{c.Name, string(c.ClusterType), c.InstanceSize(), c.MongoDBVersion, string(c.StateName)}
		why[i] = p.draft.destWhy(c)
		if why[i] != "" {
			rows[i] = append(rows[i], "✗ "+why[i])
		}
	}
	if slices.ContainsFunc(why, func(s string) bool { return s != "" }) {
		used := 3
		for _, c := range cols {
			used += c.width + 1
		}
		cols = append(cols, column{"CANNOT RECEIVE IT", max(w-used-1, 16)})
		for i := range rows {
			if len(rows[i]) < len(cols) {
				rows[i] = append(rows[i], "")
			}
		}
	}
	lines = append(lines, p.tableGreyed(w, cols, rows, p.dstCursor, "no dedicated (M10+) cluster in this project", func(i int) bool { return why[i] != "" })...)
	if c, ok := p.currentCluster(); ok && why[p.dstCursor] != "" {
		lines = append(lines, components.Truncate(" "+st.ErrorText.Render("✗ "+components.Sanitize(c.Name)+" cannot be picked: "+why[p.dstCursor]), w))
	}
	if p.clustersHidden > 0 {
		lines = append(lines, "", components.Truncate(" "+st.Muted.Render(fmt.Sprintf("%d shared-tier, flex or serverless clusters are not listed: a migration needs a dedicated cluster.", p.clustersHidden)), w))
	}
	if src := p.draft.source; src != nil {
		lines = append(lines, components.Truncate(" "+st.Muted.Render("Source: "+components.Sanitize(src.dep.Name)+" on MongoDB "+components.Sanitize(src.dep.MongoDBVersion)+
			": the destination needs the same or a newer version."), w))
	}
	return lines
}

func (p *Pane) optionsView(w int) []string {
	st := p.Ctx.Theme.Styles
	s := components.Sanitize
	d := p.draft
	if why := d.missing(); why != "" {
		return []string{components.Truncate(" "+st.Muted.Render(why), w)}
	}
	src := d.source
	topo := "replica set"
	if src.dep.Sharded {
		topo = "sharded"
	}
	lines := []string{
		p.kv(w, "Source", s(src.dep.Name)+" ("+s(src.project.Name)+") · "+s(src.dep.MongoDBVersion)+" · "+humanBytes(src.dep.DBSizeBytes)+" · "+topo),
		p.kv(w, "Destination", s(d.dest.Name)+" ("+s(p.Ctx.ProjectName)+") · "+s(string(d.dest.ClusterType))+" · "+s(d.dest.MongoDBVersion)),
		p.kv(w, "Migration host", orDash(s(d.host))),
	}
	auth := "managed by automation"
	if !d.managedAuth {
		auth = "SCRAM as " + s(d.username)
		if d.password != "" {
			auth += " (password set)"
		}
	}
	lines = append(lines, p.kv(w, "Authentication", auth), p.kv(w, "TLS", onOff(d.ssl)), p.kv(w, "Reach over", string(d.hostnameSchema)))
	if d.destSharded() {
		sh := "none: collections land unsharded"
		if strings.TrimSpace(d.sharding) != "" {
			sh = s(d.sharding)
		}
		lines = append(lines, p.kv(w, "Sharding", sh))
	}
	if d.drop {
		lines = append(lines, p.kv(w, "Drop dest.", st.StateFailed.Render("ON: collections on "+s(d.dest.Name)+" are dropped before copying")))
	} else {
		lines = append(lines, p.kv(w, "Drop dest.", "off ("+p.dropHint()+")"))
	}
	lines = append(lines, "")
	v := p.validation
	switch {
	case !d.optionsSet:
		lines = append(lines, p.kv(w, "Check", st.Muted.Render("not run: v opens the options and checks credentials, disk space and versions")))
	case v == nil:
		lines = append(lines, p.kv(w, "Check", st.Muted.Render("not run for these options: v checks again")))
	case v.v.Status == apiclient.ValidationPending:
		lines = append(lines, p.kv(w, "Check", st.StateRunning.Render("PENDING")+" since "+v.at.UTC().Format("15:04:05")+" · id "+s(v.v.ID)))
	case v.v.Status == apiclient.ValidationSuccess:
		text := ": credentials, disk space and versions confirmed"
		if p.startBlocked(false) == "" {
			text += "; " + p.keyName(actStart) + " starts the migration"
		}
		lines = append(lines, p.kv(w, "Check", st.StateOK.Render("SUCCESS")+text))
	default:
		lines = append(lines, p.kv(w, "Check", st.StateFailed.Render(s(string(v.v.Status)))))
		for _, l := range wrapText(s(v.v.ErrorMessage), w-17) {
			lines = append(lines, components.Truncate(strings.Repeat(" ", 16)+st.ErrorText.Render(l), w))
		}
	}
	// Under the check, above the note: the note goes first on a short
	// screen.
	if l := p.lostHere(); l != nil {
		lines = append(lines, p.lostLines(w, l)...)
	}
	lines = append(lines, components.Truncate(" "+st.Muted.Render("On MongoDB 6.0 or later, time-series collections of the source are skipped."), w))
	return lines
}

// lostLines say what is known of a start whose answer was lost: that it
// was sent, that a migration may be running, why that cannot be checked
// and what starting again takes.
func (p *Pane) lostLines(w int, l *lostStart) []string {
	st := p.Ctx.Theme.Styles
	s := components.Sanitize
	text := outcomeUnknown + " at " + l.at.UTC().Format("15:04:05 UTC") + " (" + l.how + "). A migration " + s(l.label()) +
		" may be running into " + s(l.dest) + "; it cannot be checked: the API has no list of live migrations and the lost " +
		"answer held its id. " + p.keyName(actStart) + " is off for " + s(l.dest) + "; " + p.keyName(actStartAnother) +
		" starts another after you type its name: a second migration may result."
	var lines []string
	for i, t := range wrapText(text, w-17) {
		if i == 0 {
			lines = append(lines, p.kv(w, "Start", st.SeverityWarning.Render(t)))
			continue
		}
		lines = append(lines, components.Truncate(strings.Repeat(" ", 16)+st.SeverityWarning.Render(t), w))
	}
	return lines
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<40:
		return fmt.Sprintf("%.1f TiB", float64(n)/(1<<40))
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n > 0:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return "—"
}

func padRight(s string, w int) string {
	if d := w - ansi.StringWidth(s); d > 0 {
		return s + strings.Repeat(" ", d)
	}
	return s
}

func padLeft(s string, w int) string {
	if d := w - ansi.StringWidth(s); d > 0 {
		return strings.Repeat(" ", d) + s
	}
	return s
}

// wrapText breaks plain text into lines of at most w cells.
func wrapText(s string, w int) []string {
	if w < 10 {
		w = 10
	}
	var out []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case ansi.StringWidth(line)+1+ansi.StringWidth(word) <= w:
			line += " " + word
		default:
			out = append(out, line)
			line = word
		}
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}
