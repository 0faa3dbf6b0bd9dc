package ui

import (
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
)

// paletteCommand is one `:` command.
type paletteCommand struct {
	name    string
	aliases []string
	arg     string // what the argument is, for help; empty: none
	help    string
}

// shellCommands are the palette's commands besides one a pane.
var shellCommands = []paletteCommand{
	{name: "org", help: "pick an organization"},
	{name: "project", arg: "name|id", help: "switch project"},
	{name: "cluster", arg: "name|all", help: "narrow to a cluster"},
	{name: "theme", arg: "dark|light|mono|auto", help: "switch theme"},
	{name: "ro", help: "read-only mode on (lifting it asks)"},
	{name: "refresh", help: "reload the pane"},
	{name: "journal", help: "the writes of this shift"},
	{name: "help", help: "key help"},
	{name: "q", aliases: []string{"quit"}, help: "quit"},
}

// ShellCommands are the palette's own command words and their aliases: no
// pane may be named so (Registry.Validate refuses it).
func ShellCommands() []string {
	var out []string
	for _, c := range shellCommands {
		out = append(out, c.name)
		out = append(out, c.aliases...)
	}
	return out
}

// paletteCommands are the shell's commands, then a command for each
// registered pane in tab order. The shell's come first so that the open
// palette always shows them, however many panes there are (the panes have
// their number keys too).
func (m *Model) paletteCommands() []paletteCommand {
	out := slices.Clone(shellCommands)
	for _, r := range m.opts.Panes {
		out = append(out, paletteCommand{name: r.CommandName(), aliases: r.Aliases, help: r.JumpHelp() + " pane"})
	}
	return out
}

// paletteLayer is the `:` command line with completion: tab completes the
// highlighted candidate, up/down move through them, enter runs.
type paletteLayer struct {
	input components.Input
	sel   int
}

func (m *Model) openPalette() tea.Cmd {
	m.layers.push(&paletteLayer{input: newInput(":", "alerts, project <name>, cluster <name>, theme mono, ro, q")})
	return nil
}

func (p *paletteLayer) rank() int { return rankPalette }

func (p *paletteLayer) dismiss(*Model) tea.Cmd { return nil }

func (p *paletteLayer) key(m *Model, msg tea.KeyPressMsg) (bool, tea.Cmd) {
	cands := p.candidates(m)
	switch msg.String() {
	case "enter":
		text := strings.TrimSpace(p.input.Value())
		if !m.isCommand(text) && len(cands) > 0 {
			text = cands[clampIndex(p.sel, len(cands))].text
		}
		return true, m.runCommand(text)
	case "tab":
		if len(cands) > 0 {
			c := cands[clampIndex(p.sel, len(cands))]
			v := c.text
			if c.wantsArg {
				v += " "
			}
			p.input.SetValue(v)
			p.sel = 0
		}
		return false, nil
	case "up", "ctrl+p":
		p.sel = max(0, p.sel-1)
		return false, nil
	case "down", "ctrl+n":
		p.sel = min(max(0, len(cands)-1), p.sel+1)
		return false, nil
	}
	return false, p.edit(msg)
}

func (p *paletteLayer) paste(_ *Model, msg tea.PasteMsg) (bool, tea.Cmd) {
	return false, p.edit(msg)
}

// edit hands a key or a paste to the field; new text starts the
// candidates from the top.
func (p *paletteLayer) edit(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	before := p.input.Value()
	p.input, cmd = p.input.Update(msg)
	if p.input.Value() != before {
		p.sel = 0
	}
	return cmd
}

type candidate struct {
	text, help string
	wantsArg   bool
}

// candidates completes the command word, then its argument from what the
// dashboard knows: project and cluster names, theme names.
func (p *paletteLayer) candidates(m *Model) []candidate {
	v := strings.TrimLeft(p.input.Value(), ": ")
	word, arg, hasArg := strings.Cut(v, " ")
	word = strings.ToLower(word)
	var out []candidate
	if !hasArg {
		for _, c := range m.paletteCommands() {
			if strings.HasPrefix(c.name, word) || hasPrefixAny(c.aliases, word) {
				help := c.help
				if c.arg != "" {
					help = c.arg + ": " + help
				}
				out = append(out, candidate{text: c.name, help: help, wantsArg: c.arg != ""})
			}
		}
		return out
	}
	arg = strings.ToLower(strings.TrimSpace(arg))
	add := func(name, help string) {
		if strings.Contains(strings.ToLower(name), arg) {
			out = append(out, candidate{text: word + " " + name, help: help})
		}
	}
	switch word {
	case "project":
		for _, pr := range m.scope.projects {
			add(clean(pr.Name), clean(m.scope.orgName(pr.OrgID)))
		}
	case "cluster":
		add("all", "every cluster of the project")
		for _, c := range m.scope.clusters {
			add(clean(c.Name), clean(c.StateName))
		}
	case "theme":
		for _, n := range append(themes.Names(), "auto") {
			add(n, "")
		}
	}
	return out
}

// isCommand reports whether the text already names a command (so enter runs
// it as typed rather than the highlighted candidate).
func (m *Model) isCommand(text string) bool {
	word, _, _ := strings.Cut(strings.TrimLeft(text, ": "), " ")
	word = strings.ToLower(word)
	for _, c := range m.paletteCommands() {
		if c.name == word || hasExact(c.aliases, word) {
			return true
		}
	}
	return false
}

// runCommand runs one palette command.
func (m *Model) runCommand(text string) tea.Cmd {
	word, arg, _ := strings.Cut(strings.TrimSpace(strings.TrimLeft(text, ": ")), " ")
	word, arg = strings.ToLower(word), strings.TrimSpace(arg)
	for _, c := range m.paletteCommands() {
		if c.name == word || hasExact(c.aliases, word) {
			word = c.name
		}
	}
	if id, ok := m.opts.Panes.ByName(word); ok && !isNumber(word) {
		return m.switchTo(m.paneIndex(id))
	}
	switch word {
	case "":
		return nil
	case "org":
		return m.openPicker(stageOrg)
	case "project":
		if arg == "" {
			return m.openPicker(stageProject)
		}
		p, err := m.findProject(arg)
		if err != nil {
			return m.toast(err.Error(), true)
		}
		return m.switchProject(p, "")
	case "cluster":
		if arg == "" {
			return m.openPicker(stageCluster)
		}
		name, err := m.findCluster(arg)
		if err != nil {
			return m.toast(err.Error(), true)
		}
		return m.switchCluster(name)
	case "theme":
		return m.setTheme(arg)
	case "ro":
		return m.readOnlyCommand()
	case "refresh":
		return m.refresh()
	case "journal":
		return m.openJournal()
	case "help":
		return m.openHelp()
	case "q":
		return m.quit()
	}
	return m.toast("unknown command :"+clean(word)+" (tab lists them)", true)
}

func (p *paletteLayer) overlay(m *Model, base string, w, h int) string {
	st := m.theme.Styles
	inner := max(10, min(70, w-6))
	p.input.SetWidth(inner - lipgloss.Width(p.input.Prompt) - 1)
	lines := []string{padRight(p.input.View(), inner)}
	cands := p.candidates(m)
	sel := clampIndex(p.sel, len(cands))
	limit := max(1, min(8, h-8))
	start := max(0, sel-limit+1)
	for i := start; i < len(cands) && i < start+limit; i++ {
		c := cands[i]
		row := padRight(c.text, 24) + " " + c.help
		row = components.Truncate(row, inner)
		if i == sel {
			row = st.TableSelected.Render(padRight(row, inner))
		} else {
			row = st.HelpDesc.Render(row)
		}
		lines = append(lines, row)
	}
	if len(cands) == 0 && strings.TrimSpace(p.input.Value()) != "" {
		lines = append(lines, st.Muted.Render("no match; enter runs it as typed"))
	}
	box := st.DialogBorder.Render(lipgloss.JoinVertical(lipgloss.Left, lines...))
	return place(base, box, (w-lipgloss.Width(box))/2, 2)
}

func hasPrefixAny(ss []string, p string) bool {
	for _, s := range ss {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

func hasExact(ss []string, p string) bool {
	for _, s := range ss {
		if s == p {
			return true
		}
	}
	return false
}

func clampIndex(i, n int) int {
	if n == 0 {
		return 0
	}
	return max(0, min(i, n-1))
}

// isNumber: the palette switches panes by name; "3" is not a command.
func isNumber(s string) bool { _, err := strconv.Atoi(s); return err == nil }
