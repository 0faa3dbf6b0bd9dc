package components

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/lipgloss/v2"
)

// fieldBlock is one field as drawn: its lines, ending with errs lines of
// its error. When it is taller than the room, lines core to coreEnd (the
// value, or the selected choice) and the error stay visible.
type fieldBlock struct {
	lines         []string
	core, coreEnd int
	errs          int
}

// blocks draws every field.
func (f Form) blocks(inner int) []fieldBlock {
	out := make([]fieldBlock, len(f.fields))
	for i, ff := range f.fields {
		out[i] = f.fieldBlock(ff, i == f.focus, inner)
	}
	return out
}

func (f Form) fieldBlock(ff *formField, focused bool, inner int) fieldBlock {
	var lines []string
	if ff.Kind == FieldNote {
		if ff.Label != "" {
			room := inner
			if ff.scrolls() {
				room -= 2 // the cursor's "▸ " when it takes it
			}
			lines = append(lines, strings.Split(wrap(Sanitize(ff.Label), room), "\n")...)
		}
		if ff.Live != nil {
			// What the form will send: wrapped, never cut.
			for _, l := range strings.Split(wrap(Sanitize(ff.Live(f.Values())), inner-2), "\n") {
				lines = append(lines, "  "+f.theme.FieldLabel.Render(l))
			}
			return fieldBlock{lines: lines}
		}
		if focused && len(lines) > 0 {
			lines[0] = f.theme.FieldFocused.Render("▸ ") + lines[0]
		}
		shown := strings.Split(ff.Value, "\n")
		below, above := 0, 0
		if ff.scrolls() {
			n, per := ff.items(), ff.per()
			off := clampInt(ff.off, 0, n-ff.Rows)
			above, below = off, n-off-ff.Rows
			shown = shown[off*per : min((off+ff.Rows)*per, len(shown))]
		}
		for _, l := range shown {
			lines = append(lines, "  "+f.theme.Muted.Render(Truncate(Sanitize(l), inner-2)))
		}
		if ff.scrolls() {
			var cue []string
			if below > 0 {
				cue = append(cue, fmt.Sprintf("↓ %d more", below))
			}
			if above > 0 {
				cue = append(cue, fmt.Sprintf("↑ %d above", above))
			}
			if focused {
				cue = append(cue, "↑/↓ scroll")
			} else {
				cue = append(cue, "tab here to scroll")
			}
			lines = append(lines, "  "+f.theme.Muted.Render(Truncate("("+strings.Join(cue, " · ")+")", inner-2)))
		}
		return fieldBlock{lines: lines}
	}
	labelStyle := f.theme.FieldLabel
	cursor := "  "
	if focused {
		labelStyle = f.theme.FieldFocused
		cursor = "▸ "
	}
	// A long label wraps, indented, beside the counter when there is one.
	counter := ""
	if ff.Kind == FieldText && ff.CharLimit > 0 {
		counter = fmt.Sprintf("%d/%d", ff.input.Len(), ff.CharLimit)
	}
	room := inner - 2
	if counter != "" {
		room -= len(counter) + 1
	}
	for j, l := range strings.Split(wrap(Sanitize(ff.Label), max(room, 1)), "\n") {
		l = strings.TrimRight(l, " ")
		if j > 0 {
			lines = append(lines, "  "+labelStyle.Render(l))
			continue
		}
		label := cursor + labelStyle.Render(l)
		if counter != "" {
			gap := inner - lipgloss.Width(label) - len(counter)
			label += strings.Repeat(" ", max(gap, 1)) + f.theme.Counter.Render(counter)
		}
		lines = append(lines, label)
	}
	if ff.Hint != "" { // wrapped, as the label: a hint cut short would hide what it says
		for _, l := range strings.Split(wrap(Sanitize(ff.Hint), max(inner-2, 1)), "\n") {
			lines = append(lines, "  "+f.theme.Muted.Render(strings.TrimRight(l, " ")))
		}
	}
	core, coreEnd := len(lines), -1
	switch ff.Kind {
	case FieldText:
		lines = append(lines, "  "+ff.input.View())
		if u := f.unsent(ff); u != "" {
			for _, l := range strings.Split(wrap(u, inner-2), "\n") {
				lines = append(lines, "  "+f.theme.SeverityWarning.Render(l))
			}
		}
		if ff.Live != nil {
			for _, l := range strings.Split(wrap(Sanitize(ff.Live(f.Values())), inner-2), "\n") {
				lines = append(lines, "  "+f.theme.FieldLabel.Render(l))
			}
		}
	case FieldChoice:
		if ff.List {
			list, sel, selEnd := f.choiceList(ff, focused, inner)
			core, coreEnd = core+sel, core+selEnd
			lines = append(lines, list...)
			break
		}
		lines = append(lines, f.choiceLine(ff, focused, inner)...)
	case FieldToggle:
		box := "[ ] off"
		if ff.On {
			box = "[x] on"
		}
		st := lipgloss.NewStyle()
		if focused {
			st = f.theme.FieldFocused
		}
		lines = append(lines, "  "+st.Render(box))
	}
	if coreEnd < 0 {
		coreEnd = len(lines)
	}
	errs := 0
	if ff.touched && ff.err != nil {
		for _, l := range strings.Split(wrap(ff.err.Error(), inner-2), "\n") {
			lines = append(lines, "  "+f.theme.ErrorText.Render(l))
			errs++
		}
	}
	for j, l := range lines {
		lines[j] = Truncate(l, inner) // one line each, as counted
	}
	return fieldBlock{lines: lines, core: core, coreEnd: coreEnd, errs: errs}
}

// choiceLine draws a choice field's options side by side, wrapping only
// between options; every line is indented like the first.
func (f Form) choiceLine(ff *formField, focused bool, inner int) []string {
	room := max(inner-2, 1)
	var lines []string
	cur, curW := "", 0
	for j, c := range ff.Choices {
		mark := "( )"
		st := f.theme.Muted
		if !ff.enabled(j) {
			mark, st = " - ", f.theme.Disabled
		}
		if j == ff.Choice {
			mark, st = "(•)", lipgloss.NewStyle()
			if focused {
				st = f.theme.FieldFocused
			}
		}
		text := Truncate(mark+" "+Sanitize(c), room)
		w := lipgloss.Width(text)
		if curW > 0 && curW+2+w > room {
			lines = append(lines, "  "+cur)
			cur, curW = "", 0
		}
		if curW > 0 {
			cur += "  "
			curW += 2
		}
		cur += st.Render(text)
		curW += w
	}
	return append(lines, "  "+cur)
}

// footer is what follows the fields: the failed submit, then the keys (or
// what the form waits for). max > 0 caps the failure's lines.
func (f Form) footer(inner, maxErr int) []string {
	var lines []string
	if f.submitErr != "" {
		errs := strings.Split(wrap("✗ "+f.submitErr, inner), "\n")
		if maxErr > 0 && len(errs) > maxErr {
			errs = errs[:maxErr]
			errs[maxErr-1] = Truncate(strings.TrimRight(errs[maxErr-1], " ")+" …", inner)
		}
		for _, l := range errs {
			lines = append(lines, f.theme.ErrorText.Render(l))
		}
	}
	status := "enter submit · tab next field · esc cancel"
	if f.submitting {
		status = "submitting…"
		if f.status != "" {
			status = f.status + " · esc hides"
		}
	}
	return append(lines, f.theme.Muted.Render(Truncate(status, inner)))
}

// formMaxErrLines caps a failed submit's lines when the fields scroll, so
// the fields keep room.
const formMaxErrLines = 3

// layout is how the form is laid out in its height: whether the fields
// scroll, and if so the rows they get and the blocks shown.
type formLayout struct {
	scroll      bool
	rows        int // rows for the fields when they scroll
	top, bottom int // blocks shown, inclusive
}

func (f Form) layout(blocks []fieldBlock, inner int) formLayout {
	n := len(blocks)
	all := formLayout{top: 0, bottom: n - 1}
	if f.height <= 0 || n == 0 {
		return all
	}
	bodyH := n - 1
	for _, b := range blocks {
		bodyH += len(b.lines)
	}
	frame := f.theme.DialogBorder.GetVerticalFrameSize()
	head := 0
	if f.title != "" {
		head = 2 // the title, then a blank line
	}
	if frame+head+bodyH+1+len(f.footer(inner, 0)) <= f.height {
		return all
	}
	// Scrolling: the title and a line for "↑ n more" above the fields,
	// a line for "↓ n more" and the footer below.
	head = 1
	if f.title != "" {
		head = 2
	}
	rows := max(f.height-frame-head-1-len(f.footer(inner, formMaxErrLines)), 1)
	heights := make([]int, n)
	notes := make([]bool, n)
	for i, b := range blocks {
		heights[i] = len(b.lines)
		notes[i] = f.fields[i].Kind == FieldNote
	}
	top, bottom := window(heights, notes, f.focus, f.top, rows)
	return formLayout{scroll: true, rows: rows, top: top, bottom: bottom}
}

// window picks the blocks shown in rows lines (one blank line between
// blocks): from top, moved as little as needed to show the focused block
// whole, to as many as fit after it. A focused block taller than rows is
// shown alone. Notes just above the top come into view when they fit with
// the focused block: they are never focused, so no key could reach them.
func window(heights []int, notes []bool, focus, top, rows int) (int, int) {
	n := len(heights)
	fits := func(a, b int) bool {
		s := b - a
		for i := a; i <= b; i++ {
			s += heights[i]
		}
		return s <= rows
	}
	focus = clampInt(focus, 0, n-1)
	top = clampInt(top, 0, focus)
	for top < focus && !fits(top, focus) {
		top++
	}
	for top > 0 && notes[top-1] && fits(top-1, focus) {
		top--
	}
	bottom := top
	for bottom+1 < n && fits(top, bottom+1) {
		bottom++
	}
	// Room left at the end shows the blocks before top again.
	for bottom == n-1 && top > 0 && fits(top-1, bottom) {
		top--
	}
	return top, bottom
}

// follow scrolls the fields so the focused one is in view.
func (f *Form) follow() {
	_, inner := dialogWidths(f.theme, f.width)
	f.top = f.layout(f.blocks(inner), inner).top
}

// View draws the form box. It fits the height given to SetSize: the title,
// the focused field with its error, and the keys are always shown; the
// other fields scroll, with how many more are above and below.
func (f Form) View() string {
	outer, inner := dialogWidths(f.theme, f.width)
	blocks := f.blocks(inner)
	lay := f.layout(blocks, inner)
	var lines []string
	if f.title != "" {
		lines = append(lines, f.theme.DialogTitle.Render(Truncate(Sanitize(f.title), inner)))
	}
	if !lay.scroll {
		if f.title != "" {
			lines = append(lines, "")
		}
		for i, b := range blocks {
			if i > 0 {
				lines = append(lines, "")
			}
			lines = append(lines, b.lines...)
		}
		lines = append(lines, "")
		lines = append(lines, f.footer(inner, 0)...)
		return box(f.theme, outer, "", lines...)
	}
	var body []string
	for i := lay.top; i <= lay.bottom; i++ {
		if i > lay.top {
			body = append(body, "")
		}
		body = append(body, blocks[i].lines...)
	}
	above, below := lay.top, len(blocks)-1-lay.bottom
	cutAbove, cutBelow := false, false
	if len(body) > lay.rows {
		// The focused block alone is taller than the room: show its error
		// and its core (the value, or the selected choice), and as much
		// as fits around them, from the label on.
		b := blocks[lay.top]
		head, errs := b.lines[:len(b.lines)-b.errs], b.lines[len(b.lines)-b.errs:]
		errs = errs[:min(len(errs), max(lay.rows-1, 0))]
		room := lay.rows - len(errs)
		off := clampInt(b.coreEnd-room, 0, b.core)
		end := min(len(head), off+room)
		body = append(slices.Clone(head[off:end]), errs...)
		cutAbove, cutBelow = off > 0, end < len(head)
	}
	more := func(arrow string, n int, cut bool) string {
		switch {
		case n > 0:
			return f.theme.Muted.Render(fmt.Sprintf("%s %d more", arrow, n))
		case cut:
			return f.theme.Muted.Render(arrow + " more")
		}
		return ""
	}
	lines = append(lines, more("↑", above, cutAbove))
	lines = append(lines, body...)
	for range lay.rows - len(body) {
		lines = append(lines, "")
	}
	lines = append(lines, more("↓", below, cutBelow))
	lines = append(lines, f.footer(inner, formMaxErrLines)...)
	return box(f.theme, outer, "", lines...)
}

// choiceList draws a List choice field: one choice a line, the selected one
// marked, the ones that cannot be chosen greyed with their reason.
// It also returns the lines of the selected choice (the first when none
// is), from sel to selEnd.
func (f Form) choiceList(ff *formField, focused bool, inner int) (out []string, sel, selEnd int) {
	nameW := 0
	for _, c := range ff.Choices {
		nameW = max(nameW, lipgloss.Width(Sanitize(c)))
	}
	nameW = min(nameW, max(inner/2, 8))
	selEnd = -1
	for j, c := range ff.Choices {
		if j == ff.Choice || (j == 0 && ff.Choice < 0) {
			sel = len(out)
		}
		mark := "( )"
		text := Truncate(Sanitize(c), nameW)
		text += strings.Repeat(" ", max(nameW-lipgloss.Width(text), 0))
		if j < len(ff.Details) && ff.Details[j] != "" {
			text += "  " + Sanitize(ff.Details[j])
		}
		st := lipgloss.NewStyle()
		switch {
		case !ff.enabled(j):
			mark, st = " - ", f.theme.Disabled
		case j == ff.Choice:
			mark = "(•)"
			if focused {
				st = f.theme.FieldFocused
			}
		}
		out = append(out, "  "+st.Render(Truncate(mark+" "+text, inner-2)))
		if !ff.enabled(j) {
			// The reason on its own line, so it is never cut off.
			for _, l := range strings.Split(wrap(Sanitize(ff.Reasons[j]), inner-8), "\n") {
				out = append(out, "      "+st.Render(l))
			}
		}
		if selEnd < 0 && (j == ff.Choice || (j == 0 && ff.Choice < 0)) {
			selEnd = len(out)
		}
	}
	return out, sel, max(selEnd, sel)
}
