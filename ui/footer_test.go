package ui

import (
	"errors"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/alerts"
	"github.com/dbadmin-tui/dbadmin-tui/views/backups"
)

// footerLine is the screen's last line: the task line with the newest toast
// on the right.
func footerLine(d *driver) string {
	lines := strings.Split(d.Screen(), "\n")
	return strings.TrimRight(lines[len(lines)-1], " ")
}

// spinning replaces a spinner frame at the start of a footer line with *.
func spinning(line string) string {
	for _, f := range spinner.MiniDot.Frames {
		if rest, ok := strings.CutPrefix(line, " "+f+" "); ok {
			return " * " + rest
		}
	}
	return line
}

func TestFooterToastsExpireAndNeverTakeEsc(t *testing.T) {
	d, panes, _ := readyModel(t, nil)
	m := d.m
	m.toasts.SetTTL(time.Millisecond)

	_, expire := m.Update(views.ToastMsg{Text: "snapshot \x1b]0;pwned\x07queued"})
	require.NotNil(t, expire, "an info toast schedules its expiry")
	assert.Contains(t, footerLine(d), "ℹ snapshot queued")
	assert.NotContains(t, m.View().Content, "pwned\x07", "server text is sanitized")
	msg := expire()
	require.IsType(t, components.ToastExpireMsg{}, msg)
	d.Send(msg)
	assert.NotContains(t, footerLine(d), "snapshot queued", "gone when its time is up")

	_, expire = m.Update(views.ToastMsg{Text: "ack failed: 403 USER_UNAUTHORIZED", Err: true})
	require.NotNil(t, expire, "an error toast expires too, later")
	assert.Contains(t, footerLine(d), "✗ ack failed: 403 USER_UNAUTHORIZED")
	before := len(panes[alerts.ID].keysGot())
	d.Press("esc")
	assert.Len(t, panes[alerts.ID].keysGot(), before+1, "esc goes past the toast to the pane")
	assert.Contains(t, footerLine(d), "ack failed", "and the toast is still there to read")
	d.Send(expire())
	assert.NotContains(t, footerLine(d), "ack failed", "gone when its time is up")

	// An error is about the pane or the context it came from: leaving them
	// clears it.
	d.Send(views.ToastMsg{Text: "pick a cluster first", Err: true})
	d.Press("3")
	assert.NotContains(t, footerLine(d), "pick a cluster first", "switching panes clears it")
	d.Send(views.ToastMsg{Text: "no snapshots here", Err: true})
	d.Press(":")
	d.Type("cluster pay-main")
	d.Press("enter")
	assert.NotContains(t, footerLine(d), "no snapshots here", "picking a cluster clears it")
}

func TestFooterTaskLineSpinsThenSaysDoneOrFailed(t *testing.T) {
	d, _, _ := readyModel(t, nil)
	m := d.m

	d.Send(views.TaskStartMsg{ID: "ack#1", Text: "acknowledging 2 alerts"})
	d.Settle()
	assert.Equal(t, " * acknowledging 2 alerts…", spinning(footerLine(d)))
	require.Equal(t, 1, m.tasks.Running())
	_, next := m.Update(spinner.TickMsg{})
	assert.Nil(t, next, "a tick for another spinner is not ours")

	d.Send(views.TaskDoneMsg{ID: "ack#1"})
	assert.Equal(t, " ✓ acknowledging 2 alerts: done", footerLine(d))

	d.Send(views.TaskStartMsg{ID: "snap#2", Text: "taking snapshot"})
	_, clear := m.Update(views.TaskDoneMsg{ID: "snap#2", Err: errors.New("403 USER_UNAUTHORIZED")})
	assert.Nil(t, clear, "a failure is not cleared by time")
	assert.Equal(t, " ✗ taking snapshot failed: 403 USER_UNAUTHORIZED", footerLine(d))

	// The failure stays until the next task ends, and a running task shows
	// over it meanwhile. Here the next task is a pane's request, which its
	// result ends.
	list := views.Result[struct{}]{Pane: alerts.ID, Seq: 3, Key: "list", Task: "loading alerts"}
	d.Send(views.TaskStartMsg{ID: list.TaskID(), Text: list.Task})
	assert.Equal(t, " * loading alerts… (+1)", spinning(footerLine(d)))
	d.Send(list)
	assert.Equal(t, " ✓ loading alerts: done", footerLine(d), "the result ended the task and replaced the failure")
}

func TestFooterFollowsTheTheme(t *testing.T) {
	d, _, _ := readyModel(t, func(o *Options) { o.Theme = "" })
	light := themes.MustGet(themes.Light)
	d.Send(tea.BackgroundColorMsg{Color: bg{0xffff, 0xffff, 0xffff, 0xffff}})
	d.Send(views.TaskStartMsg{ID: "t", Text: "loading"})
	d.Settle()
	frame := []rune(footerLine(d))[1]
	assert.Contains(t, d.m.View().Content, light.StateRunning.Render(string(frame)), "the spinner takes the new theme")
	d.Send(views.ToastMsg{Text: "boom", Err: true})
	assert.Contains(t, d.m.View().Content, light.ErrorText.Render("✗ boom"), "and so do toasts")
}

// A toast that does not fit beside the task line takes lines of its own
// (at most two) rather than being cut; the screen keeps its height.
func TestLongToastWrapsInsteadOfBeingCut(t *testing.T) {
	d, _, _ := readyModel(t, nil)
	m := d.m
	m.resize(80, 24)
	d.Send(views.TaskStartMsg{ID: "ack", Text: "acknowledging 3 alerts until 2026-11-22 09:00"})
	text := "acknowledging 3 alerts until 2026-11-22 09:00: sent, the answer was lost; reading them back"
	d.Send(views.ToastMsg{Text: text})
	d.Settle()
	lines := strings.Split(strings.TrimRight(d.Screen(), "\n"), "\n")
	require.Len(t, lines, 24, "the screen keeps its height")
	assert.Contains(t, lines[len(lines)-3], "acknowledging 3 alerts until 2026-11-22 09:00", "the task keeps its line")
	assert.NotContains(t, strings.Join(lines[len(lines)-2:], " "), "…", "the notice is not cut")
	words := strings.Fields(strings.Join(lines[len(lines)-2:], " "))
	assert.Equal(t, strings.Fields("ℹ "+text), words, "the whole notice, over two lines")
	assert.Contains(t, lines[1], "1 Tri", "the tabs are still there")

	// A short one stays beside the task on one line.
	d.Send(views.ToastMsg{Text: "ok"})
	d.Settle()
	lines = strings.Split(strings.TrimRight(d.Screen(), "\n"), "\n")
	assert.Contains(t, lines[len(lines)-1], "ℹ ok")
	assert.Contains(t, lines[len(lines)-1], "acknowledging 3 alerts")
}

// A toast remembers the pane that raised it: an error a hidden pane raises
// (a search draft refused while the user reads the access log) is not
// shown in the pane on screen; it shows when its pane is, and goes when
// that pane says its cause is gone, leaving other panes' errors alone.
func TestPaneErrorsStayWithTheirPane(t *testing.T) {
	d, _, _ := readyModel(t, nil)
	// send has pane raise an error (or say its cause is gone) and lets it land.
	send := func(pane views.ID, text raise) {
		d.Send(views.PaneMsg{Pane: pane, Msg: text})
		d.Settle()
	}
	d.Press("4") // Search
	send("search", "search refused: definition invalid")
	require.Contains(t, footerLine(d), "search refused", "shown in its own pane")
	d.Press("5") // Access logs
	assert.NotContains(t, footerLine(d), "search refused", "leaving the pane took its error")
	send("search", "search draft: unknown analyzer")
	assert.NotContains(t, footerLine(d), "unknown analyzer", "a hidden pane's error is not shown in another pane")
	send("accesslogs", "save failed")
	assert.Contains(t, footerLine(d), "save failed", "the pane on screen shows its own")
	send("search", "resolved")
	assert.Contains(t, footerLine(d), "save failed", "another pane's resolution leaves it")
	send("accesslogs", "resolved")
	assert.NotContains(t, footerLine(d), "save failed", "its own pane's resolution clears it")
	send("search", "search draft: unknown analyzer")
	assert.NotContains(t, footerLine(d), "unknown analyzer")
	d.Press("4")
	assert.Contains(t, footerLine(d), "unknown analyzer", "shown once its pane is")
}

// The toasts know the pane on screen from the switch itself, not from the
// next frame: a pane's error is counted as shown once its pane is.
func TestToastsFollowTheActivePaneWithoutAFrame(t *testing.T) {
	d, _, _ := readyModel(t, nil)
	m := d.m
	d.Send(views.ToastMsg{Pane: backups.ID, Text: "list snapshots failed", Err: true})
	assert.Equal(t, 0, m.toasts.Shown(), "a hidden pane's error is not shown")
	d.Press("3")
	require.Equal(t, backups.ID, m.panes[m.active].ID())
	assert.Equal(t, 1, m.toasts.Shown(), "shown once its pane is, before any frame")
	assert.Contains(t, footerLine(d), "list snapshots failed")
}

// A list narrowed by a filter says so on every width: the filter and the
// help key stay in the footer when the actions give way, the filter's text
// cut to fit.
func TestFooterKeepsTheFilterOnANarrowTerminal(t *testing.T) {
	d, _, _ := readyModel(t, nil)
	long := "REPLICATION_OPLOG_WINDOW_RUNNING_OUT on payments-rs-shard-00-02.example.net:27017 " +
		"and payments-rs-shard-00-01.example.net:27017"
	d.Press("/")
	d.Type(long)
	d.Press("enter")
	for _, w := range []int{200, 120, 80, MinWidth} {
		d.Send(tea.WindowSizeMsg{Width: w, Height: 24})
		line := helpLine(d)
		assert.LessOrEqual(t, components.Width(line), w, "width %d", w)
		assert.Contains(t, line, "filter: REPL", "width %d: %q", w, line)
		assert.True(t, strings.HasSuffix(line, "? help"), "width %d: %q", w, line)
		assert.Equal(t, w < 200, !strings.Contains(line, long), "width %d: the text cut only where it does not fit: %q", w, line)
	}
	d.Send(tea.WindowSizeMsg{Width: 80, Height: 24})
	assert.Contains(t, helpLine(d), "(esc clears)", "at 80 columns the hint fits beside the cut text")
}

// helpLine is the footer's key summary, the line above the task line.
func helpLine(d *driver) string {
	lines := strings.Split(d.Screen(), "\n")
	return strings.TrimRight(lines[len(lines)-2], " ")
}
