package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/ui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// The audit filter is edited in the user's editor, in a temporary file that
// starts with a header of comment lines (ignored when read back). The header
// always has headerLines lines, so a syntax error's line in the filter maps
// to the same line of the file on every round.
const headerLines = 3

// editorDoneMsg comes back when the editor exits.
type editorDoneMsg struct {
	text string // the file as the editor left it
	err  error  // the editor did not run, failed, or the file is unreadable
	// retried is the draft the editor was reopened with after a syntax
	// error ("" on a first round): saving it unchanged ends the loop.
	retried string
}

// edit opens the editor on the draft, or on the current filter.
func (p *Pane) edit() tea.Cmd {
	if why := p.ready("edit audit filter"); why != "" {
		return p.refuse(why)
	}
	if p.snap.Audit == nil {
		return p.refuse("edit audit filter: the configuration could not be read: " + errText(p.snap.AuditErr))
	}
	text := p.draft
	if text == "" {
		text = pretty(p.snap.Audit.AuditFilter)
	}
	status := "Edit the filter below."
	if p.draftErr != "" {
		status = "Your unsaved text, " + p.draftErr
	}
	return p.openEditor(text, status, "")
}

// openEditor writes the file and hands the terminal to the editor.
func (p *Pane) openEditor(text, status, retried string) tea.Cmd {
	path, err := writeEditorFile(p.project(), status, text)
	if err != nil {
		p.draft = text
		return p.refuse("edit audit filter: " + err.Error())
	}
	cmd, err := editorCommand(path)
	if err != nil {
		_ = os.Remove(path)
		p.draft = text
		return p.refuse("edit audit filter: " + err.Error())
	}
	return tea.ExecProcess(cmd, func(runErr error) tea.Msg {
		return views.PaneMsg{Pane: views.Settings, Msg: readEditorFile(path, runErr, retried)}
	})
}

// writeEditorFile writes the header and text to a new temporary file.
func writeEditorFile(project, status, text string) (string, error) {
	f, err := os.CreateTemp("", "dbadmin-audit-filter-*.json")
	if err != nil {
		return "", fmt.Errorf("temporary file: %w", err)
	}
	header := []string{
		"// Audit filter of " + oneLine(project) + ": a JSON document naming the events to record.",
		"// Lines starting with // are ignored. Save and quit to continue; an empty document cancels.",
		"// " + oneLine(status),
	}
	body := strings.Join(header, "\n") + "\n" + strings.TrimRight(text, "\n") + "\n"
	if _, err := f.WriteString(body); err != nil {
		f.Close()
		_ = os.Remove(f.Name())
		return "", fmt.Errorf("temporary file: %w", err)
	}
	if err := f.Close(); err != nil {
		_ = os.Remove(f.Name())
		return "", fmt.Errorf("temporary file: %w", err)
	}
	return f.Name(), nil
}

// readEditorFile reads what the editor left and removes the file.
func readEditorFile(path string, runErr error, retried string) editorDoneMsg {
	b, err := os.ReadFile(path)
	_ = os.Remove(path)
	msg := editorDoneMsg{text: string(b), retried: retried}
	switch {
	case runErr != nil:
		msg.err = fmt.Errorf("the editor failed: %w", runErr)
	case err != nil:
		msg.err = fmt.Errorf("reading the edited file: %w", err)
	}
	return msg
}

// editorCommand is $VISUAL, else $EDITOR, else vi, on path. The variable
// may carry arguments ("code --wait").
func editorCommand(path string) (*exec.Cmd, error) {
	ed := strings.TrimSpace(os.Getenv("VISUAL"))
	if ed == "" {
		ed = strings.TrimSpace(os.Getenv("EDITOR"))
	}
	if ed == "" {
		ed = "vi"
	}
	args := strings.Fields(ed)
	bin, err := exec.LookPath(args[0])
	if err != nil {
		return nil, fmt.Errorf("no editor %q (set EDITOR): %w", args[0], err)
	}
	return exec.Command(bin, append(args[1:], path)...), nil
}

// stripComments drops the lines that start with //; no JSON line can.
func stripComments(text string) string {
	lines := strings.Split(text, "\n")
	out := lines[:0]
	for _, l := range lines {
		if !strings.HasPrefix(strings.TrimSpace(l), "//") {
			out = append(out, l)
		}
	}
	return strings.TrimRight(strings.Join(out, "\n"), "\n \t\r")
}

// editorDone checks what the editor left: an empty document cancels, a
// syntax error reopens the editor with the text and where it broke, and a
// valid changed filter asks to be saved.
func (p *Pane) editorDone(msg editorDoneMsg) tea.Cmd {
	text := stripComments(msg.text)
	if msg.err != nil {
		if strings.TrimSpace(text) != "" {
			p.draft = text
		}
		return p.refuse("edit audit filter: " + msg.err.Error() + keptNote(p.draft))
	}
	if strings.TrimSpace(text) == "" {
		return p.refuse("edit audit filter: empty document, nothing saved (to record every event, save {})" + keptNote(p.draft))
	}
	if err := apiclient.CheckAuditFilter(text); err != nil {
		p.draft = text
		p.draftErr = err.Error()
		if msg.retried == text {
			// Saved unchanged after a reopen: the user gave up for now.
			return p.refuse("audit filter not saved: " + err.Error() + keptNote(text))
		}
		p.say("audit filter: "+err.Error()+"; reopening the editor", true)
		return p.openEditor(text, "✗ "+fileError(err), text)
	}
	p.draftErr = ""
	var compact bytes.Buffer
	_ = json.Compact(&compact, []byte(text))
	current := ""
	if p.snap.Audit != nil {
		current = p.snap.Audit.AuditFilter
	}
	if sameJSON(compact.String(), current) {
		p.draft = ""
		p.say("audit filter unchanged: nothing sent", false)
		return nil
	}
	p.draft = text
	return p.confirm("Save the audit filter?", p.saveBody(compact.String()),
		views.ActionMsg{Name: actEditFilter, Target: targetFilterPrefix + compact.String()})
}

// saveBody is the confirmation's text: the filter, and what to know first.
func (p *Pane) saveBody(filter string) string {
	var b strings.Builder
	b.WriteString("New filter for " + p.project() + ":\n")
	b.WriteString(clipRunes(components.Sanitize(filter), 400))
	if a := p.snap.Audit; a != nil {
		if !a.Enabled {
			b.WriteString("\n\nAuditing is off: the filter applies once it is turned on (a).")
		}
		if a.AuditAuthorizationSuccess {
			b.WriteString("\n\nWarning: " + perfWarning)
		}
	}
	return b.String()
}

// fileError restates a filter error with the line as the reopened file
// shows it, below the header.
func fileError(err error) string {
	var fe *apiclient.AuditFilterError
	if errors.As(err, &fe) && fe.Line > 0 {
		return fmt.Sprintf("line %d, column %d: %s", fe.Line+headerLines, fe.Column, fe.Msg)
	}
	return err.Error()
}

func keptNote(draft string) string {
	if draft == "" {
		return ""
	}
	return "; your text is kept: press e to continue"
}

// pretty indents a stored filter for editing; text that does not parse is
// returned as it is.
func pretty(filter string) string {
	if strings.TrimSpace(filter) == "" {
		return "{}"
	}
	var out bytes.Buffer
	if json.Indent(&out, []byte(filter), "", "  ") != nil {
		return filter
	}
	return out.String()
}

// sameJSON compares two filters as documents.
func sameJSON(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return a == b
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(components.Sanitize(s)), " ")
}

func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
