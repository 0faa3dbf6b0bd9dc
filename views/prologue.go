package views

import (
	"fmt"

	"github.com/dbadmin-tui/dbadmin-tui/themes"
)

// Prologue is what a pane's list area says while it has no rows to show,
// said the same way in every pane: nothing chosen to load, the caller's
// roles may not read it, loading, the first load failed, nothing there.
type Prologue struct {
	Noun string // "alerts", "snapshots": the loading and empty lines
	// Off says why there is nothing to load ("pick a cluster (c)").
	Off string
	// Refused says why the caller may not read it ("needs Project Read
	// Only"): the gate's answer before any request.
	Refused string
	Loaded  bool  // a load succeeded at least once
	Err     error // the last load's error
	Empty   bool  // loaded, and nothing to show
	// EmptyText replaces "no <noun>" (a filter that hides every row).
	EmptyText string
}

// View is the line to show instead of the list; ok is false when the pane
// has rows and draws its list. An error after a success is not the
// prologue's: the rows stay, and the pane's staleness says it.
func (p Prologue) View(st themes.Styles) (line string, ok bool) {
	switch {
	case p.Off != "":
		return st.StateMuted.Render(p.Off), true
	case p.Refused != "":
		return st.StateFailed.Render(p.Noun + ": " + p.Refused), true
	case p.Err != nil && !p.Loaded:
		return st.StateFailed.Render(fmt.Sprintf("%s: %s (r retries)", p.Noun, ErrText(p.Err))), true
	case !p.Loaded:
		return st.StateMuted.Render("loading " + p.Noun + "…"), true
	case p.Empty && p.EmptyText != "":
		return st.StateMuted.Render(p.EmptyText), true
	case p.Empty:
		return st.StateMuted.Render("no " + p.Noun), true
	}
	return "", false
}
