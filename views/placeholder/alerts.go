package placeholder

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/ui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// alert is the little of an alert the placeholder shows.
type alert struct {
	ID            string `json:"id"`
	EventTypeName string `json:"eventTypeName"`
	Status        string `json:"status"`
	ClusterName   string `json:"clusterName"`
	Created       string `json:"created"`
}

// maxAlerts bounds the placeholder's list.
const maxAlerts = 200

// Alerts is the alerts placeholder: the project's alerts, polled while
// visible, with a cursor, the root's filter and a detail area.
type Alerts struct {
	Pane
	seq    views.Seq
	poll   views.Poller
	paused bool
	all    []alert
	shown  []alert
	filter string
	cursor int
	err    error
	loaded bool
}

// NewAlerts is the Factory of the alerts placeholder.
func NewAlerts(ctx views.Context) views.Pane {
	return &Alerts{Pane: Pane{id: views.Alerts, ctx: ctx}}
}

func (a *Alerts) Init() tea.Cmd { return a.load("loading alerts") }

func (a *Alerts) SetVisible(v bool) tea.Cmd {
	a.visible = v
	if !v {
		a.poll.Stop()
		return nil
	}
	return a.arm()
}

func (a *Alerts) arm() tea.Cmd {
	if a.paused || !a.visible {
		a.poll.Stop()
		return nil
	}
	d := a.ctx.Poll.Every(views.Alerts)
	if a.err != nil {
		d = a.ctx.Poll.Slow
	}
	return a.poll.Arm(views.Alerts, d)
}

// load fetches the alerts; everything the request needs is captured here.
func (a *Alerts) load(task string) tea.Cmd {
	client, gid := a.ctx.Client, a.ctx.GroupID
	if client == nil || gid == "" {
		return nil
	}
	return views.Fetch(views.Alerts, "list", a.seq.Next(), task, func(ctx context.Context) (any, error) {
		return apiclient.ListAll[alert](ctx, client, "listAlerts",
			apiclient.Request{Params: map[string]string{"groupId": gid}},
			apiclient.AllOptions{MaxItems: maxAlerts})
	})
}

func (a *Alerts) Selected() string {
	if a.cursor < len(a.shown) {
		return a.shown[a.cursor].ID
	}
	return ""
}

func (a *Alerts) Actions() []keymap.Action { return areaActions(a.ctx, views.Alerts) }

func (a *Alerts) Update(msg tea.Msg) (views.Pane, tea.Cmd) {
	switch msg := msg.(type) {
	case views.ResultMsg:
		if msg.Key != "list" || !a.seq.Latest(msg.Seq) {
			return a, nil
		}
		a.err = msg.Err
		if msg.Err == nil {
			a.all, _ = msg.Value.([]alert)
			a.loaded = true
			a.apply()
		}
		return a, nil
	case views.PollTickMsg:
		if !a.poll.Current(msg) {
			return a, nil
		}
		return a, tea.Batch(a.load(""), a.arm())
	case views.RefreshMsg:
		return a, tea.Batch(a.load("refreshing alerts"), a.arm())
	case views.PauseMsg:
		a.paused = msg.Paused
		return a, a.arm()
	case views.FilterMsg:
		a.filter = msg.Text
		a.apply()
	case views.ContextChangedMsg:
		a.ctx = msg.Ctx
		if msg.Scope {
			a.all, a.shown, a.cursor, a.loaded, a.err = nil, nil, 0, false, nil
			return a, tea.Batch(a.load("loading alerts"), a.arm())
		}
	case views.ActionMsg:
		return a, notYet(a.ctx, msg)
	case tea.KeyPressMsg:
		a.move(msg)
	}
	return a, nil
}

func (a *Alerts) move(msg tea.KeyPressMsg) {
	km := a.ctx.Keys
	if km == nil {
		return
	}
	k := msg.String()
	has := func(act keymap.Action) bool {
		for _, b := range act.Keys() {
			if b == k {
				return true
			}
		}
		return false
	}
	switch {
	case has(km.Navigation.Up):
		a.cursor--
	case has(km.Navigation.Down):
		a.cursor++
	case has(km.Navigation.Home):
		a.cursor = 0
	case has(km.Navigation.End):
		a.cursor = len(a.shown) - 1
	case has(km.Navigation.PageDown), has(km.Navigation.HalfDown):
		a.cursor += max(1, a.listHeight()/2)
	case has(km.Navigation.PageUp), has(km.Navigation.HalfUp):
		a.cursor -= max(1, a.listHeight()/2)
	}
	a.cursor = max(0, min(a.cursor, len(a.shown)-1))
}

// apply re-filters, keeping the cursor on the same alert id.
func (a *Alerts) apply() {
	keep := a.Selected()
	a.shown = a.shown[:0:0]
	for _, al := range a.all {
		if views.MatchFilter(a.filter, al.ID, al.EventTypeName, al.Status, al.ClusterName) {
			a.shown = append(a.shown, al)
		}
	}
	a.cursor = max(0, min(a.cursor, len(a.shown)-1))
	for i, al := range a.shown {
		if al.ID == keep {
			a.cursor = i
		}
	}
}

func (a *Alerts) listHeight() int {
	if a.ctx.Layout == views.LayoutCompact {
		return max(1, a.h-detailRows-1)
	}
	return max(1, a.h-1)
}

const detailRows = 6

func (a *Alerts) View() string {
	st := a.ctx.Theme.Styles
	switch {
	case a.ctx.GroupID == "":
		return st.Muted.Render(" no project selected (press @ or :project)")
	case a.err != nil && !a.loaded:
		return st.ErrorText.Render(" " + components.Sanitize(a.err.Error()))
	case !a.loaded:
		return st.Muted.Render(" loading alerts…")
	}
	switch a.ctx.Layout {
	case views.LayoutWide:
		lw := a.w * 3 / 5
		return lipgloss.JoinHorizontal(lipgloss.Top, a.list(lw, a.h), a.detail(a.w-lw, a.h))
	case views.LayoutCompact:
		return lipgloss.JoinVertical(lipgloss.Left, a.list(a.w, a.h-detailRows), a.detail(a.w, detailRows))
	}
	return a.list(a.w, a.h)
}

func (a *Alerts) list(w, h int) string {
	st := a.ctx.Theme.Styles
	cols := []int{26, 12, 14}
	row := func(gutter, id, status, cluster, event string) string {
		s := gutter + pad(id, cols[0]) + pad(status, cols[1]) + pad(cluster, cols[2]) + event
		return clip(s, w)
	}
	lines := []string{st.TableHeader.Render(pad(row(" ", "ID", "STATUS", "CLUSTER", "EVENT"), w))}
	if len(a.shown) == 0 {
		lines = append(lines, st.Muted.Render(" no alerts match"))
	}
	rows := max(0, h-1)
	start := max(0, a.cursor-rows+1)
	for i := start; i < len(a.shown) && i < start+rows; i++ {
		al := a.shown[i]
		s := components.Sanitize
		gutter := " "
		if i == a.cursor {
			gutter = "▶" // the cursor must show without colour too
		}
		text := row(gutter, s(al.ID), s(al.Status), s(al.ClusterName), s(al.EventTypeName))
		if i == a.cursor {
			lines = append(lines, st.TableSelected.Render(pad(text, w)))
			continue
		}
		lines = append(lines, st.Class(al.Status).Render(text))
	}
	return lipgloss.NewStyle().Width(w).Height(h).MaxHeight(h).Render(strings.Join(lines, "\n"))
}

func (a *Alerts) detail(w, h int) string {
	st := a.ctx.Theme.Styles
	lines := []string{st.TableHeader.Render(" Detail")}
	if a.cursor < len(a.shown) {
		al := a.shown[a.cursor]
		s := components.Sanitize
		for _, kv := range [][2]string{{"id", al.ID}, {"event", al.EventTypeName}, {"status", al.Status}, {"cluster", al.ClusterName}, {"created", al.Created}} {
			lines = append(lines, clip(fmt.Sprintf(" %-8s %s", kv[0], s(kv[1])), w))
		}
	}
	return lipgloss.NewStyle().Width(w).Height(h).MaxHeight(h).Render(strings.Join(lines, "\n"))
}

func pad(s string, w int) string {
	s = clip(s, w-1)
	if n := w - lipgloss.Width(s); n > 0 {
		return s + strings.Repeat(" ", n)
	}
	return s
}

func clip(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if lipgloss.Width(s) <= w {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && lipgloss.Width(string(r))+1 > w {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}
