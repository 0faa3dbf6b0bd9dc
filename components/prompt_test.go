package components

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

func TestPromptDefaultsToNoAndHandsTheTextBack(t *testing.T) {
	p := NewPrompt("role", "New access role", "Creates a role.", "Provider and ids:", 7, dark(), nil)
	p.SetSize(80, 24)
	for _, m := range typeText("yn AWS") {
		p, _ = p.Update(m)
	}
	eq(t, "yn AWS", p.Value(), "y and n are text here")
	eq(t, false, p.Done())
	mustContain(t, plain(p.View()), "Provider and ids:")

	_, cmd := p.Update(key("enter"))
	res := run(cmd).(ConfirmResultMsg)
	eq(t, false, res.Confirmed, "enter on the default No")
	eq(t, "", res.Input, "a No hands nothing back")

	p, _ = p.Update(key("tab"))
	p, cmd = p.Update(key("enter"))
	res = run(cmd).(ConfirmResultMsg)
	eq(t, true, res.Confirmed)
	eq(t, true, p.Confirmed())
	eq(t, "yn AWS", res.Input)
	eq(t, 7, res.Payload.(int))
	eq(t, "role", res.ID)

	p = NewPrompt("x", "t", "b", "l", nil, dark(), nil)
	p, _ = p.Update(key("tab"))
	p, _ = p.Update(key("shift+tab"))
	_, cmd = p.Update(key("enter"))
	eq(t, false, run(cmd).(ConfirmResultMsg).Confirmed, "shift+tab goes back to No")

	p = NewPrompt("x", "t", "b", "l", nil, dark(), nil)
	p, _ = p.Update(tea.PasteMsg{Content: "a\x1b[2Jb"})
	eq(t, "ab", p.Value(), "pastes are sanitized")
	p, cmd = p.Update(key("esc"))
	eq(t, false, run(cmd).(ConfirmResultMsg).Confirmed)
	eq(t, true, p.Done())
}

func TestConfirmOtherKeysCancel(t *testing.T) {
	for _, k := range []string{"q", "x", "space", "ctrl+c"} {
		c := NewConfirm("x", "t", "b", nil, dark(), nil).WithOtherKeysCancel()
		c, cmd := c.Update(key(k))
		eq(t, false, run(cmd).(ConfirmResultMsg).Confirmed, k)
		eq(t, true, c.Done(), k)
		eq(t, false, c.Confirmed(), k)
	}
	c := NewConfirm("x", "t", "b", nil, dark(), nil).WithOtherKeysCancel()
	c, cmd := c.Update(key("right"))
	eq(t, true, cmd == nil, "a move is not an answer")
	c, _ = c.Update(key("enter"))
	eq(t, true, c.Confirmed())
}

func TestTypedConfirmConfirmed(t *testing.T) {
	c := NewTypedConfirm("drop", "t", "b", "ix", nil, dark(), nil)
	c, _ = c.Update(key("enter"))
	eq(t, false, c.Confirmed())
	for _, m := range typeText("ix") {
		c, _ = c.Update(m)
	}
	c, _ = c.Update(key("enter"))
	eq(t, true, c.Done())
	eq(t, true, c.Confirmed())
}

func TestPickerDetailSearchStatusAndHint(t *testing.T) {
	items := []PickerItem{
		{ID: "1", Label: "payments", Detail: "5f00aa"},
		{ID: "2", Label: "search-prod", Detail: "REPLICASET IDLE"},
	}
	p := NewPicker("x", "t", items, dark(), nil)
	for _, m := range typeText("idle") {
		p, _ = p.Update(m)
	}
	eq(t, 0, p.Len(), "labels only by default")

	p = NewPicker("x", "t", items, dark(), nil).WithDetailSearch().WithHint("backspace back")
	for _, m := range typeText("idle") {
		p, _ = p.Update(m)
	}
	eq(t, 1, p.Len(), "the detail matches")
	it, _ := p.Selected()
	eq(t, "2", it.ID)
	p.SetQuery("pay")
	it, _ = p.Selected()
	eq(t, "1", it.ID, "labels still match")
	mustContain(t, plain(p.View()), "backspace back")

	p.SetQuery("zzz")
	p.SetStatus("loading…", false)
	v := plain(p.View())
	mustContain(t, v, "loading…")
	mustNotContain(t, v, "no matches")
	p.SetStatus("boom\x1b[2J", true)
	mustNotContain(t, p.View(), "\x1b[2J")
	mustContain(t, plain(p.View()), "boom")
	p.SetStatus("", false)
	mustContain(t, plain(p.View()), "no matches")
}

func TestPromptThatOnlyAsksForInputSubmitsOnEnter(t *testing.T) {
	p := NewPrompt("search", "Search", "", "Text:", nil, dark(), nil).WithEnterSubmits()
	p.SetSize(80, 24)
	for _, m := range typeText("10.2.") {
		p, _ = p.Update(m)
	}
	_, cmd := p.Update(key("enter"))
	res := run(cmd).(ConfirmResultMsg)
	eq(t, true, res.Confirmed, "enter submits an input-only prompt")
	eq(t, "10.2.", res.Input)

	p = NewPrompt("search", "Search", "", "Text:", nil, dark(), nil).WithEnterSubmits()
	_, cmd = p.Update(key("esc"))
	eq(t, false, run(cmd).(ConfirmResultMsg).Confirmed, "esc still cancels")

	p = NewPrompt("search", "Search", "", "Text:", nil, dark(), nil).WithEnterSubmits()
	p, _ = p.Update(key("tab"))
	_, cmd = p.Update(key("enter"))
	eq(t, false, run(cmd).(ConfirmResultMsg).Confirmed, "tab reaches No")
}
