package viewstest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/keymap/keytest"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

const testPane views.ID = "alerts"

// failRecorder is a TB that records a failure instead of ending the test.
type failRecorder struct {
	testing.TB
	failed bool
	fatal  string // the message of the failure that ended the test
}

func (f *failRecorder) Helper()               {}
func (f *failRecorder) Errorf(string, ...any) { f.failed = true }
func (f *failRecorder) FailNow()              { f.failed = true; panic(f) }
func (f *failRecorder) Fatalf(format string, a ...any) {
	f.fatal = fmt.Sprintf(format, a...)
	f.FailNow()
}
func (f *failRecorder) Logf(format string, a ...any) {}

func fails(t *testing.T, fn func(tb testing.TB)) bool {
	r := &failRecorder{TB: t}
	func() {
		defer func() {
			if p := recover(); p != nil && p != r {
				panic(p)
			}
		}()
		fn(r)
	}()
	return r.failed
}

func TestGoldenComparesExactly(t *testing.T) {
	if updating() {
		// Under -update Golden rewrites files: this test would write its
		// deliberately wrong screens into the search pane's goldens.
		t.Skip("compares goldens; nothing to rewrite")
	}
	// A screen committed by the search pane's tests.
	want := string(mustRead(t, "search/analyzers_100x24"))
	assert.False(t, fails(t, func(tb testing.TB) { Golden(tb, "search/analyzers_100x24", want) }))
	assert.True(t, fails(t, func(tb testing.TB) { Golden(tb, "search/analyzers_100x24", want+"x") }), "a changed screen fails")
	assert.True(t, fails(t, func(tb testing.TB) { Golden(tb, "search/no-such-screen", want) }), "a missing file fails")
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	var got []byte
	require.False(t, fails(t, func(tb testing.TB) {
		path := repoRoot(tb) + "/testdata/" + name + ".golden"
		b, err := readFile(path)
		require.NoError(tb, err)
		got = b
	}))
	return got
}

func TestScreenTrimsLineEnds(t *testing.T) {
	assert.Equal(t, "a\n b\n\n", Screen("\x1b[1ma\x1b[0m  \n b \n"))
}

func TestSimLogsAPIRequestsOnly(t *testing.T) {
	s := NewSim(t, SimOptions{})
	mark := s.Mark()
	_, err := s.Client.WhoAmI(context.Background())
	require.NoError(t, err)
	s.Control("GET", "/clock", "")
	assert.Len(t, s.RequestsSince(mark), 1, "the control call and its token are not logged: %v", s.Requests())
	assert.Empty(t, s.Writes())
	assert.Equal(t, 1, s.Count("/v2"))
}

// tickPane arms a poll on Init and counts what it gets.
type tickPane struct {
	views.Pane
	poll    views.Poller
	got     []string
	ticks   int
	w, h    int
	visible bool
}

func (p *tickPane) Init() tea.Cmd {
	return tea.Batch(p.poll.Arm(testPane, time.Hour), tea.Sequence(
		func() tea.Msg { return views.PaneMsg{Pane: testPane, Msg: "first"} },
		func() tea.Msg { return views.PaneMsg{Pane: testPane, Msg: "second"} }))
}

func (p *tickPane) Update(msg tea.Msg) (views.Pane, tea.Cmd) {
	switch m := msg.(type) {
	case string:
		p.got = append(p.got, m)
	case views.ActionMsg:
		p.got = append(p.got, fmt.Sprintf("%s %v %s", m.Name, m.Confirmed, m.Values["n"]))
	}
	return p, nil
}

func (p *tickPane) ID() views.ID              { return testPane }
func (p *tickPane) Actions() []keymap.Action  { return nil }
func (p *tickPane) SetSize(w, h int)          { p.w, p.h = w, h }
func (p *tickPane) SetVisible(v bool) tea.Cmd { p.visible = v; return nil }

func TestDriverParksTimersAndRoutesTheRest(t *testing.T) {
	p := &tickPane{}
	d := NewDriver(t, p)
	start := time.Now()
	d.Run(p.Init())
	assert.Less(t, time.Since(start), time.Minute/2, "the hour-long tick was not waited for")
	assert.Equal(t, 1, d.Timers())
	assert.Equal(t, []string{"first", "second"}, p.got, "a PaneMsg's message reaches the pane, in order")

	d.Forms = append(d.Forms, views.FormMsg{ID: "f", Action: views.ActionMsg{Name: "go"}, Fields: []components.Field{
		{Key: "n", Value: "1", Validate: func(v string, _ components.FormValues) error {
			if v == "bad" {
				return errors.New("bad")
			}
			return nil
		}}}})
	require.Error(t, d.Submit(components.FormValues{"n": "bad"}))
	require.NoError(t, d.Submit(nil))
	assert.Equal(t, "go true 1", p.got[len(p.got)-1], "the field's initial value is submitted")
}

func readFile(path string) ([]byte, error) { return os.ReadFile(path) }

// recModel is a root model that records what it gets; a key press runs the
// Cmd the test put in next.
type recModel struct {
	got  []string
	next tea.Cmd
}

func (m *recModel) Init() tea.Cmd  { return nil }
func (m *recModel) View() tea.View { return tea.NewView(strings.Join(m.got, ",")) }

func (m *recModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case string:
		m.got = append(m.got, msg)
	case tea.KeyPressMsg:
		cmd := m.next
		m.next = nil
		return m, cmd
	}
	return m, nil
}

func TestLiveModelDriverSettlesEveryCmdAndParksTimers(t *testing.T) {
	m := &recModel{}
	d := NewLiveModelDriver(t, m, 80, 24)
	slow := func() tea.Msg { time.Sleep(20 * time.Millisecond); return "slow" }
	m.next = tea.Batch(slow, tea.Tick(time.Hour, func(time.Time) tea.Msg { return "tick" }),
		tea.Sequence(func() tea.Msg { return "one" }, func() tea.Msg { return "two" }))
	d.Send(keytest.Press("x"))
	assert.Empty(t, m.got, "Send only starts the Cmds")
	d.Settle()
	assert.ElementsMatch(t, []string{"slow", "one", "two"}, m.got, "every answer, the timer's excepted")
	assert.Less(t, slices.Index(m.got, "one"), slices.Index(m.got, "two"), "a sequence keeps its order")
	assert.Equal(t, 1, d.Timers())

	release := make(chan struct{})
	defer close(release)
	m.next = func() tea.Msg { <-release; return "never" }
	var rec *failRecorder
	assert.True(t, fails(t, func(tb testing.TB) {
		rec = tb.(*failRecorder)
		d.T, d.Deadline = tb, 50*time.Millisecond
		d.Press("x")
	}), "a Cmd still running at the deadline fails the test")
	assert.Contains(t, rec.fatal, "TestLiveModelDriverSettlesEveryCmdAndParksTimers.func", "and names it")
	d.T = t
	d.Drain()
	assert.NotContains(t, m.got, "never", "Drain does not wait")
}

// bareMsg is a pane's own message sent without its PaneMsg envelope.
type bareMsg struct{}

func TestDriverFailsOnABareMessageAsTheRootDropsIt(t *testing.T) {
	assert.True(t, fails(t, func(tb testing.TB) {
		d := NewDriver(tb, &tickPane{})
		d.Run(func() tea.Msg { return bareMsg{} })
	}), "a message the root would drop fails the test")
	assert.False(t, fails(t, func(tb testing.TB) {
		d := NewDriver(tb, &tickPane{})
		d.Run(func() tea.Msg { return views.PaneMsg{Pane: testPane, Msg: "enveloped"} })
	}), "the same message in its envelope is delivered")
}

func TestOpenOpensThePaneAsTheRootDoes(t *testing.T) {
	sim := NewSim(t, SimOptions{})
	var got views.Context
	reg := views.Registration{ID: testPane, Title: "Test", Poll: 7 * time.Second, New: func(c views.Context) views.Pane {
		got = c
		return &tickPane{}
	}}
	e := Open[*tickPane](t, reg, Setup{Sim: sim, Width: 80, Height: 24, Cluster: "payments-rs",
		Context: func(c *views.Context) { c.ProjectName = "other" }})
	assert.Equal(t, "payments-rs", got.ClusterName)
	assert.Equal(t, views.LayoutFor(80), got.Layout, "the layout follows the width")
	assert.Equal(t, "other", got.ProjectName, "Setup.Context has the last word")
	assert.Equal(t, []string{"first", "second"}, e.P.got, "Init ran and its messages were routed")
	assert.Equal(t, 1, e.Timers())
	assert.Equal(t, [2]int{80, 24}, [2]int{e.P.w, e.P.h}, "sized to the Setup")
	assert.True(t, e.P.visible, "shown")
	assert.Equal(t, reg.Poll, got.Poll.Every(testPane), "the registration's poll interval")

	hidden := Open[*tickPane](t, reg, Setup{Sim: sim, Width: 100, Height: 30, Hidden: true})
	assert.False(t, hidden.P.visible, "Hidden: Init ran, never shown")
	assert.Equal(t, []string{"first", "second"}, hidden.P.got)

	assert.True(t, fails(t, func(tb testing.TB) {
		Open[*recPane](tb, reg, Setup{Sim: sim})
	}), "a factory building another type fails the test, not a nil pane")
	other := reg
	other.ID = "other"
	assert.True(t, fails(t, func(tb testing.TB) {
		Open[*tickPane](tb, other, Setup{Sim: sim})
	}), "a pane whose id is not its registration's fails the test: the root would route nothing to it")
}

// recPane is a pane type the test registration does not build.
type recPane struct{ tickPane }

// errorsTB records what a test would fail with.
type errorsTB struct {
	testing.TB
	errs []string
}

func (e *errorsTB) Errorf(format string, args ...any) {
	e.errs = append(e.errs, fmt.Sprintf(format, args...))
}

// An ask that comes as a Cmd's message would be dropped by the root: the
// driver fails the test; asked through Base it is recorded.
func TestDriverTakesAsksFromBaseOnly(t *testing.T) {
	tb := &errorsTB{TB: t}
	b := views.NewBase(testPane, views.Context{}, nil)
	d := NewDriver(tb, &askPane{Base: &b})
	d.Run(func() tea.Msg { return views.ToastMsg{Text: "from a Cmd"} })
	require.Len(t, tb.errs, 1)
	assert.Contains(t, tb.errs[0], "asks through its Base")
	b.Toast("from Base", false)
	d.Run(nil)
	assert.Equal(t, views.ToastMsg{Text: "from Base", Pane: testPane}, d.LastToast())
	assert.Len(t, tb.errs, 1)
}

// askPane is a pane whose Base the test asks through.
type askPane struct {
	views.Pane
	Base *views.Base
}

func (p *askPane) TakeAsks() ([]views.Ask, tea.Cmd) { return p.Base.TakeAsks() }
