package views

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
)

// ID names a pane.
type ID string

// Scope is the keymap scope of the pane's own actions.
func (id ID) Scope() keymap.Scope { return keymap.Scope(id) }

// Pane is one area of the dashboard. See the package documentation for the
// rules a pane follows.
type Pane interface {
	// ID is the id its Registration names (Base provides it); the title
	// is the registration's.
	ID() ID
	// Init starts the pane's first load; it is called once, after the
	// connection is up.
	Init() tea.Cmd
	// Update handles key presses that are not actions, ActionMsg (already
	// allowed by the gate), the shared messages and the pane's own results.
	Update(tea.Msg) (Pane, tea.Cmd)
	// View renders the pane into the size given by SetSize. Server strings
	// must be sanitized.
	View() string
	SetSize(w, h int)
	// Actions lists every action the pane offers, for help and gating.
	Actions() []keymap.Action
	// SetVisible tells the pane whether it is on screen. A pane polls only
	// while visible or while watching an unfinished job; the returned Cmd
	// typically (re)arms or stops its poll loop.
	SetVisible(bool) tea.Cmd
	// Busy is non-empty ("restore of snap-1 running") while a restore or
	// migration this session started is still running; quitting then asks
	// for a confirmation.
	Busy() string
	// Selected is the id or line `y` copies; empty when nothing is selected.
	Selected() string
}

// Factory builds a pane. The root calls it once per pane after connecting.
type Factory func(Context) Pane

// Layout is the breakpoint of the terminal width; panes lay out their list
// and detail from it.
type Layout int

const (
	// LayoutNarrow (< 80 columns): list or detail, one at a time.
	LayoutNarrow Layout = iota
	// LayoutCompact (80-119 columns): detail below the list.
	LayoutCompact
	// LayoutWide (>= 120 columns): list and detail side by side.
	LayoutWide
)

// Breakpoints of LayoutFor.
const (
	CompactWidth = 80
	WideWidth    = 120
)

// LayoutFor returns the layout for a terminal width.
func LayoutFor(width int) Layout {
	switch {
	case width >= WideWidth:
		return LayoutWide
	case width >= CompactWidth:
		return LayoutCompact
	}
	return LayoutNarrow
}

func (l Layout) String() string {
	switch l {
	case LayoutWide:
		return "wide"
	case LayoutCompact:
		return "compact"
	}
	return "narrow"
}

// Poll holds the poll intervals a pane uses: Fast while something it shows
// is moving (a restore, an index build), Normal otherwise (and the most a
// failing pane waits), Slow after a 429 without Retry-After.
type Poll struct {
	Fast, Normal, Slow time.Duration
	// Pane overrides Normal per pane (from the profile's settings).
	Pane map[ID]time.Duration
}

// Every is the normal interval of a pane.
func (p Poll) Every(id ID) time.Duration {
	if d, ok := p.Pane[id]; ok && d > 0 {
		return d
	}
	return p.Normal
}

// WithDefaults fills the per-pane intervals p does not set from defaults
// (the registered panes' own), keyed by pane id.
func (p Poll) WithDefaults(defaults map[string]time.Duration) Poll {
	pane := make(map[ID]time.Duration, len(defaults)+len(p.Pane))
	for id, d := range defaults {
		pane[ID(id)] = d
	}
	for id, d := range p.Pane {
		pane[id] = d
	}
	p.Pane = pane
	return p
}

// DefaultPoll are the intervals used when the profile sets none.
var DefaultPoll = Poll{Fast: 2 * time.Second, Normal: 10 * time.Second, Slow: 60 * time.Second}

// Context is what a pane needs from the rest of the dashboard. It is a value:
// the root sends a new one in ContextChangedMsg whenever a field changes, so
// a Cmd may capture it safely.
type Context struct {
	Client *apiclient.Client
	// Gate answers whether an operation is allowed; the root consults it
	// before delivering an ActionMsg. Panes may use it to grey out rows.
	Gate  *apiclient.Gate
	Theme themes.Theme
	Keys  *keymap.KeyMap
	Clock func() time.Time
	// Wall is the wall clock of "updated Ns ago" and "stale since" (a demo
	// world's Clock may run faster); time.Now when nil.
	Wall func() time.Time
	// Timer schedules the panes' timers (poll ticks); tea.Tick when nil.
	Timer Timer

	Profile     string
	OrgID       string
	OrgName     string
	GroupID     string // the selected project
	ProjectName string
	ClusterName string // empty: every cluster of the project

	Layout   Layout
	ReadOnly bool
	Paused   bool
	Poll     Poll
	// LogBuffer is how many lines the access-log pane keeps (the profile's
	// log_buffer); 0 means its default, 50,000.
	LogBuffer int
	// ExportDir is where saved files go when the user names no directory.
	ExportDir string
	// TriageOrgs and TriageProjects narrow the Triage board to these
	// organizations and projects, by name or id (the profile's
	// triage_orgs, triage_projects); empty: every one the caller sees.
	TriageOrgs, TriageProjects []string
	// TriageAuthBursts, above zero, has the board list each address with
	// at least this many failed authentications within one minute on the
	// clusters whose access logs the caller may read (the profile's
	// triage_auth_bursts); 0: off.
	TriageAuthBursts int
	// Presence is who else is on a served dashboard (nil: nobody can be).
	Presence Presence
}

// Now is the context's clock, or time.Now when none is set.
func (c Context) Now() time.Time {
	if c.Clock == nil {
		return time.Now()
	}
	return c.Clock()
}

// WallNow is the context's wall clock, or time.Now when none is set.
func (c Context) WallNow() time.Time {
	if c.Wall == nil {
		return time.Now()
	}
	return c.Wall()
}
