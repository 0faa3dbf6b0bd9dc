package views

// Backer is implemented by a pane that can show something of its own over
// its list: a detail, results, a sub-list, a notice. While Back reports
// true, esc goes to the pane, which closes that (detail -> list, keeping the
// list's filter, sort and cursor); only with nothing of the pane's open does
// the root's esc clear the list's filter. Esc closes the top visible thing.
type Backer interface {
	CanGoBack() bool
}

// ActionGrouper is a pane whose actions act on another project than the
// context's (the Triage board: the selected row's); the gate asks about
// ActionGroup() for its actions.
type ActionGrouper interface {
	ActionGroup() string
}

// AnswerJudge is a pane whose Actions() disable what the row under the
// cursor refuses (so the footer and help never offer a key that only says
// no), and which judges an answered dialog itself, on the item the dialog
// named (ActionMsg.Target): when a dialog's answer comes, the root checks
// only its gate, not what the pane disables for the row on screen now,
// which may be another row after a refresh.
type AnswerJudge interface {
	JudgesAnswers()
}

// ErrorsResolvedMsg tells the root that the cause of the errors it shows
// is gone (a cluster was picked after "pick a cluster first"): it clears
// that pane's errors rather than let them outlive their cause.
type ErrorsResolvedMsg struct {
	Pane ID // the pane whose errors go (Base.ErrorsResolved stamps it)
}

// Wanted is the item a jump asked a pane to select (SelectMsg), kept until
// the pane's list holds it. The zero value wants nothing.
type Wanted struct{ id string }

// Set keeps id as the item to select.
func (w *Wanted) Set(id string) { w.id = id }

// ID is the item still wanted; empty when none is.
func (w Wanted) ID() string { return w.id }

// Select asks sel to put the cursor on the wanted item, and forgets the
// item once it has.
func (w *Wanted) Select(sel func(id string) bool) {
	if w.id != "" && sel(w.id) {
		w.id = ""
	}
}
