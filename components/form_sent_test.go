package components

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dbadmin-tui/dbadmin-tui/themes"
)

func typeInto(f Form, s string) Form {
	for _, r := range s {
		k := tea.KeyPressMsg{Code: r, Text: string(r)}
		if r == ' ' {
			k = tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
		}
		f, _ = f.Update(k)
	}
	return f
}

// A radio with a text that selects one of its choices: text typed on the
// radio goes to that text (and selects its choice), never moves the choice
// while the text shows; a choice moved away from the text's says on screen
// that the text is not sent; a live line states what would be sent.
func TestFormTextTypedOnARadioIsWhatIsSent(t *testing.T) {
	th := themes.Resolve("mono", true, true)
	fields := []Field{
		{Key: "until", Label: "Until", Kind: FieldChoice, Choices: []string{"1h", "until…", "forever"}},
		{Key: "at", Label: "At", Placeholder: "2026-01-01 00:00", Selects: &Selects{Key: "until", Choice: "until…"},
			Live: func(v FormValues) string { return "sends " + v["until"] + " " + v["at"] }},
	}
	f := NewForm("t", "Ack", fields, nil, th, nil)
	if view := ansi.Strip(f.View()); !strings.Contains(view, "e.g. 2026-01-01 00:00") || !strings.Contains(view, "sends 1h") {
		t.Fatalf("the placeholder is not marked as an example, or no live line:\n%s", view)
	}
	if v := f.Values()["at"]; v != "" {
		t.Fatalf("the placeholder is a value: %q", v)
	}
	// On the radio, a date typed: it lands in At and selects until….
	f = typeInto(f, "2026-11-28 09:00")
	if v := f.Values(); v["until"] != "until…" || v["at"] != "2026-11-28 09:00" {
		t.Fatalf("typed on the radio: %v", v)
	}
	if view := ansi.Strip(f.View()); !strings.Contains(view, "sends until… 2026-11-28 09:00") {
		t.Fatalf("the live line does not say what is sent:\n%s", view)
	}
	// Back on the radio, space moves the choice on: the date is said not
	// to be sent, and the live line says forever.
	f, _ = f.Update(tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift})
	f, _ = f.Update(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
	view := ansi.Strip(f.View())
	if f.Values()["until"] != "forever" || !strings.Contains(view, "not sent: forever is selected") || !strings.Contains(view, "sends forever") {
		t.Fatalf("a date on screen, forever chosen, and nothing says so:\n%s", view)
	}
	// Typing on the radio again goes to the field (appended: nothing lost).
	f = typeInto(f, "x")
	if v := f.Values(); v["until"] != "until…" || v["at"] != "2026-11-28 09:00x" || f.Focused() != 1 {
		t.Fatalf("typed on the radio: %v focus %d", v, f.Focused())
	}
}
