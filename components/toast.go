package components

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dbadmin-tui/dbadmin-tui/themes"
)

// ToastLevel says how a toast behaves: info toasts expire after a few
// seconds, errors stay longer (and the root clears them when their cause is
// gone).
type ToastLevel int

// Toast levels.
const (
	ToastInfo ToastLevel = iota
	ToastError
)

// DefaultToastTTL is how long an info toast stays.
const DefaultToastTTL = 4 * time.Second

// DefaultErrorTTL is how long an error toast stays: long enough to read a
// server's errorCode and detail, never for ever.
const DefaultErrorTTL = 15 * time.Second

// ShowToastMsg asks whoever owns the Toasts (the root) to show one. Panes
// return it through ShowToast instead of holding toasts themselves.
type ShowToastMsg struct {
	Level ToastLevel
	Text  string
}

// ShowToast is a command that emits a ShowToastMsg.
func ShowToast(level ToastLevel, text string) tea.Cmd {
	return func() tea.Msg { return ShowToastMsg{Level: level, Text: text} }
}

// ToastExpireMsg is the tick that removes a toast.
type ToastExpireMsg struct{ ID int }

// Toast is one notice.
type Toast struct {
	ID     int
	Level  ToastLevel
	Text   string // sanitized
	Count  int    // how many times the same notice came in a row
	Source string // who raised it (a pane's id); "" for the root's own
}

// Toasts is a stack of notices, newest last.
type Toasts struct {
	items  []Toast
	next   int
	ttl    time.Duration
	errTTL time.Duration
	max    int
	width  int
	theme  themes.Theme
	hint   string // after error toasts: the key that dismisses them
	// active is the source on screen: an error toast of another source is
	// kept but not shown (SetActive).
	active string
}

// NewToasts returns an empty stack that keeps at most 5 toasts.
func NewToasts(th themes.Theme) Toasts {
	return Toasts{ttl: DefaultToastTTL, errTTL: DefaultErrorTTL, max: 5, width: 40, theme: th}
}

// SetTTL changes how long info toasts stay.
func (t *Toasts) SetTTL(d time.Duration) { t.ttl = d }

// SetErrorTTL changes how long error toasts stay.
func (t *Toasts) SetErrorTTL(d time.Duration) { t.errTTL = d }

// SetTheme switches styles.
func (t *Toasts) SetTheme(th themes.Theme) { t.theme = th }

// SetDismissHint names the key that dismisses a sticky error ("esc"); error
// toasts then end with it in parentheses. "" shows no hint.
func (t *Toasts) SetDismissHint(key string) { t.hint = key }

// SetSize sets the width of the toast column; the height is ignored.
func (t *Toasts) SetSize(w, _ int) { t.width = max(w, 12) }

// Items returns the toasts, oldest first.
func (t Toasts) Items() []Toast { return t.items }

// Len is the number of toasts shown.
func (t Toasts) Len() int { return len(t.items) }

// HasError reports whether a sticky error is shown (esc could dismiss it).
func (t Toasts) HasError() bool {
	for _, it := range t.items {
		if it.Level == ToastError {
			return true
		}
	}
	return false
}

// SetActive names the source on screen (the active pane's id): error toasts
// of other sources are not shown meanwhile. Info toasts show everywhere.
func (t *Toasts) SetActive(source string) { t.active = source }

// shown reports whether a toast is shown with the active source.
func (t Toasts) shown(it Toast) bool {
	return it.Level != ToastError || it.Source == "" || it.Source == t.active
}

// Shown is the number of toasts shown with the active source.
func (t Toasts) Shown() int {
	n := 0
	for _, it := range t.items {
		if t.shown(it) {
			n++
		}
	}
	return n
}

// newestShown is the newest toast shown with the active source.
func (t Toasts) newestShown() (Toast, bool) {
	for i := len(t.items) - 1; i >= 0; i-- {
		if t.shown(t.items[i]) {
			return t.items[i], true
		}
	}
	return Toast{}, false
}

// Push adds a toast and returns the command that expires it. The same text
// and level as the newest toast bumps its count instead of stacking.
func (t *Toasts) Push(level ToastLevel, text string) tea.Cmd { return t.PushFrom("", level, text) }

// PushFrom is Push for a toast a source (a pane) raised.
func (t *Toasts) PushFrom(source string, level ToastLevel, text string) tea.Cmd {
	text = Sanitize(text)
	if n := len(t.items); n > 0 && t.items[n-1].Text == text && t.items[n-1].Level == level && t.items[n-1].Source == source {
		t.items[n-1].Count++
		// Restart its life: a new id makes the older tick a no-op.
		t.next++
		t.items[n-1].ID = t.next
		return t.expire(t.next, level)
	}
	t.next++
	t.items = append(t.items, Toast{ID: t.next, Level: level, Text: text, Count: 1, Source: source})
	for len(t.items) > t.max {
		t.dropOldest()
	}
	return t.expire(t.next, level)
}

// Info and Error are Push with a level.
func (t *Toasts) Info(text string) tea.Cmd  { return t.Push(ToastInfo, text) }
func (t *Toasts) Error(text string) tea.Cmd { return t.Push(ToastError, text) }

func (t *Toasts) expire(id int, level ToastLevel) tea.Cmd {
	ttl := t.ttl
	if level == ToastError {
		ttl = t.errTTL
	}
	return tea.Tick(ttl, func(time.Time) tea.Msg { return ToastExpireMsg{ID: id} })
}

// dropOldest removes the oldest info toast, or the oldest toast if all are
// errors. The newest toast, just pushed, is never the one dropped: a notice
// arriving while errors fill the stack is still shown.
func (t *Toasts) dropOldest() {
	for i, it := range t.items[:len(t.items)-1] {
		if it.Level == ToastInfo {
			t.items = append(t.items[:i:i], t.items[i+1:]...)
			return
		}
	}
	t.items = t.items[1:]
}

// Dismiss removes the newest error toast; it reports whether there was one.
func (t *Toasts) Dismiss() bool {
	for i := len(t.items) - 1; i >= 0; i-- {
		if t.items[i].Level == ToastError {
			t.items = append(t.items[:i:i], t.items[i+1:]...)
			return true
		}
	}
	return false
}

// Clear removes every toast.
func (t *Toasts) Clear() { t.items = nil }

// ClearErrors removes the error toasts: what they were about (a pane, a
// project, a cluster) is no longer on screen.
func (t *Toasts) ClearErrors() {
	out := t.items[:0]
	for _, it := range t.items {
		if it.Level != ToastError {
			out = append(out, it)
		}
	}
	t.items = out
}

// ClearErrorsFrom removes the error toasts one source raised: their cause
// is gone, or the user left what they were about.
func (t *Toasts) ClearErrorsFrom(source string) {
	out := t.items[:0]
	for _, it := range t.items {
		if it.Level != ToastError || it.Source != source {
			out = append(out, it)
		}
	}
	t.items = out
}

// Update handles ShowToastMsg and ToastExpireMsg.
func (t Toasts) Update(msg tea.Msg) (Toasts, tea.Cmd) {
	switch msg := msg.(type) {
	case ShowToastMsg:
		return t, t.Push(msg.Level, msg.Text)
	case ToastExpireMsg:
		for i, it := range t.items {
			if it.ID == msg.ID {
				t.items = append(t.items[:i:i], t.items[i+1:]...)
				break
			}
		}
	}
	return t, nil
}

// View renders the stack, newest at the bottom, each toast a bordered box
// at most the width given with SetSize. Empty when there are none.
func (t Toasts) View() string {
	if len(t.items) == 0 {
		return ""
	}
	boxes := make([]string, 0, len(t.items))
	for _, it := range t.items {
		st := t.theme.ToastInfo
		icon := "ℹ "
		if it.Level == ToastError {
			st, icon = t.theme.ToastError, "✗ "
		}
		text := icon + t.text(it)
		inner := max(t.width-st.GetHorizontalFrameSize(), 4)
		w := min(lipgloss.Width(text), inner)
		boxes = append(boxes, st.Width(w+st.GetHorizontalFrameSize()).Render(text))
	}
	return lipgloss.JoinVertical(lipgloss.Right, boxes...)
}

// Lines renders the newest toast for a status bar in at most n lines of
// width: it wraps rather than being cut, and only what n lines cannot hold
// is cut.
func (t Toasts) Lines(width, n int) []string {
	it, ok := t.newestShown()
	if !ok || n <= 0 {
		return nil
	}
	width = max(width, 1)
	st, icon := t.theme.Footer, "ℹ "
	if it.Level == ToastError {
		st, icon = t.theme.ErrorText, "✗ "
	}
	text := strings.TrimSpace(icon + t.text(it))
	lines := strings.Split(ansi.Wrap(text, width, " "), "\n")
	if len(lines) > n {
		lines[n-1] = Truncate(restAfter(text, lines[:n-1], lines[n-1:]), width)
		lines = lines[:n]
	}
	for i, l := range lines {
		lines[i] = st.Render(strings.TrimRight(l, " "))
	}
	return lines
}

// restAfter is text past its first wrapped lines, as written: the wrap may
// have broken a long word (a host name) across lines, and joining the
// wrapped lines again would put a space inside it. When the lines are not
// text's own (never, for plain text), the wrapped lines are joined.
func restAfter(text string, first, rest []string) string {
	r := text
	for _, l := range first {
		r = strings.TrimLeft(r, " ")
		l = strings.TrimRight(l, " ")
		if !strings.HasPrefix(r, l) {
			return strings.Join(rest, " ")
		}
		r = r[len(l):]
	}
	return strings.TrimLeft(r, " ")
}

// text is a toast's words with its repeat count and, for errors, the
// dismiss hint.
func (t Toasts) text(it Toast) string {
	s := it.Text
	if it.Count > 1 {
		s += fmt.Sprintf(" (×%d)", it.Count)
	}
	if it.Level == ToastError && t.hint != "" {
		s += " (" + t.hint + ")"
	}
	return s
}
