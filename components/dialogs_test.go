package components

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func run(cmd tea.Cmd) tea.Msg {
	if cmd == nil {
		return nil
	}
	return cmd()
}

func TestConfirmDefaultsToNo(t *testing.T) {
	c := NewConfirm("ack", "Acknowledge 3 alerts?", "They stop notifying until you unack.", []string{"a1"}, dark(), nil)
	c, cmd := c.Update(key("enter"))
	res, ok := run(cmd).(ConfirmResultMsg)
	eq(t, true, ok, "enter answers")
	eq(t, false, res.Confirmed, "enter on a fresh confirm")
	eq(t, "ack", res.ID)
	eq(t, "a1", res.Payload.([]string)[0])
	eq(t, true, c.Done())
}

func TestConfirmKeys(t *testing.T) {
	for _, tc := range []struct {
		keys []string
		want bool
	}{
		{[]string{"y"}, true},
		{[]string{"Y"}, true},
		{[]string{"n"}, false},
		{[]string{"esc"}, false},
		{[]string{"right", "enter"}, true},
		{[]string{"tab", "left", "enter"}, false},
	} {
		c := NewConfirm("x", "t", "b", nil, dark(), nil)
		var cmd tea.Cmd
		for _, k := range tc.keys {
			c, cmd = c.Update(key(k))
		}
		res := run(cmd).(ConfirmResultMsg)
		eq(t, tc.want, res.Confirmed, tc.keys)
	}
	// Other keys are ignored.
	c := NewConfirm("x", "t", "b", nil, dark(), nil)
	for _, k := range []string{"q", "a", "space", "j", "ctrl+c"} {
		var cmd tea.Cmd
		c, cmd = c.Update(key(k))
		eq(t, true, cmd == nil, k)
		eq(t, false, c.Done(), k)
	}
	mustContain(t, plain(c.View()), "No")
}

func TestTypedConfirmMismatch(t *testing.T) {
	c := NewTypedConfirm("drop", "Delete index", "This deletes the index.", "orders-search", 42, dark(), nil)
	for _, m := range typeText("orders-serch") {
		c, _ = c.Update(m)
	}
	c, cmd := c.Update(key("enter"))
	eq(t, true, cmd == nil, "mismatch must not answer")
	eq(t, false, c.Done())
	mustContain(t, plain(c.View()), "does not match")

	// Fix the typo: backspace x3, type "rch".
	for i := 0; i < 3; i++ {
		c, _ = c.Update(key("backspace"))
	}
	for _, m := range typeText("arch") {
		c, _ = c.Update(m)
	}
	eq(t, "orders-search", c.Value())
	mustNotContain(t, plain(c.View()), "does not match")
	c, cmd = c.Update(key("enter"))
	res := run(cmd).(ConfirmResultMsg)
	eq(t, true, res.Confirmed)
	eq(t, 42, res.Payload.(int))

	c = NewTypedConfirm("drop", "t", "b", "x", nil, dark(), nil)
	_, cmd = c.Update(key("esc"))
	eq(t, false, run(cmd).(ConfirmResultMsg).Confirmed)
}

func ackForm() Form {
	return NewForm("ack", "Acknowledge alert", []Field{
		{Key: "comment", Label: "Comment", CharLimit: 200, Validate: func(v string, _ FormValues) error {
			if strings.TrimSpace(v) == "" {
				return errors.New("a comment is required")
			}
			return nil
		}},
		{Key: "until", Label: "Acknowledge for", Kind: FieldChoice, Choices: []string{"1h", "4h", "24h", "until…", "forever"}},
		{Key: "notify", Label: "Notify team", Kind: FieldToggle},
	}, "alert-1", dark(), nil)
}

func TestFormCounterStopsAtLimit(t *testing.T) {
	f := ackForm()
	f.SetSize(80, 24)
	for _, m := range typeText(strings.Repeat("x", 37)) {
		f, _ = f.Update(m)
	}
	mustContain(t, plain(f.View()), "37/200")
	for _, m := range typeText(strings.Repeat("y", 170)) {
		f, _ = f.Update(m)
	}
	eq(t, 200, len(f.Values()["comment"]))
	mustContain(t, plain(f.View()), "200/200")
	f, _ = f.Update(tea.PasteMsg{Content: "more"})
	eq(t, 200, len(f.Values()["comment"]), "paste past the limit")
}

func TestFormValidationPerField(t *testing.T) {
	f := ackForm()
	f, _ = f.Update(key("tab"))
	eq(t, 1, f.Focused())
	f, cmd := f.Update(key("enter"))
	eq(t, true, cmd == nil, "invalid form must not submit")
	eq(t, 0, f.Focused(), "focus jumps to the invalid field")
	mustContain(t, plain(f.View()), "a comment is required")
	eq(t, "a comment is required", f.FieldError("comment").Error())
	eq(t, nil, f.FieldError("until"))

	for _, m := range typeText("on it") {
		f, _ = f.Update(m)
	}
	mustNotContain(t, plain(f.View()), "a comment is required")
	f, _ = f.Update(key("tab"))
	f, _ = f.Update(key("right"))
	f, _ = f.Update(key("right"))
	f, _ = f.Update(key("tab"))
	f, _ = f.Update(key("space"))
	f, cmd = f.Update(key("enter"))
	sub := run(cmd).(FormSubmitMsg)
	eq(t, "on it", sub.Values["comment"])
	eq(t, "24h", sub.Values["until"])
	eq(t, true, sub.Values.Bool("notify"))
	eq(t, "alert-1", sub.Payload.(string))
	eq(t, true, f.Submitting())
}

func TestFormSubmitErrorKeepsDraft(t *testing.T) {
	f := ackForm()
	for _, m := range typeText("investigating the disk alert") {
		f, _ = f.Update(m)
	}
	f, _ = f.Update(key("enter"))
	eq(t, true, f.Submitting())
	// Typing while submitting does nothing.
	f, _ = f.Update(key("z"))
	f.SetSubmitError("ALERT_ALREADY_ACKNOWLEDGED", "The alert was acknowledged by someone else.\x1b[2J")
	eq(t, false, f.Submitting())
	eq(t, "investigating the disk alert", f.Values()["comment"])
	v := plain(f.View())
	mustContain(t, v, "ALERT_ALREADY_ACKNOWLEDGED")
	mustContain(t, v, "investigating the disk alert")
	mustNotContain(t, f.View(), "\x1b[2J")
	// Still editable and submittable.
	for _, m := range typeText("!") {
		f, _ = f.Update(m)
	}
	_, cmd := f.Update(key("enter"))
	eq(t, "investigating the disk alert!", run(cmd).(FormSubmitMsg).Values["comment"])

	_, cmd = ackForm().Update(key("esc"))
	_, ok := run(cmd).(FormCancelMsg)
	eq(t, true, ok)
}

func TestInputEditing(t *testing.T) {
	in := NewInput()
	in.Focus()
	in.SetWidth(10)
	for _, m := range typeText("hello world") {
		in, _ = in.Update(m)
	}
	in, _ = in.Update(tea.KeyPressMsg{Code: 'w', Mod: tea.ModCtrl})
	eq(t, "hello ", in.Value())
	in, _ = in.Update(key("left"))
	in, _ = in.Update(key("backspace"))
	eq(t, "hell ", in.Value())
	in, _ = in.Update(tea.PasteMsg{Content: "\x1b]0;x\x07o"})
	eq(t, "hello ", in.Value())
	if w := Width(plain(in.View())); w > 10 {
		t.Fatalf("input wider than its width: %d", w)
	}
}
