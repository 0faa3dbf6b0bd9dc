package ui

import (
	"unicode"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// handleKey sends a key press to whoever owns it: the start-up screens, the
// "too small" screen, the top layer, or the pane level (pane actions through
// the gate, then the global keys, then the pane itself).
func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if esc, key, ok := m.splitEscPrefix(msg); ok {
		return tea.Batch(m.handleKey(esc), m.handleKey(key))
	}
	// Enter typed before the program put the terminal in raw mode arrives
	// as a line feed (the terminal driver turned CR into LF), read as
	// ctrl+j; ctrl+j is enter in readline too, and nothing else binds it.
	if msg.String() == "ctrl+j" {
		msg = tea.KeyPressMsg{Code: tea.KeyEnter}
	}
	k := msg.String()
	switch {
	case m.phase == phaseConnecting || (m.phase == phaseReady && m.width == 0):
		return m.typeAhead(msg)
	case m.phase != phaseReady:
		return m.startKey(k)
	case m.tooSmall():
		// A window dragged through a size too small to draw: keys typed
		// before or meanwhile wait for it to grow, and go in order then
		// (the quit key alone still quits).
		if k == "ctrl+c" || (len(m.pending) == 0 && m.layers.top() == nil && bound(m.keys.Global.Quit, k)) {
			return m.quit()
		}
		if len(m.pending) < maxTypeAhead {
			m.pending = append(m.pending, msg)
		}
		return nil
	}
	if m.holdOverdue() {
		return tea.Sequence(m.releaseHold(), m.handleKey(msg))
	}
	if m.holding(msg) || m.holdWhileSent(msg) {
		return nil
	}
	if top := m.layers.top(); top != nil {
		if k == "esc" {
			if e, ok := top.(escaper); ok && e.esc(m) {
				return nil
			}
			m.layers.remove(top)
			if f, ok := top.(*formLayer); ok { // closed while sent: the keys typed meanwhile follow
				return tea.Batch(top.dismiss(m), m.sentKeysGo(f))
			}
			return top.dismiss(m)
		}
		done, cmd := top.key(m, msg)
		if done {
			m.layers.remove(top)
		}
		return cmd
	}
	return m.paneLevelKey(msg)
}

// handlePaste gives pasted text to the top layer when it edits text; the
// input sanitizes it and keeps to its limit.
func (m *Model) handlePaste(msg tea.PasteMsg) tea.Cmd {
	if m.phase == phaseConnecting || (m.phase == phaseReady && (m.width == 0 || m.tooSmall())) {
		// Kept with the keys typed meanwhile, in order.
		if len(m.pending) < maxTypeAhead {
			m.pending = append(m.pending, msg)
		}
		return nil
	}
	if m.phase != phaseReady {
		return nil
	}
	top := m.layers.top()
	switch l := top.(type) {
	case paster:
		done, cmd := l.paste(m, msg)
		if done {
			m.layers.remove(top)
		}
		return cmd
	case *formLayer:
		var cmd tea.Cmd
		l.form, cmd = l.form.Update(msg)
		return cmd
	}
	return nil
}

// maxTypeAhead bounds the keys kept while the dashboard is not ready yet.
const maxTypeAhead = 256

// typeAhead keeps a key typed before the UI is ready (connecting, or no
// window size yet), to replay it once it is. ctrl+c quits at once, and so
// does the quit key when nothing has been typed before it (q as the first
// key means quit, but ":q" typed ahead is a palette command).
func (m *Model) typeAhead(msg tea.KeyPressMsg) tea.Cmd {
	k := msg.String()
	if k == "ctrl+c" || (len(m.pending) == 0 && bound(m.keys.Global.Quit, k)) {
		return tea.Quit
	}
	if len(m.pending) < maxTypeAhead {
		m.pending = append(m.pending, msg)
	}
	return nil
}

// replayTypeAhead hands the keys typed before the UI was ready to the UI,
// in order, once it is.
func (m *Model) replayTypeAhead() tea.Cmd {
	if m.phase != phaseReady || m.width == 0 || m.tooSmall() || len(m.pending) == 0 {
		return nil
	}
	keys := m.pending
	m.pending = nil
	cmds := make([]tea.Cmd, 0, len(keys))
	for _, k := range keys {
		switch k := k.(type) {
		case tea.KeyPressMsg:
			cmds = append(cmds, m.handleKey(k))
		case tea.PasteMsg:
			cmds = append(cmds, m.handlePaste(k))
		}
	}
	return tea.Sequence(cmds...)
}

// splitEscPrefix undoes the terminal reader's guess that ESC followed at
// once by a key is Alt+key: without the kitty keyboard protocol the two
// cannot be told apart, and no dashboard key uses Alt with a character,
// a ctrl key, esc, enter or tab, so ESC ESC is two esc presses, ESC : is esc then ':'
// and ESC CR (esc then enter typed fast, or sent in one packet over a slow
// link) is esc then enter. Alt with other keys (alt+backspace deletes a
// word, alt+left moves by a word in a text field) is kept.
func (m *Model) splitEscPrefix(msg tea.KeyPressMsg) (esc, key tea.KeyPressMsg, ok bool) {
	if m.kittyKeys || !msg.Mod.Contains(tea.ModAlt) || msg.Mod&^(tea.ModAlt|tea.ModShift|tea.ModCtrl) != 0 {
		return esc, key, false
	}
	key = msg
	key.Mod &^= tea.ModAlt
	switch {
	case key.Mod.Contains(tea.ModCtrl) && msg.Code < tea.KeyExtended: // ESC ctrl+\ is esc then ctrl+\
		key.Text = ""
		// (ctrl+alt+left is a key of its own, sent as one sequence: kept)
	case msg.Code == tea.KeyEscape && key.Mod == 0:
	case msg.Code == tea.KeyEnter && key.Mod == 0:
	case msg.Code == tea.KeyTab && key.Mod&^tea.ModShift == 0:
	case msg.Code == tea.KeySpace:
		key.Text = " "
	case unicode.IsPrint(msg.Code) && msg.Code < tea.KeyExtended:
		r := msg.Code
		if key.Mod.Contains(tea.ModShift) && msg.ShiftedCode != 0 {
			r = msg.ShiftedCode
		}
		key.Text = string(r)
	default:
		return esc, key, false
	}
	return tea.KeyPressMsg{Code: tea.KeyEscape}, key, true
}

// startKey handles the connecting and error screens: retry and quit.
func (m *Model) startKey(k string) tea.Cmd {
	switch {
	case bound(m.keys.Global.Quit, k):
		return tea.Quit
	case m.phase == phaseFailed && bound(m.keys.Global.Refresh, k):
		return m.connect()
	}
	return nil
}

func (m *Model) paneLevelKey(msg tea.KeyPressMsg) tea.Cmd {
	k := msg.String()
	if p := m.activePane(); p != nil {
		if a, ok := m.paneAction(m.active, k, ""); ok {
			m.toasted = ""
			return m.startHold(a, m.deliverAction(m.active, a, views.ActionMsg{Name: a.Name}))
		}
	}
	if cmd, ok := m.globalKey(k); ok {
		return cmd
	}
	if m.activePane() == nil {
		return nil
	}
	return m.updatePane(m.active, msg)
}

// globalKey runs the global binding of k, if any. ok is false when the key
// is not global (or, for esc, when there is nothing for the root to close),
// so the pane gets it.
func (m *Model) globalKey(k string) (tea.Cmd, bool) {
	g := &m.keys.Global
	for i, a := range g.Panes() {
		if bound(*a, k) {
			return m.switchTo(i), true
		}
	}
	handlers := []struct {
		a  keymap.Action
		do func() tea.Cmd
	}{
		{g.NextPane, func() tea.Cmd { return m.switchTo((m.active + 1) % len(m.panes)) }},
		{g.PrevPane, func() tea.Cmd { return m.switchTo((m.active + len(m.panes) - 1) % len(m.panes)) }},
		{g.Palette, m.openPalette},
		{g.Context, func() tea.Cmd { return m.openPicker(stageOrg) }},
		{g.Filter, m.openFilter},
		{g.Help, m.openHelp},
		{g.Refresh, m.refresh},
		{g.Pause, m.togglePause},
		{g.Yank, m.yank},
		{g.Quit, m.quit},
	}
	for _, h := range handlers {
		if bound(h.a, k) {
			return h.do(), true
		}
	}
	if bound(g.Close, k) {
		return m.closeAtPaneLevel()
	}
	return nil, false
}

// closeAtPaneLevel: esc closes the top visible thing. A pane showing a
// detail, results or a notice of its own (views.Backer) gets esc first, so
// the list behind keeps its filter; with nothing of the pane's open, esc
// clears the active filter; otherwise the pane gets it. A toast never takes
// an esc: it is not a layer, it expires on its own.
func (m *Model) closeAtPaneLevel() (tea.Cmd, bool) {
	p := m.panes[m.active]
	if b, ok := p.(views.Backer); ok && b.CanGoBack() {
		return nil, false
	}
	if id := p.ID(); m.filters[id] != "" {
		return m.setFilter(""), true
	}
	return m.jumpBack()
}

// switchTo makes pane i the active one.
func (m *Model) switchTo(i int) tea.Cmd {
	if len(m.panes) == 0 || i < 0 || i >= len(m.panes) || i == m.active {
		return nil
	}
	old := m.active
	m.active = i
	m.jumpedFrom = ""                                   // a jump's way back ends with any other switch
	m.toasts.ClearErrorsFrom(string(m.panes[old].ID())) // about the pane left behind
	m.toasts.ClearErrorsFrom("")
	return tea.Batch(m.paneCall(old, func(p views.Pane) tea.Cmd { return p.SetVisible(false) }), m.show(i))
}

// show makes pane i, the active one, visible, starting it on first show;
// its error toasts are the ones the footer shows.
func (m *Model) show(i int) tea.Cmd {
	if i < 0 || i >= len(m.panes) {
		return nil
	}
	m.toasts.SetActive(string(m.panes[i].ID()))
	var cmds []tea.Cmd
	if !m.inited[i] {
		m.inited[i] = true
		cmds = append(cmds, m.paneCall(i, views.Pane.Init))
	}
	cmds = append(cmds, m.paneCall(i, func(p views.Pane) tea.Cmd { return p.SetVisible(true) }))
	return tea.Batch(cmds...)
}

func (m *Model) refresh() tea.Cmd {
	if m.activePane() == nil {
		return nil
	}
	return m.updatePane(m.active, views.RefreshMsg{})
}

func (m *Model) togglePause() tea.Cmd {
	m.paused = !m.paused
	m.ctx.Paused = m.paused
	text := "live updates resumed"
	if m.paused {
		text = "live updates paused"
	}
	return tea.Batch(m.broadcast(views.PauseMsg{Paused: m.paused}), m.toast(text, false))
}

// quit leaves at once unless a pane reports a started restore or migration
// still running; then it asks, and the default answer is No.
func (m *Model) quit() tea.Cmd {
	busy := m.Busy()
	if len(busy) == 0 {
		return tea.Quit
	}
	m.layers.push(newConfirm(m, confirmSpec{
		title: "Quit?",
		body:  "Still running:\n" + bulletList(busy) + "\nIt goes on on the server, but this session stops watching it.",
		onYes: func(*Model, string) tea.Cmd { return tea.Quit },
	}))
	return nil
}
