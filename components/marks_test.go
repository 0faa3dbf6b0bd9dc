package components

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func TestTableRangeMarkAndMarkVisible(t *testing.T) {
	tb := newAlertTable("a1", "a2", "a3", "a4", "a5")
	tb, _ = tb.Update(key("down"))  // a2
	tb, _ = tb.Update(key("space")) // marks a2, cursor a3
	tb, _ = tb.Update(key("down"))  // a4
	tb, _ = tb.Update(tea.KeyPressMsg{Code: tea.KeySpace, Mod: tea.ModCtrl})
	eq(t, "a2,a3,a4", join(tb.Marked()), "ctrl+space marks from the last mark to the cursor")

	tb.ClearMarks()
	tb.SetFilter("a1")
	tb, _ = tb.Update(tea.KeyPressMsg{Code: 'a', Mod: tea.ModCtrl})
	eq(t, "a1", join(tb.Marked()), "ctrl+a marks only what the filter shows")

	tb.SetFilter("")
	tb.ToggleMark("a5")
	tb.SetFilter("a5")
	eq(t, "a5", join(tb.MarkedVisible()))
	eq(t, "a1", join(tb.MarkedHidden()))
	tb, _ = tb.Update(tea.KeyPressMsg{Code: '\\', Mod: tea.ModCtrl})
	eq(t, 0, len(tb.Marked()), "ctrl+\\ clears every mark, hidden ones too")
}

func join(ids []string) string { return strings.Join(ids, ",") }
