package search

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// layout sizes the table and the detail for the mode and the breakpoint:
// side by side when wide, detail under the tree when compact, one at a time
// when narrow or when the detail is opened with enter.
func (p *Pane) layout() {
	w, h := max(p.W, 0), max(p.H-p.headerLines(), 0)
	switch {
	case p.mode == modeDetail:
		p.detail.SetSize(w, h)
	case p.mode == modeAnalyzers:
		th := max(min(len(p.analyzers)+2, h/2), min(h, 3))
		p.analyzerTable.SetSize(w, th)
		p.detail.SetSize(w, max(h-th-1, 0))
	case p.Ctx.Layout == views.LayoutWide:
		tw := w * 3 / 5
		p.table.SetSize(tw, h)
		p.detail.SetSize(max(w-tw-1, 0), h)
	case p.Ctx.Layout == views.LayoutCompact:
		th := max(h*3/5, min(h, 3))
		p.table.SetSize(w, th)
		p.detail.SetSize(w, max(h-th-1, 0))
	default:
		p.table.SetSize(w, h)
		p.detail.SetSize(0, 0)
	}
}

func (p *Pane) headerLines() int {
	if p.notice != "" {
		return 2
	}
	return 1
}

// View renders the pane; every server string went through Sanitize.
func (p *Pane) View() string {
	if p.W <= 0 || p.H <= 0 {
		return ""
	}
	st := p.Ctx.Theme.Styles
	lines := []string{st.Muted.Render(ansi.Truncate(p.summary(), p.W, "…"))}
	if p.notice != "" {
		lines = append(lines, st.ErrorText.Render(ansi.Truncate(p.notice, p.W, "…")))
	}
	// The tree's prologue; the analyzers have their own.
	prologue := views.Prologue{Noun: "search indexes", Loaded: p.loaded, Err: p.listErr,
		Empty: p.mode == modeTree && p.table.Len() == 0, EmptyText: p.emptyText()}
	line, said := prologue.View(st)
	var body string
	switch {
	case said && p.mode != modeAnalyzers:
		body = ansi.Wrap(line, p.W, "")
	case p.mode == modeDetail:
		body = p.detail.View()
	case p.mode == modeAnalyzers:
		body = p.analyzersView()
	case p.Ctx.Layout == views.LayoutWide:
		sep := st.Muted.Render(strings.Repeat("│\n", max(p.table.Height()-1, 0)) + "│")
		body = lipgloss.JoinHorizontal(lipgloss.Top, p.table.View(), sep, p.detail.View())
	case p.Ctx.Layout == views.LayoutCompact:
		body = p.table.View() + "\n" + st.Muted.Render(strings.Repeat("─", p.W)) + "\n" + p.detail.View()
	default:
		body = p.table.View()
	}
	out := strings.Join(lines, "\n") + "\n" + body
	return lipgloss.NewStyle().MaxWidth(p.W).MaxHeight(p.H).Render(out)
}

func (p *Pane) emptyText() string {
	if p.filter != "" {
		return "No index matches the filter " + components.Sanitize(p.filter) + "."
	}
	return "No search indexes here. Press n to create one."
}

// summary is the header line: scope, counts, and what is moving.
func (p *Pane) summary() string {
	scope := p.Ctx.ClusterName
	if scope == "" {
		scope = "all clusters of " + components.Sanitize(p.Ctx.ProjectName)
	}
	if p.mode == modeAnalyzers {
		return fmt.Sprintf("User-defined analyzers · %s · e edit · A or esc back", p.analyzersCluster)
	}
	var total, notReady, unread, hidden, asked, stale int
	for _, cl := range p.clusters {
		if cl.Stale != nil {
			stale++
		}
		if cl.Unsupported == "" {
			asked++
		}
		if cl.Err != nil {
			unread++
			if _, ok := views.NotVisible(cl.Err); ok {
				hidden++
			}
		}
		for _, ix := range cl.Indexes {
			total++
			if ix.Status != apiclient.IndexReady {
				notReady++
			}
		}
	}
	// A count of what could not be read is no count: say what is missing.
	count := plural(total, "index", "indexes")
	switch {
	case unread > 0 && unread == hidden && total == 0 && unread == asked:
		count = "not visible with your role"
	case unread > 0 && total == 0 && unread == asked:
		count = "indexes not read"
	case unread > 0 && unread == hidden:
		count += fmt.Sprintf(" + %s not visible with your role", plural(unread, "cluster's", "clusters'"))
	case unread > 0:
		count += fmt.Sprintf(" + %s not read", plural(unread, "cluster", "clusters"))
	}
	if more := apiclient.ShowingFirst(len(p.clusters)); more != "" {
		count += " (clusters: " + more + ")"
	}
	for _, cl := range p.clusters {
		// Each cluster's list is capped on its own; the note names the
		// first that reached the cap (its detail line names each).
		if more := apiclient.ShowingFirst(len(cl.Indexes)); more != "" {
			count += " (" + components.Sanitize(cl.Name) + ": " + more + ")"
			break
		}
	}
	s := fmt.Sprintf("Search indexes · %s · %s", scope, count)
	switch {
	case p.listErr != nil && p.loaded:
		s += " · stale: as last read (r retries)"
	case stale > 0:
		s += fmt.Sprintf(" · stale: %s as last read (r retries)", plural(stale, "cluster", "clusters"))
	}
	if notReady > 0 {
		s += fmt.Sprintf(" · %d not ready (live)", notReady)
	}
	if p.Paused() {
		s += " · paused"
	}
	return s
}

// refreshDetail shows the selected row in the detail area.
func (p *Pane) refreshDetail() {
	if p.mode == modeAnalyzers {
		return
	}
	ix, cluster, ok := p.selectedIndex()
	if !ok {
		id := p.table.SelectedID()
		switch {
		case id == "":
			p.detail.SetText("")
		case rowKind(id) == 'c':
			p.detail.SetText(p.clusterText(rowParts(id)[0]))
		default:
			p.detail.SetText("Press enter to fold or unfold.")
		}
		return
	}
	p.detail.SetMarkdown(indexMarkdown(cluster, ix, p.deleting[ix.IndexID]))
}

func (p *Pane) clusterText(name string) string {
	for _, cl := range p.clusters {
		if cl.Name != name {
			continue
		}
		s := fmt.Sprintf("Cluster %s, MongoDB %s.\n", cl.Name, cl.Version)
		switch {
		case cl.Unsupported != "":
			s += cl.Unsupported + "."
		case cl.Err != nil:
			if why, ok := views.NotVisible(cl.Err); ok {
				s += "Its search indexes: " + why + "."
			} else {
				s += "Listing its indexes failed: " + views.ErrText(cl.Err)
			}
		default:
			s += plural(len(cl.Indexes), "search index", "search indexes")
			if more := apiclient.ShowingFirst(len(cl.Indexes)); more != "" {
				s += " (" + more + ")"
			}
			s += ". Press A for its analyzers."
			if cl.Stale != nil {
				s += "\nShown as last read: reading them again failed: " + views.ErrText(cl.Stale)
			}
		}
		return s
	}
	return ""
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// indexMarkdown is the index detail: status, per-host table, synonyms, the
// latest definition and, during an update, the staged one.
func indexMarkdown(cluster string, ix apiclient.SearchIndex, deleting bool) string {
	san := components.EscapeMarkdown
	var b strings.Builder
	status := string(ix.Status)
	if deleting && ix.Status != apiclient.IndexDeleting {
		status = "DELETING (requested)"
	}
	fmt.Fprintf(&b, "# %s\n\n", san(ix.Name))
	fmt.Fprintf(&b, "- namespace: %s.%s on %s\n", san(ix.Database), san(ix.CollectionName), cluster)
	fmt.Fprintf(&b, "- type: %s · status: %s · queryable: %s\n", typeLabel(ix.Type), san(status), yesNo(ix.Queryable))
	fmt.Fprintf(&b, "- id: %s\n", san(ix.IndexID))
	if v := ix.LatestDefinitionVersion; v != nil {
		at := ""
		if v.CreatedAt != nil {
			at = " of " + v.CreatedAt.UTC().Format("2006-01-02 15:04:05Z")
		}
		fmt.Fprintf(&b, "- version: %d%s\n", v.Version, at)
	}
	if ix.SynonymMappingStatus != "" {
		fmt.Fprintf(&b, "- synonyms: %s\n", san(string(ix.SynonymMappingStatus)))
		for _, m := range ix.SynonymMappingStatusDetail {
			for _, name := range sortedKeys(m) {
				d := m[name]
				line := fmt.Sprintf("  - %s: %s", san(name), san(string(d.Status)))
				if d.Message != "" {
					line += " — " + san(d.Message)
				}
				b.WriteString(line + "\n")
			}
		}
	}
	if len(ix.StatusDetail) > 0 {
		b.WriteString("\n## Hosts\n\n| host | status | queryable | main | staged |\n|---|---|---|---|---|\n")
		for _, h := range ix.StatusDetail {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", san(h.Hostname), san(string(h.Status)), yesNo(h.Queryable),
				generationCell(h.MainIndex), generationCell(h.StagedIndex))
		}
		for _, h := range ix.StatusDetail {
			for _, g := range []*apiclient.IndexGeneration{h.MainIndex, h.StagedIndex} {
				if g != nil && g.Message != "" {
					fmt.Fprintf(&b, "\n> %s: %s\n", san(h.Hostname), san(g.Message))
				}
			}
		}
	}
	title := "Latest definition"
	if v := ix.LatestDefinitionVersion; v != nil {
		title = fmt.Sprintf("Latest definition (version %d)", v.Version)
	}
	writeJSONBlock(&b, title, ix.LatestDefinition)
	if staged := stagedOf(ix); staged != nil && staged.Definition != nil {
		sv, lv := int64(-1), int64(-2)
		if staged.DefinitionVersion != nil {
			sv = staged.DefinitionVersion.Version
		}
		if ix.LatestDefinitionVersion != nil {
			lv = ix.LatestDefinitionVersion.Version
		}
		if sv == lv {
			fmt.Fprintf(&b, "\nThe latest definition is staged (%s on the hosts); they answer queries with the serving definition until it is ready.\n", san(string(staged.Status)))
		} else {
			writeJSONBlock(&b, fmt.Sprintf("Staged definition (version %d, %s)", sv, san(string(staged.Status))), staged.Definition)
		}
		if main := mainOf(ix); main != nil && main.Definition != nil && main.DefinitionVersion != nil {
			writeJSONBlock(&b, fmt.Sprintf("Serving definition (version %d)", main.DefinitionVersion.Version), main.Definition)
		}
	}
	return b.String()
}

func generationCell(g *apiclient.IndexGeneration) string {
	if g == nil {
		return "–"
	}
	s := components.Sanitize(string(g.Status))
	if g.DefinitionVersion != nil {
		s = fmt.Sprintf("v%d %s", g.DefinitionVersion.Version, s)
	}
	return s
}

func stagedOf(ix apiclient.SearchIndex) *apiclient.IndexGeneration {
	for _, h := range ix.StatusDetail {
		if h.StagedIndex != nil {
			return h.StagedIndex
		}
	}
	return nil
}

func mainOf(ix apiclient.SearchIndex) *apiclient.IndexGeneration {
	for _, h := range ix.StatusDetail {
		if h.MainIndex != nil {
			return h.MainIndex
		}
	}
	return nil
}

// writeJSONBlock shows a server document through the bounded path: one
// measuring pass, and a summary instead of the document over the limits.
func writeJSONBlock(b *strings.Builder, title string, v any) {
	b.WriteString(components.NewDocument(v).Markdown(title, "definition"))
}

// openAnalyzers shows the user-defined analyzers of the cluster under the
// cursor (the v1.0 route).
func (p *Pane) openAnalyzers() tea.Cmd {
	cluster, _, _ := p.selectedPlace()
	if ok, why := p.searchable(cluster); !ok {
		p.Toast("analyzers: "+why, true)
		return nil
	}
	if cluster != p.analyzersCluster {
		p.analyzers, p.analyzersLoaded, p.analyzersErr = nil, false, nil
	}
	p.analyzersCluster = cluster
	p.mode = modeAnalyzers
	p.rebuildAnalyzers()
	return p.loadAnalyzers("loading analyzers of " + cluster)
}

func (p *Pane) loadAnalyzers(task string) tea.Cmd {
	client, gid, cluster := p.Ctx.Client, p.Ctx.GroupID, p.analyzersCluster
	if client == nil || cluster == "" {
		return nil
	}
	return views.Get(&p.Base, keyAnalyzers, p.seq.Next(), task, func(ctx context.Context) ([]apiclient.Analyzer, error) {
		return client.Search().Analyzers(ctx, gid, cluster)
	})
}

func (p *Pane) rebuildAnalyzers() {
	rows := make([]components.Row, 0, len(p.analyzers))
	for _, a := range p.analyzers {
		rows = append(rows, components.Row{ID: a.Name, Cells: []string{a.Name, filterTypes([]map[string]any{a.Tokenizer}),
			filterTypes(a.CharFilters), filterTypes(a.TokenFilters)}})
	}
	p.analyzerTable.SetRows(rows)
	p.layout()
	p.refreshAnalyzerDetail()
}

func filterTypes(fs []map[string]any) string {
	var out []string
	for _, f := range fs {
		if t, _ := f["type"].(string); t != "" {
			out = append(out, t)
		}
	}
	return strings.Join(out, ", ")
}

func (p *Pane) refreshAnalyzerDetail() {
	if p.mode != modeAnalyzers {
		return
	}
	id := p.analyzerTable.SelectedID()
	for _, a := range p.analyzers {
		if a.Name == id {
			var b strings.Builder
			writeJSONBlock(&b, "Analyzer "+components.Sanitize(a.Name), a)
			p.detail.SetMarkdown(b.String())
			return
		}
	}
	p.detail.SetText("")
}

func (p *Pane) analyzersView() string {
	st := p.Ctx.Theme.Styles
	if line, ok := (views.Prologue{Noun: "analyzers", Loaded: p.analyzersLoaded && p.analyzersErr == nil, Err: p.analyzersErr,
		Empty: len(p.analyzers) == 0, EmptyText: "No user-defined analyzers on " + p.analyzersCluster + ". Press e to write some."}).View(st); ok {
		return ansi.Wrap(line, p.W, "")
	}
	return p.analyzerTable.View() + "\n" + st.Muted.Render(strings.Repeat("─", p.W)) + "\n" + p.detail.View()
}

// startAnalyzerEdit opens the cluster's analyzers (or the kept draft) as
// one JSON array.
func (p *Pane) startAnalyzerEdit() tea.Cmd {
	if !p.analyzersLoaded {
		p.Toast("analyzers: still loading", true)
		return nil
	}
	s := editSession{Kind: editAnalyzers, Group: p.Ctx.GroupID, Cluster: p.analyzersCluster}
	if d, ok := p.drafts[s.key()]; ok {
		return p.open(d)
	}
	as := p.analyzers
	if as == nil {
		as = []apiclient.Analyzer{}
	}
	s.Text = prettyJSON(as)
	return p.open(s)
}
