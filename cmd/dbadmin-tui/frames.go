package main

import (
	"reflect"
	"sync"
	"time"
	"unsafe"

	tea "charm.land/bubbletea/v2"
)

// Frame pacing: Bubble Tea draws on a ticker at its frame rate for the
// whole run and skips a frame that did not change, but the wake-ups cost
// even when it skips: at 30 frames a second an idle dashboard spent
// 0.38 CPU-s a minute, at 10 frames 0.15 (100,000 alerts, nothing on
// screen changing). Bubble Tea has no option for a slower rate while
// nothing changes, so the pacer slows its ticker itself: it watches each
// View the program asks for and, when one differs from the last (or the
// window was resized), has the ticker fire at once and then at the frame
// rate; once no View has changed for a few frames it slows the ticker to
// once every idleFrame. What is drawn is never held back: a View that
// changed is drawn within a millisecond when the ticker was slow and at the
// frame rate while it is fast, as before. Only what Bubble Tea writes
// without a View changing (a terminal query's answer, the clipboard) can
// wait up to idleFrame.
const (
	idleFrame  = time.Second
	leadFrame  = time.Millisecond
	quietAfter = 4 // frames without a change before slowing down
)

// ticker is what the pacer changes of Bubble Tea's ticker.
type ticker interface{ Reset(time.Duration) }

// framePacer wraps the dashboard's model for tea.NewProgram.
type framePacer struct {
	tea.Model
	find  func() ticker // Bubble Tea's ticker, once the program runs
	frame time.Duration // the frame rate's interval

	last    tea.View
	resized bool // a WindowSizeMsg since the last View

	mu      sync.Mutex
	tick    ticker
	fast    bool      // the ticker runs at frame (or leadFrame)
	leading bool      // the ticker runs at leadFrame
	changed time.Time // the last View that differed
	settle  *time.Timer
}

// pace wraps m; attach gives it the program once made. A pacer that cannot
// find the program's ticker leaves it as it is.
func pace(m tea.Model, fps int) *framePacer {
	return &framePacer{Model: m, frame: time.Second / time.Duration(fps), fast: true}
}

// Attach finds the ticker of p when the pacer first needs it (Bubble Tea
// makes it when the program starts). The serve package calls it on the
// program of each session.
func (f *framePacer) Attach(p *tea.Program) {
	f.find = func() ticker {
		if t := programTicker(p); t != nil {
			return t
		}
		return nil
	}
}

// programTicker is Bubble Tea's frame ticker (the Program's unexported
// ticker field), or nil when the program has none yet or Bubble Tea no
// longer keeps one there (TestProgramTickerFound says so on an upgrade).
func programTicker(p *tea.Program) *time.Ticker {
	v := reflect.ValueOf(p).Elem().FieldByName("ticker")
	if !v.IsValid() || v.Type() != reflect.TypeFor[*time.Ticker]() {
		return nil
	}
	return *(**time.Ticker)(unsafe.Pointer(v.UnsafeAddr()))
}

func (f *framePacer) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(tea.WindowSizeMsg); ok {
		f.resized = true
	}
	var cmd tea.Cmd
	f.Model, cmd = f.Model.Update(msg)
	return f, cmd
}

func (f *framePacer) View() tea.View {
	v := f.Model.View()
	if f.resized || !sameView(v, f.last) {
		f.resized = false
		f.wake()
	}
	f.last = v
	return v
}

// sameView reports whether Bubble Tea would draw b as it drew a; a field it
// does not compare here only makes the pacer wake when it need not.
func sameView(a, b tea.View) bool {
	if a.Content != b.Content || a.AltScreen != b.AltScreen || a.WindowTitle != b.WindowTitle ||
		a.MouseMode != b.MouseMode || a.ReportFocus != b.ReportFocus ||
		a.DisableBracketedPasteMode != b.DisableBracketedPasteMode ||
		(a.Cursor == nil) != (b.Cursor == nil) || (a.ProgressBar == nil) != (b.ProgressBar == nil) {
		return false
	}
	if a.Cursor != nil && (a.Cursor.Position != b.Cursor.Position || a.Cursor.Shape != b.Cursor.Shape ||
		a.Cursor.Blink != b.Cursor.Blink) {
		return false
	}
	return a.ProgressBar == nil || *a.ProgressBar == *b.ProgressBar
}

// wake has the next frame drawn now and the ones after at the frame rate.
func (f *framePacer) wake() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.tick == nil {
		if f.find == nil {
			return
		}
		if f.tick = f.find(); f.tick == nil {
			return
		}
	}
	f.changed = time.Now()
	if !f.fast {
		f.fast, f.leading = true, true
		f.tick.Reset(leadFrame)
		f.arm(2 * leadFrame)
	} else if f.settle == nil {
		f.arm(quietAfter * f.frame)
	}
}

// arm runs step after d.
func (f *framePacer) arm(d time.Duration) {
	if f.settle == nil {
		f.settle = time.AfterFunc(d, f.step)
		return
	}
	f.settle.Reset(d)
}

// step moves the ticker from the leading frame to the frame rate, and from
// the frame rate to idleFrame once no View changed for quietAfter frames.
func (f *framePacer) step() {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch quiet := time.Since(f.changed); {
	case f.leading:
		f.leading = false
		f.tick.Reset(f.frame)
		f.arm(quietAfter * f.frame)
	case quiet < quietAfter*f.frame:
		f.arm(quietAfter*f.frame - quiet)
	default:
		f.fast = false
		f.tick.Reset(idleFrame)
	}
}
