package viewstest

import (
	"bytes"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/dbadmin-tui/dbadmin-tui/keymap/keytest"
)

// ProgramDriver runs a whole tea.Model in a real tea.Program writing to a
// buffer, so a test sees the bytes the renderer sends to the terminal
// (Output), not just the model's View. The program delivers every message
// and renders; the driver only runs the model's Cmds (each on a goroutine
// of its own, timers parked as in NewModelDriver) so Settle knows when
// every answer has landed and been drawn.
type ProgramDriver struct {
	T testing.TB
	// Deadline bounds Settle, as in ModelDriver.
	Deadline time.Duration

	p       *tea.Program
	out     *recorder
	r       runner
	live    *flight
	pending atomic.Int64 // messages sent to the program, not yet through Update
	sized   atomic.Bool
	bells   atomic.Int64
	syncs   int
	done    chan struct{}
}

// progModel is the model the program runs: the model under test, with its
// Cmds run by the driver instead of the program.
type progModel struct {
	inner tea.Model
	d     *ProgramDriver
}

// counted carries a Cmd's message through the program; Update unwraps it.
type counted struct{ msg tea.Msg }

// syncMark is written raw to the output by Settle; see there.
const syncMark = "\x1bXviewstest-sync-%d\x1b\\"

func (m progModel) Init() tea.Cmd {
	m.d.r.run(m.inner.Init())
	return nil
}

func (m progModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch x := msg.(type) {
	case counted:
		defer m.d.pending.Add(-1)
		msg = x.msg
	case tea.RawMsg: // written by the program; the driver's marks go no further
		return m, nil
	case tea.WindowSizeMsg:
		defer m.d.sized.Store(true)
	}
	inner, cmd := m.inner.Update(msg)
	m.inner = inner
	m.d.r.run(cmd)
	return m, nil
}

func (m progModel) View() tea.View { return m.inner.View() }

// NewProgramDriver runs m in a tea.Program at a terminal of w x h (true
// colour, TERM=xterm-256color, no input, no signals) and waits for its
// first settled frame.
func NewProgramDriver(t testing.TB, m tea.Model, w, h int) *ProgramDriver {
	d := &ProgramDriver{T: t, Deadline: 30 * time.Second, out: &recorder{}, live: newFlight(), done: make(chan struct{})}
	d.r.start = d.live.start
	d.r.route = d.route
	d.p = tea.NewProgram(progModel{inner: m, d: d}, tea.WithInput(nil), tea.WithOutput(d.out),
		tea.WithWindowSize(w, h), tea.WithColorProfile(colorprofile.TrueColor), tea.WithFPS(120),
		tea.WithEnvironment([]string{"TERM=xterm-256color"}), tea.WithoutSignals(), tea.WithoutSignalHandler())
	go func() {
		defer close(d.done)
		if _, err := d.p.Run(); err != nil && err != tea.ErrProgramKilled {
			t.Errorf("viewstest: program: %v", err)
		}
	}()
	t.Cleanup(func() { d.Quit(); close(d.live.stop) })
	deadline := time.Now().Add(d.Deadline)
	for !d.sized.Load() {
		if time.Now().After(deadline) {
			t.Fatalf("viewstest: the program never sent its window size")
		}
		time.Sleep(time.Millisecond)
	}
	d.Settle()
	return d
}

// route sends a Cmd's message to the program: bubbletea's own messages
// as they are (the program acts on them: bells, clipboard, quit), the
// model's counted so Settle can wait for them.
func (d *ProgramDriver) route(msg tea.Msg) {
	if fromProgram(msg) {
		if r, ok := msg.(tea.RawMsg); ok && r.Msg == "\a" {
			d.bells.Add(1)
		}
		d.p.Send(msg)
		return
	}
	d.pending.Add(1)
	d.p.Send(counted{msg})
}

// Press sends key presses by name (see Press), each followed by Settle.
func (d *ProgramDriver) Press(keys ...string) {
	d.T.Helper()
	for _, k := range keys {
		d.pending.Add(1)
		d.p.Send(counted{keytest.Press(k)})
		d.Settle()
	}
}

// Settle waits until no Cmd is running and every message went through
// Update, then until the renderer has written the resulting frame: it has
// the program write a mark raw (written at the start of a frame tick,
// before the renderer's flush), then a second one; once the second is out,
// the frame of the tick between them is too.
func (d *ProgramDriver) Settle() {
	d.T.Helper()
	deadline := time.Now().Add(d.Deadline)
	for len(d.live.inFlight()) > 0 || d.pending.Load() > 0 {
		if time.Now().After(deadline) {
			d.T.Fatalf("viewstest: Cmds still running after %v: %v (%d messages undelivered)", d.Deadline, d.live.inFlight(), d.pending.Load())
		}
		select {
		case <-d.live.landed:
		case <-time.After(time.Millisecond):
		}
	}
	for range 2 {
		d.syncs++
		mark := fmt.Sprintf(syncMark, d.syncs)
		d.p.Send(tea.RawMsg{Msg: mark})
		for !d.out.contains(mark) {
			if time.Now().After(deadline) {
				d.T.Fatalf("viewstest: the program wrote no frame in %v", d.Deadline)
			}
			time.Sleep(time.Millisecond)
		}
	}
}

// Output is every byte the program wrote to the terminal so far, the
// driver's own marks taken out.
func (d *ProgramDriver) Output() []byte {
	b := d.out.bytes()
	for i := 1; i <= d.syncs; i++ {
		b = bytes.Replace(b, fmt.Appendf(nil, syncMark, i), nil, 1)
	}
	return b
}

// Bells is how many bells the model rang (tea.Raw("\a")).
func (d *ProgramDriver) Bells() int { return int(d.bells.Load()) }

// Quit ends the program and waits for it to restore the terminal.
func (d *ProgramDriver) Quit() {
	d.p.Quit()
	select {
	case <-d.done:
	case <-time.After(d.Deadline):
		d.p.Kill()
		<-d.done
	}
}

// recorder keeps what the program writes.
type recorder struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	seen int
}

var _ io.Writer = (*recorder)(nil)

func (r *recorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.buf.Write(p)
}

// contains reports whether s was written since the last s it found.
func (r *recorder) contains(s string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	i := bytes.Index(r.buf.Bytes()[r.seen:], []byte(s))
	if i < 0 {
		return false
	}
	r.seen += i + len(s)
	return true
}

func (r *recorder) bytes() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return bytes.Clone(r.buf.Bytes())
}
