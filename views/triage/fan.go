package triage

import (
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// The fan-out's requests do not each become a Cmd of their own: a
// thousand projects would be a thousand goroutines parked at once, each
// answer a message of its own, and the program draws a frame after every
// message. They wait in a queue instead (alerts first) and a few workers
// run them (fanWorkers: the board's requests in flight, leaving the
// client's other connections to what is on screen). A worker hands the
// answers in so far to the pane as one message (a batch) at most every
// batchWindow, and ends there; the pane starts workers again for what is
// still queued. A worker that finds the queue empty ends, handing in what
// is left (once the window is over, while others still run).
//
// The queue has lanes, taken in turn: what follows the user's write; the
// first read of a part never read (a fill: the board is not whole until
// it is in), alerts before the rest; then the reads again of parts on the
// board (a refresh), alerts before the rest. At thousands of projects a
// poll's refresh of every project's alerts would otherwise go before the
// rest still never read, and the board take that much longer to fill.
// Refreshes wait only for fills, and there are only so many of those:
// each part of each project is read for the first time once.

// fanWorkers bounds the board's requests in flight at once.
const fanWorkers = 32

// batchWindow is how often, at most, answers reach the pane while the
// queue holds more.
const batchWindow = 100 * time.Millisecond

// keyBatch is the key of a batch of answers.
const keyBatch = "batch"

// partBatch is answers the workers took since the last batch.
type partBatch []views.Result[partResult]

// lane is a place in the queue; a lower lane goes first.
type lane int

const (
	laneFront     lane = iota // what follows the user's write
	laneFillFirst             // a project's alerts, never read
	laneFill                  // a project's rest or failed authentications, never read
	laneFirst                 // a project's alerts again
	laneLater                 // a project's rest or failed authentications again
	lanes
)

// laneOf is the lane of a read of a part: first (alerts) or not, its
// first read (fill) or not, what follows a write (front).
func laneOf(first, fill, front bool) lane {
	switch {
	case front:
		return laneFront
	case fill && first:
		return laneFillFirst
	case fill:
		return laneFill
	case first:
		return laneFirst
	}
	return laneLater
}

// fan is the queue of the board's requests and its workers' answers. The
// pane's goroutine queues and starts workers; the workers run as Cmds (the
// program catches their panics as any Cmd's).
type fan struct {
	pane    views.ID
	mu      sync.Mutex
	queue   [lanes][]tea.Cmd
	workers int                        // worker Cmds made and not ended
	running int                        // of which are running
	done    []views.Result[partResult] // answers not handed in yet
	handed  time.Time                  // when a batch was last handed in
}

func newFan(pane views.ID) *fan { return &fan{pane: pane} }

// add queues a request in its lane: after the others there, but in
// front of them for laneFront (the latest write's goes first).
func (f *fan) add(run tea.Cmd, l lane) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if l == laneFront {
		f.queue[l] = append([]tea.Cmd{run}, f.queue[l]...)
		return
	}
	f.queue[l] = append(f.queue[l], run)
}

// queuedLocked is the number of requests not started yet.
func (f *fan) queuedLocked() int {
	n := 0
	for _, q := range f.queue {
		n += len(q)
	}
	return n
}

// nextLocked takes the request to run next, nil when none is queued.
func (f *fan) nextLocked() tea.Cmd {
	for l := range f.queue {
		if q := f.queue[l]; len(q) > 0 {
			run := q[0]
			q[0] = nil // the queue holds it no longer
			f.queue[l] = q[1:]
			return run
		}
	}
	return nil
}

// drop forgets the requests not started yet (a new round replaces them).
func (f *fan) drop() {
	f.mu.Lock()
	f.queue = [lanes][]tea.Cmd{}
	f.mu.Unlock()
}

// start returns the worker Cmds that run what is queued, up to fanWorkers
// at once.
func (f *fan) start() tea.Cmd {
	f.mu.Lock()
	defer f.mu.Unlock()
	var cmds []tea.Cmd
	for n := min(fanWorkers-f.workers, f.queuedLocked()); n > 0; n-- {
		f.workers++
		cmds = append(cmds, f.work)
	}
	return tea.Batch(cmds...)
}

// work runs queued requests until none is left, or until it is time to
// hand the answers in.
func (f *fan) work() tea.Msg {
	f.mu.Lock()
	f.running++
	f.mu.Unlock()
	for {
		f.mu.Lock()
		run := f.nextLocked()
		if run == nil {
			f.workers--
			f.running--
			if f.running > 0 && len(f.done) > 0 {
				// Others still run: hand in with theirs once the window
				// is over, rather than a batch each as the round ends.
				if wait := batchWindow - time.Since(f.handed); wait > 0 {
					f.mu.Unlock()
					time.Sleep(wait)
					f.mu.Lock()
				}
			}
			defer f.mu.Unlock()
			return f.handLocked()
		}
		f.mu.Unlock()
		r, ok := run().(views.Result[partResult])
		f.mu.Lock()
		if ok {
			f.done = append(f.done, r)
		}
		if len(f.done) > 0 && time.Since(f.handed) >= batchWindow {
			f.workers--
			f.running--
			defer f.mu.Unlock()
			return f.handLocked()
		}
		f.mu.Unlock()
	}
}

// handLocked is the batch of the answers not handed in yet, nil when none.
func (f *fan) handLocked() tea.Msg {
	if len(f.done) == 0 {
		return nil
	}
	batch := f.done
	f.done, f.handed = nil, time.Now()
	return views.Result[partBatch]{Pane: f.pane, Key: keyBatch, Value: batch}
}

// batch takes a batch of answers, each as its own, and starts workers for
// what is queued (what the answers queued too).
func (p *Pane) batch(m views.Result[partBatch]) tea.Cmd {
	for _, r := range m.Value {
		p.part(r)
		if !r.CachedAt.IsZero() && r.Seq == p.gen {
			if p.copied == nil {
				p.copied = map[string][]string{}
			}
			p.copied[r.Key] = append(p.copied[r.Key], r.Value.GroupID)
		}
	}
	return tea.Batch(p.recheckCopies(), p.fan.start())
}

// recheckCopies reads again, from the service, the parts a start drew from
// the last start's copies (apiclient.StartCopies), once the round that
// brought them is in: the board says how old they are meanwhile.
func (p *Pane) recheckCopies() tea.Cmd {
	if p.projectsCopied {
		if p.pending[keyAlerts] > 0 || p.pending[keyRest] > 0 {
			return nil
		}
		p.projectsCopied, p.copied = false, nil
		return p.loadProjects()
	}
	for key, ids := range p.copied {
		if p.pending[key] > 0 {
			continue
		}
		delete(p.copied, key)
		for _, id := range ids {
			pr, ok := p.project(id)
			switch {
			case !ok || p.hidden[id]:
			case key == keyAuth:
				p.fetchAuth(pr, p.rest[id].LogClusters)
			default:
				p.fetchPart(key, pr, false)
			}
		}
	}
	return nil
}
