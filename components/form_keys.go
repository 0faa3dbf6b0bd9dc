package components

import (
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
)

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
