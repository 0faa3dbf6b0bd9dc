package components

import (
	"fmt"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/themes"
)

// TaskState is where a footer task is.
type TaskState int

// Task states.
const (
	TaskRunning TaskState = iota
	TaskDone
	TaskFailed
)

// TaskClearDelay is how long a finished task stays on the line.
const TaskClearDelay = 3 * time.Second

// TaskClearMsg removes a finished task from the line.
type TaskClearMsg struct {
	ID  string
	Gen int
}

type task struct {
	id     string
	label  string
	state  TaskState
	reason string
	gen    int
	at     time.Time // when it finished
	// clearing: a held failure whose clear is scheduled (Recovered).
	clearing bool
}

// FailureMinHold is how long a held failure stays on the line at least,
// even once the server answers again.
const FailureMinHold = 10 * time.Second

// TaskLine is the footer's task indicator: a spinner and a label while a
// request runs, then "✓ done" or "✗ failed: reason" for a few seconds.
// Several tasks may run; the newest is shown with a count of the others.
type TaskLine struct {
	tasks   []task
	spin    spinner.Model
	ticking bool
	gen     int
	width   int
	theme   themes.Theme
	// holdFailures keeps a failed task on the line until a later task
	// finishes, instead of clearing it after TaskClearDelay.
	holdFailures bool
}

// NewTaskLine returns an idle task line.
func NewTaskLine(th themes.Theme) TaskLine {
	s := spinner.New(spinner.WithSpinner(spinner.MiniDot), spinner.WithStyle(th.StateRunning))
	return TaskLine{spin: s, theme: th}
}

// SetSize sets the width; the height is one line.
func (t *TaskLine) SetSize(w, _ int) { t.width = w }

// SetTheme switches styles, the spinner's included.
func (t *TaskLine) SetTheme(th themes.Theme) {
	t.theme = th
	t.spin.Style = th.StateRunning
}

// SetHoldFailures makes a failed task stay on the line until a later task
// finishes (which then takes its place), instead of clearing it after
// TaskClearDelay: a status bar keeps the last failure readable while
// nothing else happens. Successes still clear after the delay.
func (t *TaskLine) SetHoldFailures(on bool) { t.holdFailures = on }

// Running reports how many tasks are running.
func (t TaskLine) Running() int {
	n := 0
	for _, tk := range t.tasks {
		if tk.state == TaskRunning {
			n++
		}
	}
	return n
}

// Start shows a running task (a new id, or restarts one) and returns the
// spinner's tick when the spinner was idle.
func (t *TaskLine) Start(id, label string) tea.Cmd {
	t.gen++
	t.remove(id)
	t.tasks = append(t.tasks, task{id: id, label: Sanitize(label), state: TaskRunning, gen: t.gen})
	if t.ticking {
		return nil
	}
	t.ticking = true
	return t.spin.Tick
}

// Finish marks a task done (err == nil) or failed, and returns the tick
// that clears it after TaskClearDelay. done is the text shown on success
// ("" keeps "done").
func (t *TaskLine) Finish(id string, err error, done string) tea.Cmd {
	for i := range t.tasks {
		if t.tasks[i].id != id {
			continue
		}
		t.gen++
		tk := &t.tasks[i]
		tk.gen, tk.at = t.gen, time.Now()
		if err != nil {
			tk.state, tk.reason = TaskFailed, Sanitize(err.Error())
		} else {
			tk.state, tk.reason = TaskDone, Sanitize(done)
		}
		gen, failed := t.gen, err != nil
		if t.holdFailures {
			t.dropFinishedExcept(id)
			if failed {
				return nil // stays until a later task finishes
			}
		}
		return tea.Tick(TaskClearDelay, func(time.Time) tea.Msg { return TaskClearMsg{ID: id, Gen: gen} })
	}
	return nil
}

// Recovered says the server answered again: a held failure is no longer
// news, and leaves the line once it has been readable FailureMinHold (and
// at least TaskClearDelay from now), rather than staying on every pane
// until some later task ends.
func (t *TaskLine) Recovered() tea.Cmd {
	var cmds []tea.Cmd
	for i := range t.tasks {
		tk := &t.tasks[i]
		if tk.state != TaskFailed || tk.clearing {
			continue
		}
		tk.clearing = true
		id, gen := tk.id, tk.gen
		wait := max(TaskClearDelay, FailureMinHold-time.Since(tk.at))
		cmds = append(cmds, tea.Tick(wait, func(time.Time) tea.Msg { return TaskClearMsg{ID: id, Gen: gen} }))
	}
	return tea.Batch(cmds...)
}

// dropFinishedExcept removes every finished task but id: the newest outcome
// replaces older ones.
func (t *TaskLine) dropFinishedExcept(id string) {
	kept := t.tasks[:0]
	for _, tk := range t.tasks {
		if tk.state == TaskRunning || tk.id == id {
			kept = append(kept, tk)
		}
	}
	clear(t.tasks[len(kept):])
	t.tasks = kept
}

func (t *TaskLine) remove(id string) {
	for i, tk := range t.tasks {
		if tk.id == id {
			t.tasks = append(t.tasks[:i:i], t.tasks[i+1:]...)
			return
		}
	}
}

// Update advances the spinner while something runs and clears finished
// tasks.
func (t TaskLine) Update(msg tea.Msg) (TaskLine, tea.Cmd) {
	switch msg := msg.(type) {
	case spinner.TickMsg:
		if msg.ID != t.spin.ID() {
			return t, nil
		}
		if t.Running() == 0 {
			t.ticking = false // let the tick loop die
			return t, nil
		}
		var cmd tea.Cmd
		t.spin, cmd = t.spin.Update(msg)
		return t, cmd
	case TaskClearMsg:
		for _, tk := range t.tasks {
			if tk.id == msg.ID && tk.gen == msg.Gen && tk.state != TaskRunning {
				t.remove(msg.ID)
				break
			}
		}
	}
	return t, nil
}

// View renders the newest task, or "" when there is none.
func (t TaskLine) View() string {
	if len(t.tasks) == 0 {
		return ""
	}
	tk := t.tasks[len(t.tasks)-1]
	var s string
	switch tk.state {
	case TaskRunning:
		s = t.spin.View() + " " + tk.label + "…"
	case TaskDone:
		text := tk.reason
		if text == "" {
			text = tk.label + ": done"
		}
		s = t.theme.StateOK.Render("✓ " + text)
	case TaskFailed:
		s = t.theme.StateFailed.Render("✗ " + tk.label + " failed: " + tk.reason)
	}
	if others := len(t.tasks) - 1; others > 0 {
		s += t.theme.Muted.Render(fmt.Sprintf(" (+%d)", others))
	}
	if t.width > 0 {
		s = Truncate(s, t.width)
	}
	return s
}
