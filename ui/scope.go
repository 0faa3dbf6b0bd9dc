package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/themes"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// scopeLoadedMsg answers a project switch: the project's clusters.
type scopeLoadedMsg struct {
	seq      int
	project  project
	clusters []cluster
	cluster  string
	err      error
}

// switchProject loads the project's clusters, then makes it the context.
func (m *Model) switchProject(p project, clusterName string) tea.Cmd {
	m.scopeSeq++
	seq, client := m.scopeSeq, m.client
	id := fmt.Sprintf("scope#%d", seq)
	load := func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), views.RequestTimeout)
		defer cancel()
		cs, err := listClusters(ctx, client, p.ID)
		return scopeLoadedMsg{seq: seq, project: p, clusters: cs, cluster: clusterName, err: err}
	}
	start := func() tea.Msg { return views.TaskStartMsg{ID: id, Text: "loading " + clean(p.Name)} }
	return tea.Sequence(start, load)
}

func (m *Model) scopeLoaded(msg scopeLoadedMsg) tea.Cmd {
	done := m.tasks.Finish(fmt.Sprintf("scope#%d", msg.seq), msg.err, "")
	if msg.seq != m.scopeSeq {
		return done
	}
	jump := m.pendingJump
	m.pendingJump = nil
	if msg.err != nil {
		return tea.Batch(done, m.toast("switch to "+msg.project.Name+": "+msg.err.Error(), true))
	}
	m.scope.project = msg.project
	m.scope.org = org{ID: msg.project.OrgID, Name: m.scope.orgName(msg.project.OrgID)}
	m.scope.clusters = msg.clusters
	m.scope.cluster = ""
	for _, c := range msg.clusters {
		if c.Name == msg.cluster {
			m.scope.cluster = c.Name
		}
	}
	if jump != nil {
		return tea.Batch(done, m.scopeChanged(), m.finishJump(*jump))
	}
	return tea.Batch(done, m.scopeChanged())
}

// switchCluster narrows the context to one cluster of the project ("" for
// all of them).
func (m *Model) switchCluster(name string) tea.Cmd {
	m.scope.cluster = name
	return m.scopeChanged()
}

// scopeChanged tells every pane, forgets stale freshness and remembers the
// choice for the profile.
func (m *Model) scopeChanged() tea.Cmd {
	m.syncContext()
	m.toasts.ClearErrors() // about the context left behind
	m.updated = map[views.ID]time.Time{}
	return tea.Batch(m.contextChanged(true), m.remember())
}

// presentationChanged tells every pane about a change of theme, layout,
// read-only mode or pause.
func (m *Model) presentationChanged() tea.Cmd {
	m.syncContext()
	return m.contextChanged(false)
}

// contextChanged gives the panes the new context. A pane never shown yet
// is built again from its registration with it: it has nothing to keep,
// and it loads on its first show (Init), not now. The others get a
// ContextChangedMsg; a hidden one defers its reload to its next show
// (views.Base.Reload).
func (m *Model) contextChanged(scope bool) tea.Cmd {
	w, h := m.paneSize()
	cmds := make([]tea.Cmd, 0, len(m.panes))
	for i := range m.panes {
		if !m.inited[i] {
			m.panes[i] = m.opts.Panes[i].New(m.ctx)
			m.panes[i].SetSize(w, h)
			continue
		}
		cmds = append(cmds, m.updatePane(i, views.ContextChangedMsg{Ctx: m.ctx, Scope: scope}))
	}
	return tea.Batch(cmds...)
}

// readOnlyCommand is `:ro`. Read-only mode is a lock: `:ro` turns it on;
// set at start (flag or profile) it holds for the session, and turned on
// here it is lifted only by typing the confirmation word.
func (m *Model) readOnlyCommand() tea.Cmd {
	if !m.gate.ReadOnly() {
		m.gate.SetReadOnly(true)
		return tea.Batch(m.presentationChanged(),
			m.toast("read-only mode on: nothing will be sent that changes anything (:ro again to lift it, typed)", false))
	}
	if m.roLock != "" {
		return m.toast("read-only mode stays on for this session: "+m.roLock, true)
	}
	m.layers.push(newConfirm(m, confirmSpec{
		title:     "Leave read-only mode?",
		body:      "Actions that change the project (acknowledge, restore, delete, ...) will be allowed again. Nothing refused while read-only is sent.",
		dangerous: true, typed: liftReadOnlyWord,
		onYes: func(m *Model, _ string) tea.Cmd {
			m.gate.SetReadOnly(false)
			return tea.Batch(m.presentationChanged(), m.toast("read-only mode off", false))
		},
	}))
	return nil
}

// liftReadOnlyWord is what must be typed to leave read-only mode set by `:ro`.
const liftReadOnlyWord = "read-write"

func (m *Model) setTheme(name string) tea.Cmd {
	name = strings.ToLower(strings.TrimSpace(name))
	if name == "auto" || name == "" {
		m.themeFixed = m.opts.NoColor
		return tea.RequestBackgroundColor
	}
	t, err := themes.Get(name)
	if err != nil {
		return m.toast(err.Error(), true)
	}
	if m.opts.NoColor && t.Name != themes.Mono {
		return m.toast("NO_COLOR is set: the theme stays mono", true)
	}
	m.theme, m.themeFixed = t, true
	return m.presentationChanged()
}

// setBackground follows the terminal's background unless a theme is fixed.
func (m *Model) setBackground(dark bool) tea.Cmd {
	if m.themeFixed {
		return nil
	}
	m.theme = themes.Resolve("", false, dark)
	return m.presentationChanged()
}

// findProject resolves a palette argument: an id, an exact name, then a
// unique name prefix or substring (case-insensitive).
func (m *Model) findProject(arg string) (project, error) {
	ps := m.scope.projects
	for _, p := range ps {
		if p.ID == arg || strings.EqualFold(p.Name, arg) {
			return p, nil
		}
	}
	var hits []project
	low := strings.ToLower(arg)
	for _, p := range ps {
		if strings.Contains(strings.ToLower(p.Name), low) {
			hits = append(hits, p)
		}
	}
	switch len(hits) {
	case 1:
		return hits[0], nil
	case 0:
		return project{}, fmt.Errorf("no project matches %q", arg)
	}
	return project{}, fmt.Errorf("%d projects match %q; be more specific", len(hits), arg)
}

func (m *Model) findCluster(arg string) (string, error) {
	low := strings.ToLower(arg)
	if low == "all" || low == "-" || low == "*" {
		return "", nil
	}
	var hits []string
	for _, c := range m.scope.clusters {
		if c.Name == arg {
			return c.Name, nil
		}
		if strings.Contains(strings.ToLower(c.Name), low) {
			hits = append(hits, c.Name)
		}
	}
	switch len(hits) {
	case 1:
		return hits[0], nil
	case 0:
		return "", fmt.Errorf("no cluster of %s matches %q", clean(m.scope.project.Name), arg)
	}
	return "", fmt.Errorf("%d clusters match %q; be more specific", len(hits), arg)
}
