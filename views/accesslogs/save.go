package accesslogs

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// savedMsg is the end of a save.
type savedMsg struct {
	path string
	n    int
	err  error
}

// pendingSave is a save asked for: the records the dialog counted, taken
// when it opened. Whatever changes the log on screen (restart, unpick)
// drops it, so its records are always of the log shown.
type pendingSave struct {
	name string // the default file name the dialog offered
	recs []apiclient.AccessLog
}

// defaultSaveName is a file name after target and the time; it goes into
// the export directory.
func (p *Pane) defaultSaveName(target string) string {
	name := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r < ' ' {
			return '_'
		}
		return r
	}, target)
	return fmt.Sprintf("accesslogs-%s-%s.jsonl", name, p.Ctx.Now().UTC().Format("20060102T150405Z"))
}

// askSave asks for a file name for the records shown now (filtered), as
// JSON lines, as the server sent them.
func (p *Pane) askSave(action string) tea.Cmd {
	p.pending = nil
	target := p.target()
	if target == "" || !p.ready() {
		p.Toast("nothing to save: no access log is open", true)
		return nil
	}
	n := p.st.lv.Len()
	if n == 0 {
		p.Toast("nothing to save: no line is shown", false)
		return nil
	}
	recs := make([]apiclient.AccessLog, n)
	for i := range n {
		recs[i] = p.st.line(i).AccessLog
	}
	def := p.defaultSaveName(target)
	p.pending = &pendingSave{name: def, recs: recs}
	p.Confirm(views.ConfirmMsg{Title: "Save access log",
		Body: fmt.Sprintf("Write the %d shown records of %s as JSON lines (a new file; an existing one is not overwritten).\nLeave empty for %s",
			n, components.Sanitize(target), def),
		Prompt: "File name", Action: views.ActionMsg{Name: action}})
	return nil
}

// save writes the records the dialog counted, of the log its file name
// names, and only while that log is still the one on screen; the file is
// written off the UI loop and its outcome comes back as savedMsg.
func (p *Pane) save(msg views.ActionMsg) tea.Cmd {
	ps := p.pending
	p.pending = nil
	if ps == nil {
		p.Toast("nothing saved: the access log on screen changed since the save was asked (s asks again)", true)
		return nil
	}
	recs := ps.recs
	path := strings.TrimSpace(msg.Input)
	if path == "" {
		path = ps.name
	}
	if rest, ok := strings.CutPrefix(path, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			path = filepath.Join(home, rest)
		}
	}
	// A bare name goes into the export directory, not wherever the
	// dashboard was started; a path the user typed is taken as given.
	dir := p.Ctx.ExportDir
	if !filepath.IsAbs(path) && dir != "" && !strings.ContainsRune(path, filepath.Separator) {
		path = filepath.Join(dir, path)
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return func() tea.Msg {
		err := writeJSONLines(path, recs)
		return views.PaneMsg{Pane: ID, Msg: savedMsg{path: path, n: len(recs), err: err}}
	}
}

func writeJSONLines(path string, recs []apiclient.AccessLog) (err error) {
	// 0700 and 0600: the log names users and addresses.
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			_ = os.Remove(path)
		}
	}()
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for _, r := range recs {
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	return w.Flush()
}

func (p *Pane) onSaved(m savedMsg) tea.Cmd {
	if m.err != nil {
		p.Toast("save failed, nothing was lost: "+components.Sanitize(m.err.Error()), true)
		return nil
	}
	p.Toast(fmt.Sprintf("saved %d records to %s", m.n, m.path), false)
	return nil
}
