package e2e

import (
	"regexp"
	"strconv"
	"strings"
)

// dialog is the box drawn over a pane, read from a captured screen: its
// title (the first line inside) and its inner lines, borders taken off.
type dialog struct {
	Title string
	Lines []string
	Width int
}

// Text is the dialog's inner lines joined.
func (d *dialog) Text() string { return strings.Join(d.Lines, "\n") }

// dialogOf finds the topmost box on screen (╭ … ╮ down to ╰ … ╯) and
// returns what is inside it, or nil. Columns are runes: the dashboard draws
// no wide characters.
func dialogOf(screen string) *dialog {
	lines := strings.Split(screen, "\n")
	for i, l := range lines {
		r := []rune(l)
		c0 := indexRune(r, '╭', 0)
		if c0 < 0 {
			continue
		}
		c1 := indexRune(r, '╮', c0+1)
		if c1 < 0 {
			continue
		}
		d := &dialog{Width: c1 - c0 - 1}
		for _, body := range lines[i+1:] {
			br := []rune(body)
			if c0 < len(br) && br[c0] == '╰' {
				break
			}
			if c1 >= len(br) {
				d.Lines = append(d.Lines, "")
				continue
			}
			d.Lines = append(d.Lines, strings.TrimRight(string(br[c0+1:c1]), " "))
		}
		for _, l := range d.Lines {
			if strings.TrimSpace(l) != "" {
				d.Title = strings.TrimSpace(l)
				break
			}
		}
		return d
	}
	return nil
}

func indexRune(r []rune, x rune, from int) int {
	for i := from; i < len(r); i++ {
		if r[i] == x {
			return i
		}
	}
	return -1
}

var counterRe = regexp.MustCompile(`\s(\d+)/(\d+)$`)

// field is a form's field as drawn: its label line (focus marker and
// counter taken off), the lines under it up to the next blank line.
type field struct {
	Label   string
	Focused bool
	// Count is the counter's n (a text field with a limit), -1 without.
	Count int
	Body  []string
	width int // the dialog's inner width
}

// Value is a text field's text: the last line under its label (the lines
// above it are the hint), less the form's three-column indent. With a
// counter, 0 is an empty field showing its placeholder, and a text shorter
// than the count ends in spaces (which do not show) unless it fills the
// field's width, where it scrolls: ok is then false, the text cannot be
// read whole. Compare what was sent with its trailing spaces taken off.
func (f field) Value() (string, bool) {
	if f.Count == 0 {
		return "", true
	}
	if len(f.Body) == 0 {
		return "", f.Count <= 0
	}
	line := f.Body[len(f.Body)-1]
	v := strings.TrimRight(strings.TrimPrefix(line, "   "), " ")
	n := len([]rune(v))
	if f.Count > 0 && n != f.Count && n+6 >= f.width {
		return v, false
	}
	return v, f.Count < 0 || n <= f.Count
}

// fields splits a form's inner lines (after the title) into fields: a
// label at the form's left margin ("▸ " when focused, else two spaces),
// its body indented below it, blocks apart by a blank line.
func (d *dialog) fields() []field {
	var out []field
	var cur *field
	for _, l := range d.Lines[1:] {
		if strings.TrimSpace(l) == "" {
			cur = nil
			continue
		}
		if cur == nil {
			f := field{Count: -1, width: d.Width}
			t := strings.TrimSpace(l)
			if strings.HasPrefix(t, "▸ ") {
				f.Focused = true
				t = strings.TrimSpace(strings.TrimPrefix(t, "▸ "))
			}
			if m := counterRe.FindStringSubmatch(t); m != nil {
				f.Count, _ = strconv.Atoi(m[1])
				t = strings.TrimSpace(t[:len(t)-len(m[0])])
			}
			f.Label = t
			out = append(out, f)
			cur = &out[len(out)-1]
			continue
		}
		cur.Body = append(cur.Body, l)
	}
	return out
}

// field finds the field whose label starts with prefix.
func (d *dialog) field(prefix string) (field, bool) {
	for _, f := range d.fields() {
		if strings.HasPrefix(f.Label, prefix) {
			return f, true
		}
	}
	return field{}, false
}

// chosen is the selected choice of a choice field drawn "(•) a  ( ) b" on
// one line or one a line; "" when none is.
func chosen(f field) string {
	for _, b := range f.Body {
		i := strings.Index(b, "(•) ")
		if i < 0 {
			continue
		}
		rest := b[i+len("(•) "):]
		if j := strings.Index(rest, "  "); j >= 0 {
			rest = rest[:j]
		}
		return strings.TrimSpace(rest)
	}
	return ""
}

// toggled reads a toggle field drawn "[x] on" / "[ ] off".
func toggled(f field) bool {
	for _, b := range f.Body {
		if strings.Contains(b, "[x]") {
			return true
		}
	}
	return false
}

// modelIDRe is a 24-hex object id as the API mints them.
var modelIDRe = regexp.MustCompile(`\b[0-9a-f]{24}\b`)

// matchesShown says whether full is what a shown, possibly cut, text
// names: equal, or the shown text with its ellipsis is a prefix (or, for a
// leading ellipsis, a suffix) of full.
func matchesShown(shown, full string) bool {
	shown = strings.TrimSpace(shown)
	switch {
	case shown == full:
		return true
	case strings.HasSuffix(shown, "…"):
		return strings.HasPrefix(full, strings.TrimSuffix(shown, "…"))
	case strings.HasPrefix(shown, "…"):
		return strings.HasSuffix(full, strings.TrimPrefix(shown, "…"))
	}
	return false
}
