package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// The audit filter is edited in the user's editor, below a header of
// comment lines. The header always has headerLines lines, so a syntax
// error's line in the filter maps to the same line of the file on every
// round.
const headerLines = 3

// The rounds of an edit: the first, and one reopened after a syntax error
// (saving that one unchanged ends the loop).
const (
	editKey   = "audit-filter"
	reopenKey = "audit-filter/reopened"
)

// edit opens the editor on the draft, or on the current filter.
func (p *Pane) edit() tea.Cmd {
	a := p.auditFor("edit audit filter")
	if a == nil {
		return nil
	}
	text := p.draft
	if text == "" {
		text = pretty(a.AuditFilter)
	}
	status := "Edit the filter below."
	if p.draftErr != "" {
		status = "Your unsaved text, " + p.draftErr
	}
	return p.editRound(text, status, editKey).Open()
}

// editRound is the editor on text, with status as the header's last line.
func (p *Pane) editRound(text, status, key string) views.Edit {
	return views.Edit{Pane: ID, Key: key, File: "audit-filter", Text: text, Header: []string{
		"Audit filter of " + oneLine(p.project()) + ": a JSON document naming the events to record.",
		"Lines starting with // are ignored. Save and quit to continue; an empty document cancels.",
		oneLine(status),
	}}
}

// editorDone checks what the editor left: an empty document cancels, a
// syntax error reopens the editor with the text and where it broke, and a
// valid changed filter asks to be saved.
func (p *Pane) editorDone(msg views.EditedMsg) tea.Cmd {
	text := msg.Text
	if msg.Err != nil {
		if text != "" {
			p.draft = text
		}
		return p.refuse("edit audit filter: " + msg.Err.Error() + keptNote(p.draft))
	}
	if text == "" {
		return p.refuse("edit audit filter: empty document, nothing saved (to record every event, save {})" + keptNote(p.draft))
	}
	filter := views.BlankComments(text)
	if err := apiclient.CheckAuditFilter(filter); err != nil {
		p.draft = text
		p.draftErr = err.Error()
		if msg.Key == reopenKey && msg.Unchanged {
			// Saved unchanged after a reopen: the user gave up for now.
			return p.refuse("audit filter not saved: " + err.Error() + keptNote(text))
		}
		p.say("audit filter: "+err.Error()+"; reopening the editor", true)
		return p.editRound(text, "✗ "+fileError(err), reopenKey).Open()
	}
	p.draftErr = ""
	var compact bytes.Buffer
	_ = json.Compact(&compact, []byte(filter))
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
		views.ActionMsg{Name: actEditFilter, Payload: filterDoc{Text: compact.String()}})
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

// filterDocument is a's filter as the detail shows it: through the one
// bounded path for server documents (components.Document), so a deep or
// huge filter is summarised, never indented or drawn whole.
func filterDocument(a *apiclient.AuditLog) components.Document {
	if a == nil {
		return components.Document{}
	}
	filter := a.AuditFilter
	if strings.TrimSpace(filter) == "" {
		filter = "{}"
	}
	return components.NewDocument(filter)
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
