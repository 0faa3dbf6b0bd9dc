package components

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/themes"
)

// A List choice field with reasons: nothing is selected at first, the form
// refuses to submit without a choice, the keys skip the greyed choices, and
// each greyed choice shows its reason.
func TestFormChoiceListSkipsGreyedChoices(t *testing.T) {
	th := themes.Resolve("mono", true, true)
	fields := []Field{{Key: "cluster", Kind: FieldChoice, List: true, None: true,
		Choices: []string{"self", "old", "good", "sharded", "other"},
		Details: []string{"7.0", "4.0", "7.0", "7.0", "8.0"},
		Reasons: []string{"the snapshot's own cluster", "MongoDB 4.0 is older", "", "sharded cluster", ""}}}
	f := NewForm("t", "Target", fields, nil, th, nil)
	if v := f.Values()["cluster"]; v != "" {
		t.Fatalf("preselected %q", v)
	}
	var cmd tea.Cmd
	f, cmd = f.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if cmd != nil {
		t.Fatal("submitted with nothing chosen")
	}
	if view := f.View(); !strings.Contains(view, "choose one") || !strings.Contains(view, "MongoDB 4.0 is older") {
		t.Fatalf("no refusal or reason on screen:\n%s", view)
	}
	var seen []string
	for range 6 {
		f, _ = f.Update(tea.KeyPressMsg{Code: tea.KeyDown})
		seen = append(seen, f.Values()["cluster"])
	}
	for _, s := range seen {
		if s != "good" && s != "other" {
			t.Fatalf("down selected %q (all: %v)", s, seen)
		}
	}
	for range 3 {
		f, _ = f.Update(tea.KeyPressMsg{Code: tea.KeyRight})
		if v := f.Values()["cluster"]; v != "good" && v != "other" {
			t.Fatalf("right selected %q", v)
		}
	}
	f, cmd = f.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if cmd == nil {
		t.Fatal("a valid choice did not submit")
	}
	if sub, ok := cmd().(FormSubmitMsg); !ok || (sub.Values["cluster"] != "good" && sub.Values["cluster"] != "other") {
		t.Fatalf("submitted %#v", sub)
	}
}
