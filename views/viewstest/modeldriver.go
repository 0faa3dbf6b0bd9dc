package viewstest

import (
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dbadmin-tui/dbadmin-tui/keymap/keytest"
)

// ModelDriver runs a whole tea.Model (the root with its panes) the way
// the program would, with the same synchronous rules as Driver: every
// message goes back to the model, bells and quits are counted instead.
//
// A live ModelDriver (NewLiveModelDriver) runs Cmds concurrently instead.
type ModelDriver struct {
	T     testing.TB
	Model tea.Model
	Quits int
	// Deadline bounds Settle in a live driver: a Cmd still running then
	// fails the test, named, instead of being dropped or waited for
	// forever.
	Deadline time.Duration

	bells []tea.Msg
	r     runner
	live  *flight
}

// NewModelDriver starts m at a terminal of w x h. Every Cmd runs to
// completion inside the Send (or Press) that caused it.
func NewModelDriver(t testing.TB, m tea.Model, w, h int) *ModelDriver {
	d := &ModelDriver{T: t, Model: m}
	d.r.route = d.deliver
	d.begin(w, h)
	return d
}

// NewLiveModelDriver starts m at a terminal of w x h with its Cmds run the
// way the program runs them: each on a goroutine of its own, its message
// queued until the test delivers it with Settle (every answer, however
// long a loaded machine makes a request take, up to Deadline) or Drain
// (what has arrived so far). Answers can thus come back between key
// presses and out of order, as on a real terminal. Send only starts the
// Cmds; Press and Type settle after each key. Timers are parked as in
// NewModelDriver.
func NewLiveModelDriver(t testing.TB, m tea.Model, w, h int) *ModelDriver {
	d := &ModelDriver{T: t, Model: m, Deadline: 30 * time.Second, live: newFlight()}
	t.Cleanup(func() { close(d.live.stop) })
	d.r.route = d.live.queue
	d.r.start = d.live.start
	d.begin(w, h)
	return d
}

func (d *ModelDriver) begin(w, h int) {
	d.r.run(d.Model.Init())
	d.Send(tea.WindowSizeMsg{Width: w, Height: h})
}

// deliver hands the model a Cmd's message; bells are counted instead.
func (d *ModelDriver) deliver(msg tea.Msg) {
	if r, ok := msg.(tea.RawMsg); ok {
		d.bells = append(d.bells, r)
		return
	}
	d.Send(msg)
}

// Send gives the model msg and runs the Cmd it returns (in a live driver:
// starts it).
func (d *ModelDriver) Send(msg tea.Msg) {
	if _, ok := msg.(tea.QuitMsg); ok {
		d.Quits++
		return
	}
	m, cmd := d.Model.Update(msg)
	d.Model = m
	d.r.run(cmd)
}

// Press sends key presses by name (see Press), each followed by Settle.
func (d *ModelDriver) Press(keys ...string) {
	d.T.Helper()
	for _, k := range keys {
		d.Send(keytest.Press(k))
		d.Settle()
	}
}

// Type types text, one key press a character, each followed by Settle.
func (d *ModelDriver) Type(text string) {
	d.T.Helper()
	for _, r := range text {
		d.Send(keytest.Press(string(r)))
		d.Settle()
	}
}

// Settle delivers messages until no Cmd is running and none is queued, so
// the screen shows every answer; a Cmd still running after Deadline fails
// the test and is named. Without a live driver every Cmd already ran.
func (d *ModelDriver) Settle() {
	d.T.Helper()
	f := d.live
	if f == nil {
		return
	}
	deadline := time.NewTimer(d.Deadline)
	defer deadline.Stop()
	for {
		// Look at the flight before the queue: a Cmd queues its message
		// before it lands, so an empty queue after an empty flight means
		// nothing is left.
		idle := len(f.inFlight()) == 0
		select {
		case msg := <-f.msgs:
			d.deliver(msg)
			continue
		default:
		}
		if idle {
			return
		}
		select {
		case msg := <-f.msgs:
			d.deliver(msg)
		case <-f.landed:
		case <-deadline.C:
			d.T.Fatalf("viewstest: Cmds still running after %v: %v", d.Deadline, f.inFlight())
		}
	}
}

// Drain delivers the messages that have arrived so far without waiting
// for the Cmds still running (a live driver's; otherwise there are none).
func (d *ModelDriver) Drain() {
	if d.live == nil {
		return
	}
	for {
		select {
		case msg := <-d.live.msgs:
			d.deliver(msg)
		default:
			return
		}
	}
}

// Bells is how many times the model rang the terminal bell.
func (d *ModelDriver) Bells() int { return countBells(d.bells) }

// Timers is how many timers were parked so far.
func (d *ModelDriver) Timers() int { return int(d.r.timers.Load()) }

// flight is what a live ModelDriver has under way: the Cmds running, by
// name for the failure message, and their messages not yet delivered.
type flight struct {
	msgs   chan tea.Msg
	landed chan struct{} // a Cmd ended (with or without a message)
	stop   chan struct{} // closed when the test ends: undelivered messages are let go

	mu      sync.Mutex
	running map[int]string
	next    int
}

func newFlight() *flight {
	return &flight{msgs: make(chan tea.Msg, 4096), landed: make(chan struct{}, 1),
		stop: make(chan struct{}), running: map[int]string{}}
}

// start runs a Cmd on a goroutine of its own; it stays in flight until
// its message is queued.
func (f *flight) start(name string, run func()) {
	f.mu.Lock()
	f.next++
	id := f.next
	f.running[id] = name
	f.mu.Unlock()
	go func() {
		defer f.land(id)
		run()
	}()
}

// land takes a finished Cmd out of flight and wakes Settle.
func (f *flight) land(id int) {
	f.mu.Lock()
	delete(f.running, id)
	f.mu.Unlock()
	select {
	case f.landed <- struct{}{}:
	default:
	}
}

// queue holds a message for Settle or Drain; after the test it is let go.
func (f *flight) queue(msg tea.Msg) {
	select {
	case f.msgs <- msg:
	case <-f.stop:
	}
}

// inFlight names the Cmds still running.
func (f *flight) inFlight() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Sorted(maps.Values(f.running))
}

// Screen is the rendered screen without styling.
func (d *ModelDriver) Screen() string { return ansi.Strip(d.Model.View().Content) }
