package components

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
)

func TestToastInfoExpiresErrorStaysLonger(t *testing.T) {
	ts := NewToasts(dark())
	ts.SetTTL(5 * time.Millisecond)
	ts.SetErrorTTL(20 * time.Millisecond)
	infoCmd := ts.Info("snapshot queued")
	start := time.Now()
	errCmd := ts.Error("restore failed: \x1b]0;pwned\x07CLUSTER_NOT_FOUND")
	eq(t, true, infoCmd != nil, "info toasts expire")
	eq(t, true, errCmd != nil, "errors expire too")
	eq(t, 2, ts.Len())
	mustNotContain(t, ts.View(), "pwned")

	// The tick carries the toast's id and removes only it.
	msg := infoCmd()
	exp, ok := msg.(ToastExpireMsg)
	eq(t, true, ok)
	ts, _ = ts.Update(exp)
	eq(t, 1, ts.Len())
	eq(t, ToastError, ts.Items()[0].Level)
	ts, _ = ts.Update(ToastExpireMsg{ID: ts.Items()[0].ID + 100})
	eq(t, 1, ts.Len(), "another toast's tick leaves it")
	errExp := errCmd().(ToastExpireMsg)
	eq(t, true, time.Since(start) >= 20*time.Millisecond, "an error stays for its own, longer time")
	ts, _ = ts.Update(errExp)
	eq(t, 0, ts.Len())
	eq(t, "", ts.View())

	ts.Info("kept")
	ts.Error("gone")
	ts.ClearErrors()
	eq(t, 1, ts.Len())
	eq(t, "kept", ts.Items()[0].Text)
}

func TestToastDedupeAndRestart(t *testing.T) {
	ts := NewToasts(dark())
	ts.SetTTL(time.Millisecond)
	first := ts.Info("refreshed")
	old := first().(ToastExpireMsg)
	_ = ts.Info("refreshed")
	eq(t, 1, ts.Len())
	eq(t, 2, ts.Items()[0].Count)
	ts, _ = ts.Update(old)
	eq(t, 1, ts.Len(), "the older tick no longer expires the bumped toast")
	mustContain(t, plain(ts.View()), "(×2)")

	ts, cmd := ts.Update(ShowToastMsg{Level: ToastError, Text: "boom"})
	eq(t, true, cmd != nil, "an error expires too")
	eq(t, 2, ts.Len())
	for i := 0; i < 10; i++ {
		ts.Info(fmt.Sprint("n", i))
	}
	eq(t, 5, ts.Len())
	eq(t, true, ts.HasError(), "errors outlive info toasts when the stack is full")
}

func TestTaskLine(t *testing.T) {
	tl := NewTaskLine(dark())
	cmd := tl.Start("ack", "acknowledging 3 alerts")
	eq(t, true, cmd != nil, "starts the spinner")
	eq(t, true, tl.Start("snap", "taking snapshot") == nil, "spinner already ticking")
	mustContain(t, plain(tl.View()), "taking snapshot…")
	mustContain(t, plain(tl.View()), "(+1)")

	clear := tl.Finish("snap", errors.New("403 USER_UNAUTHORIZED"), "")
	mustContain(t, plain(tl.View()), "taking snapshot failed: 403 USER_UNAUTHORIZED")
	tl.Finish("ack", nil, "3 alerts acknowledged")
	_ = clear
	tl, _ = tl.Update(TaskClearMsg{ID: "snap", Gen: 2})
	eq(t, 2, len(tl.tasks), "stale generation ignored")
	tl.tasks = tl.tasks[:0]
	tl.Start("x", "x")
	c := tl.Finish("x", nil, "")
	m := TaskClearMsg{ID: "x", Gen: tl.gen}
	_ = c
	tl, _ = tl.Update(m)
	eq(t, "", tl.View())

	// With nothing running, a spinner tick ends the loop.
	tl, next := tl.Update(spinner.TickMsg{ID: tl.spin.ID()})
	eq(t, true, next == nil)
	eq(t, false, tl.ticking)
}

func logLines(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("line %d", i)
	}
	return out
}

var testLogKeys = LogKeys{
	End:    keymap.NewAction("logs.end", "", "end + resume", "G"),
	Follow: keymap.NewAction("logs.follow", "", "follow", "f"),
	Wrap:   keymap.NewAction("logs.wrap", "", "wrap", "w"),
}

func TestLogViewFollowPauseResume(t *testing.T) {
	lv := NewLogView(100, dark(), nil, testLogKeys)
	lv.SetSize(40, 6) // 5 lines + indicator
	lv.Append(logLines(20)...)
	v := plain(lv.View())
	mustContain(t, v, "line 19")
	mustNotContain(t, v, "line 14")
	mustContain(t, v, "following | wrap off | 20 lines")

	lv, _ = lv.Update(key("k")) // scrolling up pauses
	eq(t, false, lv.Following())
	eq(t, 14, lv.Top())
	lv.Append("line 20", "line 21")
	v = plain(lv.View())
	mustContain(t, v, "line 14")
	mustNotContain(t, v, "line 21")
	mustContain(t, v, "paused")

	lv, _ = lv.Update(key("G")) // end + resume
	eq(t, true, lv.Following())
	mustContain(t, plain(lv.View()), "line 21")

	lv, _ = lv.Update(key("f"))
	eq(t, false, lv.Following())
	lv, _ = lv.Update(key("f"))
	eq(t, true, lv.Following())
	lv.Append("line 22")
	mustContain(t, plain(lv.View()), "line 22")
}

func TestLogViewRingAndWrap(t *testing.T) {
	lv := NewLogView(10, dark(), nil, testLogKeys)
	lv.SetSize(10, 4)
	lv.Append(logLines(25)...)
	eq(t, 10, lv.Len())
	eq(t, 15, lv.Dropped())
	eq(t, "line 15", lv.Line(0))
	mustContain(t, lv.Indicator(), "15 dropped")

	lv.ScrollTo(2)
	lv.Append("new one")
	eq(t, 1, lv.Top(), "a paused view keeps showing the same lines")
	eq(t, "line 17", lv.Line(lv.Top()))

	lv.SetFollow(true)
	lv.Append("a long line that wraps")
	lv, _ = lv.Update(key("w"))
	eq(t, true, lv.Wrapping())
	v := plain(lv.View())
	lines := strings.Split(v, "\n")
	eq(t, 4, len(lines))
	mustContain(t, v, "a long lin\ne that wra\nps")
	for _, line := range lines {
		if Width(line) > 10 {
			t.Fatalf("line wider than view: %q", line)
		}
	}
	lv.Append("\x1b[2Jevil\x1b]0;t\x07")
	eq(t, "evil", lv.Line(lv.Len()-1))
	lv.SetIndicator("UTC")
	mustContain(t, lv.Indicator(), "| UTC")
}
