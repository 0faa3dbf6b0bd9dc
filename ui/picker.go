package ui

import (
	"context"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
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

// pickerLayer chooses org, then project, then cluster, each from the API in
// a components.Picker (fuzzy over the name, then the id or the cluster's
// tier and state). Backspace on an empty query goes a step back.
type pickerLayer struct {
	stage    pickerStage
	list     components.Picker
	shown    []components.PickerItem // the list's items as built, before sanitizing
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
	p := &pickerLayer{stage: stage, orgID: m.scope.org.ID, project: m.scope.project}
	if stage == stageCluster {
		p.clusters = m.scope.clusters
	}
	p.show(m)
	m.layers.push(p)
	return m.reloadPickerLists()
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
		if msg.seq != p.seq {
			return nil
		}
		p.loading = false
		p.clusters = msg.clusters
		p.err = ""
		if msg.err != nil {
			p.err = msg.err.Error()
		}
	default:
		return nil
	}
	// New choices keep the query; the cursor only moves if they changed.
	if items := p.items(m); !slices.Equal(items, p.shown) {
		p.list.SetItems(items)
		p.shown = items
	}
	p.setStatus(m)
	return nil
}

// show puts up the list of the current stage, with an empty query.
func (p *pickerLayer) show(m *Model) {
	p.shown = p.items(m)
	p.list = components.NewPicker("context", p.title(m), p.shown, m.theme, m.keys).
		WithDetailSearch().WithHint("enter choose · backspace back · esc close")
	p.setStatus(m)
}

func (p *pickerLayer) setStatus(m *Model) {
	switch {
	case p.loading:
		p.list.SetStatus("loading…", false)
	case p.err != "":
		p.list.SetStatus(p.err, true)
	default:
		p.list.SetStatus(p.cappedNote(m), false)
	}
}

// cappedNote is "showing the first 100000" when a list this stage shows
// reached the client's row cap (there may be more), else "". The cluster
// stage's clusters, flex clusters and serverless instances are three lists,
// each capped on its own.
func (p *pickerLayer) cappedNote(m *Model) string {
	var counts []int
	switch p.stage {
	case stageOrg:
		counts = []int{len(m.scope.orgs)}
	case stageProject:
		counts = []int{len(m.scope.projects)}
	case stageCluster:
		byKind := map[string]int{}
		for _, c := range p.clusters {
			switch c.ClusterType {
			case "FLEX", "SERVERLESS":
				byKind[c.ClusterType]++
			default:
				byKind[""]++
			}
		}
		for _, n := range byKind {
			counts = append(counts, n)
		}
	}
	for _, n := range counts {
		if more := apiclient.ShowingFirst(n); more != "" {
			return more
		}
	}
	return ""
}

// title says what is chosen and where: "Choose cluster in Acme › payments".
func (p *pickerLayer) title(m *Model) string {
	var crumbs []string
	if p.stage > stageOrg {
		crumbs = append(crumbs, m.scope.orgName(p.orgID))
	}
	if p.stage > stageProject {
		crumbs = append(crumbs, p.project.Name)
	}
	title := "Choose " + strings.ToLower(p.stage.title())
	if len(crumbs) > 0 {
		title += " in " + strings.Join(crumbs, " › ")
	}
	return title
}

func (p *pickerLayer) items(m *Model) []components.PickerItem {
	var out []components.PickerItem
	switch p.stage {
	case stageOrg:
		for _, o := range m.scope.orgs {
			out = append(out, components.PickerItem{ID: o.ID, Label: o.Name, Detail: o.ID})
		}
	case stageProject:
		for _, pr := range m.scope.projects {
			if p.orgID == "" || pr.OrgID == p.orgID {
				out = append(out, components.PickerItem{ID: pr.ID, Label: pr.Name, Detail: pr.ID})
			}
		}
	case stageCluster:
		out = append(out, components.PickerItem{ID: "", Label: "(all clusters)"})
		for _, c := range p.clusters {
			out = append(out, components.PickerItem{ID: c.Name, Label: c.Name,
				Detail: strings.TrimSpace(c.ClusterType + " " + c.MongoDBVersion + " " + c.StateName)})
		}
	}
	return out
}

// key: enter chooses here, so the next stage opens on the same key press;
// backspace on an empty query goes back; the list takes the rest (a
// remapped cancel key closes it).
func (p *pickerLayer) key(m *Model, msg tea.KeyPressMsg) (bool, tea.Cmd) {
	switch {
	case m.keys.Dialog.Submit.Matches(msg):
		it, ok := p.list.Selected()
		if !ok {
			return false, nil
		}
		return p.choose(m, it)
	case msg.String() == "backspace" && p.list.Query() == "" && p.stage > stageOrg:
		p.stage--
		p.show(m)
		return false, nil
	}
	return p.edit(msg)
}

func (p *pickerLayer) paste(_ *Model, msg tea.PasteMsg) (bool, tea.Cmd) { return p.edit(msg) }

func (p *pickerLayer) edit(msg tea.Msg) (bool, tea.Cmd) {
	var cmd tea.Cmd
	p.list, cmd = p.list.Update(msg)
	return p.list.Done(), cmd
}

// choose moves to the next stage; the cluster stage applies the choice.
func (p *pickerLayer) choose(m *Model, it components.PickerItem) (bool, tea.Cmd) {
	switch p.stage {
	case stageOrg:
		p.orgID = it.ID
		p.stage = stageProject
		p.show(m)
		return false, nil
	case stageProject:
		for _, pr := range m.scope.projects {
			if pr.ID == it.ID {
				p.project = pr
			}
		}
		p.stage = stageCluster
		p.loading = true
		p.clusters = nil
		p.seq++
		p.show(m)
		seq, client, gid := p.seq, m.client, p.project.ID
		return false, func() tea.Msg {
			ctx, cancel := context.WithTimeout(context.Background(), views.RequestTimeout)
			defer cancel()
			cs, err := listClusters(ctx, client, gid)
			return pickerClustersMsg{seq: seq, clusters: cs, err: err}
		}
	}
	if p.project.ID != "" && p.project.ID != m.scope.project.ID {
		return true, m.switchProject(p.project, it.ID)
	}
	return true, m.switchCluster(it.ID)
}

func (p *pickerLayer) overlay(_ *Model, base string, w, h int) string {
	p.list.SetSize(w, h)
	return center(base, p.list.View(), w, h)
}
