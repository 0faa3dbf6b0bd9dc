package views

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

// Route is what the root reads of a message addressed to one pane.
type Route struct {
	Pane   ID
	Task   string // the task line text; empty for quiet requests
	TaskID string
	Load   bool // the pane's data load: its outcome is the pane's health
	Err    error
	// CachedAt, when set, says the answer came (in part) from what the
	// last start kept, read then (apiclient.StartCopies).
	CachedAt time.Time
}

// Routed is a message addressed to one pane: the root hands it to that
// pane whether or not it is on screen.
type Routed interface{ Route() Route }

// Result is the typed answer to a request made with Get, Load or Write.
type Result[T any] struct {
	Pane  ID
	Seq   uint64 // from the pane's Seq; compare with Seq.Latest
	Key   string // which request of the pane this answers ("list", "detail")
	Task  string
	Load  bool
	Value T
	Err   error
	// CachedAt: the answer came, in whole or in part, from the last
	// start's copies, the oldest read then; zero: from the service.
	CachedAt time.Time
}

// Route addresses the result to its pane.
func (r Result[T]) Route() Route {
	return Route{Pane: r.Pane, Task: r.Task, TaskID: r.TaskID(), Load: r.Load, Err: r.Err, CachedAt: r.CachedAt}
}

// TaskID names the task line entry of a result.
func (r Result[T]) TaskID() string { return taskID(r.Pane, r.Key, r.Seq) }

// Get is a read the pane makes: on-screen priority while the pane is
// visible, background otherwise; a poll's reads wait in the scheduler
// while the pane is hidden and watches nothing.
func Get[T any](b *Base, key string, seq uint64, task string, fn func(context.Context) (T, error)) tea.Cmd {
	return request(b, b.priority(), false, key, seq, task, fn)
}

// Load is the pane's data load (its list, its poll): a read whose outcome
// is the pane's health, and after which the poll loop re-arms.
func Load[T any](b *Base, key string, seq uint64, task string, fn func(context.Context) (T, error)) tea.Cmd {
	return request(b, b.priority(), true, key, seq, task, fn)
}

// Write is a user's write: write priority.
func Write[T any](b *Base, key string, seq uint64, task string, fn func(context.Context) (T, error)) tea.Cmd {
	return request(b, apiclient.PriorityWrite, false, key, seq, task, fn)
}

// Background is work that waits behind every on-screen read and write
// whether or not the pane is shown (a board's fan-out over many projects):
// background priority, BackgroundTimeout, and never held by the pane's
// pause, so a round under way finishes while the pane is hidden (its poll
// loop starts no new one).
func Background[T any](b *Base, key string, seq uint64, task string, fn func(context.Context) (T, error)) tea.Cmd {
	return send(b, apiclient.PriorityBackground, "", BackgroundTimeout, false, key, seq, task, b.shareWindow(), fn)
}

// BackgroundTimeout bounds a Background request: it may wait behind
// everything else.
const BackgroundTimeout = 4 * RequestTimeout

// request returns a Cmd that runs fn with a timeout and the scheduler's
// priority and answers with a Result for the pane. fn runs on another
// goroutine: it must use only what it captured, never the pane. A non-empty
// task shows on the task line while the request runs.
func request[T any](b *Base, prio apiclient.Priority, load bool, key string, seq uint64, task string, fn func(context.Context) (T, error)) tea.Cmd {
	tag := ""
	if b.inPoll {
		tag = string(b.id) // a poll: held while the pane is hidden
	}
	return send(b, prio, tag, RequestTimeout, load, key, seq, task, b.shareWindow(), fn)
}

// shareWindow is how old a copy another session read (apiclient.ReadShare,
// under serve) a poll accepts: one poll interval, what this pane would
// have shown between its own polls anyway. Other reads take the share's
// default.
func (b *Base) shareWindow() time.Duration {
	if b.inPoll {
		return b.Interval()
	}
	return 0
}

// send builds the request's Cmd; a non-empty task is asked for on the
// task line now, with the request.
func send[T any](b *Base, prio apiclient.Priority, tag string, timeout time.Duration, load bool, key string, seq uint64, task string, share time.Duration, fn func(context.Context) (T, error)) tea.Cmd {
	pane := b.id
	if task != "" {
		b.out.asks = append(b.out.asks, TaskStartMsg{ID: taskID(pane, key, seq), Text: task})
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		if share > 0 {
			ctx = apiclient.WithShareWindow(ctx, share)
		}
		ctx, mark := apiclient.WithCopyMark(ctx)
		v, err := fn(apiclient.WithSource(apiclient.WithPriority(ctx, prio, tag), string(pane)))
		return Result[T]{Pane: pane, Key: key, Seq: seq, Task: task, Load: load, Value: v, Err: err, CachedAt: mark.At()}
	}
}
