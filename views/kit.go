package views

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
)

// Base is what every pane embeds: its context, size, visibility, the `p`
// pause, the poll loop with the one poll policy, and the health of its
// loads (last success, last error) for the staleness the header and the
// pane show. Panes call Handle first in Update; it does the shared message
// handling once.
type Base struct {
	id    ID
	Ctx   Context
	W, H  int
	shown bool
	// paused is the root's `p`.
	paused bool
	state  func() PollState
	poll   Poller
	health Health
	// failures counts loads in a row that failed; retryAfter is the last
	// failure's Retry-After.
	failures   int
	retryAfter time.Duration
	limited    bool // the last failure was a 429
	// copyTask is the request a start copy answered (Health.Cached).
	copyTask string
	// inPoll is set while the pane builds a poll round: its requests carry
	// the pane's tag, so the scheduler holds them while the pane is hidden.
	inPoll bool
	// asked is set while the pane handles the user's `r`: the reads it
	// makes then go before every poll waiting for the same budget.
	asked bool
	// next is when the armed poll tick goes (wall clock); lastTick when
	// the last one came and rhythm the time between the last two (the
	// interval plus the wait for the load it started: the budget's pace).
	next, lastTick time.Time
	rhythm         time.Duration
	// reload is a load a context change asked for while the pane was
	// hidden; it runs when the pane is shown again (Reload).
	reload func() tea.Cmd
	// out is what the pane asked of the root since the root last took it.
	out outbox
	// on answers the messages every pane takes (Base.On).
	on Handlers
	// widgets get the theme and keys of a new context (Base.Widgets).
	widgets []Widget
}

// Handlers are a pane's answers to the messages every pane takes: its
// allowed actions, a file back from $EDITOR, the keys that are not
// actions, `r`. Handle calls the one set for the message and consumes it;
// a nil one leaves the message to the pane's own switch.
type Handlers struct {
	Action  func(ActionMsg) tea.Cmd
	Edited  func(EditedMsg) tea.Cmd
	Key     func(tea.KeyPressMsg) tea.Cmd
	Refresh func() tea.Cmd
}

// On sets the pane's Handlers (once, in its constructor).
func (b *Base) On(h Handlers) { b.on = h }

// Widget is a widget a pane draws with (a table, a detail): Base gives it
// the context's theme, and its keys when it takes them, whenever a context
// change brings new ones, so no pane pushes them itself.
type Widget interface{ SetTheme(themes.Theme) }

// keyed is a Widget that takes the key bindings too.
type keyed interface{ SetKeyMap(*keymap.KeyMap) }

// Widgets names the pane's widgets (once, in its constructor, as pointers
// to its fields).
func (b *Base) Widgets(ws ...Widget) { b.widgets = append(b.widgets, ws...) }

// restyle hands the widgets what changed of the presentation.
func (b *Base) restyle(ctx Context) {
	theme := ctx.Theme.Name != b.Ctx.Theme.Name || ctx.Theme.Dark != b.Ctx.Theme.Dark
	keys := ctx.Keys != nil && ctx.Keys != b.Ctx.Keys
	for _, w := range b.widgets {
		if theme {
			w.SetTheme(ctx.Theme)
		}
		if k, ok := w.(keyed); ok && keys {
			k.SetKeyMap(ctx.Keys)
		}
	}
}

// PollState is what the pane tells the policy about itself.
type PollState struct {
	// Off: nothing to poll (no project or cluster chosen, nothing moving
	// that this pane polls for, a tail the user stopped).
	Off bool
	// Moving: something shown is changing (a build, a restore): poll at
	// the fast interval.
	Moving bool
	// Watching: a job this session started is unfinished; the pane keeps
	// polling while hidden, at background priority.
	Watching bool
	// Fast, when set, is the pane's own rhythm while something moves
	// (instead of the context's Poll.Fast).
	Fast time.Duration
}

// NewBase starts a pane's base; state reports the pane's poll state (nil:
// always polls while visible).
func NewBase(id ID, ctx Context, state func() PollState) Base {
	if state == nil {
		state = func() PollState { return PollState{} }
	}
	return Base{id: id, Ctx: ctx, state: state}
}

// ID is the pane's id (Pane.ID), the one its registration names.
func (b *Base) ID() ID { return b.id }

// Visible reports whether the pane is on screen.
func (b *Base) Visible() bool { return b.shown }

// Paused reports whether live updates are paused (`p`).
func (b *Base) Paused() bool { return b.paused || b.Ctx.Paused }

// SetVisible records visibility, tells the scheduler whether the pane's
// background polls may go and (re)arms or stops the poll loop.
func (b *Base) SetVisible(v bool) tea.Cmd {
	b.shown = v
	if v && b.reload != nil {
		load := b.reload
		b.reload = nil
		return tea.Batch(load(), b.Arm())
	}
	return b.Arm()
}

// Reload is how a pane reloads after a context change: load runs now when
// the pane is on screen; a hidden pane keeps it (the last one asked for)
// and runs it when it is shown again, so a project switch costs no request
// from a pane nobody looks at.
func (b *Base) Reload(load func() tea.Cmd) tea.Cmd {
	if b.shown {
		b.reload = nil
		return load()
	}
	b.reload = load
	return nil
}

// Health is the pane's loads' freshness: the last success, since when and
// why its loads fail, and whether the budget holds them (with when the next
// one goes).
func (b *Base) Health() Health {
	h := b.health
	if h.Held() && b.poll.Armed() {
		h.Next = b.next
	}
	return h
}

// Handle does the shared message handling: a poll tick (poll is the
// pane's poll round; current ticks only), `p`, a context change (health
// forgotten on a new scope; the pane still sees the message and stores the
// new context) and the bookkeeping
// of every result. done means the message is consumed.
func (b *Base) Handle(msg tea.Msg, poll func() tea.Cmd) (cmd tea.Cmd, done bool) {
	_, b.asked = msg.(RefreshMsg)
	switch msg := msg.(type) {
	case PollTickMsg:
		if !b.poll.Current(msg) {
			return nil, true
		}
		if now := b.Ctx.WallNow(); !b.lastTick.IsZero() {
			b.rhythm, b.lastTick = now.Sub(b.lastTick), now
		} else {
			b.lastTick = now
		}
		b.inPoll = true
		c := poll()
		b.inPoll = false
		if c != nil {
			return c, true // re-armed when the load answers
		}
		return b.Arm(), true
	case PauseMsg:
		b.paused = msg.Paused
		return b.Arm(), true
	case ContextChangedMsg:
		b.restyle(msg.Ctx)
		// The pane stores the new context itself, after comparing.
		if msg.Reload(b.Ctx) {
			b.health, b.failures, b.retryAfter = Health{}, 0, 0
		}
		return nil, false
	case RefreshMsg:
		b.failures, b.retryAfter = 0, 0
		b.lastTick = time.Time{} // the user's `r` is no gap in the rhythm
		if b.on.Refresh != nil {
			return b.on.Refresh(), true
		}
		return nil, false
	case ActionMsg:
		if b.on.Action != nil {
			return b.on.Action(msg), true
		}
	case EditedMsg:
		if b.on.Edited != nil {
			return b.on.Edited(msg), true
		}
	case tea.KeyPressMsg:
		if b.on.Key != nil {
			return b.on.Key(msg), true
		}
	case Routed:
		// The loop re-arms after each load by itself: the pane has
		// nothing to pass on.
		if b.observe(msg.Route()) {
			b.out.rearm, b.out.rearmGen = true, b.poll.gen
		}
		return nil, false
	}
	return nil, false
}

// observe records a load's outcome; rearm says the loop re-arms after it
// (when the root takes the pane's asks: after the pane's Update has seen
// the result, so the interval follows what it now shows).
func (b *Base) observe(r Route) (rearm bool) {
	if !r.Load {
		return false
	}
	now := b.Ctx.WallNow()
	if r.Err != nil {
		if errors.Is(r.Err, context.Canceled) {
			return false
		}
		if IsPlannedWait(r.Err) && !b.health.Stale() {
			// Never sent: the scheduler kept it back for the budget it
			// planned (the server answers). The data is as old as it
			// was; the next poll asks again at the pane's interval.
			if b.health.HeldSince.IsZero() {
				b.health.HeldSince = now
			}
			return true
		}
		b.failures++
		b.retryAfter, b.limited = 0, false
		var e *apiclient.Error
		if errors.As(r.Err, &e) {
			b.retryAfter = e.RetryAfter
			b.limited = e.Status == http.StatusTooManyRequests
		}
		if b.health.StaleSince.IsZero() {
			b.health.StaleSince = now
		}
		b.health.Err, b.health.HeldSince = r.Err, time.Time{}
		return true
	}
	if !r.CachedAt.IsZero() {
		// Drawn from the last start's copy: as old as the copy, and the
		// poll asks the service again at once (Interval).
		if !b.health.Cached || r.CachedAt.Before(b.health.OK) {
			b.health = Health{OK: r.CachedAt, Cached: true}
		}
		b.copyTask = r.TaskID
		return true
	}
	if b.health.Cached && r.TaskID == b.copyTask {
		// The rest of a request a copy answered in part (the other
		// pages of one pass): the copy's age stands until a later
		// request answers.
		return true
	}
	if !b.health.StaleSince.IsZero() && b.shown {
		b.Toast(fmt.Sprintf("%s live again after %s stale", b.id, roundDur(now.Sub(b.health.StaleSince))), false)
	}
	b.failures, b.retryAfter = 0, 0
	b.health = Health{OK: now}
	return true
}

// recheckCopy is how soon a pane drawn from the last start's copy asks
// the service again.
const recheckCopy = 100 * time.Millisecond

// Arm applies the poll policy: stopped while paused, while the pane says
// it is off, or while hidden and watching nothing; else the pane's
// interval (its registration's, or the profile's [poll]), the fast one
// while something moves, doubled per failed load up to the normal one (the
// slow one after a 429 without Retry-After) and never sooner than a 429's
// Retry-After. Hidden panes' background polls
// are paused in the client's scheduler; watched jobs still go.
func (b *Base) Arm() tea.Cmd {
	st := b.state()
	b.schedule(st)
	if !b.live(st) || (!b.shown && !st.Watching) {
		b.poll.Stop()
		b.lastTick, b.rhythm = time.Time{}, 0
		return nil
	}
	d := b.Interval()
	b.next = b.Ctx.WallNow().Add(d)
	return b.poll.ArmWith(b.Ctx.Timer, b.id, d)
}

// Live reports whether the poll policy keeps the pane refreshing while it
// is on screen: not paused, something to poll, a client to ask. A pane
// with nothing to poll (no migration started, a tail the user stopped)
// is not live, whatever its last load said.
func (b *Base) Live() bool { return b.live(b.state()) }

func (b *Base) live(st PollState) bool { return !b.Paused() && !st.Off && b.Ctx.Client != nil }

// PollRhythm is how often the pane's polls actually go: the time between
// its last two poll ticks (its interval plus the wait for the answer, so a
// budget that holds its reads lengthens it), never less than its interval
// now; 0 while it does not poll.
func (b *Base) PollRhythm() time.Duration {
	if !b.poll.Armed() {
		return 0
	}
	return max(b.rhythm, b.Interval())
}

// Stop ends the poll loop until the next Arm.
func (b *Base) Stop() { b.poll.Stop() }

// Polling reports whether a poll tick is pending.
func (b *Base) Polling() bool { return b.poll.Armed() }

// Tick is the pending tick's message (tests deliver it instead of waiting).
func (b *Base) Tick() PollTickMsg { return b.poll.Tick() }

// Interval is the policy's next delay for the pane's current state.
func (b *Base) Interval() time.Duration {
	st := b.state()
	d := b.Ctx.Poll.Every(b.id)
	if d <= 0 {
		d = DefaultPoll.Normal
	}
	if st.Moving || (!b.shown && st.Watching) {
		f := st.Fast
		if f <= 0 {
			f = b.Ctx.Poll.Fast
		}
		if f > 0 && f < d {
			d = f
		}
	}
	if b.health.Cached && b.failures == 0 && len(b.health.Parts) == 0 {
		// (A pane read in parts reads its copied parts again itself, once
		// the round that brought them is in: its ticks count rounds.)
		d = min(d, recheckCopy)
	}
	if b.failures > 0 {
		// A failing pane backs off from its interval but never past its
		// normal one: the poll is the probe that finds the server back, so
		// an outage ends on screen within one interval of its end. Only a
		// rate limit without Retry-After backs off to the slow interval.
		ceiling := b.Ctx.Poll.Every(b.id)
		if ceiling <= 0 {
			ceiling = DefaultPoll.Normal
		}
		if b.limited {
			slow := b.Ctx.Poll.Slow
			if slow <= 0 {
				slow = DefaultPoll.Slow
			}
			ceiling = max(ceiling, slow)
		}
		for i := 0; i < b.failures && d < ceiling; i++ {
			d *= 2
		}
		d = min(d, ceiling)
		d = max(d, b.retryAfter)
	}
	return d
}

func (b *Base) schedule(st PollState) {
	c := b.Ctx.Client
	if c == nil || c.Scheduler() == nil {
		return
	}
	if b.shown || st.Watching {
		c.Scheduler().Resume(string(b.id))
	} else {
		c.Scheduler().Pause(string(b.id))
	}
}

// priority is the scheduler priority of the pane's reads now: a read made
// for the user's `r` goes first.
func (b *Base) priority() apiclient.Priority {
	if b.asked {
		return apiclient.PriorityAsked
	}
	if b.shown {
		return apiclient.PriorityVisible
	}
	return apiclient.PriorityBackground
}

// PollEvery is the delay the pending tick was armed with.
func (b *Base) PollEvery() time.Duration { return b.poll.Interval() }
