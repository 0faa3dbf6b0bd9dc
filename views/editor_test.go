package views

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeEditor stands in for the user: it records the file it was given and
// what it held, then applies edit to it (nil leaves it as it was) and exits
// with fail.
type fakeEditor struct {
	path, seen string
	edit       func(file string) string
	fail       error
}

func (f *fakeEditor) run(path string, done func(error) tea.Msg) tea.Cmd {
	f.path = path
	return func() tea.Msg {
		b, err := os.ReadFile(path)
		if err != nil {
			return done(err)
		}
		f.seen = string(b)
		if f.edit != nil {
			if err := os.WriteFile(path, []byte(f.edit(f.seen)), 0o600); err != nil {
				return done(err)
			}
		}
		return done(f.fail)
	}
}

// edited opens e with the fake editor and returns the answer, checking it
// is routed to e's pane and the temporary file is gone.
func edited(t *testing.T, e Edit, f *fakeEditor) EditedMsg {
	t.Helper()
	e.Run = f.run
	msg := e.Open()()
	pm, ok := msg.(PaneMsg)
	require.True(t, ok, "answer %T", msg)
	assert.Equal(t, e.Pane, pm.Pane)
	m, ok := pm.Msg.(EditedMsg)
	require.True(t, ok, "answer %T", pm.Msg)
	assert.Equal(t, e.Key, m.Key)
	assert.Equal(t, e.Tag, m.Tag)
	if f.path != "" {
		_, err := os.Stat(f.path)
		assert.True(t, os.IsNotExist(err), "the temporary file is removed")
	}
	return m
}

func TestEditWritesHeaderAndReadsTheTextBack(t *testing.T) {
	f := &fakeEditor{edit: func(file string) string {
		return strings.Replace(file, `"a": 1`, `"a": 2`, 1)
	}}
	e := Edit{Pane: ID("search"), Key: "create/rs", Tag: 42, File: "search",
		Header: []string{"Editing the index.", "ERROR: first\nsecond", ""},
		Text:   "{\n  \"a\": 1\n}\n\n"}
	m := edited(t, e, f)

	assert.Equal(t, "// Editing the index.\n// ERROR: first\n// second\n//\n{\n  \"a\": 1\n}\n", f.seen,
		"one comment line per header line (a line break makes two), then the text with one final newline")
	assert.True(t, strings.HasPrefix(filepath.Base(f.path), "dbadmin-search-"), f.path)
	assert.True(t, strings.HasSuffix(f.path, ".json"), f.path)
	assert.NoError(t, m.Err)
	assert.Equal(t, "{\n  \"a\": 2\n}", m.Text, "header stripped, trailing blank space trimmed")
	assert.Equal(t, 4, m.HeaderLines)
	assert.False(t, m.Unchanged)
}

func TestEditFileNameDefaultsToThePane(t *testing.T) {
	f := &fakeEditor{}
	edited(t, Edit{Pane: ID("alerts"), Text: "{}"}, f)
	assert.True(t, strings.HasPrefix(filepath.Base(f.path), "dbadmin-alerts-"), f.path)
}

func TestHeaderStrippingKeepsLineNumbersAligned(t *testing.T) {
	// Line 6 of the saved file holds the mistake; a comment the user wrote
	// inside the JSON is ignored and moves nothing.
	file := "// one\n// two\n\n{\n  // the user's note\n  \"param\": {\"user\": }\n}\n"
	m := EditedFile("{}", file)
	assert.Equal(t, 3, m.HeaderLines, "comment and blank lines at the top are the header")
	assert.Equal(t, "{\n  // the user's note\n  \"param\": {\"user\": }\n}", m.Text, "the user's own comment is kept in the draft")
	assert.Equal(t, "\n\n\n{\n\n  \"param\": {\"user\": }\n}", m.Source())

	var v any
	err := DecodeJSON(m.Source(), &v)
	var je *JSONError
	require.ErrorAs(t, err, &je)
	assert.Equal(t, 6, je.Line)
	assert.Equal(t, 21, je.Col)
	assert.Equal(t, "}", string([]rune(strings.Split(file, "\n")[je.Line-1])[je.Col-1]), "the position points at the bad byte in the saved file")

	// Valid text decodes from Source with the comment blanked.
	m = EditedFile("", "// h\n{\n  // note\n  \"a\": 1\n}\n")
	require.NoError(t, DecodeJSON(m.Source(), &v))
	assert.Equal(t, map[string]any{"a": float64(1)}, v)

	text, n := StripHeader("// only comments\n\n   \n// more\n")
	assert.Equal(t, "", text)
	assert.Equal(t, 4, n)
	text, n = StripHeader("{}")
	assert.Equal(t, "{}", text)
	assert.Equal(t, 0, n)
}

func TestUnchangedSaveIsReported(t *testing.T) {
	opened := "{\n  \"a\": 1\n}\n"
	m := edited(t, Edit{Pane: ID("settings"), Key: "k", Header: []string{"h"}, Text: opened}, &fakeEditor{})
	assert.NoError(t, m.Err)
	assert.True(t, m.Unchanged)
	assert.Equal(t, "{\n  \"a\": 1\n}", m.Text)

	// Our header is not the user's text: rewriting it changes nothing.
	m = edited(t, Edit{Pane: ID("settings"), Header: []string{"h"}, Text: opened},
		&fakeEditor{edit: func(file string) string { return "// something else\n// and more\n" + opened }})
	assert.True(t, m.Unchanged)
	assert.Equal(t, 2, m.HeaderLines)

	m = edited(t, Edit{Pane: ID("settings"), Header: []string{"h"}, Text: opened},
		&fakeEditor{edit: func(file string) string { return file + "x" }})
	assert.False(t, m.Unchanged)
}

func TestFailingEditorKeepsTheText(t *testing.T) {
	exit1 := errors.New("exit status 1")

	// What the user typed before the editor failed comes back.
	m := edited(t, Edit{Pane: ID("search"), Key: "k", Text: "{}"}, &fakeEditor{fail: exit1,
		edit: func(file string) string { return `{"half": ` }})
	assert.EqualError(t, m.Err, "the editor failed: exit status 1")
	assert.Same(t, exit1, errors.Unwrap(m.Err), "the cause without our wording")
	assert.Equal(t, `{"half":`, m.Text)
	assert.False(t, m.Unchanged, "a failed round is never an unchanged save")

	// A failure that leaves it as it was is not unchanged either.
	m = edited(t, Edit{Pane: ID("search"), Text: "{}"}, &fakeEditor{fail: exit1})
	assert.Error(t, m.Err)
	assert.False(t, m.Unchanged)
	assert.Equal(t, "{}", m.Text)

	// The file gone: the text that was opened is kept.
	gone := func(path string, done func(error) tea.Msg) tea.Cmd {
		return func() tea.Msg { _ = os.Remove(path); return done(nil) }
	}
	msg := Edit{Pane: ID("search"), Key: "k", Text: "{\"keep\": true}\n", Run: gone}.Open()()
	m = msg.(PaneMsg).Msg.(EditedMsg)
	assert.ErrorContains(t, m.Err, "reading the edited file")
	assert.Equal(t, `{"keep": true}`, m.Text)

	// No temporary file: nothing runs, the text is kept.
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	ran := false
	msg = Edit{Pane: ID("search"), Text: "{\"keep\": 1}", Run: func(string, func(error) tea.Msg) tea.Cmd { ran = true; return nil }}.Open()()
	m = msg.(PaneMsg).Msg.(EditedMsg)
	assert.False(t, ran)
	assert.ErrorContains(t, m.Err, "temporary file")
	assert.Equal(t, `{"keep": 1}`, m.Text)
}

func TestAnEditorThatRunsNothingStillAnswers(t *testing.T) {
	msg := Edit{Pane: ID("alerts"), Key: "id", Text: "{}", Run: func(string, func(error) tea.Msg) tea.Cmd { return nil }}.Open()()
	m := msg.(PaneMsg).Msg.(EditedMsg)
	assert.ErrorContains(t, m.Err, "the editor failed")
	assert.Equal(t, "{}", m.Text)
}

// shellScript writes an executable shell script named name into dir.
func shellScript(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755))
	return p
}

func TestEditorCommandResolution(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PATH", dir)
	visual, editor, vi := shellScript(t, dir, "my-visual", ""), shellScript(t, dir, "my-editor", ""), shellScript(t, dir, "vi", "")
	for _, tc := range []struct {
		name, visual, editor string
		want                 []string
	}{
		{"VISUAL first", "my-visual", "my-editor", []string{visual, "f.json"}},
		{"then EDITOR, with its arguments", " ", "my-editor --wait -n", []string{editor, "--wait", "-n", "f.json"}},
		{"else vi", "", "", []string{vi, "f.json"}},
	} {
		t.Setenv("VISUAL", tc.visual)
		t.Setenv("EDITOR", tc.editor)
		cmd, err := EditorCommand("f.json")
		require.NoError(t, err, tc.name)
		assert.Equal(t, tc.want, cmd.Args, tc.name)
		assert.Equal(t, tc.want[0], cmd.Path, tc.name)
	}

	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", "no-such-editor-anywhere --flag")
	_, err := EditorCommand("f.json")
	assert.ErrorContains(t, err, `no editor "no-such-editor-anywhere" (set EDITOR)`)

	// ExecEditor answers at once when there is no editor to hand over to.
	msg := ExecEditor("f.json", func(err error) tea.Msg { return err })()
	assert.ErrorContains(t, msg.(error), "set EDITOR")
}

func TestEditWithARealEditorProcess(t *testing.T) {
	// The script stands for a user who adds a member and saves; it sees
	// the file as its last argument, after the variable's own.
	dir := t.TempDir()
	script := shellScript(t, dir, "editor.sh", `cp "$2" "`+dir+`/seen"; printf '%s\n' '  "b": 2' '}' >> "$2"`)
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", script+" --wait")
	msg := Edit{Pane: ID("settings"), Key: "audit", Header: []string{"one", "two"}, Text: "{\n  \"a\": 1,", Run: RunEditor}.Open()()
	m := msg.(PaneMsg).Msg.(EditedMsg)
	require.NoError(t, m.Err)
	seen, err := os.ReadFile(filepath.Join(dir, "seen"))
	require.NoError(t, err)
	assert.Equal(t, "// one\n// two\n{\n  \"a\": 1,\n", string(seen))
	assert.Equal(t, "{\n  \"a\": 1,\n  \"b\": 2\n}", m.Text)
	var v map[string]int
	require.NoError(t, DecodeJSON(m.Source(), &v))
	assert.Equal(t, map[string]int{"a": 1, "b": 2}, v)

	// An editor that exits non-zero keeps what it wrote.
	shellScript(t, dir, "editor.sh", `echo '{"partial": ' > "$2"; exit 3`)
	msg = Edit{Pane: ID("settings"), Text: "{}", Run: RunEditor}.Open()()
	m = msg.(PaneMsg).Msg.(EditedMsg)
	assert.EqualError(t, m.Err, "the editor failed: exit status 3")
	assert.Equal(t, `{"partial":`, m.Text)
}

func TestDecodeJSONPositions(t *testing.T) {
	type doc struct {
		Name  string `json:"name"`
		Count int    `json:"count"`
		Inner struct {
			On bool `json:"on"`
		} `json:"inner"`
	}
	for _, tc := range []struct {
		src       string
		strict    bool
		line, col int
		msg       string
	}{
		{"{\n  \"name\": \"x\"\n  \"count\": 1\n}", false, 3, 3, "JSON syntax error: invalid character '\"' after object key:value pair"},
		{"{\"name\": 7}", false, 1, 11, "name must be a JSON string, not number"},
		{"{\n \"inner\": {\"on\": \"yes\"}}", false, 2, 23, "inner.on must be a JSON boolean, not string"},
		{"[1]", false, 1, 2, "value must be a JSON object, not array"},
		{"{\"name\": \"x\", \"colour\": 1}", true, 1, 15, `unknown member "colour"`},
		{"{\"name\": \"x\"}\n{}", false, 2, 1, "unexpected text after the JSON value"},
		{"{\"name\": \"x\",", false, 1, 14, "unexpected EOF"},
		{"{\"name\": \"ünï\", \"count\": x}", false, 1, 26, "JSON syntax error: invalid character 'x' looking for beginning of value"},
	} {
		var d doc
		decode := DecodeJSON
		if tc.strict {
			decode = DecodeJSONStrict
		}
		err := decode(tc.src, &d)
		var je *JSONError
		require.ErrorAs(t, err, &je, tc.src)
		assert.Equal(t, tc.line, je.Line, tc.src)
		assert.Equal(t, tc.col, je.Col, tc.src)
		assert.Equal(t, tc.msg, je.Msg, tc.src)
		assert.True(t, strings.HasPrefix(err.Error(), "line "), err.Error())
	}

	var d doc
	assert.NoError(t, DecodeJSON(`{"name": "x", "colour": 1}`, &d), "unknown members pass unless strict")
	assert.NoError(t, DecodeJSONStrict("\n{\"count\": 2}\n\n", &d))
	assert.Equal(t, 2, d.Count)
	assert.EqualError(t, DecodeJSON(" \n ", &d), "the document is empty")
}

// The editor is a child process: it must not inherit the API keys, client
// secrets or tokens the dashboard was started with.
func TestEditorGetsNoAtlasSecrets(t *testing.T) {
	dir := t.TempDir()
	script := shellScript(t, dir, "editor.sh", `env > "`+dir+`/env"`)
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", script+" --wait")
	secrets := map[string]string{
		"MONGODB_ATLAS_PRIVATE_API_KEY": "priv-0123-secret",
		"MONGODB_ATLAS_PUBLIC_API_KEY":  "pubkey-0123",
		"MONGODB_ATLAS_CLIENT_SECRET":   "sa-secret-0123",
		"MONGODB_ATLAS_ACCESS_TOKEN":    "token-0123",
		"mongodb_atlas_private_api_key": "lower-0123-secret",
	}
	for k, v := range secrets {
		t.Setenv(k, v)
	}
	t.Setenv("DBADMIN_TEST_KEPT", "kept")
	msg := Edit{Pane: ID("settings"), Text: "{}", Run: RunEditor}.Open()()
	require.NoError(t, msg.(PaneMsg).Msg.(EditedMsg).Err)
	env, err := os.ReadFile(filepath.Join(dir, "env"))
	require.NoError(t, err)
	for k, v := range secrets {
		assert.NotContains(t, string(env), v, k)
	}
	assert.NotContains(t, strings.ToUpper(string(env)), "MONGODB_ATLAS_")
	assert.Contains(t, string(env), "DBADMIN_TEST_KEPT=kept", "the rest of the environment is passed on")
}
