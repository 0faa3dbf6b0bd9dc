package components

import (
	"regexp"
	"strings"
)

// EscapeMarkdown makes a server string safe to place in markdown (a
// paragraph, a heading or a table cell): it is sanitized to one line and
// every character markdown gives meaning to is backslash-escaped, so links,
// images, HTML, emphasis and headings written by someone else show as the
// characters they are. A bare URL may still be styled as one by the
// renderer; Detail removes every hyperlink the renderer emits, so it stays
// plain text on the terminal.
func EscapeMarkdown(s string) string {
	s = Sanitize(s)
	if !strings.ContainsAny(s, markdownSpecials) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range s {
		if r < 0x80 && strings.ContainsRune(markdownSpecials, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// markdownSpecials are the characters that start or end markdown syntax and
// whose backslash escape the renderer removes again (":", "/", "@" and "~"
// would keep a visible backslash; a URL cannot become live without "[",
// "]", "(", ")" or "<").
const markdownSpecials = "\\`*_[]()<>!#+-.|"

// osc matches an OSC sequence (hyperlinks are OSC 8) ended by BEL or ST.
var osc = regexp.MustCompile("\x1b\\][^\x07\x1b]*(?:\x07|\x1b\\\\)")

// stripHyperlinks removes OSC sequences from rendered markdown: the
// renderer turns links and bare URLs into OSC 8 hyperlinks, and no server
// string may become a live link. Colours and other SGR styling stay.
func stripHyperlinks(s string) string {
	if !strings.Contains(s, "\x1b]") {
		return s
	}
	return osc.ReplaceAllString(s, "")
}
