package ui

import (
	"io"
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/keymap/keytest"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/backups"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// probe asks the running program, on its own goroutine, for a fact about the
// root model (no data race with the event loop).
type probe struct {
	ask   func(*Model) any
	reply chan any
}

// pipeProgram runs the root model in a real tea.Program whose terminal input
// is a pipe: bytes written to it go through Bubble Tea's own reader and
// parser, as a terminal's would. It returns the write end and a function
// that asks the model something on the program's goroutine.
func pipeProgram(t *testing.T, m *Model) (io.Writer, func(func(*Model) any) any) {
	t.Helper()
	r, w := io.Pipe()
	filter := func(model tea.Model, msg tea.Msg) tea.Msg {
		if p, ok := msg.(probe); ok {
			p.reply <- p.ask(model.(*Model))
			return nil
		}
		return msg
	}
	p := tea.NewProgram(m, tea.WithInput(r), tea.WithOutput(io.Discard), tea.WithWindowSize(120, 40),
		tea.WithoutSignals(), tea.WithFilter(filter), tea.WithEnvironment([]string{"TERM=xterm-256color"}))
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = p.Run()
	}()
	t.Cleanup(func() {
		p.Quit()
		_ = w.Close()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("the program did not end")
		}
	})
	ask := func(f func(*Model) any) any {
		reply := make(chan any, 1)
		p.Send(probe{ask: f, reply: reply})
		select {
		case v := <-reply:
			return v
		case <-time.After(5 * time.Second):
			t.Fatal("the program did not answer")
			return nil
		}
	}
	return w, ask
}

// waitModel polls the model through ask until cond holds.
func waitModel(t *testing.T, ask func(func(*Model) any) any, what string, cond func(*Model) bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ask(func(m *Model) any { return cond(m) }).(bool) {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10s for %s; screen:\n%s", what, ask(func(m *Model) any { return viewstest.Screen(m.render()) }))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitReady waits, through ask, for the dashboard to be ready.
func waitReady(t *testing.T, ask func(func(*Model) any) any) {
	t.Helper()
	waitModel(t, ask, "the dashboard to be ready", func(m *Model) bool { return m.phase == phaseReady })
}

func pipeModel(t *testing.T) (*Model, map[views.ID]*recPane) {
	api := newFakeAPI(t, orgOwner())
	panes := map[views.ID]*recPane{}
	return newModel(t, api, func(o *Options) { o.Panes = recPanes(false, panes) }), panes
}

// The whole sequence of issue 15 (a) in one write: help, esc, then the
// palette and a command. The reader sees ESC followed at once by ':' and
// calls it alt+:, so the palette never opened and "backups" went elsewhere.
func TestHelpEscPaletteInOneWrite(t *testing.T) {
	m, _ := pipeModel(t)
	w, ask := pipeProgram(t, m)
	waitReady(t, ask)
	for i := 0; i < 3; i++ {
		_, err := w.Write([]byte("1?\x1b:backups\r"))
		require.NoError(t, err)
		waitModel(t, ask, "the backups pane with no layer open", func(m *Model) bool {
			return m.panes[m.active].ID() == backups.ID && m.layers.len() == 0
		})
	}
}

// Two ESC bytes in one read close two layers.
func TestTwoEscBytesCloseTwoLayers(t *testing.T) {
	m, _ := pipeModel(t)
	w, ask := pipeProgram(t, m)
	waitReady(t, ask)
	_, err := w.Write([]byte("/"))
	require.NoError(t, err)
	waitModel(t, ask, "the filter bar", func(m *Model) bool { return m.layers.len() == 1 })
	ask(func(m *Model) any { m.openHelp(); return nil }) // help over the filter bar
	waitModel(t, ask, "help over the filter", func(m *Model) bool { return m.layers.len() == 2 })
	_, err = w.Write([]byte("\x1b\x1b"))
	require.NoError(t, err)
	waitModel(t, ask, "both layers closed", func(m *Model) bool { return m.layers.len() == 0 })
	_, err = w.Write([]byte("x"))
	require.NoError(t, err)
	waitModel(t, ask, "x at the pane", func(m *Model) bool { return len(m.panes[m.active].(*recPane).keysGot()) == 1 })
}

// Keys typed before the dashboard is ready are kept and replayed in order.
func TestTypeAheadIsReplayedWhenReady(t *testing.T) {
	m, panes := pipeModel(t)
	w, ask := pipeProgram(t, m)
	// Written at once: the program is still connecting (or has not even
	// read its window size) when it reads them.
	_, err := w.Write([]byte(":backups\rjk"))
	require.NoError(t, err)
	waitModel(t, ask, "the backups pane", func(m *Model) bool {
		return m.phase == phaseReady && m.panes[m.active].ID() == backups.ID && m.layers.len() == 0
	})
	waitModel(t, ask, "j and k at the backups pane", func(m *Model) bool {
		return len(m.panes[m.active].(*recPane).keysGot()) == 2
	})
	got := ask(func(*Model) any { return panes[backups.ID].keysGot() })
	assert.Equal(t, []string{"j", "k"}, got)
}

func TestTypeAheadQuitAndLineFeed(t *testing.T) {
	api := newFakeAPI(t, orgOwner())
	m := newModel(t, api, nil)
	// Still connecting: nothing has run Init's Cmd.
	require.Equal(t, phaseConnecting, m.phase)
	assert.Nil(t, m.handleKey(keytest.Press(":")), "kept, not run")
	assert.Nil(t, m.handleKey(keytest.Press("q")), "q after other keys is text, not quit")
	assert.Nil(t, m.handleKey(tea.KeyPressMsg{Code: 'j', Mod: tea.ModCtrl}))
	require.Len(t, m.pending, 3)
	assert.Equal(t, "enter", m.pending[2].(tea.KeyPressMsg).String(), "a line feed (enter typed before raw mode) is enter")

	fresh := newModel(t, api, nil)
	cmd := fresh.handleKey(keytest.Press("q"))
	require.NotNil(t, cmd)
	assert.IsType(t, tea.QuitMsg{}, cmd(), "q as the first key quits while connecting")
}

func TestAltKeysAreEscThenKeyWithoutKittyProtocol(t *testing.T) {
	api := newFakeAPI(t, orgOwner())
	m := newModel(t, api, nil)
	cases := map[string]tea.KeyPressMsg{
		":":         {Code: ':', Mod: tea.ModAlt},
		"G":         {Code: 'g', ShiftedCode: 'G', Mod: tea.ModAlt | tea.ModShift},
		"esc":       {Code: tea.KeyEscape, Mod: tea.ModAlt},
		"enter":     {Code: tea.KeyEnter, Mod: tea.ModAlt},
		"tab":       {Code: tea.KeyTab, Mod: tea.ModAlt},
		"shift+tab": {Code: tea.KeyTab, Mod: tea.ModAlt | tea.ModShift},
		"ctrl+\\":   {Code: '\\', Mod: tea.ModAlt | tea.ModCtrl},
		"ctrl+o":    {Code: 'o', Mod: tea.ModAlt | tea.ModCtrl},
	}
	for want, msg := range cases {
		esc, key, ok := m.splitEscPrefix(msg)
		require.True(t, ok, want)
		assert.Equal(t, "esc", esc.String())
		assert.Equal(t, want, key.String())
	}
	_, _, ok := m.splitEscPrefix(tea.KeyPressMsg{Code: tea.KeyBackspace, Mod: tea.ModAlt})
	assert.False(t, ok, "alt+backspace stays a text-field key")
	_, _, ok = m.splitEscPrefix(tea.KeyPressMsg{Code: tea.KeyLeft, Mod: tea.ModAlt})
	assert.False(t, ok, "alt+left stays a text-field key")
	_, _, ok = m.splitEscPrefix(tea.KeyPressMsg{Code: tea.KeyLeft, Mod: tea.ModAlt | tea.ModCtrl})
	assert.False(t, ok, "ctrl+alt+left is one key (CSI 1;7D), not esc then ctrl+left")
	m.kittyKeys = true
	_, _, ok = m.splitEscPrefix(tea.KeyPressMsg{Code: ':', Mod: tea.ModAlt})
	assert.False(t, ok, "with the kitty protocol alt is alt")
}

// Issue 15 item: `Escape` then `:` in one write. The reader sees ESC and ':'
// together and reports alt+:; the root splits it into esc then ':' and both
// act: with a filter on the list, esc clears it and ':' opens the palette;
// with the filter prompt open, esc cancels the edit (the previous filter
// comes back) and ':' opens the palette, not typed into the prompt.
func TestEscThenColonInOneWriteBothAct(t *testing.T) {
	m, _ := pipeModel(t)
	w, ask := pipeProgram(t, m)
	waitReady(t, ask)
	filter := func(m *Model) string { return m.filters[m.panes[m.active].ID()] }
	paletteOnly := func(m *Model) bool { return m.layers.len() == 1 && m.layers.has(rankPalette) }
	for i := 0; i < 3; i++ {
		_, err := w.Write([]byte("/pay\r\x1b:"))
		require.NoError(t, err)
		waitModel(t, ask, "the filter cleared and the palette open", func(m *Model) bool {
			return paletteOnly(m) && filter(m) == ""
		})
		_, err = w.Write([]byte("\x1b/pay\r/ments\x1b:"))
		require.NoError(t, err)
		waitModel(t, ask, "the previous filter back and the palette open", func(m *Model) bool {
			return paletteOnly(m) && filter(m) == "pay"
		})
		_, err = w.Write([]byte("\x1b\x1b"))
		require.NoError(t, err)
		waitModel(t, ask, "no layer and no filter", func(m *Model) bool { return m.layers.len() == 0 && filter(m) == "" })
	}
}

// Esc then enter, or esc then a ctrl key, in one write (typed fast, or one
// packet over a slow link): the reader reports alt+enter or alt+ctrl+\,
// which nothing binds. Both keys act: esc clears the filter and the key
// reaches the pane, after the clear.
func TestEscThenEnterOrCtrlKeyInOneWriteBothAct(t *testing.T) {
	m, panes := pipeModel(t)
	w, ask := pipeProgram(t, m)
	waitReady(t, ask)
	filter := func(m *Model) string { return m.filters[m.panes[m.active].ID()] }
	// keyAfterClear: the active pane got the cleared filter, then the key
	// (as itself or as the action it runs).
	keyAfterClear := func(m *Model, name string) bool {
		got := panes[m.panes[m.active].ID()].got
		cleared := -1
		for i, msg := range got {
			if f, ok := msg.(views.FilterMsg); ok && f.Text == "" {
				cleared = i
			}
		}
		if cleared < 0 {
			return false
		}
		for _, msg := range got[cleared+1:] {
			switch msg := msg.(type) {
			case tea.KeyPressMsg:
				if msg.String() == name {
					return true
				}
			case views.ActionMsg:
				if a, ok := m.keys.Lookup(msg.Name); ok && slices.Contains(a.Binding.Keys(), name) {
					return true
				}
			}
		}
		return false
	}
	for _, c := range []struct{ bytes, key string }{{"\x1b\r", "enter"}, {"\x1b\x1c", "ctrl+\\"}} {
		_, err := w.Write([]byte("/pay\r"))
		require.NoError(t, err)
		waitModel(t, ask, "the filter kept", func(m *Model) bool { return m.layers.len() == 0 && filter(m) == "pay" })
		ask(func(m *Model) any { panes[m.panes[m.active].ID()].got = nil; return nil })
		_, err = w.Write([]byte(c.bytes))
		require.NoError(t, err)
		waitModel(t, ask, "the filter cleared, then "+c.key+" in the pane", func(m *Model) bool {
			return filter(m) == "" && keyAfterClear(m, c.key)
		})
	}
}
