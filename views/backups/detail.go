package backups

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
)

// opened is the snapshot or restore job `enter` opened: the view it is in
// and its id. The detail shows every field of it as last loaded, wrapped to
// the width (a download URL is never cut), and scrolls with the keys.
type opened struct {
	View view
	ID   string
}

// openDetail opens the row under the cursor of the view on screen, if it
// is a snapshot or a restore job; it reports whether it did.
func (p *Pane) openDetail() bool {
	switch p.view {
	case viewSnapshots:
		if s, ok := p.selectedSnap(); ok {
			p.shown = &opened{View: viewSnapshots, ID: s.ID}
		}
	case viewRestores:
		if r, ok := p.selectedRestore(); ok {
			p.shown = &opened{View: viewRestores, ID: r.ID}
		}
	}
	if p.shown == nil {
		return false
	}
	p.openText = ""
	p.refreshOpen()
	return true
}

// detailOn reports whether a detail is on screen (its view is shown).
func (p *Pane) detailOn() bool { return p.shown != nil && p.shown.View == p.view }

// refreshOpen sets the detail's text from the data now loaded; the scroll
// stays unless the text changed.
func (p *Pane) refreshOpen() {
	if p.shown == nil {
		return
	}
	var text string
	switch p.shown.View {
	case viewSnapshots:
		text = p.snapText(p.shown.ID)
	case viewRestores:
		text = p.restoreText(p.shown.ID)
	}
	if text != p.openText {
		p.openText = text
		p.item.SetText(text)
	}
}

// closeDetail goes back to the list, the cursor on the item shown.
func (p *Pane) closeDetail() tea.Cmd {
	if p.shown == nil {
		return nil
	}
	t := map[view]*components.Table{viewSnapshots: &p.snaps, viewRestores: &p.restores}[p.shown.View]
	if t != nil {
		t.SetCursorID(p.shown.ID)
	}
	p.shown, p.openText = nil, ""
	return nil
}

// labelW is the width of a detail's "  Label  " column.
const labelW = 19

// field writes one "  Label   value" line of a detail, the value wrapped
// at its words to the pane's width under its own column.
func (p *Pane) field(b *strings.Builder, label, value string) {
	if value == "" {
		value = "-"
	}
	lines := strings.Split(ansi.Wrap(components.Sanitize(value), max(p.W-labelW-1, 20), ""), "\n")
	fmt.Fprintf(b, "  %-16s %s\n", label, lines[0])
	for _, l := range lines[1:] {
		fmt.Fprintf(b, "%s%s\n", strings.Repeat(" ", labelW), l)
	}
}

func fmtUTC(t *time.Time) string {
	if t == nil || t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04:05") + " UTC"
}

func (p *Pane) snapText(id string) string {
	s, found := p.data.snap(id)
	if !found {
		return fmt.Sprintf("Snapshot %s is no longer listed for %s (deleted or expired).\n\nesc goes back to the list.", id, p.cluster.Name)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Snapshot of %s\n\n", components.Sanitize(p.cluster.Name))
	p.field(&b, "Id", s.ID)
	p.field(&b, "Status", s.Status)
	if s.Status == string(apiclient.SnapshotFailed) {
		p.field(&b, "Failure", "the snapshot failed; the service's answer carries no reason (the project's activity feed has it); a scheduled snapshot is retried at the next one")
	}
	typ := s.Type
	if s.Topology != "" {
		typ += " (" + s.Topology + ")"
	}
	p.field(&b, "Type", typ)
	p.field(&b, "Frequency", s.Frequency)
	if s.Scheduled != nil {
		p.field(&b, "Scheduled", fmtUTC(s.Scheduled))
	}
	p.field(&b, "Created", fmtUTC(s.Created))
	if s.Finished != nil {
		p.field(&b, "Finished", fmtUTC(s.Finished))
	}
	p.field(&b, "Expires", fmtUTC(s.Expires))
	if until, rule, ok := policyKeeps(p.data.Policy, s); ok && p.Ctx.Now().Before(until) {
		p.field(&b, "Kept until", fmtUTC(&until)+" by the backup compliance policy ("+rule+")")
	}
	p.field(&b, "Size", fmtSize(s.Size))
	p.field(&b, "MongoDB", s.Version)
	p.field(&b, "Description", s.Description)
	if s.CloudProvider != "" {
		p.field(&b, "Cloud provider", s.CloudProvider)
	}
	if s.ReplicaSetName != "" {
		p.field(&b, "Replica set", s.ReplicaSetName)
	}
	if s.ConfigServer != "" {
		p.field(&b, "Config server", s.ConfigServer)
	}
	if len(s.CopyRegions) > 0 {
		p.field(&b, "Copy regions", strings.Join(s.CopyRegions, ", "))
	}
	if len(s.PolicyItems) > 0 {
		p.field(&b, "Policy items", strings.Join(s.PolicyItems, ", "))
	}
	key := s.MasterKeyUUID
	if key == "" {
		key = "none (no customer key)"
	}
	p.field(&b, "Encryption key", key)
	if len(s.Members) > 0 {
		fmt.Fprintf(&b, "\nMembers (%d)\n", len(s.Members))
		for _, m := range s.Members {
			fmt.Fprintf(&b, "  %s  %s  %s\n", components.Sanitize(m.ReplicaSetName), components.Sanitize(m.CloudProvider), m.ID)
		}
	}
	return b.String()
}

func (p *Pane) restoreText(id string) string {
	r, found := p.data.restore(id)
	if !found {
		return fmt.Sprintf("Restore job %s is no longer listed for %s.\n\nesc goes back to the list.", id, p.cluster.Name)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Restore job of %s\n\n", components.Sanitize(p.cluster.Name))
	p.field(&b, "Id", r.ID)
	state := string(r.State)
	if r.Status != "" {
		state += " (" + r.Status + ")"
	}
	p.field(&b, "State", state)
	if why := restoreFailure(r); why != "" {
		p.field(&b, "Failure", why)
	}
	p.field(&b, "Delivery", r.Delivery)
	p.field(&b, "Snapshot", r.SnapshotID)
	switch {
	case r.TargetName != "":
		project := r.TargetGroup
		name := p.projectNames[r.TargetGroup]
		if r.TargetGroup == p.Ctx.GroupID && p.Ctx.ProjectName != "" {
			name = p.Ctx.ProjectName
		}
		if name != "" {
			project = name + " (" + r.TargetGroup + ")"
		}
		p.field(&b, "Target cluster", r.TargetName)
		if project != "" {
			p.field(&b, "Target project", project)
		}
		if r.TargetName == p.cluster.Name && (r.TargetGroup == "" || r.TargetGroup == p.Ctx.GroupID) {
			p.field(&b, "", inPlaceMark)
		}
	default:
		p.field(&b, "Target", "none: files to download; no cluster is changed")
	}
	if r.PointInTime != 0 {
		t := time.Unix(r.PointInTime, 0)
		p.field(&b, "Point in time", fmtUTC(&t)+" ("+strconv.FormatInt(r.PointInTime, 10)+")")
	}
	if r.OplogTs != 0 {
		p.field(&b, "Oplog ts/inc", fmt.Sprintf("%d/%d", r.OplogTs, r.OplogInc))
	}
	p.field(&b, "Started", fmtUTC(r.Started))
	p.field(&b, "Finished", fmtUTC(r.Finished))
	if r.Finished != nil && r.Started != nil {
		p.field(&b, "Took", fmtDur(r.Finished.Sub(*r.Started)))
	}
	if r.ExpiresAt != nil {
		label := "Link expires"
		if r.Expired || !p.Ctx.Now().Before(*r.ExpiresAt) {
			label = "Link expired"
		}
		p.field(&b, label, fmtUTC(r.ExpiresAt))
	}
	if urls := restoreURLs(r); len(urls) > 0 {
		// Each URL alone on its line, from the first column, wrapped and
		// never cut: a mouse selection copies it whole, and y copies them.
		fmt.Fprintf(&b, "\nDownload URL%s (y copies %s)\n", plural(len(urls)), map[bool]string{true: "it", false: "them, one a line"}[len(urls) == 1])
		for _, u := range urls {
			b.WriteString(components.Sanitize(u) + "\n")
		}
	} else if r.Delivery == string(apiclient.DeliveryDownload) && r.running() {
		b.WriteString("\nThe download URL is given once the job finishes.\n")
	}
	for _, pu := range r.Private {
		fmt.Fprintf(&b, "\nPrivate endpoint %s\n%s\n", components.Sanitize(pu.EndpointID), components.Sanitize(pu.DeliveryURL))
	}
	return b.String()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// restoreFailure says why a restore did not finish, as far as the answer
// tells: "" for one that runs or finished.
func restoreFailure(r restoreRow) string {
	switch {
	case r.State == apiclient.RestoreFailed:
		return "the job failed; the service's answer carries no reason (the project's activity feed has it); a sharded snapshot fails on a target whose shards differ"
	case r.State == apiclient.RestoreCancelled:
		return "cancelled before it finished; data already written to the target stays"
	case r.State == apiclient.RestoreExpired:
		return "the download link expired; start a new download restore (R) for a new one"
	}
	return ""
}

// restoreURLs are a download restore's URLs: its delivery URLs, then each
// replica set's of a sharded download.
func restoreURLs(r restoreRow) []string { return r.URLs }

// Yank is what `y` copies here: a download restore's URL (all of them, one
// a line), with what it is; ok false leaves the root to copy the selection.
func (p *Pane) Yank() (text, what string, ok bool) {
	if p.cluster == nil || p.view != viewRestores {
		return "", "", false
	}
	r, found := p.selectedRestore()
	if p.shown != nil && p.shown.View == viewRestores {
		if x, ok := p.data.restore(p.shown.ID); ok {
			r, found = x, true
		}
	}
	if !found {
		return "", "", false
	}
	urls := restoreURLs(r)
	if len(urls) == 0 {
		return "", "", false
	}
	what = "the download URL of restore " + short(r.ID)
	if len(urls) > 1 {
		what = fmt.Sprintf("the %d download URLs of restore %s", len(urls), short(r.ID))
	}
	clean := make([]string, len(urls))
	for i, u := range urls {
		clean[i] = components.Sanitize(u)
	}
	return strings.Join(clean, "\n"), what, true
}
