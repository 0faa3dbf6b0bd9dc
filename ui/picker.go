package ui

import (
	"context"
	"sort"
	"strings"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

type pickerStage int

const (
	stageOrg pickerStage = iota
	stageProject
	stageCluster
)

func (s pickerStage) title() string {
	switch s {
	case stageProject:
		return "Project"
	case stageCluster:
		return "Cluster"
	}
	return "Organization"
}

type pickItem struct {
	id, label, detail string
}

// pickerLayer chooses org, then project, then cluster, each from the API and
// filtered by a fuzzy query. Backspace on an empty query goes a step back.
type pickerLayer struct {
	stage    pickerStage
	input    lineInput
	sel      int
	orgID    string
	project  project
	clusters []cluster
	loading  bool
	err      string
	seq      int
}

// pickerClustersMsg answers the picker's cluster load.
type pickerClustersMsg struct {
	seq      int
	clusters []cluster
	err      error
}

// pickerRefreshMsg answers the picker's reload of orgs and projects.
type pickerRefreshMsg struct {
	orgs     []org
	projects []project
	err      error
}

func (m *Model) openPicker(stage pickerStage) tea.Cmd {
	if m.phase != phaseReady {
		return nil
	}
	m.layers.removeRank(rankPalette)
	p := &pickerLayer{stage: stage, input: newInput(m, "› "), orgID: m.scope.org.ID, project: m.scope.project}
	p.input.Placeholder = "type to search"
	m.layers.push(p)
	cmds := []tea.Cmd{p.input.Focus(), m.reloadPickerLists()}
	if stage == stageCluster {
		p.clusters = m.scope.clusters
	}
	return tea.Batch(cmds...)
}

// reloadPickerLists refreshes orgs and projects in the background, so a
// project created since start shows up.
func (m *Model) reloadPickerLists() tea.Cmd {
	client := m.client
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), views.RequestTimeout)
		defer cancel()
		orgs, err := apiclient.ListAll[org](ctx, client, "listOrganizations", apiclient.Request{}, apiclient.AllOptions{})
		if err != nil {
			return pickerRefreshMsg{err: err}
		}
		ps, err := apiclient.ListAll[project](ctx, client, "listProjects", apiclient.Request{}, apiclient.AllOptions{})
		return pickerRefreshMsg{orgs: orgs, projects: ps, err: err}
	}
}

func (p *pickerLayer) rank() int { return rankPalette }

func (p *pickerLayer) dismiss(*Model) tea.Cmd { return nil }

func (p *pickerLayer) update(m *Model, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case pickerRefreshMsg:
		if msg.err == nil {
			m.scope.orgs, m.scope.projects = msg.orgs, msg.projects
			for _, pr := range msg.projects {
				m.gate.SetProjectOrg(pr.ID, pr.OrgID)
			}
		}
	case pickerClustersMsg:
		if msg.seq == p.seq {
			p.loading = false
			p.clusters = msg.clusters
			p.err = ""
			if msg.err != nil {
				p.err = msg.err.Error()
			}
		}
	}
	return nil
}

func (p *pickerLayer) items(m *Model) []pickItem {
	var out []pickItem
	switch p.stage {
	case stageOrg:
		for _, o := range m.scope.orgs {
			out = append(out, pickItem{id: o.ID, label: clean(o.Name), detail: o.ID})
		}
	case stageProject:
		for _, pr := range m.scope.projects {
			if p.orgID == "" || pr.OrgID == p.orgID {
				out = append(out, pickItem{id: pr.ID, label: clean(pr.Name), detail: pr.ID})
			}
		}
	case stageCluster:
		out = append(out, pickItem{id: "", label: "(all clusters)"})
		for _, c := range p.clusters {
			out = append(out, pickItem{id: c.Name, label: clean(c.Name),
				detail: clean(strings.TrimSpace(c.ClusterType + " " + c.MongoDBVersion + " " + c.StateName))})
		}
	}
	return fuzzyFilter(out, p.input.Value())
}

func (p *pickerLayer) key(m *Model, msg tea.KeyPressMsg) (bool, tea.Cmd) {
	items := p.items(m)
	switch msg.String() {
	case "up", "ctrl+p":
		p.sel = max(0, p.sel-1)
		return false, nil
	case "down", "ctrl+n":
		p.sel = min(max(0, len(items)-1), p.sel+1)
		return false, nil
	case "backspace":
		if p.input.Value() == "" && p.stage > stageOrg {
			p.stage--
			p.sel = 0
			return false, nil
		}
	case "enter":
		if len(items) == 0 {
			return false, nil
		}
		return p.choose(m, items[clampIndex(p.sel, len(items))])
	}
	before := p.input.Value()
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(msg)
	if p.input.Value() != before {
		p.sel = 0
	}
	return false, cmd
}

// choose moves to the next stage; the cluster stage applies the choice.
func (p *pickerLayer) choose(m *Model, it pickItem) (bool, tea.Cmd) {
	p.input.SetValue("")
	p.sel = 0
	switch p.stage {
	case stageOrg:
		p.orgID = it.id
		p.stage = stageProject
		return false, nil
	case stageProject:
		for _, pr := range m.scope.projects {
			if pr.ID == it.id {
				p.project = pr
			}
		}
		p.stage = stageCluster
		p.loading = true
		p.clusters = nil
		p.seq++
		seq, client, gid := p.seq, m.client, p.project.ID
		return false, func() tea.Msg {
			ctx, cancel := context.WithTimeout(context.Background(), views.RequestTimeout)
			defer cancel()
			cs, err := listClusters(ctx, client, gid)
			return pickerClustersMsg{seq: seq, clusters: cs, err: err}
		}
	}
	if p.project.ID != "" && p.project.ID != m.scope.project.ID {
		return true, m.switchProject(p.project, it.id)
	}
	return true, m.switchCluster(it.id)
}

func (p *pickerLayer) overlay(m *Model, base string, w, h int) string {
	st := m.theme.Styles
	inner := max(20, min(64, w-6))
	p.input.SetWidth(inner - 4)
	crumbs := []string{}
	if p.stage > stageOrg {
		crumbs = append(crumbs, clean(m.scope.orgName(p.orgID)))
	}
	if p.stage > stageProject {
		crumbs = append(crumbs, clean(p.project.Name))
	}
	title := "Choose " + strings.ToLower(p.stage.title())
	if len(crumbs) > 0 {
		title += " in " + strings.Join(crumbs, " › ")
	}
	lines := []string{st.DialogTitle.Render(truncate(title, inner)), padRight(p.input.View(), inner)}
	items := p.items(m)
	rows := max(1, min(12, h-10))
	sel := clampIndex(p.sel, len(items))
	start := max(0, sel-rows+1)
	for i := start; i < len(items) && i < start+rows; i++ {
		row := truncate(padRight(items[i].label, 28)+" "+items[i].detail, inner)
		if i == sel {
			row = st.TableSelected.Render(padRight(row, inner))
		}
		lines = append(lines, row)
	}
	switch {
	case p.loading:
		lines = append(lines, st.Muted.Render("loading…"))
	case p.err != "":
		lines = append(lines, st.ErrorText.Render(truncate(clean(p.err), inner)))
	case len(items) == 0:
		lines = append(lines, st.Muted.Render("nothing matches"))
	}
	lines = append(lines, st.Muted.Render("enter: choose • backspace: back • esc: close"))
	return center(base, st.DialogBorder.Render(lipgloss.JoinVertical(lipgloss.Left, lines...)), w, h)
}

// fuzzyFilter keeps the items whose label (or detail) contains the query's
// characters in order, best matches first: contiguous and early matches
// score higher. An empty query keeps everything in order.
func fuzzyFilter(items []pickItem, q string) []pickItem {
	q = strings.ToLower(strings.TrimSpace(q))
	if q == "" {
		return items
	}
	type scored struct {
		it    pickItem
		score int
	}
	var hits []scored
	for _, it := range items {
		s, ok := fuzzyScore(strings.ToLower(it.label), q)
		if !ok {
			if s, ok = fuzzyScore(strings.ToLower(it.detail), q); ok {
				s -= 50
			}
		}
		if ok {
			hits = append(hits, scored{it, s})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].score > hits[j].score })
	out := make([]pickItem, len(hits))
	for i, h := range hits {
		out[i] = h.it
	}
	return out
}

func fuzzyScore(s, q string) (int, bool) {
	if strings.Contains(s, q) {
		return 1000 - strings.Index(s, q), true
	}
	score, last := 0, -1
	rs := []rune(s)
	i := 0
	for _, c := range q {
		found := false
		for ; i < len(rs); i++ {
			if rs[i] == c {
				if last >= 0 && i == last+1 {
					score += 5
				}
				if i == 0 || !unicode.IsLetter(rs[i-1]) {
					score += 3
				}
				last = i
				i++
				found = true
				break
			}
		}
		if !found {
			return 0, false
		}
	}
	return score, true
}
