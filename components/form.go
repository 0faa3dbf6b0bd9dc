package components

import (
	"errors"
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
