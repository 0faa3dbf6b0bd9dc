package components

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"

	"github.com/dbadmin-tui/dbadmin-tui/themes"
)

// Server text placed in markdown shows as the characters it is: no link,
// image or HTML becomes live, and a URL is plain text.
func TestServerMarkdownIsNotLive(t *testing.T) {
	cases := []struct{ in, shown string }{
		{"see [the runbook](https://evil.example/x)", "see [the runbook](https://evil.example/x)"},
		{"![pixel](https://evil.example/p.png)", "![pixel](https://evil.example/p.png)"},
		{"<a href='https://evil.example'>click</a>", "<a href='https://evil.example'>click</a>"},
		{"<https://evil.example/auto>", "<https://evil.example/auto>"},
		{"# not a heading **nor bold** _nor this_ `nor code`", "# not a heading **nor bold** _nor this_ `nor code`"},
		{"bare https://evil.example/y and www.evil.example", "bare https://evil.example/y and www.evil.example"},
		{"a | b \\| c", "a | b \\| c"},
	}
	for _, theme := range []string{themes.Dark, themes.Mono} {
		th := themes.MustGet(theme)
		for _, c := range cases {
			d := NewDetail(th, nil)
			d.SetSize(200, 10)
			d.SetMarkdown("| field | value |\n|---|---|\n| comment | " + EscapeMarkdown(c.in) + " |\n\n> " + EscapeMarkdown(c.in) + "\n")
			out := d.View()
			assert.NotContains(t, out, "\x1b]", "%s: %q rendered a hyperlink or other OSC", theme, c.in)
			plain := ansi.Strip(out)
			assert.Equal(t, 2, strings.Count(plain, c.shown), "%s: %q shown as %q", theme, c.in, plain)
		}
	}
}
