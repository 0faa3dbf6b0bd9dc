package search

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// `n` saved as the template came: nothing is sent (the header says so),
// no draft is kept, the pane says why, and no index appears.
func TestNewIndexTemplateSavedUnchangedSendsNothing(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 30)
	h.selectIndex("default")
	mark := w.Mark()
	h.ActionKey("n") // no step: the editor saves the file as it was
	require.Len(t, h.ed.seen, 1)
	assert.Contains(t, h.ed.seen[0], "// Save and quit to send; leave it unchanged to keep the draft and send nothing.")
	assert.Empty(t, w.WritesSince(mark), "no create request reached the server")
	assert.Equal(t, "no changes: nothing sent", h.LastToast().Text)
	assert.False(t, h.LastToast().Err)
	assert.Empty(t, h.P.drafts)
	assert.Empty(t, h.P.creating)
	_, err := indexOf(w, "payments-rs", "shop", "orders", "new-index")
	ae, ok := apiclient.AsError(err)
	require.True(t, ok, "%v", err)
	assert.Equal(t, 404, ae.Status)
	assert.NotContains(t, h.Screen(), "new-index")

	// Only the header edited: still the template, still nothing sent.
	h.ed.steps = append(h.ed.steps, func(file string) (string, error) {
		return "// a note of mine\n" + file, nil
	})
	h.ActionKey("n")
	assert.Empty(t, w.WritesSince(mark))
	assert.Equal(t, "no changes: nothing sent", h.LastToast().Text)
}

// keepHeader is an editor step that keeps the file's header (with extra
// comment lines on top) and replaces the text below it.
func keepHeader(extra []string, text string) func(string) (string, error) {
	return func(file string) (string, error) {
		_, n := views.StripHeader(file)
		header := strings.Join(strings.SplitAfter(file, "\n")[:n], "")
		for _, l := range extra {
			header = "// " + l + "\n" + header
		}
		return header + text, nil
	}
}

var errorLine = regexp.MustCompile(`(?m)^// ERROR: line (\d+), column (\d+): (.*)$`)

// at is the line and column the reopened file's ERROR line names, and the
// text of the file there.
func at(t *testing.T, file string) (line, col int, there string) {
	t.Helper()
	m := errorLine.FindStringSubmatch(file)
	require.NotNil(t, m, "no ERROR line with a position in:\n%s", file)
	line, _ = strconv.Atoi(m[1])
	col, _ = strconv.Atoi(m[2])
	lines := strings.Split(file, "\n")
	require.LessOrEqual(t, line, len(lines), file)
	r := []rune(lines[line-1])
	require.LessOrEqual(t, col, len(r), "column past the line %q", lines[line-1])
	return line, col, string(r[col-1:])
}

// A definition refused with a position reopens the editor with an ERROR
// line added to the header: the line and column it names are the bad
// line of the reopened file, on every round, whatever header the file
// was saved under.
func TestReopenedFileErrorNamesItsOwnLine(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 200, 30)
	h.ed.steps = append(h.ed.steps,
		// Round 1: saved under the 3-line header; reopened under 4.
		keepHeader(nil, "{\n  \"name\": \"x\",\n  \"database\": \"shop\"\n  \"collectionName\": \"c\",\n  \"definition\": {\"mappings\": {}}\n}\n"),
		// Round 2: the user added two comment lines above the 4-line
		// header (6 in all); reopened under 4 again.
		keepHeader([]string{"note one", "note two"}, "{\n  \"name\": \"x\", \"database\": \"shop\", \"collectionName\": \"c\",\n  \"colour\": 1,\n  \"definition\": {\"mappings\": {}}\n}\n"),
	) // round 3 saves unchanged: the loop stops
	h.ActionKey("n")
	require.Len(t, h.ed.seen, 3)
	assert.Empty(t, w.Writes())

	line, col, there := at(t, h.ed.seen[1])
	assert.Equal(t, 8, line, "3 header lines + text line 4, shown under a 4-line header")
	assert.Equal(t, 3, col)
	assert.Equal(t, `"collectionName": "c",`, there, "the position names the bad line's first token")

	line, col, there = at(t, h.ed.seen[2])
	assert.Equal(t, 7, line, "text line 3, shown under a 4-line header")
	assert.Equal(t, 3, col)
	assert.Equal(t, `"colour": 1,`, there)

	// The pane and the kept draft say the same position: n reopens the
	// draft under the same header.
	assert.Contains(t, h.Screen(), `definition refused, nothing sent: line 7, column 3: unknown member "colour"`)
	h.ActionKey("n")
	require.Len(t, h.ed.seen, 4)
	line, _, there = at(t, h.ed.seen[3])
	assert.Equal(t, 7, line)
	assert.Equal(t, `"colour": 1,`, there)
	assert.Empty(t, w.Writes())
}
