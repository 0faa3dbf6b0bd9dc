package ui

import (
	"reflect"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// driver runs the root model the way the program would, but synchronously
// for Update, and deterministically: every Cmd runs on a goroutine and its
// message comes back through a channel, and settle waits for all of them,
// however long a loaded machine makes a request take, up to a generous
// deadline after which the test fails and names what is still running.
// Nothing is dropped.
//
// Timers (tea.Tick, tea.Every: the spinner's frames, toast expiry, the
// header clock, poll ticks) are the exception: they say "later", they are
// never waited for, and they are parked instead of run, so a screen never
// depends on how much wall time a test took. Tests that need a timer's
// message send it themselves. Batches and sequences are expanded.
type driver struct {
	t        testing.TB
	m        *Model
	deadline time.Duration // how long settle and wait may take before failing
	msgs     chan tea.Msg
	landed   chan struct{} // a Cmd ended (with or without a message)
	stop     chan struct{} // closed when the test ends: undelivered messages are let go
	quits    int

	mu      sync.Mutex
	running map[int]string // Cmds in flight, by name, for the failure message
	nextRun int
	parked  []string // timers not run, by name
}

func newDriver(t testing.TB, m *Model, w, h int) *driver {
	d := &driver{t: t, m: m, deadline: 30 * time.Second, msgs: make(chan tea.Msg, 4096),
		landed: make(chan struct{}, 1), stop: make(chan struct{}), running: map[int]string{}}
	t.Cleanup(func() { close(d.stop) })
	d.exec(m.Init())
	d.send(tea.WindowSizeMsg{Width: w, Height: h})
	return d
}

var cmdType = reflect.TypeOf(tea.Cmd(nil))

func cmdName(cmd tea.Cmd) string {
	return runtime.FuncForPC(reflect.ValueOf(cmd).Pointer()).Name()
}

// isTimer reports whether cmd is a tea.Tick or tea.Every: a message for
// later, which the driver parks instead of sleeping through.
func isTimer(name string) bool {
	return strings.HasPrefix(name, "charm.land/bubbletea/v2.Tick.") ||
		strings.HasPrefix(name, "charm.land/bubbletea/v2.Every.")
}

// park records a timer that will not run; it reports whether cmd was one.
func (d *driver) park(cmd tea.Cmd) bool {
	name := cmdName(cmd)
	if !isTimer(name) {
		return false
	}
	d.mu.Lock()
	d.parked = append(d.parked, name)
	d.mu.Unlock()
	return true
}

// timers is how many timers were parked so far.
func (d *driver) timers() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.parked)
}

// exec runs a Cmd off the update goroutine; settle waits for it.
func (d *driver) exec(cmd tea.Cmd) {
	if cmd == nil || d.park(cmd) {
		return
	}
	d.mu.Lock()
	d.nextRun++
	id := d.nextRun
	d.running[id] = cmdName(cmd)
	d.mu.Unlock()
	go func() {
		defer d.land(id)
		d.expand(cmd())
	}()
}

// land takes a finished Cmd out of flight, after its message was queued,
// and wakes settle.
func (d *driver) land(id int) {
	d.mu.Lock()
	delete(d.running, id)
	d.mu.Unlock()
	select {
	case d.landed <- struct{}{}:
	default:
	}
}

// inFlight names the Cmds still running.
func (d *driver) inFlight() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]string, 0, len(d.running))
	for _, name := range d.running {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// expand queues a Cmd's message, unpacking batches and sequences. It runs
// on the Cmd's goroutine, so the Cmd stays in flight until its message is
// queued.
func (d *driver) expand(msg tea.Msg) {
	if msg == nil {
		return
	}
	if b, ok := msg.(tea.BatchMsg); ok {
		for _, c := range b {
			d.exec(c)
		}
		return
	}
	if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().Elem() == cmdType {
		// A sequence: run in order on this goroutine. A timer in it holds
		// back the rest, which the program would run only after the tick.
		for i := 0; i < v.Len(); i++ {
			c := v.Index(i).Interface().(tea.Cmd)
			if c == nil {
				continue
			}
			if d.park(c) {
				return
			}
			d.expand(c())
		}
		return
	}
	select {
	case d.msgs <- msg:
	case <-d.stop: // the test is over
	}
}

// send delivers one message through Update and starts its Cmd.
func (d *driver) send(msg tea.Msg) {
	if _, ok := msg.(tea.QuitMsg); ok {
		d.quits++
		return
	}
	_, cmd := d.m.Update(msg)
	d.exec(cmd)
}

// drain delivers what has arrived so far without waiting.
func (d *driver) drain() {
	for {
		select {
		case msg := <-d.msgs:
			d.send(msg)
		default:
			return
		}
	}
}

// settle delivers messages until no Cmd is running and none is queued: the
// screen then shows every answer. A Cmd still running at the deadline fails
// the test loudly instead of being dropped.
func (d *driver) settle() {
	d.t.Helper()
	deadline := time.NewTimer(d.deadline)
	defer deadline.Stop()
	for {
		// Look at flight before the queue: a Cmd queues its message before
		// it lands, so an empty queue after no flight means nothing is left.
		idle := len(d.inFlight()) == 0
		select {
		case msg := <-d.msgs:
			d.send(msg)
			continue
		default:
		}
		if idle {
			return
		}
		select {
		case msg := <-d.msgs:
			d.send(msg)
		case <-d.landed:
		case <-deadline.C:
			d.t.Fatalf("driver: Cmds still running after %v: %v", d.deadline, d.inFlight())
		}
	}
}

// wait is settle under the name the tests that fire many Cmds use.
func (d *driver) wait() {
	d.t.Helper()
	d.settle()
}

func (d *driver) key(keys ...tea.KeyPressMsg) {
	for _, k := range keys {
		d.send(k)
		d.settle()
	}
}

// screen is the rendered screen without styling.
func (d *driver) screen() string { return ansi.Strip(d.m.View().Content) }

// press builds a key press from a keymap key name ("a", "enter", "ctrl+c",
// "shift+tab", "space", "esc").
func press(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "home":
		return tea.KeyPressMsg{Code: tea.KeyHome}
	case "end":
		return tea.KeyPressMsg{Code: tea.KeyEnd}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "delete":
		return tea.KeyPressMsg{Code: tea.KeyDelete}
	}
	if len(k) > 5 && k[:5] == "ctrl+" {
		return tea.KeyPressMsg{Code: rune(k[5]), Mod: tea.ModCtrl}
	}
	r := []rune(k)
	return tea.KeyPressMsg{Code: r[0], Text: k}
}

func typeText(s string) []tea.KeyPressMsg {
	var out []tea.KeyPressMsg
	for _, r := range s {
		out = append(out, press(string(r)))
	}
	return out
}

// collect runs a Cmd and its batch synchronously (for commands known to be
// immediate) and returns the messages.
func collect(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, collect(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

func typeName(v any) string { return reflect.TypeOf(v).String() }

func teaSize(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }
