package views

import tea "charm.land/bubbletea/v2"

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

// ErrorsResolvedMsg tells the root that the cause of the errors it shows
// is gone (a cluster was picked after "pick a cluster first"): it clears
// them rather than let them outlive their cause.
type ErrorsResolvedMsg struct{}

// ErrorsResolved returns a Cmd sending ErrorsResolvedMsg.
func ErrorsResolved() tea.Cmd { return func() tea.Msg { return ErrorsResolvedMsg{} } }
