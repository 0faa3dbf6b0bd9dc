package views

// Backer is implemented by a pane that can show something of its own over
// its list: a detail, results, a sub-list, a notice. While Back reports
// true, esc goes to the pane, which closes that (detail -> list, keeping the
// list's filter, sort and cursor); only with nothing of the pane's open does
// the root's esc clear the list's filter. Esc closes the top visible thing.
type Backer interface {
	CanGoBack() bool
}
