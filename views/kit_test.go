package views

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
)

// timerOnly records the delay of each poll armed, without running it.
func timerOnly(got *[]time.Duration) Timer {
	return func(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
		*got = append(*got, d)
		return func() tea.Msg { return fn(time.Time{}) }
	}
}

func TestPollPolicy(t *testing.T) {
	var armed []time.Duration
	wall := time.Date(2025, 6, 1, 22, 14, 3, 0, time.UTC)
	st := PollState{}
	ctx := Context{Client: &apiclient.Client{}, Poll: DefaultPoll.WithDefaults(map[string]time.Duration{"alerts": 15 * time.Second}),
		Timer: timerOnly(&armed), Wall: func() time.Time { return wall }}
	b := NewBase("alerts", ctx, func() PollState { return st })

	assert.Nil(t, b.SetVisible(false), "hidden and watching nothing: no poll")
	require.NotNil(t, b.SetVisible(true))
	assert.Equal(t, 15*time.Second, b.PollEvery(), "the pane's own interval")
	st.Moving = true
	assert.Equal(t, DefaultPoll.Fast, b.Interval(), "fast while something moves")
	st = PollState{Watching: true}
	require.NotNil(t, b.SetVisible(false), "hidden but watching a job: polls")
	st = PollState{}
	require.NotNil(t, b.SetVisible(true))

	fail := func(err error) {
		_, done := answer(&b, Result[int]{Pane: "alerts", Load: true, Err: err})
		require.False(t, done, "the pane still sees its result")
	}
	fail(&apiclient.Error{Status: 503, ErrorCode: "SERVICE_UNAVAILABLE"})
	assert.Equal(t, 15*time.Second, b.PollEvery(), "a failing pane polls no slower than its interval")
	assert.Equal(t, "stale since 22:14:03 · 503 SERVICE_UNAVAILABLE", b.Health().Summary())
	wall = wall.Add(10 * time.Second)
	for range 5 {
		fail(errors.New("connection refused"))
	}
	assert.Equal(t, 15*time.Second, b.PollEvery(), "however long the outage: the poll finds the server back within one interval")
	assert.Equal(t, "stale since 22:14:03 · connection refused", b.Health().Summary(), "since the first failure; the last error")
	st.Moving = true
	assert.Equal(t, 15*time.Second, b.Interval(), "a moving pane backs off from the fast interval up to its own")
	st.Moving = false
	fail(&apiclient.Error{Status: 429, ErrorCode: "RATE_LIMITED_TOKEN_BUCKET"})
	assert.Equal(t, DefaultPoll.Slow, b.PollEvery(), "a rate limit without Retry-After backs off to the slow interval")
	fail(&apiclient.Error{Status: 429, ErrorCode: "RATE_LIMITED_TOKEN_BUCKET", RetryAfter: 90 * time.Second})
	assert.Equal(t, 90*time.Second, b.PollEvery(), "never sooner than Retry-After")

	cmd, _ := b.Handle(Result[int]{Pane: "alerts", Load: true}, nil)
	assert.Nil(t, cmd, "the pane has nothing to pass on")
	assert.False(t, b.Health().Stale(), "recovered")
	assert.Equal(t, wall, b.Health().OK)
	asks, rearm := b.TakeAsks()
	require.NotNil(t, rearm, "the loop re-arms by itself, when the asks are taken")
	assert.Equal(t, 15*time.Second, b.PollEvery(), "back to the normal interval")
	assert.Equal(t, []Ask{ToastMsg{Text: "alerts live again after 10s stale", Pane: "alerts"}}, asks, "said once, stamped with the pane")
	asks, rearm = b.TakeAsks()
	assert.Empty(t, asks, "taken")
	assert.Nil(t, rearm)

	_, done := b.Handle(PauseMsg{Paused: true}, nil)
	assert.True(t, done)
	assert.False(t, b.Polling(), "p stops the loop")
	b.Handle(PauseMsg{Paused: false}, nil)
	assert.True(t, b.Polling())

	// A stale tick is dropped; the current one runs the pane's poll.
	old := b.Tick()
	b.Arm()
	polled := 0
	_, done = b.Handle(old, func() tea.Cmd { polled++; return nil })
	assert.True(t, done)
	assert.Zero(t, polled)
	b.Handle(b.Tick(), func() tea.Cmd { polled++; return func() tea.Msg { return nil } })
	assert.Equal(t, 1, polled)
	assert.False(t, b.Polling(), "re-armed when the load answers, not before")
}

func TestRequestsCarryThePanesPriority(t *testing.T) {
	b := NewBase("alerts", Context{}, nil)
	var got context.Context
	fn := func(ctx context.Context) (int, error) { got = ctx; return 0, nil }
	Get(&b, "list", 1, "", fn)()
	assert.Equal(t, "background ", priorityOf(got), "hidden: background, not held (a reload the user asked for)")
	b.poll.armed = true
	b.Handle(b.Tick(), func() tea.Cmd { Load(&b, "list", 2, "", fn)(); return nil })
	assert.Equal(t, "background alerts", priorityOf(got), "a hidden pane's poll is held with the pane")
	b.shown = true
	Get(&b, "list", 1, "", fn)()
	assert.Equal(t, "visible ", priorityOf(got))
	Write(&b, "ack", 1, "", fn)()
	assert.Equal(t, "write ", priorityOf(got))

	// The user's `r`: the reads the pane makes for it go first; the next
	// message's reads are the pane's own again.
	b.Handle(RefreshMsg{}, nil)
	Load(&b, "list", 3, "", fn)()
	assert.Equal(t, "asked ", priorityOf(got))
	answer(&b, Result[int]{Pane: "alerts", Key: "list", Seq: 3, Load: true})
	Load(&b, "list", 4, "", fn)()
	assert.Equal(t, "visible ", priorityOf(got))
}

func priorityOf(ctx context.Context) string {
	p, tag, ok := apiclient.PriorityOf(ctx)
	if !ok {
		return "none"
	}
	return p.String() + " " + tag
}

// A load the scheduler kept back for the budget until its time ran out was
// never sent: the pane is not stale however long the wait, its health says
// when it asks again, and a real failure after it is stale as before.
func TestPlannedWaitIsNotStale(t *testing.T) {
	var armed []time.Duration
	wall := time.Date(2025, 6, 1, 22, 14, 3, 0, time.UTC)
	ctx := Context{Client: &apiclient.Client{}, Poll: DefaultPoll.WithDefaults(map[string]time.Duration{"alerts": 15 * time.Second}),
		Timer: timerOnly(&armed), Wall: func() time.Time { return wall }}
	b := NewBase("alerts", ctx, nil)
	require.NotNil(t, b.SetVisible(true))
	answer(&b, Result[int]{Pane: "alerts", Load: true})
	loaded := wall

	// What the scheduler answers a request whose context ended in the wait.
	held := fmt.Errorf("list alerts: page 7: listAlerts: %w: %w", apiclient.ErrRateLimitWait, context.DeadlineExceeded)
	for range 4 { // a minute and more of loads kept back
		wall = wall.Add(RequestTimeout / 2)
		answer(&b, Result[int]{Pane: "alerts", Load: true, Err: held})
	}
	h := b.Health()
	assert.False(t, h.Stale(), "a planned wait is no failure")
	assert.True(t, h.Held())
	assert.Equal(t, loaded, h.OK, "the data is as old as it was")
	assert.Equal(t, wall.Add(15*time.Second), h.Next, "the next refresh goes at the pane's interval")
	assert.Equal(t, 15*time.Second, b.PollEvery(), "no back-off: nothing failed")

	answer(&b, Result[int]{Pane: "alerts", Load: true, Err: &apiclient.Error{Status: 503, ErrorCode: "SERVICE_UNAVAILABLE"}})
	assert.True(t, b.Health().Stale(), "a failure is stale")
	assert.False(t, b.Health().Held())
	answer(&b, Result[int]{Pane: "alerts", Load: true, Err: held})
	assert.True(t, b.Health().Stale(), "a wait after a failure does not hide it")

	answer(&b, Result[int]{Pane: "alerts", Load: true})
	assert.False(t, b.Health().Stale())
	assert.False(t, b.Health().Held(), "an answer ends the wait")
}

// PollRhythm is how often the polls actually go: the interval while the
// answers come at once, longer when the budget holds a poll's read, never
// shorter than the interval, 0 while the pane does not poll.
func TestPollRhythmFollowsTheAnswers(t *testing.T) {
	var armed []time.Duration
	wall := time.Date(2025, 6, 1, 22, 14, 3, 0, time.UTC)
	ctx := Context{Client: &apiclient.Client{}, Poll: DefaultPoll.WithDefaults(map[string]time.Duration{"alerts": 15 * time.Second}),
		Timer: timerOnly(&armed), Wall: func() time.Time { return wall }}
	b := NewBase("alerts", ctx, nil)
	require.NotNil(t, b.SetVisible(true))
	assert.Equal(t, 15*time.Second, b.PollRhythm(), "the interval until measured")
	poll := func(wait time.Duration) {
		b.Handle(b.Tick(), func() tea.Cmd { return func() tea.Msg { return nil } })
		wall = wall.Add(wait) // the read waits for the budget, then answers
		answer(&b, Result[int]{Pane: "alerts", Load: true})
		wall = wall.Add(b.PollEvery())
	}
	poll(0)
	poll(25 * time.Second)
	poll(25 * time.Second)
	assert.Equal(t, 40*time.Second, b.PollRhythm(), "interval and the wait for the budget")
	b.SetVisible(false)
	assert.Zero(t, b.PollRhythm(), "hidden: no polls")
}

// answer is a result as the root delivers it: the pane's Update, then its
// asks taken (the loop re-arms there).
func answer(b *Base, r Result[int]) (tea.Cmd, bool) {
	cmd, done := b.Handle(r, nil)
	b.TakeAsks()
	return cmd, done
}

// A pane that arms or stops its loop itself while it handles a load's
// answer (the access log after its last page) is left be: one timer.
func TestRearmLeavesAPaneThatArmedItself(t *testing.T) {
	var armed []time.Duration
	ctx := Context{Client: &apiclient.Client{}, Poll: DefaultPoll, Timer: timerOnly(&armed)}
	b := NewBase("accesslogs", ctx, nil)
	b.SetVisible(true)
	b.Handle(Result[int]{Pane: "accesslogs", Load: true}, nil)
	b.Arm()
	gen := b.poll.gen
	_, rearm := b.TakeAsks()
	assert.Nil(t, rearm, "armed by the pane already")
	assert.Equal(t, gen, b.poll.gen, "its tick stays the current one")

	b.Handle(Result[int]{Pane: "accesslogs", Load: true}, nil)
	_, rearm = b.TakeAsks()
	assert.NotNil(t, rearm, "a pane that did nothing is re-armed")
}

// The messages every pane takes go to the pane's Handlers when set; a nil
// one leaves the message to the pane's own switch.
func TestHandlersTakeWhatEveryPaneTakes(t *testing.T) {
	b := NewBase("search", Context{}, nil)
	var got []string
	b.On(Handlers{
		Action:  func(m ActionMsg) tea.Cmd { got = append(got, "action "+m.Name); return nil },
		Refresh: func() tea.Cmd { got = append(got, "refresh"); return nil },
	})
	_, done := b.Handle(ActionMsg{Name: "search.delete"}, nil)
	assert.True(t, done)
	_, done = b.Handle(RefreshMsg{}, nil)
	assert.True(t, done)
	_, done = b.Handle(EditedMsg{}, nil)
	assert.False(t, done, "no Edited handler: the pane's switch has it")
	assert.Equal(t, []string{"action search.delete", "refresh"}, got)
}

// recWidget records what Base hands it.
type recWidget struct{ themes, keys int }

func (w *recWidget) SetTheme(themes.Theme)    { w.themes++ }
func (w *recWidget) SetKeyMap(*keymap.KeyMap) { w.keys++ }

// A pane's widgets get a new context's theme and keys from Base, and
// nothing when a context change brings neither.
func TestWidgetsGetTheThemeAndKeysOfANewContext(t *testing.T) {
	dark, light := themes.MustGet("dark"), themes.MustGet("light")
	km := keymap.Default()
	b := NewBase("alerts", Context{Theme: dark, Keys: km}, nil)
	w := &recWidget{}
	b.Widgets(w)
	b.Handle(ContextChangedMsg{Ctx: Context{Theme: dark, Keys: km, GroupID: "p2"}, Scope: true}, nil)
	assert.Equal(t, recWidget{}, *w, "same theme and keys: nothing pushed")
	b.Handle(ContextChangedMsg{Ctx: Context{Theme: light, Keys: km}}, nil)
	assert.Equal(t, recWidget{themes: 1}, *w)
	b.Ctx.Theme = light // the pane stores the context after Handle
	b.Handle(ContextChangedMsg{Ctx: Context{Theme: light, Keys: keymap.Default()}}, nil)
	assert.Equal(t, recWidget{themes: 1, keys: 1}, *w)
}

// A load answered from the last start's copy (Result.CachedAt) leaves the
// pane as old as the copy, said cached, and polls again within
// recheckCopy; the other answers of the same request keep the copy's age;
// a later request answered by the service makes it fresh. A failure of the
// check is stale as any other, with the normal back-off.
func TestCachedLoadIsAsOldAsTheCopyAndCheckedAtOnce(t *testing.T) {
	var armed []time.Duration
	wall := time.Date(2025, 6, 1, 22, 14, 3, 0, time.UTC)
	ctx := Context{Client: &apiclient.Client{}, Poll: DefaultPoll.WithDefaults(map[string]time.Duration{"alerts": 15 * time.Second}),
		Timer: timerOnly(&armed), Wall: func() time.Time { return wall }}
	b := NewBase("alerts", ctx, nil)
	require.NotNil(t, b.SetVisible(true))
	copyAt := wall.Add(-2 * time.Hour)
	answer(&b, Result[int]{Pane: "alerts", Key: "page", Seq: 1, Load: true, CachedAt: copyAt})
	h := b.Health()
	assert.True(t, h.Cached)
	assert.Equal(t, copyAt, h.OK, "as old as the copy")
	assert.Equal(t, recheckCopy, armed[len(armed)-1], "checked at once")

	answer(&b, Result[int]{Pane: "alerts", Key: "page", Seq: 1, Load: true})
	assert.True(t, b.Health().Cached, "page 2 of the same pass from the service: the copy's age stands")

	answer(&b, Result[int]{Pane: "alerts", Key: "page", Seq: 2, Load: true})
	assert.False(t, b.Health().Cached)
	assert.Equal(t, wall, b.Health().OK)
	assert.Equal(t, 15*time.Second, armed[len(armed)-1])

	c := NewBase("alerts", ctx, nil)
	require.NotNil(t, c.SetVisible(true))
	answer(&c, Result[int]{Pane: "alerts", Key: "page", Seq: 1, Load: true, CachedAt: copyAt})
	answer(&c, Result[int]{Pane: "alerts", Key: "page", Seq: 2, Load: true, Err: &apiclient.Error{Status: 503, ErrorCode: "SERVICE_UNAVAILABLE"}})
	assert.True(t, c.Health().Stale())
	assert.Equal(t, copyAt, c.Health().OK, "the rows are still the copy's")
	assert.Greater(t, armed[len(armed)-1], recheckCopy, "a failing check backs off")
}

// A pane read in parts (the Triage board) whose parts came from the last
// start's copies keeps its interval: its ticks count rounds, and it reads
// the copied parts again itself.
func TestCachedPartsKeepThePollInterval(t *testing.T) {
	var armed []time.Duration
	wall := time.Date(2025, 6, 1, 22, 14, 3, 0, time.UTC)
	ctx := Context{Client: &apiclient.Client{}, Poll: DefaultPoll.WithDefaults(map[string]time.Duration{"triage": 30 * time.Second}),
		Timer: timerOnly(&armed), Wall: func() time.Time { return wall }}
	b := NewBase("triage", ctx, nil)
	require.NotNil(t, b.SetVisible(true))
	b.SetParts([]PartHealth{{Name: "alerts", OK: wall.Add(-time.Hour), Cached: true}})
	require.True(t, b.Health().Cached)
	assert.Equal(t, 30*time.Second, b.Interval(), "no recheck within %v", recheckCopy)
}
