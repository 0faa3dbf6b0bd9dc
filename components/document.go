package components

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/limits"
)

// Server-supplied documents (search index definitions, audit filters,
// configuration JSON) are shown through Document only: it measures the
// document in one pass before any pretty-printing or rendering, and a
// document over the limits is summarised instead of shown, so what reaches
// the markdown renderer is bounded whatever the server sent.

// Document limits. A real index definition is a few KB and a handful of
// levels deep; the service refuses definitions deeper than 100 levels
// (apisim's limits.MaxDocumentDepth), far past what a screen can show.
const (
	DocMaxBytes = 48 << 10 // pretty-printed size
	DocMaxDepth = 32       // nesting of objects and arrays
)

// DocStats is what one pass over a document found.
type DocStats struct {
	Bytes   int // compact JSON size
	Depth   int // deepest nesting of objects and arrays
	Scanned int // bytes looked at (the work done)
}

// Document is a server document ready to show: either Pretty (indented,
// sanitized JSON within the limits) or TooLarge with the reason.
type Document struct {
	Stats    DocStats
	Pretty   string
	TooLarge bool
	Err      error
}

// NewDocument measures and, within the limits, pretty-prints v: raw JSON
// ([]byte, json.RawMessage, string) or any value to marshal.
func NewDocument(v any) Document {
	var raw []byte
	switch x := v.(type) {
	case []byte:
		raw = x
	case json.RawMessage:
		raw = x
	case string:
		raw = []byte(x)
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return Document{Err: fmt.Errorf("document: %w", err)}
		}
		raw = b
	}
	d := Document{Stats: MeasureJSON(raw)}
	if d.Stats.Depth > DocMaxDepth || d.Stats.Bytes > DocMaxBytes {
		d.TooLarge = true
		return d
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		d.Err = fmt.Errorf("document: %w", err)
		d.Pretty = SanitizeText(string(raw))
		return d
	}
	if buf.Len() > DocMaxBytes {
		d.TooLarge = true
		return d
	}
	d.Pretty = SanitizeText(buf.String())
	return d
}

// MeasureJSON finds the size (without insignificant white space) and the
// nesting depth of a JSON text in one pass, without decoding it: the same
// scan the client's depth limit uses.
func MeasureJSON(raw []byte) DocStats {
	size, depth := limits.MeasureJSON(raw)
	return DocStats{Bytes: size, Depth: depth, Scanned: len(raw)}
}

// DocKeys is what the summary says the user can do instead, where y copies
// the document and e opens it in $EDITOR (see SummaryKeys otherwise).
const DocKeys = "y copies it, e opens it in $EDITOR"

// Summary is the line shown in place of a document over the limits.
func (d Document) Summary(what string) string { return d.SummaryKeys(what, DocKeys) }

// SummaryKeys is Summary naming the pane's own keys.
func (d Document) SummaryKeys(what, keys string) string {
	return fmt.Sprintf("%s too large to show (%s, depth %d); %s", what, kb(d.Stats.Bytes), d.Stats.Depth, keys)
}

func kb(n int) string {
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	return fmt.Sprintf("%d KB", (n+1023)/1024)
}

// Markdown is the document as a markdown section under a heading: a json
// code block, or the summary when it is over the limits.
func (d Document) Markdown(title, what string) string { return d.MarkdownKeys(title, what, DocKeys) }

// MarkdownKeys is Markdown with the summary naming the pane's own keys.
func (d Document) MarkdownKeys(title, what, keys string) string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "\n## %s\n\n", EscapeMarkdown(title))
	switch {
	case d.TooLarge:
		b.WriteString(EscapeMarkdown(d.SummaryKeys(what, keys)) + "\n")
	case d.Err != nil && d.Pretty == "":
		b.WriteString(EscapeMarkdown(d.Err.Error()) + "\n")
	default:
		fence := "```"
		for bytes.Contains([]byte(d.Pretty), []byte(fence)) {
			fence += "`"
		}
		fmt.Fprintf(&b, "%sjson\n%s\n%s\n", fence, d.Pretty, fence)
	}
	return b.String()
}
