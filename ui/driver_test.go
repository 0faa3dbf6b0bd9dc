package ui

import (
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// driver runs the root model the way the program would, but synchronously
// for Update: Cmds run on goroutines and their messages come back through a
// channel; a Cmd that takes longer than timeout (a tick, a slow request) is
// dropped. Batches and sequences are expanded.
type driver struct {
	t       testing.TB
	m       *Model
	timeout time.Duration
	msgs    chan tea.Msg
	flight  atomic.Int64
	quiet   time.Duration
	quits   int
}

func newDriver(t testing.TB, m *Model, w, h int) *driver {
	d := &driver{t: t, m: m, timeout: 300 * time.Millisecond, quiet: 25 * time.Millisecond, msgs: make(chan tea.Msg, 4096)}
	d.exec(m.Init())
	d.send(tea.WindowSizeMsg{Width: w, Height: h})
	return d
}

var cmdType = reflect.TypeOf(tea.Cmd(nil))

// exec runs a Cmd off the update goroutine.
func (d *driver) exec(cmd tea.Cmd) { d.execWith(cmd, d.timeout) }

func (d *driver) execWith(cmd tea.Cmd, timeout time.Duration) {
	if cmd == nil {
		return
	}
	d.flight.Add(1)
	go func() {
		defer d.flight.Add(-1)
		done := make(chan tea.Msg, 1)
		go func() { done <- cmd() }()
		select {
		case msg := <-done:
			d.expand(msg, timeout)
		case <-time.After(timeout):
		}
	}()
}

// expand queues a Cmd's message, unpacking batches and sequences.
func (d *driver) expand(msg tea.Msg, timeout time.Duration) {
	if msg == nil {
		return
	}
	if b, ok := msg.(tea.BatchMsg); ok {
		for _, c := range b {
			d.execWith(c, timeout)
		}
		return
	}
	if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().Elem() == cmdType {
		// A sequence: run in order on this goroutine.
		for i := 0; i < v.Len(); i++ {
			c := v.Index(i).Interface().(tea.Cmd)
			if c == nil {
				continue
			}
			done := make(chan tea.Msg, 1)
			go func() { done <- c() }()
			select {
			case m := <-done:
				d.expand(m, timeout)
			case <-time.After(timeout):
				return
			}
		}
		return
	}
	select {
	case d.msgs <- msg:
	default: // a flood (monkey test): drop rather than block
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

// settle delivers messages until none has arrived for the quiet period.
// Cmds still in flight then are ticks or slow requests; they are dropped
// after the driver's timeout.
func (d *driver) settle() {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case msg := <-d.msgs:
			d.send(msg)
		case <-time.After(d.quiet):
			return
		}
	}
	d.t.Fatalf("driver: did not settle")
}

// wait lets every Cmd still running finish or time out.
func (d *driver) wait() {
	deadline := time.Now().Add(d.timeout + time.Second)
	for d.flight.Load() > 0 && time.Now().Before(deadline) {
		d.drain()
		time.Sleep(5 * time.Millisecond)
	}
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
