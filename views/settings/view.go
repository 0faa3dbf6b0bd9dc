package settings

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"charm.land/lipgloss/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// dnsShortNote stays under the custom DNS row.
const dnsShortNote = "on: your DNS; over peering, use private-IP connection strings"

// tierNote is why auditing may be missing on some clusters.
const tierNote = "Auditing runs on dedicated (M10+) clusters only: M0, M2, M5, flex and serverless clusters are not audited."

func (p *Pane) View() string {
	off := ""
	if p.Ctx.GroupID == "" {
		off = "no project selected (press @ or :project)"
	}
	// Each section says its own failure: only loading is the prologue's.
	if line, ok := (views.Prologue{Noun: "settings", Off: off, Loaded: p.loaded}).View(p.Ctx.Theme.Styles); ok {
		return line
	}
	w, h := max(p.W, 20), max(p.H, 4)
	switch p.Ctx.Layout {
	case views.LayoutWide:
		lw := w * 11 / 20
		return lipgloss.JoinHorizontal(lipgloss.Top, p.list(lw, h), p.detail(w-lw, h))
	case views.LayoutCompact:
		dh := min(max(8, h*2/5), h-6)
		return lipgloss.JoinVertical(lipgloss.Left, p.list(w, h-dh), p.detail(w, dh))
	}
	// Narrow: the list, and as much of the detail as fits under it.
	dh := min(6, max(0, h-12))
	if dh < 3 {
		return p.list(w, h)
	}
	return lipgloss.JoinVertical(lipgloss.Left, p.list(w, h-dh), p.detail(w, dh))
}

// list renders the three sections, the notice and the key hints, scrolled
// so the cursor row shows.
func (p *Pane) list(w, h int) string {
	st := p.Ctx.Theme.Styles
	s := components.Sanitize
	rows := p.rows()
	var lines []string
	cursorLine := 0
	add := func(r row, text string) {
		i := len(lines)
		sel := p.cursor < len(rows) && rows[p.cursor].id == r.id
		text = components.Truncate(text, w-2)
		if sel {
			cursorLine = i
			lines = append(lines, st.TableSelected.Render("▸ "+text))
			return
		}
		lines = append(lines, "  "+text)
	}
	heading := func(t string) { lines = append(lines, st.TableHeader.Render(components.Truncate(" "+t, w))) }
	narrow := p.Ctx.Layout == views.LayoutNarrow
	label := 34
	if narrow {
		label = 24
	}

	if p.Ctx.ClusterName != "" {
		// `:cluster` narrows the other panes; these settings are the project's.
		heading("AUDITING · project-wide settings: they apply to " + components.Sanitize(p.Ctx.ClusterName) + " and every cluster")
	} else {
		heading("AUDITING")
	}
	a := p.snap.Audit
	if a == nil {
		lines = append(lines, st.Muted.Render(components.Truncate("  "+unreadable(p.snap.AuditErr), w)))
	} else {
		add(row{id: rowAuditing}, padTo("Auditing", label)+onOff(a.Enabled))
		add(row{id: rowAuthSuccess}, padTo("Record successful authorizations", label)+onOff(a.AuditAuthorizationSuccess))
		filter := s(filterPreview(a.AuditFilter))
		switch {
		case p.snap.AuditDoc.TooLarge:
			filter = p.snap.AuditDoc.Summary("filter")
		case filter == "":
			filter = "(none)"
		}
		ftext := padTo("Filter", label) + s(string(a.ConfigurationType)) + " " + filter
		if p.draft != "" {
			ftext = padTo("Filter", label) + "unsaved draft (e to continue) · " + filter
		}
		add(row{id: rowFilter}, ftext)
	}

	heading("CUSTOM DNS FOR AWS")
	if p.snap.DNS == nil {
		lines = append(lines, st.Muted.Render(components.Truncate("  "+unreadable(p.snap.DNSErr), w)))
	} else {
		add(row{id: rowDNS}, padTo("Custom DNS", label)+onOff(p.snap.DNS.Enabled))
		lines = append(lines, st.Muted.Render(components.Truncate("  "+dnsShortNote, w)))
	}

	roles := p.roles()
	rolesHead := fmt.Sprintf("CLOUD PROVIDER ACCESS ROLES (%d)", len(roles))
	if p.snap.Roles != nil {
		if more := p.snap.Roles.ShowingFirst(); more != "" {
			rolesHead = fmt.Sprintf("CLOUD PROVIDER ACCESS ROLES (%d, %s)", len(roles), more)
		}
	}
	heading(rolesHead)
	switch {
	case p.snap.Roles == nil:
		lines = append(lines, st.Muted.Render(components.Truncate("  "+unreadable(p.snap.RolesErr), w)))
	case len(roles) == 0 && p.filter != "":
		lines = append(lines, st.Muted.Render(components.Truncate("  no access role matches the filter", w)))
	case len(roles) == 0:
		lines = append(lines, st.Muted.Render(components.Truncate("  no access roles: n creates one", w)))
	}
	idw := 25
	if narrow {
		idw = 12
	}
	for _, r := range roles {
		id := s(r.Key())
		if len(id) > idw-1 {
			id = "…" + id[len(id)-(idw-2):]
		}
		text := padTo(s(string(r.ProviderName)), 6) + padTo(id, idw) + padTo(roleStatus(*r), 15) + s(usageSummary(*r))
		add(row{id: roleRowID(r)}, text)
	}

	var foot []string
	if p.notice != "" {
		style := st.Muted
		if p.noticeErr {
			style = st.ErrorText
		}
		notice := wrap(s(p.notice), w-1)
		if len(notice) > 3 {
			notice = append(notice[:2], components.Truncate(strings.Join(notice[2:], " "), w-1))
		}
		for _, l := range notice {
			foot = append(foot, style.Render(" "+l))
		}
	}
	if hint := p.denied(); hint != "" {
		foot = append(foot, st.Disabled.Render(components.Truncate(" "+hint, w)))
	}

	body := max(1, h-len(foot))
	start := 0
	if cursorLine >= body {
		start = cursorLine - body + 1
	}
	end := min(len(lines), start+body)
	out := append(lines[start:end:end], foot...)
	return lipgloss.NewStyle().Width(w).Height(h).MaxHeight(h).Render(strings.Join(out, "\n"))
}

// denied says which of the pane's changes the caller may not make, and why.
func (p *Pane) denied() string {
	g := p.Ctx.Gate
	if g == nil {
		return ""
	}
	var keys []string
	reason := ""
	for _, a := range p.Actions() {
		if a.Op == "" {
			continue
		}
		if ok, why := g.Allowed(a.Op, p.Ctx.GroupID); !ok {
			keys = append(keys, a.Help().Key)
			if reason == "" {
				reason = why
			}
		}
	}
	if len(keys) == 0 {
		return ""
	}
	return strings.Join(keys, " ") + ": " + reason
}

// detail shows everything about the row under the cursor.
func (p *Pane) detail(w, h int) string {
	st := p.Ctx.Theme.Styles
	r, ok := p.row()
	var lines []string
	title := " Detail"
	if ok {
		switch {
		case r.role != nil:
			title = " Access role"
			lines = p.roleDetail(*r.role)
		case r.id == rowDNS:
			title = " Custom DNS for AWS"
			lines = p.dnsDetail()
		default:
			title = " Auditing"
			lines = p.auditDetail(r.id)
		}
	}
	out := []string{st.TableHeader.Render(components.Truncate(title, w))}
	for _, l := range lines {
		for _, wl := range wrap(l, w-2) {
			out = append(out, " "+wl)
		}
	}
	return lipgloss.NewStyle().Width(w).Height(h).MaxHeight(h).Render(strings.Join(out, "\n"))
}

func (p *Pane) auditDetail(id string) []string {
	s := components.Sanitize
	a := p.snap.Audit
	if a == nil {
		return []string{unreadable(p.snap.AuditErr)}
	}
	lines := []string{
		"state          " + onOff(a.Enabled),
		"configuration  " + s(string(a.ConfigurationType)),
		"successful authorizations  " + onOff(a.AuditAuthorizationSuccess),
	}
	if id == rowAuthSuccess || a.AuditAuthorizationSuccess {
		lines = append(lines, "⚠ "+perfWarning)
	}
	if p.draft != "" {
		note := "unsaved draft"
		if p.draftErr != "" {
			note += ": " + s(p.draftErr)
		}
		lines = append(lines, note+" (e reopens it)")
		for _, l := range strings.Split(p.draft, "\n") {
			lines = append(lines, "  "+s(l))
		}
	} else {
		lines = append(lines, "filter:")
		doc := p.snap.AuditDoc
		switch {
		case doc.TooLarge:
			lines = append(lines, "  "+doc.Summary("filter"))
		case doc.Pretty == "" && doc.Err != nil:
			lines = append(lines, "  "+s(doc.Err.Error()))
		default: // measured, indented and sanitized off the UI loop
			for _, l := range strings.Split(doc.Pretty, "\n") {
				lines = append(lines, "  "+l)
			}
		}
	}
	return append(lines, tierNote)
}

func (p *Pane) dnsDetail() []string {
	d := p.snap.DNS
	if d == nil {
		return []string{unreadable(p.snap.DNSErr)}
	}
	return []string{"state  " + onOff(d.Enabled), dnsNote, "Toggling it needs Project Owner."}
}

func (p *Pane) roleDetail(r apiclient.AccessRole) []string {
	s := components.Sanitize
	lines := []string{
		"provider   " + s(string(r.ProviderName)),
		"id         " + s(r.Key()),
		"status     " + roleStatus(r),
	}
	add := func(k, v string) {
		if v != "" {
			lines = append(lines, k+s(v))
		}
	}
	add("created    ", when(r.CreatedDate))
	switch r.ProviderName {
	case apiclient.ProviderAWS:
		add("Atlas AWS account ARN  ", r.AtlasAWSAccountARN)
		add("external id            ", r.AtlasAssumedRoleExternalID)
		add("IAM role ARN           ", r.IAMAssumedRoleARN)
		add("authorized             ", when(r.AuthorizedDate))
		if r.AuthorizedDate == nil {
			lines = append(lines, "Next: let your IAM role trust the account ARN above with this external id, then press z with its ARN.")
		}
	case apiclient.ProviderAzure:
		add("Atlas Azure app id     ", r.AtlasAzureAppID)
		add("service principal id   ", r.ServicePrincipalID)
		add("tenant id              ", r.TenantID)
		add("last updated           ", when(r.LastUpdatedDate))
	case apiclient.ProviderGCP:
		add("service account        ", r.GCPServiceAccountForAtlas)
	}
	if len(r.FeatureUsage) == 0 {
		lines = append(lines, "used by    nothing")
	}
	for _, u := range r.FeatureUsage {
		lines = append(lines, "used by    "+s(strings.TrimSpace(u.FeatureType+" "+usageName(u))))
	}
	if bucket, used := exportUse(r); used {
		lines = append(lines, "Export bucket "+s(bucket)+" uses this role: delete the bucket before deauthorizing it.")
	}
	return lines
}

func when(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// unreadable says why a section could not be read: a role the caller lacks
// reads better than a raw 403.
func unreadable(err error) string {
	if err == nil {
		return "not loaded"
	}
	var denied *apiclient.DeniedError
	if errors.As(err, &denied) || apiclient.IsForbidden(err) {
		return "not readable with your roles: " + components.Sanitize(views.ErrText(err))
	}
	return components.Sanitize(views.ErrText(err))
}

func padTo(s string, w int) string {
	s = components.Truncate(s, w-1)
	if n := w - lipgloss.Width(s); n > 0 {
		return s + strings.Repeat(" ", n)
	}
	return s
}

// wrap breaks a line at spaces into lines of at most w cells; long words
// are cut.
func wrap(s string, w int) []string {
	if w <= 4 || lipgloss.Width(s) <= w {
		return []string{components.Truncate(s, max(w, 1))}
	}
	indent := s[:len(s)-len(strings.TrimLeft(s, " "))]
	var out []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = indent + word
		case lipgloss.Width(line)+1+lipgloss.Width(word) <= w:
			line += " " + word
		default:
			out = append(out, components.Truncate(line, w))
			line = indent + word
		}
	}
	return append(out, components.Truncate(line, w))
}

// filterPreview is the start of a filter for its one-line row: the row
// shows a screen's width at most, so a huge filter is not cleaned whole
// every frame.
func filterPreview(f string) string {
	const n = 512
	if len(f) <= n {
		return f
	}
	i := n
	for i > 0 && !utf8.RuneStart(f[i]) {
		i--
	}
	return f[:i]
}
