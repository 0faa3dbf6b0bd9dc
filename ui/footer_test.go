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

	"github.com/dbadmin-tui/dbadmin-tui/themes"
	"github.com/dbadmin-tui/dbadmin-tui/ui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/alerts"
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

func TestFooterInfoToastExpiresErrorToastStaysUntilEsc(t *testing.T) {
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
	assert.Nil(t, expire, "an error toast never expires")
	assert.Contains(t, footerLine(d), "✗ ack failed: 403 USER_UNAUTHORIZED (esc)")
	before := len(panes[alerts.ID].keysGot())
	d.Press("esc")
	assert.NotContains(t, footerLine(d), "ack failed")
	assert.Len(t, panes[alerts.ID].keysGot(), before, "that esc only dismissed the toast")
	d.Press("esc")
	assert.Len(t, panes[alerts.ID].keysGot(), before+1, "the next esc reaches the pane")
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
	assert.Equal(t, " ✓ acknowledging 2 alerts", footerLine(d))

	d.Send(views.TaskStartMsg{ID: "snap#2", Text: "taking snapshot"})
	_, clear := m.Update(views.TaskDoneMsg{ID: "snap#2", Err: errors.New("403 USER_UNAUTHORIZED")})
	assert.Nil(t, clear, "a failure is not cleared by time")
	assert.Equal(t, " ✗ taking snapshot failed: 403 USER_UNAUTHORIZED", footerLine(d))

	// The failure stays until the next task ends, and a running task shows
	// over it meanwhile. Here the next task is a pane's request, which its
	// result ends.
	list := views.ResultMsg{Pane: alerts.ID, Seq: 3, Key: "list", Task: "loading alerts"}
	d.Send(views.TaskStartMsg{ID: list.TaskID(), Text: list.Task})
	assert.Equal(t, " * loading alerts… (+1)", spinning(footerLine(d)))
	d.Send(list)
	assert.Equal(t, " ✓ loading alerts", footerLine(d), "the result ended the task and replaced the failure")
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
	assert.Contains(t, d.m.View().Content, light.ErrorText.Render("✗ boom (esc)"), "and so do toasts")
}
