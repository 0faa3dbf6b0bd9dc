package ui

import (
	"errors"
	"fmt"
	"io/fs"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/journal"
)

// ShiftLength is how far back `:journal` looks by default: this shift.
const ShiftLength = 8 * time.Hour

// journalLayer is the `:journal` overlay: the writes of this shift (every
// person's under `serve`), newest first; `a` shows the whole journal.
type journalLayer struct {
	offset int
	all    bool
	lines  []string
	err    error
	bad    int
}

func (m *Model) openJournal() tea.Cmd {
	if m.opts.JournalPath == "" {
		return m.toast("no journal: writes are not recorded in this dashboard", true)
	}
	l := &journalLayer{}
	l.load(m)
	m.layers.push(l)
	return nil
}

func (l *journalLayer) load(m *Model) {
	since := time.Now().Add(-ShiftLength)
	if l.all {
		since = time.Time{}
	}
	entries, bad, err := journal.Read(m.opts.JournalPath, since)
	if errors.Is(err, fs.ErrNotExist) {
		err = nil
	}
	l.err, l.bad, l.lines = err, bad, nil
	for i := len(entries) - 1; i >= 0; i-- {
		l.lines = append(l.lines, clean(journal.Line(entries[i], time.Local)))
	}
}

func (l *journalLayer) rank() int { return rankHelp }

func (l *journalLayer) dismiss(*Model) tea.Cmd { return nil }

func (l *journalLayer) key(m *Model, msg tea.KeyPressMsg) (bool, tea.Cmd) {
	switch msg.String() {
	case "q":
		return true, nil
	case "j", "down":
		l.offset++
	case "k", "up":
		l.offset = max(0, l.offset-1)
	case "pgdown", "space":
		l.offset += 10
	case "pgup":
		l.offset = max(0, l.offset-10)
	case "g", "home":
		l.offset = 0
	case "a":
		l.all, l.offset = !l.all, 0
		l.load(m)
	case "r":
		l.load(m)
	}
	return false, nil
}

func (l *journalLayer) overlay(m *Model, base string, w, hgt int) string {
	st := m.theme.Styles
	inner := max(20, min(120, w-6))
	rows := max(3, hgt-6)
	title := "Journal: this shift (last 8 h), newest first"
	if l.all {
		title = "Journal: everything, newest first"
	}
	lines := []string{st.HelpKey.Render(components.Truncate(title, inner))}
	body := l.lines
	switch {
	case l.err != nil:
		body = []string{st.ErrorText.Render(components.Truncate("cannot read the journal: "+clean(l.err.Error()), inner))}
	case len(body) == 0:
		body = []string{st.Muted.Render("no writes")}
	}
	bodyRows := max(1, rows-3)
	l.offset = max(0, min(l.offset, len(body)-bodyRows))
	end := min(len(body), l.offset+bodyRows)
	for _, s := range body[l.offset:end] {
		lines = append(lines, components.Truncate(s, inner))
	}
	footer := fmt.Sprintf("%d writes • a this shift/all • j/k scroll • r reload • esc close", len(l.lines))
	if l.bad > 0 {
		footer = fmt.Sprintf("%d unreadable lines skipped • ", l.bad) + footer
	}
	if end < len(body) {
		footer = "more below • " + footer
	}
	lines = append(lines, st.Muted.Render(components.Truncate(footer, inner)))
	return center(base, st.DialogBorder.Render(lipgloss.JoinVertical(lipgloss.Left, lines...)), w, hgt)
}
