package search

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
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// editKind is what an editor session writes.
type editKind int

const (
	editCreate editKind = iota
	editUpdate
	editAnalyzers
)

// editSession is one definition being written in $EDITOR. It outlives the
// editor: a refused or failed send keeps Text, so the next open starts from
// what the user typed, never from the template again.
type editSession struct {
	Kind    editKind
	Cluster string
	// IndexID, Name, Namespace and Type are set for an update.
	IndexID   string
	Name      string
	Namespace string
	Type      apiclient.IndexType
	Version   int64
	// Text is the user's text, without our comment header.
	Text string
	// Problem is why the last attempt was refused (shown in the header).
	Problem string
}

// key names the draft slot of a session: one per create, per index, per
// cluster's analyzers.
func (s editSession) key() string {
	switch s.Kind {
	case editUpdate:
		return "update/" + s.Cluster + "/" + s.IndexID
	case editAnalyzers:
		return "analyzers/" + s.Cluster
	}
	return "create/" + s.Cluster
}

func (s editSession) what() string {
	switch s.Kind {
	case editUpdate:
		return fmt.Sprintf("index %s (%s) on %s", s.Name, s.Namespace, s.Cluster)
	case editAnalyzers:
		return "user-defined analyzers of " + s.Cluster
	}
	return "new search index on " + s.Cluster
}

// headerPrefix starts the comment lines we put above the JSON; they are
// blanked before parsing, so line numbers stay those of the file.
const headerPrefix = "//"

// fileText is what the editor opens: a comment header (what is edited, the
// last problem) and the user's text.
func (s editSession) fileText() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s Editing the %s.\n", headerPrefix, s.what())
	if s.Problem != "" {
		for _, l := range strings.Split(s.Problem, "\n") {
			fmt.Fprintf(&b, "%s ERROR: %s\n", headerPrefix, l)
		}
	}
	fmt.Fprintf(&b, "%s Save and quit to send; leave it unchanged to keep the draft and send nothing.\n", headerPrefix)
	fmt.Fprintf(&b, "%s Lines starting with %s at the top are ignored.\n", headerPrefix, headerPrefix)
	b.WriteString(s.Text)
	if !strings.HasSuffix(s.Text, "\n") {
		b.WriteString("\n")
	}
	return b.String()
}

// stripHeader blanks the leading comment lines (keeping the line count, so
// positions in errors are those the editor shows) and returns the body and
// the text without them (what a draft keeps).
func stripHeader(file string) (body string, text string) {
	lines := strings.SplitAfter(file, "\n")
	i := 0
	for i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), headerPrefix) {
		i++
	}
	return strings.Repeat("\n", i) + strings.Join(lines[i:], ""), strings.Join(lines[i:], "")
}

// position turns a byte offset into 1-based line and column.
func position(src string, offset int64) (line, col int) {
	if offset > int64(len(src)) {
		offset = int64(len(src))
	}
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

// decodeStrict decodes src into v, refusing unknown members, and turns
// errors into messages with the line and column the editor shows.
func decodeStrict(src string, v any) error {
	if strings.TrimSpace(src) == "" {
		return errors.New("the definition is empty")
	}
	dec := json.NewDecoder(strings.NewReader(src))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if _, terr := dec.Token(); terr == nil {
			line, col := position(src, dec.InputOffset())
			return fmt.Errorf("line %d, column %d: unexpected text after the JSON value", line, col)
		}
		return nil
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		line, col := position(src, max(syn.Offset-1, 0)) // Offset is just past the bad byte
		return fmt.Errorf("line %d, column %d: JSON syntax error: %s", line, col, syn.Error())
	case errors.As(err, &typ):
		line, col := position(src, typ.Offset)
		field := typ.Field
		if field == "" {
			field = "value"
		}
		return fmt.Errorf("line %d, column %d: %s must be a JSON %s, not %s", line, col, field, jsonKind(typ.Type.String()), typ.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.TrimPrefix(err.Error(), "json: unknown field ")
		line, col := position(src, int64(strings.Index(src, name)))
		return fmt.Errorf("line %d, column %d: unknown member %s", line, col, name)
	}
	line, col := position(src, int64(len(src)))
	return fmt.Errorf("line %d, column %d: %v", line, col, err)
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

// validateAnalyzers checks user-defined analyzers beyond what the client
// checks: a name (not a reserved prefix) and a tokenizer type.
func validateAnalyzers(prefix string, as []apiclient.Analyzer) error {
	for i, a := range as {
		field := fmt.Sprintf("%sanalyzers[%d]", prefix, i)
		if prefix == "" {
			field = fmt.Sprintf("[%d]", i)
		}
		switch {
		case a.Name == "":
			return fmt.Errorf("%s.name: required", field)
		case strings.HasPrefix(a.Name, "lucene.") || strings.HasPrefix(a.Name, "builtin.") || strings.HasPrefix(a.Name, "mongodb."):
			return fmt.Errorf("%s.name: %q uses a reserved prefix (lucene., builtin., mongodb.)", field, a.Name)
		}
		if t, _ := a.Tokenizer["type"].(string); t == "" {
			return fmt.Errorf("%s.tokenizer.type: required", field)
		}
	}
	return nil
}

// parsed is a definition that passed local validation, ready to send.
type parsed struct {
	create    apiclient.SearchIndexCreateRequest
	def       apiclient.IndexDefinition
	analyzers []apiclient.Analyzer
}

// parseEdit validates the user's text for the session: JSON syntax (with
// line and column), unknown members, required fields and enums. Nothing is
// sent unless it returns no error.
func parseEdit(s editSession, body string) (parsed, error) {
	var p parsed
	switch s.Kind {
	case editCreate:
		if err := decodeStrict(body, &p.create); err != nil {
			return p, err
		}
		if err := p.create.Validate(); err != nil {
			return p, friendly(err)
		}
		if err := validateAnalyzers("definition.", p.create.Definition.Analyzers); err != nil {
			return p, err
		}
	case editUpdate:
		if err := decodeStrict(body, &p.def); err != nil {
			return p, err
		}
		if err := p.def.Validate(s.Type); err != nil {
			return p, friendly(err)
		}
		if err := validateAnalyzers("definition.", p.def.Analyzers); err != nil {
			return p, err
		}
	case editAnalyzers:
		if err := decodeStrict(body, &p.analyzers); err != nil {
			return p, err
		}
		if err := validateAnalyzers("", p.analyzers); err != nil {
			return p, err
		}
	}
	return p, nil
}

// friendly adds the list of valid analyzers to an unknown-analyzer message.
func friendly(err error) error {
	var ve *apiclient.ValidationError
	if errors.As(err, &ve) && strings.Contains(ve.Reason, "unknown analyzer") {
		return fmt.Errorf("%s: %s (use lucene.standard, lucene.english, ... or a name from analyzers)", ve.Field, ve.Reason)
	}
	return err
}

// createTemplate is where `n` starts: a text index with dynamic mappings on
// the selected namespace.
func createTemplate(db, coll string) string {
	if db == "" {
		db = "mydb"
	}
	if coll == "" {
		coll = "mycollection"
	}
	t := map[string]any{
		"name": "new-index", "database": db, "collectionName": coll, "type": "search",
		"definition": map[string]any{
			"analyzer": "lucene.standard", "searchAnalyzer": "lucene.standard",
			"mappings": map[string]any{"dynamic": true, "fields": map[string]any{}}, "numPartitions": 1,
		},
	}
	return prettyJSON(t)
}

func prettyJSON(v any) string {
	var b []byte
	switch x := v.(type) {
	case json.RawMessage:
		var buf bytes.Buffer
		if json.Indent(&buf, x, "", "  ") == nil {
			b = buf.Bytes()
		} else {
			b = x
		}
	default:
		b, _ = json.MarshalIndent(v, "", "  ")
	}
	return string(b) + "\n"
}

// editorDoneMsg comes back when the editor exits.
type editorDoneMsg struct {
	Session editSession
	Path    string
	Err     error
	// Sent is the file text we wrote, to tell "saved unchanged" apart.
	Sent string
}

// EditorFunc runs the editor on path and answers with done's message when
// it exits. The default hands the terminal over with tea.ExecProcess; tests
// substitute one that writes the file itself.
type EditorFunc func(path string, done func(error) tea.Msg) tea.Cmd

// ExecEditor runs $VISUAL, else $EDITOR, else vi, through tea.ExecProcess.
func ExecEditor(path string, done func(error) tea.Msg) tea.Cmd {
	editor := os.Getenv("VISUAL")
	if editor == "" {
		editor = os.Getenv("EDITOR")
	}
	if editor == "" {
		editor = "vi"
	}
	args := strings.Fields(editor) // "code --wait" is a command and a flag
	cmd := exec.Command(args[0], append(args[1:], path)...)
	return tea.ExecProcess(cmd, func(err error) tea.Msg { return done(err) })
}

// openEditor writes the session's file and starts the editor on it.
func openEditor(run EditorFunc, s editSession) (tea.Cmd, error) {
	f, err := os.CreateTemp("", "dbadmin-search-*.json")
	if err != nil {
		return nil, fmt.Errorf("editor file: %w", err)
	}
	text := s.fileText()
	_, werr := f.WriteString(text)
	cerr := f.Close()
	if werr != nil || cerr != nil {
		_ = os.Remove(f.Name())
		return nil, fmt.Errorf("editor file: %w", errors.Join(werr, cerr))
	}
	path := f.Name()
	return run(path, func(err error) tea.Msg {
		return views.PaneMsg{Pane: views.Search, Msg: editorDoneMsg{Session: s, Path: path, Err: err, Sent: text}}
	}), nil
}
