package viewstest

import (
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/keymap/keytest"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// runner runs Cmds the way the program would, but synchronously and
// deterministically: each Cmd runs to completion on the test's goroutine,
// batches and sequences are expanded, and every message goes to route.
//
// Timers (the Context's Timer, which Sim.Context sets to Timer: poll
// ticks) say "later": they are parked, not run, so a result never depends on how
// much wall time a test took; a timer inside a sequence holds back the
// rest of it, as the program would until the tick. Tests that want a
// timer's message deliver it themselves.
//
// With start set (a live ModelDriver), each Cmd of a batch runs on a
// goroutine of its own instead, as in the program, and route is called
// from those goroutines.
type runner struct {
	route     func(tea.Msg)
	runTimers bool
	timers    atomic.Int64
	start     func(name string, run func())
}

var cmdType = reflect.TypeOf(tea.Cmd(nil))

func cmdName(cmd tea.Cmd) string {
	return runtime.FuncForPC(reflect.ValueOf(cmd).Pointer()).Name()
}

func (r *runner) run(cmd tea.Cmd) {
	if cmd == nil || r.parkRootTimer(cmd) {
		return
	}
	if r.start != nil {
		r.start(cmdName(cmd), func() { r.expand(cmd()) })
		return
	}
	r.expand(cmd())
}

// timerMsg is what a Cmd of Timer answers: a timer, not its message.
type timerMsg struct {
	d  time.Duration
	fn func(time.Time) tea.Msg
}

// Timer is the views.Timer of the test Context: its Cmd answers a
// timerMsg that the driver parks (or, with RunTimers, fires at once).
func Timer(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
	return func() tea.Msg { return timerMsg{d: d, fn: fn} }
}

// park counts a timer that will not run; it reports whether msg was one.
// With runTimers the timer fires at once.
func (r *runner) park(msg tea.Msg) bool {
	t, ok := msg.(timerMsg)
	if !ok {
		return false
	}
	if r.runTimers {
		r.expand(t.fn(time.Now()))
		return true
	}
	r.timers.Add(1)
	return true
}

// parkRootTimer parks the timers the root's own widgets start (toast
// expiry, spinner frames) when a ModelDriver drives the root; panes' timers
// come through the Context's Timer instead.
func (r *runner) parkRootTimer(cmd tea.Cmd) bool {
	if r.runTimers {
		return false
	}
	name := cmdName(cmd)
	if !strings.HasPrefix(name, "charm.land/bubbletea/v2.Tick.") && !strings.HasPrefix(name, "charm.land/bubbletea/v2.Every.") {
		return false
	}
	r.timers.Add(1)
	return true
}

func (r *runner) expand(msg tea.Msg) {
	if msg == nil || r.park(msg) {
		return
	}
	if b, ok := msg.(tea.BatchMsg); ok {
		for _, c := range b {
			r.run(c)
		}
		return
	}
	if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().Elem() == cmdType {
		for i := range v.Len() { // a tea.Sequence: in order, on this goroutine
			c := v.Index(i).Interface().(tea.Cmd)
			if c == nil {
				continue
			}
			if r.parkRootTimer(c) {
				return
			}
			m := c()
			if r.park(m) {
				return
			}
			r.expand(m)
		}
		return
	}
	r.route(msg)
}

// fromProgram reports whether msg is one of bubbletea's own messages, which
// the program handles (a bell's tea.RawMsg, tea.ExecProcess's launch).
func fromProgram(msg tea.Msg) bool {
	t := reflect.TypeOf(msg)
	return strings.HasPrefix(t.PkgPath(), "charm.land/bubbletea/")
}

// Driver stands in for the program and the root model around one pane: it
// runs the pane's Cmds to completion, hands the pane its results
// (every views.Routed result, the message inside a PaneMsg), and
// records what the pane asks of the root instead of opening dialogs.
type Driver struct {
	T    testing.TB
	Pane views.Pane

	// What the pane asked the root for, oldest first. Tests answer a
	// dialog with Confirm or Submit.
	Toasts    []views.ToastMsg
	Confirms  []views.ConfirmMsg
	Forms     []views.FormMsg
	FormsDone []views.FormDoneMsg
	// FormStatuses: what the pane said in a submitted, frozen form; Jumps
	// the panes the pane asked to open; Resolved counts "the errors' cause
	// is gone" (views.ErrorsResolved).
	FormStatuses []views.FormStatusMsg
	Jumps        []views.JumpMsg
	Resolved     int
	// Ticks are the poll ticks that came due; see Tick.
	Ticks []views.PollTickMsg
	// Program holds bubbletea's own messages (bells, editor launches).
	Program []tea.Msg

	r runner
}

// NewDriver drives pane; nothing runs until the test calls Run or Send
// (typically with the pane's Init and SetVisible).
func NewDriver(t testing.TB, pane views.Pane) *Driver {
	d := &Driver{T: t, Pane: pane}
	d.r.route = d.route
	return d
}

// RunTimers makes the driver fire the pane's timers (Context.Timer) at
// once instead of parking them, so each poll's tick is delivered as soon
// as it is armed.
func (d *Driver) RunTimers() { d.r.runTimers = true }

// Timers is how many timers were parked so far.
func (d *Driver) Timers() int { return int(d.r.timers.Load()) }

func (d *Driver) route(msg tea.Msg) {
	switch m := msg.(type) {
	case views.Routed:
		d.Send(m)
	case views.PaneMsg:
		d.Send(m.Msg)
	case views.PollTickMsg:
		d.Ticks = append(d.Ticks, m)
	case views.Ask:
		// The root takes asks from the pane's Base after its Update; as
		// a Cmd's message one would be dropped.
		d.T.Errorf("a %T came from a Cmd: a pane asks through its Base (p.Toast, p.Confirm, ...)", msg)
	default:
		if fromProgram(msg) {
			d.Program = append(d.Program, msg)
			return
		}
		// The root drops a message no pane is named in.
		d.T.Errorf("a bare %T reached the root: a pane's own message travels in a views.PaneMsg", msg)
	}
}

// ask records what the pane asked of the root.
func (d *Driver) ask(a views.Ask) {
	switch m := a.(type) {
	case views.ToastMsg:
		d.Toasts = append(d.Toasts, m)
	case views.ConfirmMsg:
		d.Confirms = append(d.Confirms, m)
	case views.FormMsg:
		d.Forms = append(d.Forms, m)
	case views.FormDoneMsg:
		d.FormsDone = append(d.FormsDone, m)
	case views.FormStatusMsg:
		d.FormStatuses = append(d.FormStatuses, m)
	case views.JumpMsg:
		d.Jumps = append(d.Jumps, m)
	case views.ErrorsResolvedMsg:
		d.Resolved++
	case views.TaskStartMsg:
	}
}

// Run runs cmd to completion and routes what it produces. What the pane
// asked while it made cmd (its Init, its SetVisible) is routed first.
func (d *Driver) Run(cmd tea.Cmd) {
	d.T.Helper()
	d.takeAsks()
	d.r.run(cmd)
}

// Send gives the pane msg, routes what it asked (as the root does, before
// anything else) and runs the Cmd it returns.
func (d *Driver) Send(msg tea.Msg) {
	d.T.Helper()
	p, cmd := d.Pane.Update(msg)
	d.Pane = p
	d.takeAsks()
	d.r.run(cmd)
}

// takeAsks routes the pane's asks and runs its Base's own Cmds.
func (d *Driver) takeAsks() {
	a, ok := d.Pane.(views.Asker)
	if !ok {
		return
	}
	asks, later := a.TakeAsks()
	for _, ask := range asks {
		d.ask(ask)
	}
	d.r.run(later)
}

// Press sends key presses by name (see Press).
func (d *Driver) Press(keys ...string) {
	d.T.Helper()
	for _, k := range keys {
		d.Send(keytest.Press(k))
	}
}

// Action delivers an action as the root does once the gate allowed it.
func (d *Driver) Action(name string) {
	d.T.Helper()
	d.Send(views.ActionMsg{Name: name})
}

// ActionKey is key k as the root delivers it with the gate allowing
// everything: the pane's action bound to k as its ActionMsg, any other key
// as a key press.
func (d *Driver) ActionKey(k string) {
	d.T.Helper()
	for _, a := range d.Pane.Actions() {
		for _, b := range a.Keys() {
			if b == k {
				d.Action(a.Name)
				return
			}
		}
	}
	d.Send(keytest.Press(k))
}

// Tick delivers the newest poll tick that came due and forgets the rest,
// as the one live loop would.
func (d *Driver) Tick() {
	d.T.Helper()
	require.NotEmpty(d.T, d.Ticks, "no poll is scheduled")
	m := d.Ticks[len(d.Ticks)-1]
	d.Ticks = nil
	d.Send(m)
}

// LastConfirm is the newest confirmation the pane asked for.
func (d *Driver) LastConfirm() views.ConfirmMsg {
	d.T.Helper()
	require.NotEmpty(d.T, d.Confirms, "no confirmation was asked")
	return d.Confirms[len(d.Confirms)-1]
}

// Confirm says yes to the newest confirmation, with input typed in its
// prompt (if it has one).
func (d *Driver) Confirm(input string) {
	d.T.Helper()
	a := d.LastConfirm().Action
	a.Confirmed, a.Input = true, input
	d.Send(a)
}

// Submit submits the newest form as the root does: values override the
// fields' initial values, and every field's own rule runs first; the first
// that fails is returned and the pane hears nothing.
func (d *Driver) Submit(values components.FormValues) error {
	d.T.Helper()
	require.NotEmpty(d.T, d.Forms, "no form was opened")
	f := d.Forms[len(d.Forms)-1]
	all := FormDefaults(f.Fields)
	for k, v := range values {
		all[k] = v
	}
	for _, fd := range f.Fields {
		if fd.Kind == components.FieldChoice && len(fd.Choices) > 0 {
			// As the form does: a choice must be one it offers and may select.
			j := slices.Index(fd.Choices, all[fd.Key])
			if j < 0 {
				return fmt.Errorf("%s: choose one", fd.Key)
			}
			if j < len(fd.Reasons) && fd.Reasons[j] != "" {
				return fmt.Errorf("%s: %s cannot be chosen: %s", fd.Key, all[fd.Key], fd.Reasons[j])
			}
		}
		if fd.Validate != nil {
			if err := fd.Validate(all[fd.Key], all); err != nil {
				return err
			}
		}
	}
	a := f.Action
	a.Confirmed, a.Form, a.Values = true, f.ID, all
	d.Send(a)
	return nil
}

// FormDefaults are the values a form starts with: the text, the chosen
// string, or "true"/"false" of each field.
func FormDefaults(fields []components.Field) components.FormValues {
	all := components.FormValues{}
	for _, fd := range fields {
		switch fd.Kind {
		case components.FieldChoice:
			all[fd.Key] = ""
			if fd.Choice >= 0 && fd.Choice < len(fd.Choices) && !fd.None && (fd.Choice >= len(fd.Reasons) || fd.Reasons[fd.Choice] == "") {
				all[fd.Key] = fd.Choices[fd.Choice]
			}
		case components.FieldToggle:
			all[fd.Key] = "false"
			if fd.On {
				all[fd.Key] = "true"
			}
		default:
			all[fd.Key] = fd.Value
		}
	}
	return all
}

// LastFormDone is the newest answer the pane gave a submitted form.
func (d *Driver) LastFormDone() views.FormDoneMsg {
	d.T.Helper()
	require.NotEmpty(d.T, d.FormsDone, "no form was answered")
	return d.FormsDone[len(d.FormsDone)-1]
}

// LastToast is the newest toast; the zero ToastMsg when there was none.
func (d *Driver) LastToast() views.ToastMsg {
	if len(d.Toasts) == 0 {
		return views.ToastMsg{}
	}
	return d.Toasts[len(d.Toasts)-1]
}

// Bells is how many times the pane rang the terminal bell.
func (d *Driver) Bells() int { return countBells(d.Program) }

// Launches is how many processes (an editor) the pane asked the program to
// hand the terminal to.
func (d *Driver) Launches() int {
	n := 0
	for _, m := range d.Program {
		if reflect.TypeOf(m).String() == "tea.execMsg" {
			n++
		}
	}
	return n
}

func countBells(msgs []tea.Msg) int {
	n := 0
	for _, m := range msgs {
		if r, ok := m.(tea.RawMsg); ok && r.Msg == "\a" {
			n++
		}
	}
	return n
}

// Screen is the pane's view as golden files hold it (see Screen).
func (d *Driver) Screen() string { return Screen(d.Pane.View()) }
