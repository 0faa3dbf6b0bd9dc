// Package alerts is the dashboard's first screen: every alert of the
// project, newest first with the open ones on top, their severity, target
// and acknowledgement; a detail with the configuration that raised each;
// the acknowledge dialog (single and bulk); and the project's alert
// configurations (list, detail, toggle, delete, create and update from a
// form or as JSON in $EDITOR). It polls while visible and rings the bell
// once when a new CRITICAL or ERROR alert opens.
package alerts

import (
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/alertkit"
)

// The pane's forms (views.FormMsg.ID).
const (
	formAck    = "ack"
	formUnack  = "unack"
	formConfig = "config"
)

// mode is what the pane shows.
type mode int

const (
	modeList mode = iota
	modeDetail
	modeResults
	modeConfigs
	modeConfigDetail
)

// Pane is the alerts pane.
type Pane struct {
	views.Base
	want  views.Wanted // the alert a jump from the board asked to select
	mode  mode
	steps map[string]views.Step // the actions that ask first (askThenDo)

	detailSeq, writeSeq views.Seq

	// store is the project's alerts (store.go, record.go, when.go).
	store

	fixedLoc *time.Location           // the zone of the records' CREATED cells
	ages     map[time.Duration]string // AGE cells by ageKey, one string per value
	rowAlert []int32                  // the table's row i is alerts[rowAlert[i]]
	rowsAt   time.Time                // when the rows were built: their ages are as of then

	configs  map[string]apiclient.AlertConfig
	cfgOrder []string
	cfgErr   error
	status   statusFilter
	filter   string

	table    components.Table
	cfgTable components.Table
	frame    frameCache // the last frame (view.go)
	detail   components.Detail

	detailID      string // alert shown in detail
	detailConfigs []apiclient.AlertConfig
	detailErr     error
	detailLoading bool
	cfgDetailID   string
	// cfgTooLarge is the configuration in the detail as JSON when it is
	// over the document limits: what y copies instead of its id.
	cfgTooLarge string

	results  []ackResult
	ackDraft alertkit.Draft // the choices of the last ack that did not fully succeed, for the alerts that failed
	// unsettled are alerts whose ack was sent and could not be checked:
	// not sent again until a refresh shows what the server holds.
	unsettled map[string]bool

	cfgDraft string // JSON left by the editor after a refused or failed save
	cfgEdit  string // id of the configuration the draft updates; "" creates
	// cfgCreating: a new configuration is being sent or its lost answer
	// checked; no other create is sent meanwhile.
	cfgCreating cfgCreate
}

// New is the pane's Factory.
func New(ctx views.Context) views.Pane {
	p := &Pane{configs: map[string]apiclient.AlertConfig{}, store: store{byID: map[string]int{}, intern: map[string]string{}}}
	p.Base = views.NewBase(ID, ctx, p.pollState)
	p.On(views.Handlers{Action: p.action, Edited: p.editorDone, Key: p.key})
	p.table = components.NewTable(alertColumns(), ctx.Theme, ctx.Keys)
	p.table.SetCellsFunc(p.cellsOf)
	p.cfgTable = components.NewTable(configColumns(), ctx.Theme, ctx.Keys)
	p.detail = components.NewDetail(ctx.Theme, ctx.Keys)
	p.Widgets(&p.table, &p.cfgTable, &p.detail)
	p.steps = p.askThenDo()
	return p
}

func (p *Pane) Busy() string     { return "" }
func (p *Pane) SetSize(w, h int) { p.W, p.H = w, h; p.layout() }

// Init loads the alerts.
func (p *Pane) Init() tea.Cmd { return p.load("loading alerts") }

// pollState: the list polls while visible, once a project is chosen.
func (p *Pane) pollState() views.PollState {
	return views.PollState{Off: p.Ctx.GroupID == ""}
}

// Selected is the id `y` copies: the alert or configuration under the cursor.
func (p *Pane) Selected() string {
	switch p.mode {
	case modeConfigs:
		return p.cfgTable.SelectedID()
	case modeConfigDetail:
		if p.cfgTooLarge != "" {
			return p.cfgTooLarge
		}
		return p.cfgDetailID
	case modeDetail:
		return p.detailID
	}
	return p.table.SelectedID()
}

// Actions lists the keymap's alert actions, the configuration editors
// included; what the view on screen refuses (acknowledging among the
// configurations, toggling a configuration from the alerts) is greyed with
// the reason the key would give.
func (p *Pane) Actions() []keymap.Action {
	if p.Ctx.Keys == nil {
		return nil
	}
	acts := slices.Clone(p.Ctx.Keys.Scope(ID.Scope()))
	inConfigs := p.mode == modeConfigs || p.mode == modeConfigDetail
	busy := p.createBusy()
	for i, a := range acts {
		switch a.Name {
		case actAck, actUnack:
			if inConfigs {
				acts[i] = a.Disabled("on alerts: c leaves the configurations")
			}
		case actConfigs:
			// c goes to the other view: among the configurations, back to
			// the alerts.
			if inConfigs {
				a.Binding.SetHelp(a.Binding.Help().Key, "alert list")
				acts[i] = a
			}
		case actToggle, actDelete, actEditConfig, actEditJSON:
			if !inConfigs {
				acts[i] = a.Disabled("on configurations: c lists them")
			}
		case actNewConfig, actNewJSON:
			if busy != "" {
				acts[i] = a.Disabled(busy)
			}
		}
	}
	return acts
}

// Shows tells the root whether the text filter shows a jump's alert
// (views.Shower): it is kept then. (The status filter is the pane's own:
// SelectMsg lifts it when it hides the alert.)
func (p *Pane) Shows(_, id string) (shown, known bool) {
	i, ok := p.byID[id]
	if !ok || !p.inScope(&p.alerts[i]) {
		return false, false
	}
	return p.table.MatchesFilter(id), true
}

// Update handles keys, the root's shared messages, allowed actions and the
// pane's own results.
func (p *Pane) Update(msg tea.Msg) (views.Pane, tea.Cmd) {
	kit, done := p.Handle(msg, p.tick)
	if done {
		return p, kit
	}
	switch msg := msg.(type) {
	case views.Result[pageResult]:
		return p, p.pageDone(msg)
	case views.Result[deltaResult]:
		return p, p.deltaDone(msg)
	case views.Result[configsResult]:
		return p, p.configsDone(msg)
	case views.Result[detailAnswer]:
		if !p.detailSeq.Latest(msg.Seq) {
			return p, nil
		}
		return p, p.detailLoaded(msg)
	case views.Result[ackBatch]:
		return p, p.ackDone(msg)
	case views.Result[configWritten]:
		return p, p.configWriteDone(msg)
	case views.PresenceMsg:
		p.rebuildRows() // who is acting on a row changed
		return p, nil
	case views.RefreshMsg:
		cmds := []tea.Cmd{p.load("refreshing alerts"), p.Arm()}
		if p.mode == modeDetail && p.detailID != "" {
			cmds = append(cmds, p.loadDetail(p.detailID))
		}
		return p, tea.Batch(cmds...)
	case views.FilterMsg:
		p.filter = msg.Text
		p.table.SetFilter(msg.Text)
		p.cfgTable.SetFilter(msg.Text)
		return p, nil
	case views.ContextChangedMsg:
		return p, p.contextChanged(msg)
	case views.SelectMsg:
		// Opened from the board: list mode, every status, the alert selected
		// now or when the list holds it. (The root clears a text filter that hides it.)
		p.mode = modeList
		p.want.Set(msg.ItemID)
		if i, known := p.byID[msg.ItemID]; p.status != statusAll && (!known || !p.status.keeps(p.alerts[i].status)) {
			// The status filter hides it, or may (not read yet): lifted.
			p.Toast("status filter "+p.status.String()+" lifted to show the alert opened", false)
			p.setStatus(statusAll)
		}
		p.selectWanted()
		return p, nil
	case tea.MouseWheelMsg:
		if p.mode == modeDetail || p.mode == modeConfigDetail {
			var cmd tea.Cmd
			p.detail, cmd = p.detail.Update(msg)
			return p, cmd
		}
	}
	return p, nil
}

func (p *Pane) contextChanged(msg views.ContextChangedMsg) tea.Cmd {
	p.Ctx = msg.Ctx
	p.layout()
	if !msg.Scope {
		return p.Arm()
	}
	p.resetStore()
	p.configs, p.cfgOrder = map[string]apiclient.AlertConfig{}, nil
	p.mode, p.results = modeList, nil
	p.table.SetRows(nil)
	p.cfgTable.SetRows(nil)
	return tea.Batch(p.Reload(func() tea.Cmd { return p.load("loading alerts") }), p.Arm())
}

// key handles the keys that are not actions: navigation, marks, sort and
// esc (back).
func (p *Pane) key(msg tea.KeyPressMsg) tea.Cmd {
	if msg.String() == "esc" {
		return p.back()
	}
	switch p.mode {
	case modeList:
		if before := p.table.SelectedID(); p.want.ID() != "" {
			p.table, _ = p.table.Update(msg)
			if p.table.SelectedID() != before {
				p.want.Set("") // the user chose another row
			}
			return nil
		}
		p.table, _ = p.table.Update(msg)
	case modeConfigs:
		p.cfgTable, _ = p.cfgTable.Update(msg)
	case modeDetail, modeConfigDetail, modeResults:
		var cmd tea.Cmd
		p.detail, cmd = p.detail.Update(msg)
		return cmd
	}
	return nil
}

// CanGoBack: a detail, the results or the configurations are open (esc
// closes them before the root clears the list's filter).
func (p *Pane) CanGoBack() bool { return p.mode != modeList }

// back leaves a detail or the results for the list they came from.
func (p *Pane) back() tea.Cmd {
	switch p.mode {
	case modeDetail, modeResults:
		p.mode = modeList
	case modeConfigDetail:
		p.mode = modeConfigs
	case modeConfigs:
		p.mode = modeList
	}
	return nil
}

// switchMode shows the alerts or the configurations; an error a key
// refused with in the other view ("press c to list them") has lost its
// cause.
func (p *Pane) switchMode(m mode) tea.Cmd {
	p.mode = m
	p.ErrorsResolved()
	return nil
}

// action runs an action the gate allowed.
func (p *Pane) action(msg views.ActionMsg) tea.Cmd {
	switch msg.Name {
	case actDetail:
		return p.openDetail()
	case actStatus:
		if p.mode != modeList {
			p.mode = modeList
		}
		p.setStatus(p.status.next())
		p.Toast("status filter: "+p.status.String(), false)
		return nil
	case actConfigs, actNextView, actPrevView:
		// Two views: each of these keys goes to the other one.
		if p.mode == modeConfigs || p.mode == modeConfigDetail {
			return p.switchMode(modeList)
		}
		return p.switchMode(modeConfigs)
	case actViewList:
		return p.switchMode(modeList)
	case actViewConfigs:
		return p.switchMode(modeConfigs)
	case actToggle:
		return p.toggleConfig()
	}
	if cmd, ok := views.AskThenDo(msg, p.steps); ok {
		return cmd
	}
	return p.refuse("unknown action " + msg.Name)
}

// askThenDo are the actions that ask first (a dialog, a form, $EDITOR)
// and act on the answer.
func (p *Pane) askThenDo() map[string]views.Step {
	return map[string]views.Step{
		actAck:   {Ask: p.openAck, Do: p.submitAck},
		actUnack: {Ask: p.openUnack, Do: p.submitUnack},
		actDelete: {Ask: p.confirmDelete,
			Do: func(msg views.ActionMsg) tea.Cmd { return p.deleteConfig(msg.Target) }},
		actNewConfig:  {Ask: func() tea.Cmd { return p.openConfigForm(false) }, Do: p.submitConfigForm},
		actEditConfig: {Ask: func() tea.Cmd { return p.openConfigForm(true) }, Do: p.submitConfigForm},
		actNewJSON:    {Ask: func() tea.Cmd { return p.editJSON(false) }, Do: p.saveConfigJSON},
		actEditJSON:   {Ask: func() tea.Cmd { return p.editJSON(true) }, Do: p.saveConfigJSON},
	}
}

// refuse says on screen why nothing happened; nothing to run.
func (p *Pane) refuse(text string) tea.Cmd {
	p.Refuse(text)
	return nil
}

// formDone answers the submitted form id (nil closes it); nothing to run.
func (p *Pane) formDone(id string, err error) tea.Cmd {
	p.FormDone(id, err)
	return nil
}

// targets are the marked alerts, or the one under the cursor.
func (p *Pane) targets() []string {
	if ids := p.table.Marked(); len(ids) > 0 {
		return ids
	}
	if p.mode == modeDetail && p.detailID != "" {
		return []string{p.detailID}
	}
	if id := p.table.SelectedID(); id != "" {
		return []string{id}
	}
	return nil
}
