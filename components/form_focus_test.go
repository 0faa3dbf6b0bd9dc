package components

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/themes"
)

func TestFormStartsInTheFieldMarkedFocus(t *testing.T) {
	th := themes.Resolve("mono", true, true)
	fields := []Field{
		{Key: "until", Kind: FieldChoice, Choices: []string{"1h", "4h"}},
		{Key: "comment", Kind: FieldText, CharLimit: 200, Focus: true},
	}
	f := NewForm("ack", "Acknowledge", fields, nil, th, nil)
	if f.Focused() != 1 {
		t.Fatalf("focused field %d, want the comment (1)", f.Focused())
	}
	f, _ = f.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
	if got := f.Values(); got["comment"] != "x" || got["until"] != "1h" {
		t.Fatalf("typing went to the wrong field: %v", got)
	}
	// Without Focus the first field has the cursor, as before.
	fields[1].Focus = false
	if f := NewForm("ack", "Acknowledge", fields, nil, th, nil); f.Focused() != 0 {
		t.Fatalf("focused field %d, want 0", f.Focused())
	}
}

// A hint wider than the dialog wraps: its last words stay on screen.
func TestFormHintWraps(t *testing.T) {
	th := themes.Resolve("mono", true, true)
	hint := "matchers: field operator value; e.g. HOSTNAME EQUALS shard-00 and TYPE_NAME STARTS_WITH REPLICA"
	f := NewForm("cfg", "Alert configuration", []Field{{Key: "m", Label: "Matchers", Kind: FieldText, Hint: hint}}, nil, th, nil)
	f.SetSize(60, 24)
	v := plain(f.View())
	for _, w := range []string{"matchers:", "HOSTNAME", "STARTS_WITH", "REPLICA"} {
		if !strings.Contains(v, w) {
			t.Fatalf("hint word %q not on screen:\n%s", w, v)
		}
	}
}
