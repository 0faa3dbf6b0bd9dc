package views

import tea "charm.land/bubbletea/v2"

// Ask is what a pane asks of the root: a confirmation, a form, a toast,
// the answer to a submitted form, its status, "the errors' cause is gone",
// a jump to another pane, a task on the task line (a request's, recorded
// by Get, Load, Write and Background as they build it). A pane records asks on its Base while it handles
// a message (Base.Confirm, Base.Form, Base.Toast, ...); each is stamped
// with the pane's id there. The root takes them right after that Update
// returns, in order, and acts on them before it reads the next message: a
// dialog asked for by a key is open before the key after it arrives, and a
// toast is the pane's without anyone tagging Cmds.
//
// Asks are values, never Cmds: nothing about them runs on a goroutine.
// What a pane learns on a goroutine (a request's result) comes back to its
// Update as a result, and the pane asks from there.
type Ask interface{ ask() }

func (ConfirmMsg) ask()        {}
func (FormMsg) ask()           {}
func (FormDoneMsg) ask()       {}
func (FormStatusMsg) ask()     {}
func (ToastMsg) ask()          {}
func (ErrorsResolvedMsg) ask() {}
func (JumpMsg) ask()           {}
func (TaskStartMsg) ask()      {}

// Asker is a pane whose asks the root takes after each Update, Init and
// SetVisible. Base provides it.
type Asker interface {
	// TakeAsks returns what the pane asked since the last call and the
	// Cmds its Base started on its own (the poll loop's re-arm), and
	// forgets them.
	TakeAsks() ([]Ask, tea.Cmd)
}

// outbox is what Base keeps for the root between two TakeAsks.
type outbox struct {
	asks []Ask
	// rearm: a load answered; the poll re-arms when the asks are taken,
	// unless the pane armed or stopped it itself since (the loop's
	// generation moved on from rearmGen).
	rearm    bool
	rearmGen uint64
	// resolvedFirst: "the errors' cause is gone" goes before the asks.
	resolvedFirst bool
}

// TakeAsks implements Asker. The poll re-arms here, after the Update that
// saw a load's answer, so its interval follows what the pane shows now; a
// pane that armed or stopped its loop itself in that Update is left be.
func (b *Base) TakeAsks() ([]Ask, tea.Cmd) {
	out := b.out
	b.out = outbox{}
	if out.resolvedFirst {
		out.asks = append([]Ask{ErrorsResolvedMsg{Pane: b.id}}, out.asks...)
	}
	var cmd tea.Cmd
	if out.rearm && b.poll.gen == out.rearmGen {
		cmd = b.Arm()
	}
	return out.asks, cmd
}

// Confirm asks for a confirmation dialog (default No). A yes comes back to
// the pane as c.Action with Confirmed set, through the gate again.
func (b *Base) Confirm(c ConfirmMsg) {
	c.Pane = b.id
	b.out.asks = append(b.out.asks, c)
}

// Form asks for a form dialog; a valid submit comes back as f.Action with
// Confirmed, Form and Values set, and the form waits, frozen, for FormDone.
func (b *Base) Form(f FormMsg) {
	f.Pane = b.id
	b.out.asks = append(b.out.asks, f)
}

// FormDone answers the submitted form id: nil closes it; an error is shown
// in it, with everything the user typed kept.
func (b *Base) FormDone(id string, err error) {
	b.out.asks = append(b.out.asks, FormDoneMsg{Pane: b.id, ID: id, Err: err})
}

// FormStatus says, in the submitted form id, what the pane is doing.
func (b *Base) FormStatus(id, text string) {
	b.out.asks = append(b.out.asks, FormStatusMsg{Pane: b.id, ID: id, Text: text})
}

// Toast shows a notice of this pane; an error shows while the pane is on
// screen and until ErrorsResolved.
func (b *Base) Toast(text string, isErr bool) {
	b.out.asks = append(b.out.asks, ToastMsg{Text: text, Err: isErr, Pane: b.id})
}

// Refuse says on screen, as an error of this pane, why nothing was done.
func (b *Base) Refuse(text string) { b.Toast(text, true) }

// ErrorsResolved clears this pane's error toasts: their cause is gone.
func (b *Base) ErrorsResolved() {
	b.out.asks = append(b.out.asks, ErrorsResolvedMsg{Pane: b.id})
}

// ErrorsResolvedFirst clears this pane's error toasts before anything else
// the pane asks in this Update: a refusal the same message says stays.
func (b *Base) ErrorsResolvedFirst() { b.out.resolvedFirst = true }

// Jump asks the root to open j.Pane on an item; esc comes back here.
func (b *Base) Jump(j JumpMsg) {
	j.From = b.id
	b.out.asks = append(b.out.asks, j)
}

// Step is an action that asks first and acts on the answer: Ask records
// the dialog or form (or refuses), Do acts on the confirmed ActionMsg.
type Step struct {
	Ask func() tea.Cmd
	Do  func(ActionMsg) tea.Cmd
}

// AskThenDo runs msg's step from steps: Do when msg comes back from its
// dialog confirmed, Ask when the key was pressed. ok is false when no step
// has msg's name (a one-step action the pane handles itself).
func AskThenDo(msg ActionMsg, steps map[string]Step) (cmd tea.Cmd, ok bool) {
	s, ok := steps[msg.Name]
	if !ok {
		return nil, false
	}
	if msg.Confirmed {
		return s.Do(msg), true
	}
	return s.Ask(), true
}
