package views

import (
	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/components"
)

// ActionMsg is an action of the active pane that the gate allowed. The root
// is the only sender: it matched the key against Pane.Actions(), checked
// read-only mode and the caller's roles, and only then delivers this.
type ActionMsg struct {
	Name string // keymap.Action.Name, e.g. "alerts.ack"
	// Confirmed is set when the action comes back from a ConfirmMsg dialog
	// the user answered yes.
	Confirmed bool
	// Input is what the user typed in the dialog, if it asked for text.
	Input string
	// Target is whatever the pane put in ConfirmMsg.Action.Target (usually
	// the selected row's id), handed back untouched.
	Target string
	// Payload is what the pane put in the dialog's Action.Payload, handed
	// back untouched: a typed value (the alerts an acknowledgement names,
	// the document an editor returned), never a string to parse again.
	Payload any
	// Form, when the action comes back from a FormMsg dialog, is the form's
	// id and Values what the user entered.
	Form   string
	Values components.FormValues
}

// ConfirmMsg asks the root to open a confirmation dialog whose default answer
// is No. If the user confirms, the root delivers Action (with Confirmed set)
// to Pane, after checking the gate again. Any other answer drops it.
type ConfirmMsg struct {
	Pane  ID
	Title string
	Body  string
	// TypeToConfirm, when set, must be typed exactly before the dialog
	// confirms (the resource name for a restore or a drop).
	TypeToConfirm string
	// Prompt, when set (and TypeToConfirm is not), asks for free text
	// (an ack comment); it is handed back in Action.Input.
	Prompt string
	Action ActionMsg
	// Back, when set, is a wizard's last step's way back: the
	// previous-field key (shift+tab) closes the dialog and delivers Back
	// (Confirmed) to the pane, which reopens the step before. The body
	// says so.
	Back *ActionMsg
}

// FormMsg asks the root to open a form dialog (an ack with a duration and a
// comment, a snapshot's description and retention, a restore wizard step).
// When the user submits a valid form, the root checks the gate again and
// delivers Action with Confirmed, Form and Values set. The dialog stays open,
// frozen, until the pane answers with FormDoneMsg: no error closes it; an
// error is shown in the dialog with everything the user typed kept, and the
// user may fix it and submit again. esc cancels and the pane hears nothing.
type FormMsg struct {
	Pane   ID
	ID     string // names the form in FormDoneMsg and ActionMsg.Form
	Title  string
	Fields []components.Field
	Action ActionMsg
	// Back, when set, is a wizard step's way back: the previous-field key
	// (shift+tab) on the first field closes the form and delivers Back
	// (Confirmed, Form set) to the pane, which reopens the step before
	// with what was chosen. The step's hint says so.
	Back *ActionMsg
	// Doing, with On, is what the form does to the alerts listed in On
	// ("acknowledging"): under serve, while it is open, the others' rows
	// say so.
	Doing string
	On    []AlertRef
}

// FormDoneMsg ends a submitted form: Err nil closes it; otherwise the
// error (an *apiclient.Error shows its errorCode and detail) appears in it.
type FormDoneMsg struct {
	Pane ID
	ID   string
	Err  error
}

// FormStatusMsg says, in a submitted form still waiting for its
// FormDoneMsg, what the pane is doing ("sent - outcome unknown, checking").
// The form stays frozen: its submit key does nothing until FormDoneMsg.
type FormStatusMsg struct {
	Pane ID
	ID   string
	Text string
}

// ToastMsg shows a short notice; errors stay longer. Pane is the pane that
// raised it (Base.Toast stamps it): a pane's error shows only while that
// pane is on screen. One without a pane is the dashboard's.
type ToastMsg struct {
	Text string
	Err  bool
	Pane ID
}

// TaskStartMsg puts a spinner and Text on the footer's task line.
type TaskStartMsg struct {
	ID   string
	Text string
}

// TaskDoneMsg ends a task: done, or failed with Err.
type TaskDoneMsg struct {
	ID  string
	Err error
}

// ContextChangedMsg carries the new Context to every pane. Scope is set when
// the org, project or cluster changed (panes reload); otherwise only
// presentation (theme, layout, read-only, paused) changed.
type ContextChangedMsg struct {
	Ctx   Context
	Scope bool
}

// Reload reports whether a pane that showed old must start over: the
// scope changed, or the project or cluster it shows did.
func (m ContextChangedMsg) Reload(old Context) bool {
	return m.Scope || old.GroupID != m.Ctx.GroupID || old.ClusterName != m.Ctx.ClusterName
}

// ProjectChanged reports whether the scope or the project changed since
// old: what a pane keeps per project is stale.
func (m ContextChangedMsg) ProjectChanged(old Context) bool {
	return m.Scope || old.GroupID != m.Ctx.GroupID
}

// FilterMsg is the text of the root's filter bar (`/`). Panes filter their
// list with MatchFilter; empty text clears the filter.
type FilterMsg struct{ Text string }

// RefreshMsg asks the active pane to reload now (`r`).
type RefreshMsg struct{}

// PauseMsg pauses or resumes live updates in every pane (`p`).
type PauseMsg struct{ Paused bool }

// PollTickMsg is one tick of a pane's poll loop; see Poller.
type PollTickMsg struct {
	Pane ID
	Gen  uint64
}

// PaneMsg carries any message a pane's Cmd produced back to that pane, when
// it is not one of the typed results above.
type PaneMsg struct {
	Pane ID
	Msg  tea.Msg
}

// JumpMsg asks the root to show Pane with the context set to the project
// (and cluster) and the item selected: a board row opened in the pane that
// owns it. The root answers the pane with SelectMsg once its context is
// set; esc at pane level then comes back to From.
type JumpMsg struct {
	From    ID
	Pane    ID
	GroupID string
	Cluster string // empty: every cluster of the project
	View    string // the pane's sub-view, if it has several ("restores")
	ItemID  string
	Name    string // the item as the board names it, for notices
}

// Shower is a pane that can tell whether its list shows an item a jump
// asks for (known: the item is in its list at all). The root keeps the
// pane's filter when it does, and clears it otherwise.
type Shower interface {
	Shows(view, itemID string) (shown, known bool)
}

// SelectMsg asks a pane to select the item with that id (in View, when the
// pane has several), now or as soon as its list holds it.
type SelectMsg struct {
	View   string
	ItemID string
}
