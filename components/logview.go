package components

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
)

// DefaultLogCapacity is how many lines a LogView keeps by default.
const DefaultLogCapacity = 50_000

// LogView is a tail of text lines: a ring buffer with follow mode (stays at
// the bottom as lines arrive; scrolling up pauses; G or f resumes), a wrap
// toggle and an indicator line. It renders only the lines on screen.
type LogView struct {
	ring    Ring[string] // the lines held
	dropped int          // lines pushed out of the ring so far

	top    int // first shown line (0 = oldest held) when paused
	follow bool
	wrap   bool
	extras []string

	width, height int
	theme         themes.Theme
	nav           keymap.Navigation
	keys          LogKeys
}

// LogKeys are the keys a LogView answers besides navigation; the pane that
// shows it owns them. Zero actions never match.
type LogKeys struct {
	End, Follow, Wrap keymap.Action
}

// NewLogView returns an empty, following log view; capacity <= 0 means
// DefaultLogCapacity. km may be nil.
func NewLogView(capacity int, th themes.Theme, km *keymap.KeyMap, keys LogKeys) LogView {
	if capacity <= 0 {
		capacity = DefaultLogCapacity
	}
	if km == nil {
		km = keymap.Default()
	}
	return LogView{ring: NewRing[string](capacity), follow: true, theme: th, nav: km.Navigation, keys: keys}
}

// SetSize sets the size; the last line is the indicator.
func (l *LogView) SetSize(w, h int) {
	l.width, l.height = max(w, 0), max(h, 0)
	l.clampTop()
}

// Capacity is the ring size.
func (l LogView) Capacity() int { return l.ring.Cap() }

// Len is the number of lines held.
func (l LogView) Len() int { return l.ring.Len() }

// Dropped is how many old lines the ring has pushed out.
func (l LogView) Dropped() int { return l.dropped }

// Line returns held line i (0 = oldest).
func (l LogView) Line(i int) string { return l.ring.At(i) }

// Lines returns a copy of the held lines, oldest first.
func (l LogView) Lines() []string {
	out := make([]string, l.Len())
	for i := range out {
		out[i] = l.Line(i)
	}
	return out
}

// Following reports follow mode; Wrapping reports wrap mode.
func (l LogView) Following() bool { return l.follow }
func (l LogView) Wrapping() bool  { return l.wrap }

// Top is the first shown line when paused.
func (l LogView) Top() int {
	if l.follow {
		return max(l.Len()-l.bodyHeight(), 0)
	}
	return l.top
}

// SetFollow turns follow mode on (jumping to the end) or off.
func (l *LogView) SetFollow(on bool) {
	if !on && l.follow {
		l.top = l.Top()
	}
	l.follow = on
}

// SetWrap turns line wrapping on or off.
func (l *LogView) SetWrap(on bool) { l.wrap = on }

// SetIndicator sets extra indicator segments after the built-in ones, e.g.
// "UTC", "failures only", "ip 10.0.0.1".
func (l *LogView) SetIndicator(extras ...string) { l.extras = extras }

// ScrollTo shows line i at the top (pausing follow), e.g. a search match.
func (l *LogView) ScrollTo(i int) {
	l.follow = false
	l.top = i
	l.clampTop()
}

// Append adds lines (each sanitized to one line). When the ring is full the
// oldest go; a paused view keeps showing the same lines while they exist.
func (l *LogView) Append(lines ...string) {
	for _, s := range lines {
		if l.ring.Push(Sanitize(s)) {
			l.dropped++
			if !l.follow {
				l.top--
			}
		}
	}
	l.clampTop()
}

// Clear drops every line.
func (l *LogView) Clear() {
	l.ring.Clear()
	l.top = 0
}

func (l LogView) bodyHeight() int { return max(l.height-1, 0) }

func (l *LogView) clampTop() {
	l.top = clampInt(l.top, 0, max(l.Len()-l.bodyHeight(), 0))
}

func (l *LogView) scroll(d int) {
	if d < 0 {
		l.SetFollow(false)
	}
	if l.follow {
		return
	}
	l.top += d
	l.clampTop()
}

// Update scrolls, pauses and resumes.
func (l LogView) Update(msg tea.Msg) (LogView, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return l, nil
	}
	page := max(l.bodyHeight(), 1)
	switch {
	case l.keys.End.Matches(k), l.nav.End.Matches(k):
		l.SetFollow(true)
	case l.keys.Follow.Matches(k):
		l.SetFollow(!l.follow)
	case l.keys.Wrap.Matches(k):
		l.wrap = !l.wrap
	case l.nav.Home.Matches(k):
		l.SetFollow(false)
		l.top = 0
	default:
		if d, ok := navStep(l.nav, k, page); ok {
			l.scroll(d)
		}
	}
	return l, nil
}

// Indicator is the status line text, e.g.
// "following | wrap off | 1,204 lines | UTC".
func (l LogView) Indicator() string {
	parts := make([]string, 0, 4+len(l.extras))
	if l.follow {
		parts = append(parts, "following")
	} else {
		parts = append(parts, "paused (G resumes)")
	}
	if l.wrap {
		parts = append(parts, "wrap on")
	} else {
		parts = append(parts, "wrap off")
	}
	lines := Thousands(l.Len()) + " lines"
	if l.dropped > 0 {
		lines += " (" + Thousands(l.dropped) + " dropped)"
	}
	parts = append(parts, lines)
	parts = append(parts, l.extras...)
	return strings.Join(parts, " | ")
}

// View renders the shown lines and the indicator, exactly Height lines.
func (l LogView) View() string {
	if l.height <= 0 || l.width <= 0 {
		return ""
	}
	h := l.bodyHeight()
	var out []string
	if l.wrap {
		out = l.wrapped(h)
	} else {
		top := l.Top()
		for i := top; i < min(top+h, l.Len()); i++ {
			out = append(out, Truncate(l.Line(i), l.width))
		}
	}
	for len(out) < h {
		out = append(out, "")
	}
	out = append(out, l.theme.Footer.Render(Truncate(l.Indicator(), l.width)))
	return strings.Join(out, "\n")
}

// wrapped fills h rows: from the bottom up when following, from Top down
// when paused.
func (l LogView) wrapped(h int) []string {
	if l.follow {
		var rev []string
		for i := l.Len() - 1; i >= 0 && len(rev) < h; i-- {
			parts := wrapLine(l.Line(i), l.width)
			for j := len(parts) - 1; j >= 0 && len(rev) < h; j-- {
				rev = append(rev, parts[j])
			}
		}
		for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
			rev[i], rev[j] = rev[j], rev[i]
		}
		return rev
	}
	var out []string
	for i := l.top; i < l.Len() && len(out) < h; i++ {
		for _, p := range wrapLine(l.Line(i), l.width) {
			if len(out) == h {
				break
			}
			out = append(out, p)
		}
	}
	return out
}

func wrapLine(s string, w int) []string {
	if Width(s) <= w {
		return []string{s}
	}
	return strings.Split(ansi.Hardwrap(s, w, true), "\n")
}
