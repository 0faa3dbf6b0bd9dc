package views

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// Editing JSON in the user's editor: a pane opens an Edit, the terminal goes
// to $VISUAL (else $EDITOR, else vi) on a temporary file that starts with a
// header of comment lines, and an EditedMsg comes back to the pane, wrapped
// in a PaneMsg, with the text as the user left it. What the text must be
// (a search definition, an audit filter, an alert configuration), and
// whether to reopen the editor on a mistake, is the pane's business.

// EditorFunc runs the user's editor on path and, when it exits, answers with
// done's message. ExecEditor is the real one; tests substitute a function
// that edits the file itself.
type EditorFunc func(path string, done func(error) tea.Msg) tea.Cmd

// EditorCommand is $VISUAL, else $EDITOR, else vi, on path. The variable may
// carry arguments ("code --wait").
func EditorCommand(path string) (*exec.Cmd, error) {
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
	cmd := exec.Command(bin, append(args[1:], path)...)
	cmd.Env = ChildEnv(os.Environ())
	return cmd, nil
}

// ChildEnv is the environment a child process (the editor) gets: ours
// without the MONGODB_ATLAS_* variables, which hold API keys, client
// secrets and tokens the child has no business with.
func ChildEnv(environ []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		if !strings.HasPrefix(strings.ToUpper(kv), "MONGODB_ATLAS_") {
			out = append(out, kv)
		}
	}
	return out
}

// ExecEditor hands the terminal to EditorCommand through tea.ExecProcess.
// An editor that cannot be found answers done at once with the reason.
func ExecEditor(path string, done func(error) tea.Msg) tea.Cmd {
	if editorRefused != "" {
		return func() tea.Msg { return done(errors.New(editorRefused)) }
	}
	cmd, err := EditorCommand(path)
	if err != nil {
		return func() tea.Msg { return done(err) }
	}
	return tea.ExecProcess(cmd, done)
}

// RunEditor runs EditorCommand to its end inside the Cmd, without handing
// over the terminal: for editors that need none (a script in $EDITOR) and
// tests.
func RunEditor(path string, done func(error) tea.Msg) tea.Cmd {
	return func() tea.Msg {
		cmd, err := EditorCommand(path)
		if err != nil {
			return done(err)
		}
		return done(cmd.Run())
	}
}

// commentPrefix starts the header lines; a line starting with it (after
// blank space) is never JSON, so it is ignored anywhere in the file.
const commentPrefix = "//"

// Edit is one round in the editor.
type Edit struct {
	Pane ID
	// Key is the pane's name for what is edited (a draft slot); Tag is any
	// value the pane needs back. Both return untouched in EditedMsg.
	Key string
	Tag any
	// File names the temporary file, dbadmin-<File>-*.json (the editor
	// shows it); empty uses the pane's id.
	File string
	// Header is written above Text, one comment line each ("// " + line;
	// an entry with line breaks makes several).
	Header []string
	Text   string
	// Run is the editor; nil is ExecEditor.
	Run EditorFunc
}

// EditedMsg is the answer to Edit.Open.
type EditedMsg struct {
	Key string
	Tag any
	// Text is the file below the header (the leading comment and blank
	// lines), trailing blank space trimmed: the draft to keep. When the
	// file could not be written or read it is the text that was opened, so
	// nothing typed is lost.
	Text string
	// HeaderLines is how many lines stood above Text in the saved file.
	HeaderLines int
	// Unchanged is set when Text is the text that was opened (the header
	// does not count).
	Unchanged bool
	// Err is set when the file could not be written or read or the editor
	// failed; errors.Unwrap gives the cause without our wording.
	Err error
}

// Source is the text to decode: the header kept as blank lines and every
// comment line blanked, so positions in errors are the saved file's lines
// and columns.
func (m EditedMsg) Source() string {
	return strings.Repeat("\n", m.HeaderLines) + BlankComments(m.Text)
}

// Open writes the file and runs the editor. Everything happens in the
// returned Cmd; every failure comes back as an EditedMsg with Err.
func (e Edit) Open() tea.Cmd {
	run := e.Run
	if run == nil {
		run = ExecEditor
	}
	name := e.File
	if name == "" {
		name = string(e.Pane)
	}
	file := editFile(e.Header, e.Text)
	answer := func(m EditedMsg) tea.Msg {
		m.Key, m.Tag = e.Key, e.Tag
		return PaneMsg{Pane: e.Pane, Msg: m}
	}
	return func() tea.Msg {
		path, err := writeTemp("dbadmin-"+name+"-*.json", file)
		if err != nil {
			return answer(EditedMsg{Text: trimEnd(e.Text), Err: fmt.Errorf("temporary file: %w", err)})
		}
		cmd := run(path, func(runErr error) tea.Msg {
			saved, rerr := os.ReadFile(path)
			_ = os.Remove(path)
			m := EditedFile(e.Text, string(saved))
			if rerr != nil {
				m = EditedMsg{Text: trimEnd(e.Text)}
			}
			switch {
			case runErr != nil:
				m.Err, m.Unchanged = fmt.Errorf("the editor failed: %w", runErr), false
			case rerr != nil:
				m.Err = fmt.Errorf("reading the edited file: %w", rerr)
			}
			return answer(m)
		})
		if cmd == nil {
			_ = os.Remove(path)
			return answer(EditedMsg{Text: trimEnd(e.Text), Err: fmt.Errorf("the editor failed: %w", errors.New("no editor to run"))})
		}
		return cmd()
	}
}

// EditedFile is what a round that opened text answers when the editor
// left file (Key and Tag aside): the header stripped and the text compared.
func EditedFile(opened, file string) EditedMsg {
	text, n := StripHeader(file)
	return EditedMsg{Text: text, HeaderLines: n, Unchanged: text == trimEnd(opened)}
}

// editFile is the header as comment lines, then the text.
func editFile(header []string, text string) string {
	var b strings.Builder
	for _, h := range header {
		for _, l := range strings.Split(h, "\n") {
			b.WriteString(strings.TrimRight(commentPrefix+" "+l, " ") + "\n")
		}
	}
	b.WriteString(strings.TrimRight(text, "\n") + "\n")
	return b.String()
}

func writeTemp(pattern, text string) (string, error) {
	f, err := os.CreateTemp("", pattern)
	if err != nil {
		return "", err
	}
	_, werr := f.WriteString(text)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		_ = os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// StripHeader splits a saved file into the text below its header (the
// leading comment and blank lines; trailing blank space trimmed) and how
// many lines the header took.
func StripHeader(file string) (text string, headerLines int) {
	lines := strings.SplitAfter(file, "\n")
	// The last element is "" when the file ends with a newline: no line.
	for headerLines < len(lines) && lines[headerLines] != "" && isHeaderLine(lines[headerLines]) {
		headerLines++
	}
	return trimEnd(strings.Join(lines[headerLines:], "")), headerLines
}

func isHeaderLine(l string) bool {
	l = strings.TrimSpace(l)
	return l == "" || strings.HasPrefix(l, commentPrefix)
}

// BlankComments empties every line that starts with // (no JSON line can),
// keeping the line count so positions do not move.
func BlankComments(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), commentPrefix) {
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}

func trimEnd(s string) string { return strings.TrimRight(s, " \t\r\n") }

// JSONError is a mistake in edited JSON, at a 1-based line and column.
type JSONError struct {
	Line, Col int
	Msg       string
}

func (e *JSONError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Col, e.Msg)
}

// DecodeJSON decodes one JSON value from src into v. A syntax error, a
// value of the wrong type or text after the value is a *JSONError with the
// line and column of src.
func DecodeJSON(src string, v any) error { return decodeJSON(src, v, false) }

// DecodeJSONStrict is DecodeJSON that also refuses members v does not have.
func DecodeJSONStrict(src string, v any) error { return decodeJSON(src, v, true) }

func decodeJSON(src string, v any, strict bool) error {
	if strings.TrimSpace(src) == "" {
		return errors.New("the document is empty")
	}
	dec := json.NewDecoder(strings.NewReader(src))
	if strict {
		dec.DisallowUnknownFields()
	}
	err := dec.Decode(v)
	at := func(offset int64, format string, args ...any) error {
		line, col := position(src, offset)
		return &JSONError{Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
	}
	if err == nil {
		end := dec.InputOffset()
		if _, terr := dec.Token(); terr == nil {
			rest := src[end:]
			return at(end+int64(len(rest)-len(strings.TrimLeft(rest, " \t\r\n"))), "unexpected text after the JSON value")
		}
		return nil
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return at(max(syn.Offset-1, 0), "JSON syntax error: %s", syn.Error()) // Offset is just past the bad byte
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "value"
		}
		return at(typ.Offset, "%s must be a JSON %s, not %s", field, jsonKind(typ.Type.String()), typ.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.TrimPrefix(err.Error(), "json: unknown field ")
		return at(int64(max(strings.Index(src, name), 0)), "unknown member %s", name)
	}
	return at(int64(len(src)), "%v", err)
}

// position turns a byte offset into a 1-based line and column (in runes).
func position(src string, offset int64) (line, col int) {
	offset = min(max(offset, 0), int64(len(src)))
	line, col = 1, 1
	for _, r := range src[:offset] {
		if r == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}

func jsonKind(goType string) string {
	switch {
	case strings.HasPrefix(goType, "[]"):
		return "array"
	case strings.HasPrefix(goType, "map"), strings.Contains(goType, "."):
		return "object"
	case strings.HasPrefix(goType, "int"), strings.HasPrefix(goType, "float"):
		return "number"
	case goType == "bool":
		return "boolean"
	}
	return goType
}
