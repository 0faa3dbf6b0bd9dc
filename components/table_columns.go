package components

import (
	"iter"
	"strings"
)

// Align is a column's horizontal alignment.
type Align int

// Alignments.
const (
	AlignLeft Align = iota
	AlignRight
	AlignCenter
)

// Column describes one column.
type Column struct {
	Title string
	// Width > 0 is a fixed width in cells. Width == 0 makes the column
	// flexible: it shares the remaining width by Flex (default 1) and gets
	// at least MinWidth.
	Width    int
	MinWidth int
	Flex     int
	Align    Align
	// SortKey gives the sort key of a row for this column; nil sorts by the
	// cell's text, case-insensitively. SortNumber, when set, sorts
	// numerically instead (sizes, counts, durations).
	SortKey    func(Row) string
	SortNumber func(Row) float64
	// NoSort leaves the column out of the sort cycle.
	NoSort bool

	// Priority says how long the column lasts as the table narrows
	// (k9s-style): 0 is a key column, never shortened or dropped; among the
	// others the highest number goes first (on a tie, the rightmost). A
	// column with a short form (ShortWidth > 0) is shortened to it when its
	// turn comes, and dropped only after every full-form column has gone:
	// columns are never all cut to unreadable stubs.
	Priority int
	// ShortWidth, ShortTitle and ShortCell are the column's short form:
	// e.g. STATUS as a one-cell marker. ShortCell maps a cell's text (nil:
	// the text is cut to ShortWidth).
	ShortWidth int
	ShortTitle string
	ShortCell  func(string) string
}

// colForm is how a column is drawn at the table's width.
type colForm uint8

const (
	formFull colForm = iota
	formShort
	formDropped
)

// Layout reports which columns are shown at the table's width and which of
// them in their short form (by index), for tests and pane headers.
func (t Table) Layout() (shown []int, short []int) {
	_, form, _ := t.layout()
	for i, f := range form {
		switch f {
		case formFull:
			shown = append(shown, i)
		case formShort:
			shown = append(shown, i)
			short = append(short, i)
		}
	}
	return shown, short
}

// minWidth is the least a column takes in a form.
func (c Column) minWidth(f colForm) int {
	switch {
	case f == formShort:
		return c.ShortWidth
	case c.Width > 0:
		return c.Width
	}
	return max(c.MinWidth, 1)
}

// layout picks each column's form, then computes the widths: while the
// columns' least widths do not fit, the least useful column (highest
// Priority) is shortened, or dropped whole; what still does not fit is cut
// at the right edge.
func (t Table) layout() ([]int, []colForm, bool) {
	form := make([]colForm, len(t.cols))
	need := func() (int, int) {
		n, sum := 0, 0
		for i, c := range t.cols {
			if form[i] != formDropped {
				n++
				sum += c.minWidth(form[i])
			}
		}
		return sum + max(n-1, 0), n
	}
	room := t.width - gutterWidth
	for {
		sum, _ := need()
		if sum <= room {
			break
		}
		// A column in its full form goes before one already shortened:
		// the short form is what a column keeps the longest.
		victim := -1
		for i, c := range t.cols {
			if c.Priority <= 0 || form[i] == formDropped {
				continue
			}
			if victim < 0 || form[i] < form[victim] || form[i] == form[victim] && c.Priority >= t.cols[victim].Priority {
				victim = i
			}
		}
		if victim < 0 {
			break
		}
		if c := t.cols[victim]; form[victim] == formFull && c.ShortWidth > 0 && c.ShortWidth < c.minWidth(formFull) {
			form[victim] = formShort
		} else {
			form[victim] = formDropped
		}
	}
	_, n := need()
	avail := room - max(n-1, 0)
	widths := make([]int, len(t.cols))
	fixed, flexW := 0, 0
	for i, c := range t.cols {
		switch {
		case form[i] == formDropped:
		case form[i] == formShort || c.Width > 0:
			widths[i] = c.minWidth(form[i])
			fixed += widths[i]
		default:
			widths[i] = max(c.MinWidth, 1)
			fixed += widths[i]
			flexW += max(c.Flex, 1)
		}
	}
	if spare := avail - fixed; spare > 0 && flexW > 0 {
		given, last := 0, -1
		for i, c := range t.cols {
			if c.Width == 0 && form[i] == formFull {
				add := spare * max(c.Flex, 1) / flexW
				widths[i] += add
				given += add
				last = i
			}
		}
		widths[last] += spare - given
	}
	total := 0
	for _, w := range widths {
		total += w
	}
	return widths, form, total > avail
}

// shownCols yields each column that form does not drop, with its index,
// first writing to b the space that separates it from the one before.
func (t Table) shownCols(b *strings.Builder, form []colForm) iter.Seq2[int, Column] {
	return func(yield func(int, Column) bool) {
		first := true
		for i, c := range t.cols {
			if form[i] == formDropped {
				continue
			}
			if !first {
				b.WriteByte(' ')
			}
			first = false
			if !yield(i, c) {
				return
			}
		}
	}
}
