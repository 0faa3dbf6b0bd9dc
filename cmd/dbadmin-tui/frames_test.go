package main

import (
	"bytes"
	"slices"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"
)

// fakeTicker records the periods the pacer sets.
type fakeTicker struct {
	mu   sync.Mutex
	sets []time.Duration
}

func (f *fakeTicker) Reset(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sets = append(f.sets, d)
}

func (f *fakeTicker) periods() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.sets)
}

// waitPeriods waits until the ticker was set to want, in that order.
func (f *fakeTicker) waitPeriods(t *testing.T, want ...time.Duration) {
	t.Helper()
	require.Eventually(t, func() bool { return slices.Equal(f.periods(), want) }, 5*time.Second, time.Millisecond,
		"the ticker's periods: want %v", want)
}

// textModel shows its text; a string message replaces it.
type textModel struct{ text string }

func (m textModel) Init() tea.Cmd { return nil }
func (m textModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if s, ok := msg.(string); ok {
		m.text = s
	}
	return m, nil
}
func (m textModel) View() tea.View { return tea.NewView(m.text) }

// A frame that changed is drawn at once and the frames after it at the
// frame rate; once nothing changes the ticker slows to idleFrame, and an
// unchanged View (the clock's tick) leaves it so. A resize wakes it even
// when the View is the same.
func TestPacerSlowsWhileNothingChanges(t *testing.T) {
	tick := &fakeTicker{}
	f := pace(textModel{"a"}, 100) // 10 ms a frame
	f.find = func() ticker { return tick }
	frame := 10 * time.Millisecond

	f.View() // the first frame: the ticker already runs at the frame rate
	tick.waitPeriods(t, idleFrame)
	for range 5 {
		f.Update(struct{}{})
		f.View()
	}
	time.Sleep(5 * frame)
	tick.waitPeriods(t, idleFrame)

	f.Update("b")
	f.View()
	tick.waitPeriods(t, idleFrame, leadFrame, frame, idleFrame)

	f.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	f.View()
	tick.waitPeriods(t, idleFrame, leadFrame, frame, idleFrame, leadFrame, frame, idleFrame)
}

// While Views keep changing the ticker stays at the frame rate.
func TestPacerStaysFastWhileViewsChange(t *testing.T) {
	tick := &fakeTicker{}
	f := pace(textModel{"a"}, 10) // 100 ms a frame: slows after 400 ms
	f.find = func() ticker { return tick }
	for i := range 20 {
		f.Update(string(rune('a' + i)))
		f.View()
		time.Sleep(5 * time.Millisecond)
	}
	require.NotContains(t, tick.periods(), idleFrame, "slowed while the View changed every 5 ms")
	tick.waitPeriods(t, idleFrame)
}

// The pacer reaches Bubble Tea's own ticker: a Bubble Tea upgrade that
// moves it fails here rather than leaving the dashboard waking 30 times a
// second.
func TestProgramTickerFound(t *testing.T) {
	var p *tea.Program
	found := make(chan bool, 1)
	m := initModel{init: func() { found <- programTicker(p) != nil }}
	p = tea.NewProgram(m, tea.WithInput(nil), tea.WithOutput(&bytes.Buffer{}), tea.WithWindowSize(80, 24))
	_, err := p.Run()
	require.NoError(t, err)
	require.True(t, <-found, "tea.Program has no ticker field of type *time.Ticker")
}

// initModel runs init when the program starts, then quits.
type initModel struct{ init func() }

func (m initModel) Init() tea.Cmd                       { m.init(); return tea.Quit }
func (m initModel) Update(tea.Msg) (tea.Model, tea.Cmd) { return m, nil }
func (m initModel) View() tea.View                      { return tea.NewView("") }
