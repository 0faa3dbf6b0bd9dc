package backups

import (
	"fmt"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

const timeLayout = "2006-01-02 15:04"

// short is the tail of an id, enough to tell rows apart.
func short(id string) string {
	if len(id) > 8 {
		return "…" + id[len(id)-8:]
	}
	return id
}

func fmtTime(t *time.Time) string {
	if t == nil || t.IsZero() {
		return "-"
	}
	return t.UTC().Format(timeLayout)
}

func fmtSize(n int64) string {
	switch {
	case n <= 0:
		return "-"
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d KiB", n>>10)
}

func fmtDur(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	d = d.Round(time.Second)
	switch {
	case d >= time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	case d >= time.Minute:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%ds", int(d.Seconds()))
}

// spinnerFrames turn with the clock, so a running row moves on every redraw
// without a timer of its own.
var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

func spinner(now time.Time) string {
	return spinnerFrames[(now.UnixMilli()/100)%int64(len(spinnerFrames))]
}

// refreshDetail fills the schedule or compliance text.
func (p *Pane) refreshDetail() {
	switch p.view {
	case viewSchedule:
		p.detail.SetText(p.scheduleText())
	case viewCompliance:
		p.detail.SetText(p.complianceText())
	}
}

// chrome is the lines above and below the table: title, tabs, note, footer.
func (p *Pane) chromeLines() int {
	n := 3 // title, tabs, footer
	if p.noteText() != "" {
		n++
	}
	return n
}

func (p *Pane) layout() {
	h := max(p.H-p.chromeLines(), 1)
	p.picker.SetSize(p.W, max(p.H-3, 1))
	for _, l := range p.lists {
		l.table.SetSize(p.W, h)
	}
	p.detail.SetSize(p.W, h)
	p.item.SetSize(p.W, h)
	p.refreshOpen() // its values are wrapped to the width
}

func (p *Pane) noteText() string {
	var parts []string
	if p.cluster != nil && p.data.Note != "" {
		parts = append(parts, p.data.Note)
	}
	if p.notice != "" {
		parts = append(parts, p.notice)
	}
	if c := p.cappedNote(); c != "" {
		parts = append(parts, c)
	}
	return strings.Join(parts, " · ")
}

// clustersCapped is " (showing the first 100000)" when the project's
// clusters, flex clusters or serverless instances (three lists, each capped
// on its own) reached the client's row cap, else "".
func (p *Pane) clustersCapped() string {
	byKind := map[kind]int{}
	for _, c := range p.clusters {
		switch c.Kind {
		case kindFlex, kindServerless:
			byKind[c.Kind]++
		default:
			byKind[kindReplicaSet]++
		}
	}
	for _, n := range byKind {
		if more := apiclient.ShowingFirst(n); more != "" {
			return " (" + more + ")"
		}
	}
	return ""
}

// cappedNote names the lists of the open cluster that reached the client's
// row cap: "Snapshots, Exports: showing the first 100000" (there may be
// more on the server), else "".
func (p *Pane) cappedNote() string {
	if p.cluster == nil {
		return ""
	}
	var capped []string
	var more string
	for _, l := range []struct {
		what string
		n    int
	}{{"Snapshots", len(p.data.Snaps)}, {"Restores", len(p.data.Restores)}, {"Exports", len(p.data.Exports)}, {"Buckets", len(p.data.Buckets)}} {
		if m := apiclient.ShowingFirst(l.n); m != "" {
			capped, more = append(capped, l.what), m
		}
	}
	if len(capped) == 0 {
		return ""
	}
	return strings.Join(capped, ", ") + ": " + more
}

func (p *Pane) View() string {
	if p.W <= 0 || p.H <= 0 {
		return ""
	}
	th := p.Ctx.Theme
	fit := func(s string) string { return ansi.Truncate(s, p.W, "…") }
	if p.cluster == nil {
		off := ""
		if p.Ctx.GroupID == "" {
			off = "Backups · no project selected: pick one with the context picker"
		}
		list := p.picker.View()
		if line, ok := (views.Prologue{Noun: "clusters", Off: off, Loaded: p.loadedList, Err: p.clustersErr,
			Empty: len(p.clusters) == 0, EmptyText: "no deployments in this project"}).View(th.Styles); ok {
			if off != "" {
				return fit(line)
			}
			list = lipgloss.NewStyle().Width(p.W).Height(max(p.H-3, 1)).Render(fit(line))
		}
		// enter is the pane's own key here, not an action the root's footer
		// and help list: this line offers it while there is a row to open.
		hint := ""
		if p.picker.SelectedID() != "" {
			hint = "enter open"
		}
		return lipgloss.JoinVertical(lipgloss.Left, fit(th.Header.Render("Backups · pick a cluster (enter)")),
			fit(th.Muted.Render(fmt.Sprintf("%d deployments in %s", len(p.clusters), components.Sanitize(p.Ctx.ProjectName))+p.clustersCapped())),
			list, fit(th.Muted.Render(hint)))
	}
	c := p.cluster
	title := fmt.Sprintf("Backups · %s (%s, %s, %s)", components.Sanitize(c.Name), c.Kind, components.Sanitize(c.Tier), components.Sanitize(c.Version))
	if len(p.watching) > 0 {
		title += fmt.Sprintf(" · watching %d", len(p.watching))
		if p.away {
			title += " (server away)" // kept short: it must fit at 80 columns
		}
	}
	var tabs []string
	for v := viewSnapshots; v < viewCount; v++ {
		if v == p.view {
			tabs = append(tabs, th.TabActive.Render("["+v.title()+"]"))
		} else {
			tabs = append(tabs, th.TabInactive.Render(" "+v.title()+" "))
		}
	}
	lines := []string{fit(th.Header.Render(title)), fit(strings.Join(tabs, " ") + th.Muted.Render("  tab: next view"))}
	if n := p.noteText(); n != "" {
		lines = append(lines, fit(th.ErrorText.Render(components.Sanitize(n))))
	}
	lines = append(lines, p.body(), fit(th.Muted.Render(components.Sanitize(p.footer()))))
	return lipgloss.JoinVertical(lipgloss.Left, lines...)
}

// body is the current view's table or text; a list with no rows says why
// instead (views.Prologue): the cluster's tier has no such list, the
// caller's role may not read it, listing failed, or it is empty.
func (p *Pane) body() string {
	th := p.Ctx.Theme
	box := func(line string) string {
		return lipgloss.NewStyle().Width(p.W).Height(max(p.H-p.chromeLines(), 1)).Render(line)
	}
	if !p.loaded {
		line, _ := views.Prologue{Noun: "backups"}.View(th.Styles)
		return box(line)
	}
	if p.detailOn() {
		return p.item.View()
	}
	l, ok := p.lists[p.view]
	if !ok {
		return p.detail.View()
	}
	n, err := l.state()
	pro := views.Prologue{Noun: l.what, Off: l.unavailable(), Loaded: err == nil, Err: err, Empty: n == 0, EmptyText: l.empty()}
	if why, denied := views.NotVisible(err); denied {
		pro.Refused, pro.Err = components.Sanitize(why), nil
	}
	if line, ok := pro.View(th.Styles); ok {
		return box(line)
	}
	return l.table.View()
}

// offer is what an empty list offers: the key that fills it (how), when the
// caller may use it; else who may ("Starting a restore needs Project Backup
// Manager; your role may not."), never a key that only says no.
func (p *Pane) offer(a keymap.Action, how, what string) string {
	ok, why := views.Allowed(p.Ctx.Gate, a, p.Ctx.GroupID)
	switch {
	case ok:
		return " " + how
	case strings.HasPrefix(why, "needs "):
		return " " + strings.ToUpper(what[:1]) + what[1:] + " " + why + "; your role may not."
	}
	return " " + strings.ToUpper(what[:1]) + what[1:] + " is not possible here: " + why + "."
}

// footer says what the keys do here, then what the cursor is on: the keys
// first, so a narrow terminal cuts the description, never a key that acts.
func (p *Pane) footer() string {
	var on string
	var shorter []string // shorter forms of on, tried in order when it does not fit
	var enter string
	switch p.view {
	case viewSnapshots:
		if s, ok := p.selectedSnap(); ok {
			// The full id where it fits (the table has no id column: this
			// is where it shows), the version given up first; its last
			// characters, which tell the rows apart, only where even the
			// id alone would be cut.
			on = fmt.Sprintf("snapshot %s · mongod %s", s.ID, s.Version)
			shorter = []string{"snapshot " + s.ID, fmt.Sprintf("snapshot %s · mongod %s", short(s.ID), s.Version)}
			if s.Sharded {
				on += fmt.Sprintf(" · %d members", len(s.Members))
				for i := range shorter {
					shorter[i] += fmt.Sprintf(" · %d members", len(s.Members))
				}
				enter = "enter expand"
				if p.expanded[s.ID] {
					enter = "enter collapse"
				}
			}
		}
	case viewRestores:
		if r, ok := p.selectedRestore(); ok {
			on = "restore " + r.ID
			if r.ExpiresAt != nil && len(r.URLs) > 0 {
				on += " · download link expires " + fmtTime(r.ExpiresAt)
				shorter = []string{"restore " + r.ID} // the detail has the expiry
			}
		}
	case viewExports:
		if id := p.exports.SelectedID(); id != "" {
			on = "export " + id
		}
	}
	keys := p.hints()
	// extra are this pane's own keys for the row (enter, y): the line
	// gives them up first when it is too narrow (help lists them).
	extra := ""
	switch {
	case p.detailOn():
		extra = "esc back  ↑/↓ scroll"
		if _, _, ok := p.Yank(); ok {
			extra += "  y copy URL"
		}
	case p.view == viewRestores && on != "":
		extra = "enter detail"
		if _, _, ok := p.Yank(); ok {
			extra += "  y copy URL"
		}
	case p.view == viewSnapshots && on != "" && enter == "":
		extra = "enter detail"
	}
	if enter != "" {
		keys = strings.TrimSpace(enter + "  " + keys)
	}
	join := func(extra, on string) string {
		k := strings.TrimSpace(extra + "  " + keys)
		if on == "" || k == "" {
			return k + on
		}
		return k + " · " + on
	}
	// The longest line that fits: the pane's own keys kept as long as the
	// description can shorten; then without them (a detail's keys stay:
	// nothing else leaves it).
	lines := []string{join(extra, on)}
	for _, o := range shorter {
		lines = append(lines, join(extra, o))
	}
	if extra != "" && !p.detailOn() {
		lines = append(lines, join("", on))
		for _, o := range shorter {
			lines = append(lines, join("", o))
		}
	}
	for _, l := range lines {
		if lipgloss.Width(l) <= p.W {
			return l
		}
	}
	return lines[len(lines)-1]
}

// hints are the keys that act here and now: the view's actions that
// Actions leaves enabled (the view, the row under the cursor and the data
// allow them) and the root's gate lets through (read-only mode, roles), so
// the line never offers a key that only says no (help lists those, with
// why).
func (p *Pane) hints() string {
	if p.Ctx.Keys == nil {
		return ""
	}
	var out []string
	for _, a := range p.Actions() {
		word := hintWord(a)
		if word == "" || !a.Enabled() || !p.gateAllows(a) {
			continue
		}
		out = append(out, a.Help().Key+" "+word)
	}
	return strings.Join(out, "  ")
}

// hintWord is an action's word on the hint line; "" for the view keys,
// which the tab row names.
func hintWord(a keymap.Action) string {
	if a.Name == actDelete {
		return a.Help().Desc // delete snapshot, or delete bucket
	}
	return hintWords[a.Name]
}

var hintWords = map[string]string{actSnapshot: "snapshot", actRestore: "restore", actCancelRestore: "cancel",
	actExpiration: "expiration", actExport: "export", actNewBucket: "new bucket", actEditSchedule: "edit schedule"}

// gateAllows is the root's gate for an action (views.Allowed), asked
// about the project on screen as the root asks.
func (p *Pane) gateAllows(a keymap.Action) bool {
	ok, _ := views.Allowed(p.Ctx.Gate, a, p.Ctx.GroupID)
	return ok
}
