package search

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
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

// refused leaves a refusal notice on screen: a definition with an unknown
// analyzer, saved, then saved unchanged when the editor reopens.
// It returns how many "errors resolved" the pane had sent by then.
func refused(t *testing.T, h *harness) int {
	t.Helper()
	h.ed.steps = append(h.ed.steps, save(strings.Replace(newIndexJSON, "lucene.english", "lucene.klingon", 1)))
	h.ActionKey("n")
	require.Contains(t, h.Screen(), "definition refused, nothing sent")
	require.True(t, h.P.CanGoBack())
	last := h.LastToast()
	require.True(t, last.Err)
	require.Contains(t, last.Text, "definition refused, nothing sent")
	return h.Resolved
}

// noticeGone: the notice left the pane, and its error toast the footer
// with it (views.ErrorsResolved sent since resolvedBefore), not seconds
// later.
func noticeGone(t *testing.T, h *harness, after string, resolvedBefore int) {
	t.Helper()
	assert.NotContains(t, h.Screen(), "definition refused", "after "+after)
	assert.Empty(t, h.P.notice, "after "+after)
	assert.False(t, h.P.CanGoBack(), "after %s esc is the root's again", after)
	assert.Greater(t, h.Resolved, resolvedBefore, "after %s the refusal's toast goes with the notice", after)
}

// A refusal shows in the pane (and as a toast) until the next key or
// action in the pane, until the pane is left, or until the context
// changes; esc dismisses it. The draft stays kept throughout.
func TestRefusalNoticeLastsUntilTheNextKeyOrAction(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 30)
	draft := editSession{Kind: editCreate, Group: h.P.Ctx.GroupID, Cluster: "payments-rs"}.key()
	var before int

	before = refused(t, h)
	h.Press("j")
	noticeGone(t, h, "a cursor key", before)
	assert.Contains(t, h.P.drafts, draft, "the draft outlives the notice")

	before = refused(t, h)
	h.ActionKey("enter")
	noticeGone(t, h, "an action", before)
	h.ActionKey("esc")

	before = refused(t, h)
	h.Refresh()
	noticeGone(t, h, "r", before)

	before = refused(t, h)
	h.Send(filterMsg("orders"))
	noticeGone(t, h, "typing a filter", before)
	h.Send(filterMsg(""))

	before = refused(t, h)
	h.Run(h.P.SetVisible(false))
	h.Run(h.P.SetVisible(true))
	noticeGone(t, h, "leaving the pane and coming back", before)

	before = refused(t, h)
	ctx := h.P.Ctx
	ctx.ClusterName = "payments-legacy"
	h.Send(views.ContextChangedMsg{Ctx: ctx})
	noticeGone(t, h, "another cluster", before)

	// Polls alone keep it: nothing the user did ended its moment.
	ctx.ClusterName = "payments-rs"
	h.Send(views.ContextChangedMsg{Ctx: ctx})
	before = refused(t, h)
	require.True(t, h.P.Polling())
	h.Send(h.P.Base.Tick())
	assert.Contains(t, h.Screen(), "definition refused, nothing sent")
	assert.Equal(t, before, h.Resolved, "a poll keeps the toast as it keeps the notice")
	h.Press("esc")
	noticeGone(t, h, "esc", before)
	assert.Empty(t, w.Writes())
}

// A create whose answer was lost is being settled: its notice stays
// through keys and leaving the pane while that lasts, then goes as any
// notice does.
func TestUnsettledCreateNoticeStaysWhileItLasts(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 30)
	req := apiclient.SearchIndexCreateRequest{Name: "never-made", Database: "shop", CollectionName: "orders", Type: apiclient.IndexSearch}
	s := editSession{Kind: editCreate, Group: h.P.Ctx.GroupID, Cluster: "payments-rs", Text: newIndexJSON}
	h.P.drafts[s.key()] = s
	h.P.creating[s.key()] = createSending
	_, check := h.P.Update(views.Result[sent]{Pane: ID, Key: keyCreate, Value: sent{Session: s,
		Lost: &lostCreate{GroupID: apisim.DemoPaymentsID, Sent: w.Client.Now(), Req: req}}})
	require.NotNil(t, check)
	checking := "index never-made on payments-rs: " + views.OutcomeChecking
	require.Contains(t, h.Screen(), checking)

	h.Press("j", "k")
	h.Run(h.P.SetVisible(false))
	h.Run(h.P.SetVisible(true))
	h.Refresh()
	assert.Contains(t, h.Screen(), checking, "still checking: the notice is the state")

	h.Run(check)
	assert.Contains(t, h.Screen(), views.NotCreated)
	h.Press("j")
	assert.NotContains(t, h.Screen(), views.NotCreated, "settled: the next key ends it")
	assert.Empty(t, h.P.notice)
}

// replaceIn is an editor step that edits the file as the user does, header
// and all: old becomes new.
func replaceIn(t *testing.T, old, new string) func(string) (string, error) {
	return func(file string) (string, error) {
		require.Contains(t, file, old)
		return strings.Replace(file, old, new, 1), nil
	}
}

// A definition refused by a field check (not JSON syntax) reopens with an
// ERROR line naming the line and column of the field's key in the
// reopened file, and the field by its full path: in a create's text, in
// an update's (the definition alone) and in the analyzers'.
func TestFieldCheckErrorNamesTheFieldsLine(t *testing.T) {
	for _, tc := range []struct {
		name, key, old, new, want string
	}{
		{"create partitions", "n", `"numPartitions": 1`, `"numPartitions": 3`,
			"definition.numPartitions: must be 1, 2 or 4, got 3"},
		{"create search analyzer", "n", `"searchAnalyzer": "lucene.standard"`, `"searchAnalyzer": "lucene.nope"`,
			`definition.searchAnalyzer: unknown analyzer "lucene.nope"`},
		{"update partitions", "e", `"numPartitions": 1`, `"numPartitions": 3`,
			"definition.numPartitions: must be 1, 2 or 4, got 3"},
		{"analyzers name", "A e", `"name": "sku-analyzer"`, `"name": "lucene.mine"`,
			`[0].name: "lucene.mine" uses a reserved prefix`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			h := newHarness(t, w, "payments-rs", 200, 30)
			h.selectIndex("default")
			h.ed.steps = append(h.ed.steps, replaceIn(t, tc.old, tc.new)) // then saved unchanged
			for _, k := range strings.Fields(tc.key) {
				h.ActionKey(k)
			}
			require.Len(t, h.ed.seen, 2)
			assert.Empty(t, w.Writes())
			_, _, there := at(t, h.ed.seen[1])
			assert.True(t, strings.HasPrefix(there, tc.new), "the ERROR line names %q, not %q", tc.new, there)
			m := errorLine.FindStringSubmatch(h.ed.seen[1])
			assert.True(t, strings.HasPrefix(m[3], tc.want), "%q", m[3])
			assert.Contains(t, h.Screen(), "definition refused, nothing sent: line "+m[1]+", column "+m[2]+": "+tc.want)
		})
	}
}

// The key is found as encoding/json matches it: the last of duplicate
// members counts, whatever its case, and nested members under the right
// parent only.
func TestLocateFindsTheMemberDecoded(t *testing.T) {
	src := "{\n \"numPartitions\": 1,\n \"mappings\": {\"numPartitions\": 9},\n \"NumPartitions\": 3\n}"
	off, ok := locate(src, []pathStep{{name: "numPartitions"}})
	require.True(t, ok)
	line, col := lineCol(src, off)
	assert.Equal(t, [2]int{4, 2}, [2]int{line, col})

	off, ok = locate(src, []pathStep{{name: "mappings"}, {name: "numPartitions"}})
	require.True(t, ok)
	line, col = lineCol(src, off)
	assert.Equal(t, [2]int{3, 15}, [2]int{line, col})

	arr := "[\n {\"name\": \"a\"},\n {\"name\": \"b\", \"tokenizer\": {}}\n]"
	off, ok = locate(arr, []pathStep{{index: 1}, {name: "tokenizer"}, {name: "type"}})
	require.True(t, ok)
	line, col = lineCol(arr, off)
	assert.Equal(t, [2]int{3, 16}, [2]int{line, col}, "a member left out: at the key of the member that lacks it")
}

// A draft belongs to its project: a create, edit or analyzers draft made
// for a cluster in one project is never the draft of a cluster of the same
// name in another, so it can neither be offered nor sent there.
func TestDraftsAreKeptPerProject(t *testing.T) {
	for _, kind := range []editKind{editCreate, editUpdate, editAnalyzers} {
		a := editSession{Kind: kind, Group: "65a0c0ffee0000000000b001", Cluster: "main", IndexID: "x"}
		b := a
		b.Group = "65a0c0ffee0000000000b002"
		assert.NotEqual(t, a.key(), b.key(), "kind %v", kind)
	}
}

// A draft made in one project is never sent in another: if the context
// changed while a question about it was open, the answer sends nothing.
func TestDraftOfAnotherProjectIsNotSent(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 120, 30)
	s := editSession{Kind: editCreate, Group: "65a0c0ffee0000000000ffff", Cluster: "payments-rs", Text: newIndexJSON}
	mark := w.Mark()
	in, err := parseEdit(s, s.Text)
	require.NoError(t, err)
	h.Run(h.P.send(s, in))
	assert.Empty(t, w.WritesSince(mark), "nothing sent")
	assert.Contains(t, h.P.drafts, s.key(), "the draft is kept for its project")
	assert.Contains(t, h.Screen(), "belongs to another project")
}
