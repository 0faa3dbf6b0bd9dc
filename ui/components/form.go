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

	// Text fields.
	Value       string // initial text
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
			in.Placeholder = fd.Placeholder
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
}

// SubmitError is the error shown by SetSubmitError, or "".
func (f Form) SubmitError() string { return f.submitErr }

// SetStatus replaces "submitting…" with what the caller is doing (a write
// whose answer was lost being checked); the form stays frozen.
func (f *Form) SetStatus(text string) { f.status = text }

// SetSize gives the area the dialog is centred in.
func (f *Form) SetSize(w, _ int) {
	f.width = w
	_, inner := dialogWidths(f.theme, w)
	for _, ff := range f.fields {
		if ff.Kind == FieldText {
			ff.input.SetWidth(max(inner-1, 4))
		}
	}
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
	for k := 0; k < n && f.fields[i].Kind == FieldNote; k++ {
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

// Update edits the focused field, moves focus, submits and cancels.
func (f Form) Update(msg tea.Msg) (Form, tea.Cmd) {
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
		case f.listMove(k):
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

// View draws the form box.
func (f Form) View() string {
	outer, inner := dialogWidths(f.theme, f.width)
	var lines []string
	for i, ff := range f.fields {
		if i > 0 {
			lines = append(lines, "")
		}
		focused := i == f.focus
		if ff.Kind == FieldNote {
			if ff.Label != "" {
				lines = append(lines, wrap(Sanitize(ff.Label), inner))
			}
			for _, l := range strings.Split(ff.Value, "\n") {
				lines = append(lines, "  "+f.theme.Muted.Render(Truncate(Sanitize(l), inner-2)))
			}
			continue
		}
		labelStyle := f.theme.FieldLabel
		cursor := "  "
		if focused {
			labelStyle = f.theme.FieldFocused
			cursor = "▸ "
		}
		label := cursor + labelStyle.Render(Sanitize(ff.Label))
		if ff.Kind == FieldText && ff.CharLimit > 0 {
			counter := fmt.Sprintf("%d/%d", ff.input.Len(), ff.CharLimit)
			gap := inner - lipgloss.Width(label) - len(counter)
			label += strings.Repeat(" ", max(gap, 1)) + f.theme.Counter.Render(counter)
		}
		lines = append(lines, label)
		if ff.Hint != "" {
			lines = append(lines, "  "+f.theme.Muted.Render(Truncate(Sanitize(ff.Hint), inner-2)))
		}
		switch ff.Kind {
		case FieldText:
			lines = append(lines, "  "+ff.input.View())
		case FieldChoice:
			if ff.List {
				lines = append(lines, f.choiceList(ff, focused, inner)...)
				break
			}
			opts := make([]string, len(ff.Choices))
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
				opts[j] = st.Render(mark + " " + Sanitize(c))
			}
			lines = append(lines, "  "+lipgloss.NewStyle().Width(inner-2).Render(strings.Join(opts, "  ")))
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
		if ff.touched && ff.err != nil {
			lines = append(lines, "  "+f.theme.ErrorText.Render(wrap(ff.err.Error(), inner-2)))
		}
	}
	lines = append(lines, "")
	if f.submitErr != "" {
		lines = append(lines, f.theme.ErrorText.Render(wrap("✗ "+f.submitErr, inner)))
	}
	status := "enter submit · tab next field · esc cancel"
	if f.submitting {
		status = "submitting…"
		if f.status != "" {
			status = f.status + " · esc hides"
		}
	}
	lines = append(lines, f.theme.Muted.Render(Truncate(status, inner)))
	return box(f.theme, outer, f.title, lines...)
}

// choiceList draws a List choice field: one choice a line, the selected one
// marked, the ones that cannot be chosen greyed with their reason.
func (f Form) choiceList(ff *formField, focused bool, inner int) []string {
	nameW := 0
	for _, c := range ff.Choices {
		nameW = max(nameW, lipgloss.Width(Sanitize(c)))
	}
	nameW = min(nameW, max(inner/2, 8))
	var out []string
	for j, c := range ff.Choices {
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
	}
	return out
}
