package components

import (
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// View renders the header and the shown window of rows, exactly Height
// lines (fewer only when Height is 0). Lines are as wide as their text:
// Box pads them.
func (t Table) View() string { return t.frame(false) }

// Box is View with every line exactly Width cells (padded with spaces,
// never wider) and exactly Height lines: what a pane lays out as a block
// without measuring it again. The same window drawn again is the same
// string, made once.
func (t Table) Box() string { return t.frame(true) }

// spaces backs blanks: padding is a slice of it, not a new string.
var spaces = strings.Repeat(" ", 512)

// blanks is n spaces.
func blanks(n int) string {
	switch {
	case n <= 0:
		return ""
	case n <= len(spaces):
		return spaces[:n]
	}
	return strings.Repeat(" ", n)
}

func (t Table) frame(exact bool) string {
	if t.width <= 0 || t.height <= 0 {
		return ""
	}
	c := t.c
	if c.widths == nil {
		c.widths, c.form, c.overflow = t.layout()
		c.bodyW = 0
		n := 0
		for i, w := range c.widths {
			if c.form[i] != formDropped {
				c.bodyW += w
				n++
			}
		}
		c.bodyW += max(n-1, 0)
		c.bodies = make(map[int]body, 2*t.bodyHeight())
	}
	if c.header == "" {
		c.header = t.renderHeader(c.widths, c.form)
		c.headerW = Width(c.header)
	}
	h := t.bodyHeight()
	end := min(t.offset+h, len(t.view))
	key := frameKey{ok: true, offset: t.offset, cursor: t.cursor, n: len(t.view), filter: t.filter, marks: len(t.marks)}
	if len(t.view) > 0 {
		key.view = &t.view[0]
	}
	if len(t.marks) > 0 {
		for i := t.offset; i < end && i-t.offset < 64; i++ {
			if _, ok := t.marks[t.rows[t.view[i]].ID]; ok {
				key.marked |= 1 << (i - t.offset)
			}
		}
		if end-t.offset > 64 {
			key.ok = false // more rows than the key covers: drawn each time
		}
	}
	slot := &c.frames[0]
	if exact {
		slot = &c.frames[1]
	}
	if key.ok && slot.key == key {
		return slot.text
	}
	narrow := t.width <= gutterWidth
	if narrow {
		exact, key.ok = false, false // padded after the cut below
	}
	var b strings.Builder
	b.Grow((t.width + 32) * (h + 1))
	b.WriteString(c.header)
	if exact {
		b.WriteString(blanks(t.width - c.headerW))
	}
	for i := t.offset; i < end; i++ {
		ri := t.view[i]
		row := t.rows[ri]
		bd, ok := c.bodies[ri]
		if !ok {
			if len(c.bodies) > 4096 {
				clear(c.bodies)
			}
			bd = t.renderBody(t.cells(ri), c.widths, c.form, c.overflow, c.bodyW)
			c.bodies[ri] = bd
		}
		_, marked := t.marks[row.ID]
		var pre, suf string
		switch {
		case i == t.cursor:
			pre, suf = t.stylePair("\x00cursor", t.theme.TableSelected)
		case marked:
			pre, suf = t.stylePair("\x00marked", t.theme.TableMarked)
		default:
			pre, suf = t.stylePair(row.Class, lipgloss.Style{})
		}
		b.WriteByte('\n')
		b.WriteString(pre)
		switch {
		case i == t.cursor && marked:
			b.WriteString(CursorGlyph + MarkGlyph + " ")
		case i == t.cursor:
			b.WriteString(CursorGlyph + "  ")
		case marked:
			b.WriteString(" " + MarkGlyph + " ")
		default:
			b.WriteString("   ")
		}
		b.WriteString(bd.text)
		b.WriteString(suf)
		if exact {
			b.WriteString(blanks(t.width - gutterWidth - bd.w))
		}
	}
	shown := end - t.offset
	if len(t.view) == 0 && h > 0 {
		msg := "no rows"
		if t.filter != "" && len(t.rows) > 0 {
			msg = "no rows match " + strconv.Quote(t.filter)
		}
		b.WriteString("\n   ")
		text := ansi.Truncate(Sanitize(msg), max(t.width-gutterWidth, 0), "…")
		b.WriteString(t.theme.Muted.Render(text))
		if exact {
			b.WriteString(blanks(t.width - gutterWidth - Width(text)))
		}
		shown = 1
	}
	empty := ""
	if exact {
		empty = blanks(t.width)
	}
	for ; shown < h; shown++ {
		b.WriteByte('\n')
		b.WriteString(empty)
	}
	out := b.String()
	if narrow {
		// Too narrow for the gutter: cut every line (rare, so not cached).
		lines := strings.Split(out, "\n")
		for i, l := range lines {
			lines[i] = ansi.Truncate(l, t.width, "")
			if slot == &c.frames[1] {
				lines[i] += blanks(t.width - Width(lines[i]))
			}
		}
		return strings.Join(lines, "\n")
	}
	if key.ok {
		*slot = frame{key: key, text: out}
	}
	return out
}

// stylePair returns the SGR prefix and suffix of a style, cached by key.
// Rows are styled as whole lines so a frame costs two string writes per
// row, not one lipgloss render per cell.
func (t Table) stylePair(key string, st lipgloss.Style) (string, string) {
	if p, ok := t.c.styles[key]; ok {
		return p[0], p[1]
	}
	if key != "" && key[0] != 0 {
		st = t.classStyle(key)
	} else if key == "" {
		st = t.theme.TableCell
	}
	r := st.Inline(true).Render("X")
	i := strings.LastIndexByte(r, 'X')
	pair := [2]string{r[:i], r[i+1:]}
	if t.c.styles == nil {
		t.c.styles = map[string][2]string{}
	}
	t.c.styles[key] = pair
	return pair[0], pair[1]
}

func (t Table) renderHeader(widths []int, form []colForm) string {
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", gutterWidth))
	for i, c := range t.shownCols(&b, form) {
		title := Sanitize(c.Title)
		if form[i] == formShort {
			title = Sanitize(c.ShortTitle)
		}
		marker := ""
		if i == t.sortCol {
			marker = "▲"
			if t.sortDesc {
				marker = "▼"
			}
		}
		if marker != "" && widths[i] >= 1 {
			// The marker takes one cell, and a space before it when there is room.
			text := Truncate(title, widths[i]-1)
			if Width(text)+2 <= widths[i] {
				text += " "
			}
			gap := widths[i] - Width(text) - 1
			if c.Align == AlignRight {
				text = strings.Repeat(" ", gap) + text
				gap = 0
			}
			b.WriteString(t.theme.TableHeader.Render(text))
			b.WriteString(t.theme.SortMarker.Render(marker))
			b.WriteString(strings.Repeat(" ", gap))
			continue
		}
		b.WriteString(t.theme.TableHeader.Render(pad(Truncate(title, widths[i]), widths[i], c.Align)))
	}
	line := b.String()
	if lipgloss.Width(line) > t.width {
		line = ansi.Truncate(line, t.width, "…")
	}
	return line
}

func (t Table) renderBody(cells []string, widths []int, form []colForm, overflow bool, bodyW int) body {
	var b strings.Builder
	for i, c := range t.shownCols(&b, form) {
		cell := ""
		if i < len(cells) {
			cell = cells[i]
		}
		if form[i] == formShort && c.ShortCell != nil {
			cell = Sanitize(c.ShortCell(cell))
		}
		fitCell(&b, cell, widths[i], c.Align, t.widths)
	}
	if overflow {
		s := ansi.Truncate(b.String(), max(t.width-gutterWidth, 0), "…")
		return body{text: s, w: Width(s)}
	}
	return body{text: b.String(), w: bodyW}
}

// fitCell writes s cut or padded to exactly w cells, measuring it once
// per value (memo; again only when it must be cut).
func fitCell(b *strings.Builder, s string, w int, a Align, memo *widthMemo) {
	n := memo.of(s)
	if n > w {
		s = Truncate(s, w)
		n = Width(s)
	}
	gap := w - n
	if gap <= 0 {
		b.WriteString(s)
		return
	}
	switch a {
	case AlignRight:
		b.WriteString(blanks(gap))
		b.WriteString(s)
	case AlignCenter:
		l := gap / 2
		b.WriteString(blanks(l))
		b.WriteString(s)
		b.WriteString(blanks(gap - l))
	default:
		b.WriteString(s)
		b.WriteString(blanks(gap))
	}
}

// textWidth is the display width of s (ANSI-aware), with a fast path for
// plain ASCII.

// pad pads s to w cells.
func pad(s string, w int, a Align) string {
	gap := w - Width(s)
	if gap <= 0 {
		return s
	}
	switch a {
	case AlignRight:
		return strings.Repeat(" ", gap) + s
	case AlignCenter:
		l := gap / 2
		return strings.Repeat(" ", l) + s + strings.Repeat(" ", gap-l)
	}
	return s + strings.Repeat(" ", gap)
}

func clampInt(v, lo, hi int) int {
	if hi < lo {
		return lo
	}
	return min(max(v, lo), hi)
}
