package components

import (
	"errors"
	"testing"

	"charm.land/bubbles/v2/spinner"

	"github.com/dbadmin-tui/dbadmin-tui/themes"
)

func TestTaskLineFailureClearsByDefault(t *testing.T) {
	tl := NewTaskLine(dark())
	tl.Start("a", "loading alerts")
	clearA := tl.Finish("a", errors.New("500 UNEXPECTED_ERROR"), "")
	eq(t, true, clearA != nil, "without holding, a failure clears after the delay")
	tl, _ = tl.Update(clearA().(TaskClearMsg))
	eq(t, "", tl.View())
}

func TestTaskLineHoldFailures(t *testing.T) {
	tl := NewTaskLine(dark())
	tl.SetHoldFailures(true)

	tl.Start("a", "loading alerts")
	eq(t, true, tl.Finish("a", errors.New("500 UNEXPECTED_ERROR"), "") == nil, "a held failure schedules no clear")
	mustContain(t, plain(tl.View()), "✗ loading alerts failed: 500 UNEXPECTED_ERROR")

	// A running task shows over the failure; the failure is still there.
	tl.Start("b", "loading clusters")
	v := plain(tl.View())
	mustContain(t, v, "loading clusters…")
	mustContain(t, v, "(+1)")

	// The next outcome replaces the failure; a success clears as usual.
	clearB := tl.Finish("b", nil, "")
	eq(t, true, clearB != nil)
	v = plain(tl.View())
	mustContain(t, v, "✓ loading clusters: done")
	mustNotContain(t, v, "(+1)")
	mustNotContain(t, v, "loading alerts")
	tl, _ = tl.Update(TaskClearMsg{ID: "b", Gen: tl.gen})
	eq(t, "", tl.View())

	// A later failure replaces an earlier one, and a running task is kept.
	tl.Start("c", "switching project")
	tl.Finish("c", errors.New("403 USER_UNAUTHORIZED"), "")
	tl.Start("d", "loading backups")
	tl.Start("e", "loading search")
	tl.Finish("e", errors.New("timeout"), "")
	eq(t, 1, tl.Running(), "d still runs")
	eq(t, 2, len(tl.tasks), "c gave its place to e")
	mustContain(t, plain(tl.View()), "✗ loading search failed: timeout")
}

func TestTaskLineSetThemeRestylesTheSpinner(t *testing.T) {
	tl := NewTaskLine(dark())
	tl.Start("a", "loading")
	before := tl.View()
	light := themes.MustGet(themes.Light)
	tl.SetTheme(light)
	frame := light.StateRunning.Render(spinner.MiniDot.Frames[0])
	eq(t, frame+" loading…", tl.View())
	eq(t, true, before != tl.View(), "the dark spinner looked different")
	tl.Finish("a", nil, "")
	eq(t, light.StateOK.Render("✓ loading: done"), tl.View(), "outcomes use the new theme too")
}

// A held failure leaves the line once the server answers again (Recovered),
// after it has been readable; one clear is scheduled however many answers
// come.
func TestTaskLineHeldFailureGoesOnceTheServerAnswers(t *testing.T) {
	tl := NewTaskLine(dark())
	tl.SetHoldFailures(true)
	tl.Start("w", "acknowledging NO_PRIMARY")
	tl.Finish("w", errors.New("no answer"), "")
	eq(t, true, tl.Recovered() != nil, "a clear is scheduled")
	eq(t, true, tl.Recovered() == nil, "only once")
	tl, _ = tl.Update(TaskClearMsg{ID: "w", Gen: tl.tasks[0].gen})
	eq(t, "", tl.View())
	eq(t, true, tl.Recovered() == nil, "nothing held, nothing scheduled")
}
