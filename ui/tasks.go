package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

type toastExpireMsg struct{ id int }

type taskClearMsg struct{ id string }

// taskLine is the footer's task line: running requests with a spinner, then
// the last one that ended, as done or failed, for a few seconds.
type taskLine struct {
	run  []task
	last *finished
}

type task struct{ id, text string }

type finished struct {
	id, text string
	err      error
}

func (t *taskLine) start(id, text string) {
	for _, r := range t.run {
		if r.id == id {
			return
		}
	}
	t.run = append(t.run, task{id: id, text: text})
}

func (t *taskLine) running() bool { return len(t.run) > 0 }

// done ends a task; the line shows the outcome until a later clear.
func (t *taskLine) done(id string, err error, _ time.Time) tea.Cmd {
	for i, r := range t.run {
		if r.id == id {
			t.run = append(t.run[:i], t.run[i+1:]...)
			t.last = &finished{id: id, text: r.text, err: err}
			if err != nil {
				return nil // a failure stays until the next task ends
			}
			return tea.Tick(3*time.Second, func(time.Time) tea.Msg { return taskClearMsg{id: id} })
		}
	}
	return nil
}

func (t *taskLine) clear(id string) {
	if t.last != nil && t.last.id == id {
		t.last = nil
	}
}

// toastQueue keeps the notices on screen, newest last.
type toastQueue struct {
	next  int
	items []toastItem
}

type toastItem struct {
	id    int
	text  string
	isErr bool
}

const maxToasts = 3

func (q *toastQueue) push(text string, isErr bool) int {
	q.next++
	q.items = append(q.items, toastItem{id: q.next, text: text, isErr: isErr})
	if len(q.items) > maxToasts {
		q.items = q.items[len(q.items)-maxToasts:]
	}
	return q.next
}

func (q *toastQueue) expire(id int) {
	for i, t := range q.items {
		if t.id == id {
			q.items = append(q.items[:i], q.items[i+1:]...)
			return
		}
	}
}

// dismissError removes the newest error toast; false when there is none.
func (q *toastQueue) dismissError() bool {
	for i := len(q.items) - 1; i >= 0; i-- {
		if q.items[i].isErr {
			q.items = append(q.items[:i], q.items[i+1:]...)
			return true
		}
	}
	return false
}

func (q *toastQueue) latest() (toastItem, bool) {
	if len(q.items) == 0 {
		return toastItem{}, false
	}
	return q.items[len(q.items)-1], true
}
