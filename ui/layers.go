package ui

import (
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/dbadmin-tui/dbadmin-tui/components"
)

// Layer ranks: a higher rank is above a lower one. The pane is the floor
// under every layer and has no entry of its own.
const (
	rankFilter = iota + 1
	rankPalette
	rankHelp
	rankDialog
)

// layer is one thing stacked over the pane: the filter bar, the palette, the
// context picker, the help overlay or a dialog. Only the top layer gets key
// presses; esc always dismisses the top layer.
type layer interface {
	rank() int
	// key handles a key press that reached this layer; done reports that
	// the layer has finished and leaves the stack.
	key(m *Model, msg tea.KeyPressMsg) (done bool, cmd tea.Cmd)
	// dismiss runs when esc removes the layer.
	dismiss(m *Model) tea.Cmd
	// overlay draws the layer over a base screen of w x h cells.
	overlay(m *Model, base string, w, h int) string
}

// escaper is a layer that undoes a step of its own on esc (a search)
// before esc dismisses it; esc reports whether it did.
type escaper interface {
	esc(m *Model) bool
}

// paster is a layer with a text field that takes pasted text.
type paster interface {
	paste(m *Model, msg tea.PasteMsg) (done bool, cmd tea.Cmd)
}

// updater is a layer that also wants non-key messages (data loads).
type updater interface {
	update(m *Model, msg tea.Msg) tea.Cmd
}

// stack holds the layers bottom to top, ordered by rank: pushing a dialog
// while the filter bar is open puts the dialog on top, pushing a filter bar
// under an open dialog keeps the dialog on top.
type stack struct {
	layers []layer
	// changed, when set, is told after a layer came or went.
	changed func()
}

func (s *stack) tell() {
	if s.changed != nil {
		s.changed()
	}
}

func (s *stack) push(l layer) {
	i := len(s.layers)
	for i > 0 && s.layers[i-1].rank() > l.rank() {
		i--
	}
	s.layers = append(s.layers, nil)
	copy(s.layers[i+1:], s.layers[i:])
	s.layers[i] = l
	s.tell()
}

func (s *stack) top() layer {
	if len(s.layers) == 0 {
		return nil
	}
	return s.layers[len(s.layers)-1]
}

func (s *stack) remove(l layer) {
	for i, x := range s.layers {
		if x == l {
			s.layers = append(s.layers[:i], s.layers[i+1:]...)
			s.tell()
			return
		}
	}
}

// removeRank drops every layer of a rank (opening help replaces an open help).
func (s *stack) removeRank(r int) {
	out := s.layers[:0]
	for _, x := range s.layers {
		if x.rank() != r {
			out = append(out, x)
		}
	}
	s.layers = out
	s.tell()
}

func (s *stack) has(r int) bool {
	for _, x := range s.layers {
		if x.rank() == r {
			return true
		}
	}
	return false
}

func (s *stack) len() int { return len(s.layers) }

// all returns the layers bottom to top.
func (s *stack) all() []layer { return s.layers }

// newInput is the text field of the filter bar and the palette: plain, with
// a faint placeholder, taking keys at once.
func newInput(prompt, placeholder string) components.Input {
	in := components.NewInput()
	in.Prompt, in.Placeholder, in.CharLimit = prompt, placeholder, 256
	in.PlaceholderStyle = lipgloss.NewStyle().Faint(true)
	in.Focus()
	return in
}
