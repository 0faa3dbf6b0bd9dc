package components

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
)

// FieldKind is what a form field edits.
type FieldKind int

// Field kinds.
const (
	FieldText   FieldKind = iota // one line of text
	FieldChoice                  // one of Choices (left/right)
	FieldToggle                  // on/off (space)
	FieldNote                    // text to read (Label, then Value's lines); never focused
)

// Field describes one form field.
type Field struct {
	Key   string // name in FormValues
	Label string
	Kind  FieldKind
	Hint  string // a line under the label, muted
	// Live gives a text from the form's values as they are now (what the
	// form will send): on a note in place of Value, on another field under
	// its value. Wrapped, never cut.
	Live func(FormValues) string

	// Text fields.
	Value string // initial text
	// Placeholder shows, muted and after "e.g.", while the field is empty;
	// it is never sent.
	Placeholder string
	CharLimit   int  // > 0: typing stops at this many characters; a counter shows n/limit
	Secret      bool // echo as dots
	// Selects, when set, is the choice this text belongs to: typing in the
	// field selects Choice of the choice field Key ("until…" when a date
	// is typed), so what was typed is what is sent.
	Selects *Selects

	// Choice fields: Choices[Choice] is selected.
	Choices []string
	Choice  int
	// List draws the choices one a line, each followed by its Details
	// (muted) when given.
	List    bool
	Details []string
	// Reasons, parallel to Choices: a non-empty reason greys the choice,
	// shows why beside it, and the choice cannot be selected.
	Reasons []string
	// None starts the field with nothing selected: its value is "" until
	// the user picks a choice, and the form refuses to submit without one.
	None bool

	// Toggle fields.
	On bool

	// Notes: Rows > 0 shows at most Rows of Value's lines; a longer note
	// takes the cursor (tab), up/down scroll it, and a line under it says
	// how many more lines are below and above: every line can be read.
	// ItemLines > 1 makes Value items of that many lines each: Rows, the
	// scrolling and the counts are then in items.
	Rows, ItemLines int

	// Focus starts the form with the cursor in this field (the first field
	// that sets it); by default the first field has it.
	Focus bool

	// Validate returns an error shown under the field. It gets the field's
	// value (text, the chosen string, or "true"/"false") and all values, for
	// rules across fields. Enter submits only when every field is valid.
	Validate func(value string, all FormValues) error
}

// Selects names a choice field and the choice to select in it.
type Selects struct{ Key, Choice string }

// FormValues are a form's values by field key. Toggles are "true"/"false".
type FormValues map[string]string

// Bool reads a toggle.
func (v FormValues) Bool(key string) bool { return v[key] == "true" }

// FormSubmitMsg is sent when a valid form is submitted. The form stays open
// in a submitting state: on success the caller closes it; on failure it
// calls SetSubmitError, and everything typed is still there.
type FormSubmitMsg struct {
	ID      string
	Payload any
	Values  FormValues
}

// FormCancelMsg is sent when the user cancels with esc.
type FormCancelMsg struct {
	ID      string
	Payload any
}

type formField struct {
	Field
	input   Input
	err     error
	touched bool
	off     int // a scrolling note's first line shown
}

// scrolls reports whether a note is longer than its Rows: it takes the
// cursor and scrolls.
func (ff *formField) scrolls() bool {
	return ff.Kind == FieldNote && ff.Rows > 0 && ff.items() > ff.Rows
}

// per is how many lines a note's item takes.
func (ff *formField) per() int { return max(ff.ItemLines, 1) }

// items is how many items a note's Value holds.
func (ff *formField) items() int {
	return (strings.Count(ff.Value, "\n") + ff.per()) / ff.per()
}

// Form is a dialog with text, choice and toggle fields, per-field
// validation, tab/shift+tab between fields, enter to submit and esc to
// cancel.
type Form struct {
	id         string
	payload    any
	title      string
	fields     []*formField
	focus      int
	submitting bool
	submitErr  string
	status     string // shown instead of "submitting…" while the caller works
	done       bool
	width      int
	height     int // 0: no limit
	top        int // the first field block shown when the fields scroll
	theme      themes.Theme
	keys       keymap.Dialog
}

// NewForm builds a form. km may be nil.
func NewForm(id, title string, fields []Field, payload any, th themes.Theme, km *keymap.KeyMap) Form {
	if km == nil {
		km = keymap.Default()
	}
	f := Form{id: id, payload: payload, title: title, theme: th, keys: km.Dialog}
	for _, fd := range fields {
		ff := &formField{Field: fd}
		if fd.Kind == FieldText {
			in := themedInput(th)
			in.Placeholder = placeholder(fd.Placeholder)
			in.CharLimit = fd.CharLimit
			in.Secret = fd.Secret
			in.SetValue(fd.Value)
			ff.input = in
		}
		if fd.Kind == FieldChoice {
			ff.Choice = clampInt(fd.Choice, 0, len(fd.Choices)-1)
			if fd.None || !ff.enabled(ff.Choice) {
				ff.Choice = -1
			}
		}
		f.fields = append(f.fields, ff)
	}
	first := 0
	for i, fd := range fields {
		if fd.Focus {
			first = i
			break
		}
	}
	f.setFocus(first)
	return f
}

// placeholder is how an empty field shows its example: after "e.g.", so
// it never reads as a value (it is not sent).
func placeholder(p string) string {
	if p == "" || strings.HasPrefix(p, "e.g.") {
		return p
	}
	return "e.g. " + p
}

// ID returns the id given at construction.
func (f Form) ID() string { return f.id }

// Done reports whether the form was cancelled.
func (f Form) Done() bool { return f.done }

// Submitting reports whether a submit is waiting for the caller's answer.
func (f Form) Submitting() bool { return f.submitting }

// Focused is the index of the focused field.
func (f Form) Focused() int { return f.focus }

// Values returns the current values.
func (f Form) Values() FormValues {
	v := make(FormValues, len(f.fields))
	for _, ff := range f.fields {
		v[ff.Key] = ff.value()
	}
	return v
}

// FieldError returns the validation error shown under a field, if any.
func (f Form) FieldError(key string) error {
	for _, ff := range f.fields {
		if ff.Key == key && ff.touched {
			return ff.err
		}
	}
	return nil
}

// SetSubmitError shows a failed submit (the API's errorCode and detail) in
// the form and returns it to editing, keeping every value.
func (f *Form) SetSubmitError(errorCode, detail string) {
	f.submitting = false
	msg := strings.TrimSpace(Sanitize(errorCode))
	if d := strings.TrimSpace(Sanitize(detail)); d != "" {
		if msg != "" {
			msg += ": "
		}
		msg += d
	}
	if msg == "" {
		msg = "submit failed"
	}
	f.submitErr = msg
	f.follow()
}

// SubmitError is the error shown by SetSubmitError, or "".
func (f Form) SubmitError() string { return f.submitErr }

// SetStatus replaces "submitting…" with what the caller is doing (a write
// whose answer was lost being checked); the form stays frozen.
func (f *Form) SetStatus(text string) { f.status = text; f.follow() }

// SetSize gives the area the dialog is centred in. The box keeps inside
// it: when the fields are taller, they scroll and the focused one stays in
// view (h <= 0: no limit).
func (f *Form) SetSize(w, h int) {
	f.width, f.height = w, max(h, 0)
	_, inner := dialogWidths(f.theme, w)
	for _, ff := range f.fields {
		if ff.Kind == FieldText {
			ff.input.SetWidth(max(inner-1, 4))
		}
	}
	f.follow()
}

// Size is the outer size of the box View draws.
func (f Form) Size() (w, h int) { return lipgloss.Size(f.View()) }

func (ff *formField) value() string {
	switch ff.Kind {
	case FieldNote:
		return ff.Value
	case FieldChoice:
		if ff.Choice < 0 || ff.Choice >= len(ff.Choices) {
			return ""
		}
		return ff.Choices[ff.Choice]
	case FieldToggle:
		if ff.On {
			return "true"
		}
		return "false"
	}
	return ff.input.Value()
}

func (f *Form) setFocus(i int) tea.Cmd {
	if len(f.fields) == 0 {
		return nil
	}
	n := len(f.fields)
	step := 1
	if i < f.focus {
		step = -1
	}
	i = (i + n) % n
	for k := 0; k < n && f.fields[i].Kind == FieldNote && !f.fields[i].scrolls(); k++ {
		i = (i + step + n) % n
	}
	f.focus = i
	for j, ff := range f.fields {
		if ff.Kind != FieldText {
			continue
		}
		if j == f.focus {
			ff.input.Focus()
		} else {
			ff.input.Blur()
		}
	}
	return nil
}

// validate runs every field's rule; touch marks all fields so their errors
// show. It reports the first invalid field, or -1.
func (f *Form) validate(touch bool) int {
	all := f.Values()
	first := -1
	for i, ff := range f.fields {
		ff.err = nil
		if ff.Validate != nil {
			ff.err = ff.Validate(ff.value(), all)
		}
		if ff.err == nil && ff.Kind == FieldChoice && ff.Choice < 0 && len(ff.Choices) > 0 {
			ff.err = errors.New("choose one")
			if ff.step(1) < 0 {
				ff.err = errors.New("none of these can be chosen")
			}
		}
		if touch {
			ff.touched = true
		}
		if ff.err != nil && first < 0 {
			first = i
		}
	}
	return first
}

// Update edits the focused field, moves focus, submits and cancels; the
// fields scroll to keep the focused one in view.
func (f Form) Update(msg tea.Msg) (Form, tea.Cmd) {
	f, cmd := f.update(msg)
	f.follow()
	return f, cmd
}

func (f Form) update(msg tea.Msg) (Form, tea.Cmd) {
	if f.done {
		return f, nil
	}
	k, isKey := msg.(tea.KeyPressMsg)
	if isKey {
		switch {
		case f.keys.Cancel.Matches(k):
			f.done = true
			id, payload := f.id, f.payload
			return f, func() tea.Msg { return FormCancelMsg{ID: id, Payload: payload} }
		case f.submitting:
			return f, nil // the draft is frozen while the caller works
		case f.listMove(k), f.noteMove(k):
			return f, nil
		case f.keys.NextField.Matches(k), f.keys.Down.Matches(k) && f.current().Kind != FieldText:
			return f, f.setFocus(f.focus + 1)
		case f.keys.PrevField.Matches(k), f.keys.Up.Matches(k) && f.current().Kind != FieldText:
			return f, f.setFocus(f.focus - 1)
		case f.keys.Submit.Matches(k):
			if bad := f.validate(true); bad >= 0 {
				return f, f.setFocus(bad)
			}
			f.submitting = true
			f.submitErr, f.status = "", ""
			id, payload, values := f.id, f.payload, f.Values()
			return f, func() tea.Msg { return FormSubmitMsg{ID: id, Payload: payload, Values: values} }
		}
	}
	if f.submitting || len(f.fields) == 0 {
		return f, nil
	}
	ff := f.current()
	var cmd tea.Cmd
	changed := false
	switch ff.Kind {
	case FieldText:
		before := ff.input.Value()
		ff.input, cmd = ff.input.Update(msg)
		changed = ff.input.Value() != before
		if changed && ff.Selects != nil && strings.TrimSpace(ff.input.Value()) != "" {
			f.selectChoice(ff.Selects.Key, ff.Selects.Choice)
		}
	case FieldChoice:
		if t := f.textOf(ff.Key, ff.value()); isKey && t >= 0 && typed(k) && !f.keys.Flip.Matches(k) &&
			!f.keys.Left.Matches(k) && !f.keys.Right.Matches(k) {
			// Text typed on the choices goes to the field it belongs to
			// (a date typed on "Acknowledge until" goes to Until and
			// selects until…), rather than being lost or, for a space,
			// moving the choice while the text still shows.
			f.setFocus(t)
			return f.update(msg)
		}
		if isKey && len(ff.Choices) > 0 {
			dir := 0
			switch {
			case f.keys.Left.Matches(k):
				dir = -1
			case f.keys.Right.Matches(k), f.keys.Flip.Matches(k):
				dir = 1
			}
			if j := ff.step(dir); dir != 0 && j >= 0 {
				ff.Choice, changed = j, true
			}
		}
	case FieldToggle:
		if isKey && (f.keys.Flip.Matches(k) || f.keys.Left.Matches(k) || f.keys.Right.Matches(k)) {
			ff.On = !ff.On
			changed = true
		}
	}
	if changed {
		ff.touched = true
		f.validate(false)
	}
	return f, cmd
}

// textOf is the index of the first text field whose typing selects a
// choice of the choice field key, preferring one of the choice selected
// now (oplog ts while "oplog" is chosen), or -1.
func (f Form) textOf(key, chosen string) int {
	first := -1
	for i, o := range f.fields {
		if o.Kind == FieldText && o.Selects != nil && o.Selects.Key == key {
			if o.Selects.Choice == chosen {
				return i
			}
			if first < 0 {
				first = i
			}
		}
	}
	return first
}

// typed reports whether a key types text (no modifier but shift).
func typed(k tea.KeyPressMsg) bool {
	return k.Text != "" && k.Mod&^tea.ModShift == 0
}

// unsent says, for a text field that belongs to a choice, that what it
// shows is not sent while another choice is selected; "" otherwise.
func (f Form) unsent(ff *formField) string {
	if ff.Kind != FieldText || ff.Selects == nil || strings.TrimSpace(ff.input.Value()) == "" {
		return ""
	}
	for _, o := range f.fields {
		if o.Key == ff.Selects.Key && o.Kind == FieldChoice {
			if v := o.value(); v != ff.Selects.Choice {
				if v == "" {
					return "not sent: choose " + ff.Selects.Choice + " above"
				}
				return "not sent: " + v + " is selected (typing here selects " + ff.Selects.Choice + ")"
			}
		}
	}
	return ""
}

// listMove moves the selection of a List choice field with up/down; at
// either end the keys move between fields as usual.
func (f *Form) listMove(k tea.KeyPressMsg) bool {
	ff := f.current()
	if ff.Kind != FieldChoice || !ff.List {
		return false
	}
	dir := 0
	switch {
	case f.keys.Down.Matches(k):
		dir = 1
	case f.keys.Up.Matches(k):
		dir = -1
	default:
		return false
	}
	for j := ff.Choice + dir; j >= 0 && j < len(ff.Choices); j += dir {
		if ff.enabled(j) {
			ff.Choice, ff.touched = j, true
			f.validate(false)
			return true
		}
	}
	return false
}

// noteMove scrolls a scrolling note with up/down; at either end the keys
// move between fields as usual.
func (f *Form) noteMove(k tea.KeyPressMsg) bool {
	ff := f.current()
	if !ff.scrolls() {
		return false
	}
	last := ff.items() - ff.Rows
	switch {
	case f.keys.Down.Matches(k) && ff.off < last:
		ff.off++
	case f.keys.Up.Matches(k) && ff.off > 0:
		ff.off--
	default:
		return false
	}
	return true
}

// enabled reports whether choice j may be selected.
func (ff *formField) enabled(j int) bool {
	if j < 0 || j >= len(ff.Choices) {
		return false
	}
	return j >= len(ff.Reasons) || ff.Reasons[j] == ""
}

// step finds the next selectable choice from the current one in direction
// dir (wrapping), or -1 when none is selectable.
func (ff *formField) step(dir int) int {
	n := len(ff.Choices)
	if n == 0 || dir == 0 {
		return -1
	}
	i := ff.Choice
	if i < 0 && dir > 0 {
		i = -1
	} else if i < 0 {
		i = n
	}
	for range n {
		i = (i + dir + n) % n
		if ff.enabled(i) {
			return i
		}
	}
	return -1
}

func (f Form) selectChoice(key, choice string) {
	for _, o := range f.fields {
		if o.Key == key && o.Kind == FieldChoice {
			if j := slices.Index(o.Choices, choice); o.enabled(j) {
				o.Choice, o.touched = j, true
			}
		}
	}
}

func (f Form) current() *formField {
	if len(f.fields) == 0 {
		return &formField{}
	}
	return f.fields[f.focus]
}

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
	if ff.Hint != "" {
		lines = append(lines, "  "+f.theme.Muted.Render(Truncate(Sanitize(ff.Hint), inner-2)))
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
