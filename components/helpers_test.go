package components

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dbadmin-tui/dbadmin-tui/keymap/keytest"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
)

// key is a press of the named key.
func key(s string) tea.KeyPressMsg { return keytest.Press(s) }

func typeText(s string) []tea.Msg {
	var out []tea.Msg
	for _, r := range s {
		if r == ' ' {
			out = append(out, key("space"))
			continue
		}
		out = append(out, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return out
}

func dark() themes.Theme { return themes.MustGet(themes.Dark) }

func plain(s string) string { return ansi.Strip(s) }

func mustContain(t *testing.T, s, sub string) {
	t.Helper()
	if !strings.Contains(s, sub) {
		t.Fatalf("%q\ndoes not contain %q", s, sub)
	}
}

func mustNotContain(t *testing.T, s, sub string) {
	t.Helper()
	if strings.Contains(s, sub) {
		t.Fatalf("%q\ncontains %q", s, sub)
	}
}

func eq[T comparable](t *testing.T, want, got T, what ...any) {
	t.Helper()
	if want != got {
		t.Fatalf("%s: want %v, got %v", fmt.Sprint(what...), want, got)
	}
}
