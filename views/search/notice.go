package search

import (
	tea "charm.land/bubbletea/v2"
)

// say shows text above the tree until the next key or action (dropNotice).
func (p *Pane) say(text string) {
	p.notice, p.noticeFor = text, ""
	p.layout()
}

// sayWhile shows text while the create of draft key is being sent,
// checked or of unknown outcome; then it goes as said notices go.
func (p *Pane) sayWhile(key, text string) {
	p.notice, p.noticeFor = text, key
	p.layout()
}

// dropNotice is the next key or action, or the pane left: the notice's
// moment is over, unless the create it is about is still unsettled.
// It takes the notice's error toast from the footer too.
func (p *Pane) dropNotice() {
	if p.noticeFor != "" && p.creating[p.noticeFor] != 0 {
		return
	}
	p.clearNotice()
}

// clearNotice takes the notice away whatever it is about, and with it
// (views.ErrorsResolved) the error toast that said the same in the footer:
// neither outlives the other.
func (p *Pane) clearNotice() {
	if p.notice == "" && p.noticeFor == "" {
		return
	}
	p.notice, p.noticeFor = "", ""
	p.layout()
	p.ErrorsResolved()
}

// SetVisible: leaving the pane ends its notice, as the root clears the
// error toasts of a pane left behind.
func (p *Pane) SetVisible(v bool) tea.Cmd {
	if !v {
		p.dropNotice()
	}
	return p.Base.SetVisible(v)
}
