// Package ui is the dashboard's root model: it connects, lays out the header,
// the pane tabs, the active pane and the footer, owns the layer stack
// (dialog > help > palette > filter > pane) that decides who gets a key,
// and is the only place where an action key is checked against the gate
// before a pane hears of it.
package ui

import (
	"errors"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// Minimum terminal size; below it the dashboard shows a "too small" screen.
const (
	MinWidth  = 60
	MinHeight = 16
)

// Options configure the root model.
type Options struct {
	// Client talks to the API. It must carry a Gate (apiclient.Options.Gate):
	// the gate refuses a mutating request even if a pane tried to send one
	// outside the action path.
	Client  *apiclient.Client
	Profile string
	// OrgID, Project (an id or a name) and Cluster select the starting
	// context; empty ones come from the remembered context, then from the
	// first project the caller can see.
	OrgID   string
	Project string
	Cluster string
	Pane    views.ID // the starting pane; default alerts
	// ReadOnly refuses every mutating action. Set at start it is a lock for
	// the session: `:ro` cannot lift it. ReadOnlyBy says what set it
	// ("--read-only", "profile prod: read_only = true").
	ReadOnly   bool
	ReadOnlyBy string
	// Theme is the configured theme name; "" or "auto" follows the
	// terminal's background. NoColor (NO_COLOR set) forces mono.
	Theme   string
	NoColor bool
	Keys    *keymap.KeyMap   // default Panes.Keymap()
	Clock   func() time.Time // default time.Now
	// Wall measures "updated Ns ago": wall-clock seconds even when Clock is
	// a demo world running faster. Default: Clock when it is set, else
	// time.Now.
	Wall func() time.Time
	Poll views.Poll // default views.DefaultPoll
	// State remembers the context per profile; nil remembers nothing.
	State *ContextStore
	// Panes are the registered panes in tab order; default Panes().
	Panes views.Registry
	// Tmux wraps clipboard writes in tmux's passthrough as well.
	Tmux bool
	// DemoServer is the base URL of the --demo simulator; the help overlay
	// shows it so users can reach it (curl, the control API) while running.
	DemoServer string
	// LogBuffer is how many lines the access-log pane keeps (the profile's
	// log_buffer); 0 keeps the pane's default.
	LogBuffer int
	// ExportDir is where saved files go (DefaultExportDir, or the config's
	// export_dir); "" saves into the current directory.
	ExportDir string
	// TriageOrgs and TriageProjects narrow the Triage board (the profile's
	// triage_orgs, triage_projects).
	TriageOrgs, TriageProjects []string
	// TriageAuthBursts is the profile's failed-authentication burst
	// threshold for the board (0: off).
	TriageAuthBursts int
	// Cache, when set, keeps who the caller is and the org/project/cluster
	// tree between starts: a start draws its first screen from it (marked
	// with its age) and verifies it in the background.
	Cache *apiclient.StartCache
	// CacheWarning says why the start cache is not used (shown once).
	CacheWarning string
	// Presence is who else is here, under `serve`; nil otherwise.
	Presence views.Presence
	// JournalPath is the write journal `:journal` shows; "" shows none.
	JournalPath string
	// ClockEvery is how often "updated Ns ago" moves (default 1s; served
	// dashboards use 10s, so an idle session sends little on the wire).
	ClockEvery time.Duration
}

type phase int

const (
	phaseConnecting phase = iota
	phaseFailed
	phaseReady
)

// Model is the root Bubble Tea model.
type Model struct {
	// paneBlock is the active pane's last block (render.go).
	paneBlock paneBlock
	// frames is the last header and help lines (render.go).
	frames frameCache
	ticks  clockState

	opts   Options
	client *apiclient.Client
	gate   *apiclient.Gate
	roLock string // why read-only holds for the session; "" when `:ro` set it
	keys   *keymap.KeyMap
	clock  func() time.Time

	theme      themes.Theme
	themeFixed bool // configured or NO_COLOR: ignore the terminal's background

	width, height int

	phase   phase
	attempt int // connection attempt; late answers of an earlier one are dropped
	// prestarted is the start-up conversation Prestart began, for Init.
	prestarted tea.Cmd
	// cachedAt is the age of the scope drawn from the start cache, until
	// the service confirms it (zero: read from the service this run);
	// verifyAt is when that check goes.
	cachedAt, verifyAt time.Time
	cacheTried         bool
	scopeSeq           int // project switch; late answers of an earlier one are dropped
	// pendingJump waits for a project switch to finish; jumpedFrom is the
	// pane esc comes back to after a jump (jump.go).
	pendingJump *views.JumpMsg
	// toasted is the pane whose toast the root took last (a refusal
	// answers a key: no dialog comes, no key is held).
	toasted views.ID
	// delivering is the action the gate allowed whose pane Update runs now.
	delivering string
	jumpedFrom views.ID
	connErr    error
	failures   int       // failed starts in a row
	retryAt    time.Time // when a failed start retries by itself; zero: only on r
	scope      scope     // orgs, projects, clusters and the selection
	ctx        views.Context

	panes   []views.Pane
	inited  []bool
	active  int
	filters map[views.ID]string
	updated map[views.ID]time.Time
	paused  bool
	// formWhat names what each pane form a pane opened does ("acknowledge"),
	// by pane and form id: an error that comes back after its form closed
	// (a question asked in between) is shown under that name.
	formWhat map[formKey]string

	// pending holds keys (and pastes) typed before the UI was ready or
	// while the window is too small; they are replayed in order once it
	// is ready and large enough.
	pending []tea.Msg
	// hold keeps keys typed after a write action until its dialog opens
	// (hold.go); holdGen tells holds apart.
	hold    *keyHold
	holdGen int
	// kittyKeys: the terminal reports esc unambiguously (kitty keyboard
	// protocol), so Alt+key is really Alt and not ESC then key.
	kittyKeys bool

	layers stack
	doing  string              // what the others were last told this session does (presence.go)
	tasks  components.TaskLine // the footer's running requests, then done/failed
	toasts components.Toasts   // the footer's notices; errors stay longer, and go with their context
}

// New builds the root model.
func New(o Options) (*Model, error) {
	if o.Client == nil {
		return nil, errors.New("ui: no API client")
	}
	if o.Client.Gate() == nil {
		return nil, errors.New("ui: the API client has no gate")
	}
	if o.Panes == nil {
		o.Panes = Panes()
	}
	if err := o.Panes.Validate(ShellCommands()...); err != nil {
		return nil, fmt.Errorf("ui: %w", err)
	}
	if o.Keys == nil {
		o.Keys = o.Panes.Keymap()
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.Wall == nil {
		o.Wall = o.Clock
	}
	if o.Poll.Normal == 0 {
		o.Poll = views.DefaultPoll
	}
	o.Poll = o.Poll.WithDefaults(o.Panes.PollDefaults())
	if o.Pane == "" && len(o.Panes) > 0 {
		// The first pane about one project: a board that spans every
		// project (Triage) starts its fan-out only when asked for.
		o.Pane = o.Panes[0].ID
		for _, r := range o.Panes {
			if !r.Board {
				o.Pane = r.ID
				break
			}
		}
	}
	m := &Model{
		opts:     o,
		client:   o.Client,
		gate:     o.Client.Gate(),
		keys:     o.Keys,
		clock:    o.Clock,
		filters:  map[views.ID]string{},
		updated:  map[views.ID]time.Time{},
		formWhat: map[formKey]string{},
	}
	m.layers.changed = m.formsChanged
	m.themeFixed = o.NoColor || (o.Theme != "" && o.Theme != "auto")
	m.theme = themes.Resolve(o.Theme, o.NoColor, true)
	m.tasks = components.NewTaskLine(m.theme)
	m.tasks.SetHoldFailures(true) // a failure stays readable until the next task ends
	m.toasts = components.NewToasts(m.theme)
	m.gate.SetReadOnly(o.ReadOnly)
	if o.ReadOnly {
		m.roLock = o.ReadOnlyBy
		if m.roLock == "" {
			m.roLock = "set at start"
		}
	}
	m.ctx = views.Context{
		Client: o.Client, Gate: m.gate, Theme: m.theme, Keys: m.keys, Clock: o.Clock, Wall: o.Wall,
		Profile: o.Profile, ReadOnly: o.ReadOnly, Poll: o.Poll, LogBuffer: o.LogBuffer, ExportDir: o.ExportDir,
		TriageOrgs: o.TriageOrgs, TriageProjects: o.TriageProjects, TriageAuthBursts: o.TriageAuthBursts,
		Presence: o.Presence,
	}
	for i, id := range o.Panes.IDs() {
		if id == o.Pane {
			m.active = i
		}
	}
	return m, nil
}

// Init connects and, unless the theme is fixed, asks the terminal for its
// background colour.
func (m *Model) Init() tea.Cmd {
	start := m.prestarted // begun by Prestart
	if start == nil {
		start = m.connect()
	}
	m.prestarted = nil
	cmds := []tea.Cmd{start, m.startClock(false)}
	if !m.themeFixed {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	return tea.Batch(cmds...)
}

// Update routes a message: size and colour to the model, keys through the
// layer stack, results and pane messages to their pane, the rest to the
// layers and the footer.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if tick, ok := msg.(clockTickMsg); ok {
		return m, m.clockTicked(tick) // only redraws "updated Ns ago"
	}
	model, cmd := m.update(msg)
	if wake := m.wakeClock(); wake != nil {
		cmd = tea.Batch(cmd, wake)
	}
	return model, cmd
}

func (m *Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		return m, m.resize(msg.Width, msg.Height)
	case tea.BackgroundColorMsg:
		return m, m.setBackground(msg.IsDark())
	case tea.KeyboardEnhancementsMsg:
		m.kittyKeys = msg.SupportsKeyDisambiguation()
		return m, nil
	case tea.KeyPressMsg:
		return m, m.handleKey(msg)
	case tea.PasteMsg:
		return m, m.handlePaste(msg)
	case connectedMsg:
		return m, m.connected(msg)
	case verifyScopeMsg:
		return m, m.verifyScope(msg)
	case scopeVerifiedMsg:
		return m, m.scopeVerified(msg)
	case listsLoadedMsg:
		return m, m.listsLoaded(msg)
	case orgNamedMsg:
		return m, m.orgNamed(msg)
	case retryStartMsg:
		return m, m.retryStart(msg)
	case scopeLoadedMsg:
		return m, m.scopeLoaded(msg)
	case PresenceMsg:
		return m, m.presenceChanged(msg)
	case holdExpiredMsg:
		if m.hold != nil && m.hold.gen == msg.gen {
			return m, m.releaseHold()
		}
		return m, nil
	case views.ToastMsg:
		// A pane that refuses an action says so in a toast: no dialog comes.
		// Another pane's toast says nothing about the action held for.
		cmd, _ := m.handleShared(msg)
		if m.hold != nil && msg.Pane == m.hold.pane {
			cmd = tea.Batch(cmd, m.releaseHold())
		}
		return m, cmd
	}
	if cmd, ok := m.routeToPane(msg); ok {
		return m, m.afterUpdate(cmd)
	}
	if cmd, ok := m.handleShared(msg); ok {
		return m, m.afterUpdate(cmd)
	}
	return m, m.updateLayers(msg)
}

// View renders the whole screen.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	m.ticks.shown = v.Content
	v.AltScreen = true
	v.WindowTitle = "dbadmin-tui"
	if m.opts.Profile != "" {
		v.WindowTitle += ": " + clean(m.opts.Profile)
	}
	return v
}

// Now is the dashboard's clock: the simulator's under --demo, whose world
// runs faster than the wall clock.
func (m *Model) Now() time.Time { return m.clock() }

// Busy lists what a pane reports as still running (a restore or migration
// this session started).
func (m *Model) Busy() []string {
	var out []string
	for _, p := range m.panes {
		if b := p.Busy(); b != "" {
			out = append(out, b)
		}
	}
	return out
}

func (m *Model) activePane() views.Pane {
	if m.phase != phaseReady || m.active >= len(m.panes) {
		return nil
	}
	return m.panes[m.active]
}

func (m *Model) paneIndex(id views.ID) int {
	for i, p := range m.panes {
		if p.ID() == id {
			return i
		}
	}
	return -1
}

// updatePane hands a message to one pane and keeps the pane it returns.
func (m *Model) updatePane(i int, msg tea.Msg) tea.Cmd {
	if i < 0 || i >= len(m.panes) {
		return nil
	}
	p, cmd := m.panes[i].Update(msg)
	if p != nil {
		m.panes[i] = p
	}
	return tea.Batch(cmd, m.takeAsks(i))
}

// paneCall runs one of pane i's Pane methods that returns a Cmd (Init,
// SetVisible) and takes what the pane asked meanwhile.
func (m *Model) paneCall(i int, call func(views.Pane) tea.Cmd) tea.Cmd {
	return tea.Batch(call(m.panes[i]), m.takeAsks(i))
}

// takeAsks acts on what pane i asked of the root (views.Ask), in order:
// a dialog opens now, before the next message is read. A toast of the
// pane a key hold waits on is its answer: no dialog comes, and the keys
// go back to the pane once every ask is done.
func (m *Model) takeAsks(i int) tea.Cmd {
	a, ok := m.panes[i].(views.Asker)
	if !ok {
		return nil
	}
	asks, later := a.TakeAsks()
	if len(asks) == 0 {
		return later
	}
	cmds := make([]tea.Cmd, 0, len(asks)+2)
	cmds = append(cmds, later)
	release := false
	for _, ask := range asks {
		cmds = append(cmds, m.handleAsk(ask))
		if t, ok := ask.(views.ToastMsg); ok {
			if t.Err {
				m.toasted = t.Pane
			}
			release = release || (m.hold != nil && t.Pane == m.hold.pane)
		}
	}
	if release {
		cmds = append(cmds, m.releaseHold())
	}
	return tea.Batch(cmds...)
}

// handleAsk does what one ask asks.
func (m *Model) handleAsk(ask views.Ask) tea.Cmd {
	switch a := ask.(type) {
	case views.ConfirmMsg:
		return m.confirmForPane(a)
	case views.FormMsg:
		return m.formForPane(a)
	case views.FormDoneMsg:
		return m.formDone(a)
	case views.FormStatusMsg:
		m.formStatus(a)
		return nil
	case views.ToastMsg, views.ErrorsResolvedMsg:
		cmd, _ := m.handleShared(a)
		return cmd
	case views.JumpMsg:
		return m.jump(a)
	case views.TaskStartMsg:
		return m.tasks.Start(a.ID, a.Text)
	}
	return nil
}

// broadcast hands a message to every pane.
func (m *Model) broadcast(msg tea.Msg) tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(m.panes))
	for i := range m.panes {
		cmds = append(cmds, m.updatePane(i, msg))
	}
	return tea.Batch(cmds...)
}

func (m *Model) updateLayers(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	for _, l := range m.layers.all() {
		if u, ok := l.(updater); ok {
			cmds = append(cmds, u.update(m, msg))
		}
	}
	return tea.Batch(cmds...)
}
