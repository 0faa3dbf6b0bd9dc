package components

import (
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
)

// Prompt is a Confirm that also asks for free text (an ack comment, a
// role's ids). Its default answer is still No: focus starts on the No
// button, tab/shift+tab switch buttons, enter answers the focused one and
// esc answers No. Every other key edits the text, so y and n are letters
// here, not answers. A Yes carries the text in ConfirmResultMsg.Input.
type Prompt struct {
	textQuestion
	label string
	yes   bool // focus on Yes
}

// textQuestion is a question with a text field under its body: what Prompt
// and TypedConfirm share.
type textQuestion struct {
	question
	input Input
}

// newTextQuestion builds a question whose focused field takes up to
// charLimit characters. km may be nil.
func newTextQuestion(id, title, body string, payload any, charLimit int, th themes.Theme, km *keymap.KeyMap) textQuestion {
	in := themedInput(th)
	in.Prompt = "> "
	in.CharLimit = charLimit
	in.Focus()
	return textQuestion{question: newQuestion(id, title, body, payload, th, km), input: in}
}

// Value is the text typed so far.
func (q textQuestion) Value() string { return q.input.Value() }

// SetSize gives the area the dialog is centred in.
func (q *textQuestion) SetSize(w, _ int) {
	q.width = w
	_, inner := dialogWidths(q.theme, w)
	q.input.SetWidth(max(inner-3, 4))
}

// WithEnterSubmits starts with the focus on Yes, so enter submits the text:
// for prompts that only ask for input (a search, a file name, a comment).
// Destructive prompts keep the default No. tab still reaches No, and esc
// answers No.
func (p Prompt) WithEnterSubmits() Prompt {
	p.yes = true
	return p
}

// NewPrompt builds a prompt whose text field is introduced by label. km may
// be nil.
func NewPrompt(id, title, body, label string, payload any, th themes.Theme, km *keymap.KeyMap) Prompt {
	return Prompt{textQuestion: newTextQuestion(id, title, body, payload, 200, th, km), label: label}
}

// Size is the outer size of the box View draws.
func (p Prompt) Size() (w, h int) { return lipgloss.Size(p.View()) }

// Update edits the text, switches buttons and answers.
func (p Prompt) Update(msg tea.Msg) (Prompt, tea.Cmd) {
	if p.done {
		return p, nil
	}
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case p.keys.Cancel.Matches(k):
			cmd := p.answer(false, "")
			return p, cmd
		case p.keys.Submit.Matches(k):
			cmd := p.answer(p.yes, p.input.Value())
			return p, cmd
		case p.keys.NextField.Matches(k), p.keys.PrevField.Matches(k):
			p.yes = !p.yes
			return p, nil
		}
	}
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(msg)
	return p, cmd
}

// View draws the dialog box.
func (p Prompt) View() string {
	outer, inner := dialogWidths(p.theme, p.width)
	focused := focusedButton(p.yes)
	return box(p.theme, outer, p.title,
		wrap(p.body, inner),
		"",
		p.theme.FieldLabel.Render(Truncate(Sanitize(p.label), inner)),
		p.input.View(),
		"",
		buttons(p.theme, []string{"No", "Yes"}, focused),
		p.theme.Muted.Render(Truncate("tab switch · enter "+[]string{"no", "yes"}[focused]+" · esc cancel", inner)),
	)
}
