package components

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
)

// ConfirmResultMsg is sent when a Confirm, TypedConfirm or Prompt closes.
// ID and Payload are what the caller gave when opening it, so the caller
// knows what was (or was not) confirmed. Input is, on a yes, the text typed
// in a Prompt (or the name typed in a TypedConfirm).
type ConfirmResultMsg struct {
	ID        string
	Payload   any
	Confirmed bool
	Input     string
}

// question is what Confirm, TypedConfirm and Prompt share: who asked, what
// they asked, and the answer once given.
type question struct {
	id        string
	payload   any
	title     string
	body      string
	done      bool
	confirmed bool
	width     int
	theme     themes.Theme
	keys      keymap.Dialog
}

func newQuestion(id, title, body string, payload any, th themes.Theme, km *keymap.KeyMap) question {
	if km == nil {
		km = keymap.Default()
	}
	return question{id: id, payload: payload, title: title, body: body, theme: th, keys: km.Dialog}
}

// ID returns the id given at construction.
func (q question) ID() string { return q.id }

// Done reports whether the dialog has answered.
func (q question) Done() bool { return q.done }

// Confirmed reports whether the answer was yes; false until Done.
func (q question) Confirmed() bool { return q.confirmed }

// answer closes the dialog and reports the answer (and, on a yes, the
// text typed) as a ConfirmResultMsg.
func (q *question) answer(yes bool, input string) tea.Cmd {
	q.done, q.confirmed = true, yes
	res := ConfirmResultMsg{ID: q.id, Payload: q.payload, Confirmed: yes}
	if yes {
		res.Input = input
	}
	return func() tea.Msg { return res }
}

// maxDialogWidth is the widest a dialog box grows (border included).
const maxDialogWidth = 64

// DialogInner is the width inside a dialog drawn in an area w cells wide
// (every theme's dialog border and padding take two cells a side): what a
// pane may fit a title or a line to before the dialog cuts it.
func DialogInner(w int) int {
	outer := maxDialogWidth
	if w > 0 {
		outer = max(min(maxDialogWidth, w-4), 20)
	}
	return outer - 4
}

// dialogWidths is the outer width of a dialog in an area w cells wide and
// the width inside its border.
func dialogWidths(th themes.Theme, w int) (outer, inner int) {
	outer = maxDialogWidth
	if w > 0 {
		outer = max(min(maxDialogWidth, w-4), 20)
	}
	return outer, outer - th.DialogBorder.GetHorizontalFrameSize()
}

// box draws a dialog: the title, then the body, in the theme's border, at
// the given outer width.
func box(th themes.Theme, outer int, title string, body ...string) string {
	st := th.DialogBorder
	inner := max(outer-st.GetHorizontalFrameSize(), 1)
	parts := make([]string, 0, len(body)+2)
	if title != "" {
		parts = append(parts, th.DialogTitle.Render(Truncate(Sanitize(title), inner)), "")
	}
	parts = append(parts, body...)
	return st.Width(outer).Render(strings.Join(parts, "\n"))
}

// wrap word-wraps sanitized text to w cells.
func wrap(s string, w int) string {
	return lipgloss.NewStyle().Width(max(w, 1)).Render(SanitizeText(s))
}

// buttons renders the labels with the focused one highlighted and
// bracketed, so focus shows without colour too: "[No]  Yes ".
func buttons(th themes.Theme, labels []string, focused int) string {
	out := make([]string, len(labels))
	for i, l := range labels {
		st, l := th.ButtonUnfocused, " "+Sanitize(l)+" "
		if i == focused {
			st, l = th.ButtonFocused, "["+l[1:len(l)-1]+"]"
		}
		out[i] = st.Render(l)
	}
	return strings.Join(out, "  ")
}

// focusedButton is the index, in buttons' {No, Yes} labels, of the focused
// button.
func focusedButton(yes bool) int {
	if yes {
		return 1
	}
	return 0
}

// Confirm is a yes/no question whose default answer is No: enter on a fresh
// dialog answers No, y answers Yes, n or esc answers No. Left/right/tab
// move the focus between the buttons; every other key is ignored, or,
// WithOtherKeysCancel, answers No.
type Confirm struct {
	question
	yesLabel  string
	noLabel   string
	yes       bool // focus on Yes
	dangerous bool
	strict    bool // any key that is not an answer or a move answers No
}

// NewConfirm builds a confirm. id and payload come back in the
// ConfirmResultMsg. km may be nil.
func NewConfirm(id, title, body string, payload any, th themes.Theme, km *keymap.KeyMap) Confirm {
	return Confirm{question: newQuestion(id, title, body, payload, th, km), yesLabel: "Yes", noLabel: "No"}
}

// WithLabels changes the button labels (e.g. "Cut over", "Keep running").
func (c Confirm) WithLabels(yes, no string) Confirm { c.yesLabel, c.noLabel = yes, no; return c }

// WithDangerous marks the question as destructive; the title is drawn in
// the error style.
func (c Confirm) WithDangerous(d bool) Confirm { c.dangerous = d; return c }

// WithOtherKeysCancel makes every key that is neither an answer nor a
// move between the buttons answer No, so a stray key can never leave the
// question open behind the user's back (pug's YesNoPrompt).
func (c Confirm) WithOtherKeysCancel() Confirm { c.strict = true; return c }

// SetSize gives the area the dialog is centred in.
func (c *Confirm) SetSize(w, _ int) { c.width = w }

// Size is the outer size of the box View draws.
func (c Confirm) Size() (w, h int) { return lipgloss.Size(c.View()) }

// Update answers on y/n/esc/enter; the answer comes as a ConfirmResultMsg.
func (c Confirm) Update(msg tea.Msg) (Confirm, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || c.done {
		return c, nil
	}
	switch {
	case c.keys.Yes.Matches(k):
		return c.reply(true)
	case c.keys.No.Matches(k), c.keys.Cancel.Matches(k):
		return c.reply(false)
	case c.keys.Submit.Matches(k):
		return c.reply(c.yes)
	case c.keys.Left.Matches(k), c.keys.PrevField.Matches(k):
		c.yes = false
	case c.keys.Right.Matches(k), c.keys.NextField.Matches(k):
		c.yes = true
	case c.strict:
		return c.reply(false)
	}
	return c, nil
}

func (c Confirm) reply(yes bool) (Confirm, tea.Cmd) {
	cmd := c.question.answer(yes, "")
	return c, cmd
}

// View draws the dialog box.
func (c Confirm) View() string {
	outer, inner := dialogWidths(c.theme, c.width)
	focused := focusedButton(c.yes)
	title := c.title
	th := c.theme
	if c.dangerous {
		th.DialogTitle = th.DialogTitle.Inherit(th.ErrorText)
	}
	return box(th, outer, title,
		wrap(c.body, inner),
		"",
		buttons(c.theme, []string{c.noLabel, c.yesLabel}, focused),
		c.theme.Muted.Render(Truncate("y yes · n/esc no · enter "+strings.ToLower([]string{c.noLabel, c.yesLabel}[focused]), inner)),
	)
}
