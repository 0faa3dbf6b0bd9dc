package components

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/sahilm/fuzzy"

	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
)

// PickerItem is one choice.
type PickerItem struct {
	ID     string // what the caller acts on (an org id, a command)
	Label  string // what is matched and shown
	Detail string // muted text after the label
}

// PickerResultMsg is sent when a Picker closes.
type PickerResultMsg struct {
	ID        string // the picker's id
	Item      PickerItem
	Cancelled bool
}

// Picker is a searchable list with fuzzy matching: type to narrow, up/down
// to move, enter picks, esc cancels. It serves the org/project/cluster
// choice and the palette's completion.
type Picker struct {
	id      string
	title   string
	items   []PickerItem
	labels  []string      // what the query is matched against
	matches []fuzzy.Match // nil query: every item in order
	detail  bool          // match the detail as well as the label
	status  string        // a line under the list ("loading…")
	isErr   bool
	hint    string
	input   Input
	cursor  int
	offset  int
	done    bool
	width   int
	height  int
	theme   themes.Theme
	keys    keymap.Dialog
}

// NewPicker builds a picker. km may be nil.
func NewPicker(id, title string, items []PickerItem, th themes.Theme, km *keymap.KeyMap) Picker {
	if km == nil {
		km = keymap.Default()
	}
	in := themedInput(th)
	in.Prompt = "› "
	in.Placeholder = "type to filter"
	in.Focus()
	p := Picker{id: id, title: title, input: in, theme: th, keys: km.Dialog, height: 16,
		hint: "↑/↓ move · enter pick · esc cancel"}
	p.SetItems(items)
	return p
}

// WithDetailSearch matches the query against each item's detail too (an id,
// a tier, a state), after its label; only the label is highlighted.
func (p Picker) WithDetailSearch() Picker {
	p.detail = true
	p.SetItems(p.items)
	return p
}

// WithHint replaces the key hint under the list.
func (p Picker) WithHint(h string) Picker { p.hint = h; return p }

// SetStatus shows a line under the list instead of "no matches" (a load in
// progress, or why it failed, in the error style); "" removes it.
func (p *Picker) SetStatus(text string, isErr bool) { p.status, p.isErr = text, isErr }

// ID returns the id given at construction.
func (p Picker) ID() string { return p.id }

// Done reports whether the picker has closed.
func (p Picker) Done() bool { return p.done }

// SetItems replaces the choices (labels sanitized) and re-applies the query.
func (p *Picker) SetItems(items []PickerItem) {
	p.items = make([]PickerItem, len(items))
	p.labels = make([]string, len(items))
	for i, it := range items {
		it.Label, it.Detail = Sanitize(it.Label), Sanitize(it.Detail)
		p.items[i], p.labels[i] = it, it.Label
		if p.detail && it.Detail != "" {
			p.labels[i] += "  " + it.Detail
		}
	}
	p.refilter()
}

// SetQuery sets the search text (e.g. what was typed in the palette).
func (p *Picker) SetQuery(q string) {
	p.input.SetValue(q)
	p.refilter()
}

// Query returns the search text.
func (p Picker) Query() string { return p.input.Value() }

// SetSize gives the area the picker is centred in; the list shows as many
// rows as fit.
func (p *Picker) SetSize(w, h int) {
	p.width = w
	if h > 0 {
		p.height = h
	}
	_, inner := dialogWidths(p.theme, w)
	p.input.SetWidth(max(inner-2, 4))
	p.clamp()
}

// Size is the outer size of the box View draws.
func (p Picker) Size() (w, h int) { return lipgloss.Size(p.View()) }

// Len is the number of matching items.
func (p Picker) Len() int {
	if p.matches == nil {
		return len(p.items)
	}
	return len(p.matches)
}

func (p Picker) at(i int) (PickerItem, []int) {
	if p.matches == nil {
		return p.items[i], nil
	}
	m := p.matches[i]
	return p.items[m.Index], m.MatchedIndexes
}

// Selected returns the item under the cursor.
func (p Picker) Selected() (PickerItem, bool) {
	if p.Len() == 0 {
		return PickerItem{}, false
	}
	it, _ := p.at(p.cursor)
	return it, true
}

func (p *Picker) refilter() {
	q := strings.TrimSpace(p.input.Value())
	if q == "" {
		p.matches = nil
	} else {
		p.matches = fuzzy.Find(q, p.labels)
		if p.matches == nil {
			p.matches = fuzzy.Matches{}
		}
	}
	p.cursor, p.offset = 0, 0
}

func (p Picker) listHeight() int {
	// Title, blank, input, blank, list, hint, border: keep the box inside
	// the area.
	return max(min(p.height-8, 12), 3)
}

func (p *Picker) clamp() {
	p.cursor = clampInt(p.cursor, 0, p.Len()-1)
	h := p.listHeight()
	if p.cursor < p.offset {
		p.offset = p.cursor
	} else if p.cursor >= p.offset+h {
		p.offset = p.cursor - h + 1
	}
	p.offset = clampInt(p.offset, 0, max(p.Len()-h, 0))
}

// Update types into the query, moves, picks and cancels.
func (p Picker) Update(msg tea.Msg) (Picker, tea.Cmd) {
	if p.done {
		return p, nil
	}
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case p.keys.Cancel.Matches(k):
			p.done = true
			id := p.id
			return p, func() tea.Msg { return PickerResultMsg{ID: id, Cancelled: true} }
		case p.keys.Submit.Matches(k):
			it, ok := p.Selected()
			if !ok {
				return p, nil
			}
			p.done = true
			id := p.id
			return p, func() tea.Msg { return PickerResultMsg{ID: id, Item: it} }
		case p.keys.Up.Matches(k), p.keys.PrevField.Matches(k):
			p.cursor--
			p.clamp()
			return p, nil
		case p.keys.Down.Matches(k), p.keys.NextField.Matches(k):
			p.cursor++
			p.clamp()
			return p, nil
		}
	}
	before := p.input.Value()
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(msg)
	if p.input.Value() != before {
		p.refilter()
	}
	return p, cmd
}

// View draws the picker box.
func (p Picker) View() string {
	outer, inner := dialogWidths(p.theme, p.width)
	lines := []string{p.input.View(), ""}
	h := p.listHeight()
	for i := p.offset; i < min(p.offset+h, p.Len()); i++ {
		it, idx := p.at(i)
		lines = append(lines, p.renderItem(it, idx, i == p.cursor, inner))
	}
	switch {
	case p.status != "" && p.isErr:
		lines = append(lines, p.theme.ErrorText.Render(Truncate(Sanitize(p.status), inner)))
	case p.status != "":
		lines = append(lines, p.theme.Muted.Render(Truncate(Sanitize(p.status), inner)))
	case p.Len() == 0:
		lines = append(lines, p.theme.Muted.Render("no matches"))
	}
	lines = append(lines, "", p.theme.Muted.Render(Truncate(p.hint, inner)))
	return box(p.theme, outer, p.title, lines...)
}

func (p Picker) renderItem(it PickerItem, matched []int, cursor bool, inner int) string {
	label := Truncate(it.Label, inner-2)
	var b strings.Builder
	if len(matched) > 0 {
		hit := make(map[int]bool, len(matched))
		for _, m := range matched {
			hit[m] = true
		}
		// fuzzy reports byte offsets into the label.
		for i, r := range label {
			if hit[i] {
				b.WriteString(p.theme.Match.Render(string(r)))
			} else {
				b.WriteRune(r)
			}
		}
	} else {
		b.WriteString(label)
	}
	line := b.String()
	if it.Detail != "" {
		if room := inner - 2 - lipgloss.Width(line) - 2; room > 3 {
			line += "  " + p.theme.Muted.Render(Truncate(it.Detail, room))
		}
	}
	if cursor {
		w := lipgloss.Width(line)
		return p.theme.TableSelected.Render("▸ " + line + strings.Repeat(" ", max(inner-2-w, 0)))
	}
	return "  " + line
}
