package components

import (
	"strings"
	"testing"

	"github.com/dbadmin-tui/dbadmin-tui/keymap"
)

func TestRenderHelpGreysDisabledWithReason(t *testing.T) {
	km := keymap.Default()
	if err := km.Disable("alerts.ack", "needs PROJECT_OWNER"); err != nil {
		t.Fatal(err)
	}
	th := dark()
	v := RenderHelp(km.HelpGroups(keymap.ScopeAlerts), th, 200, "")
	p := plain(v)
	mustContain(t, p, "acknowledge (needs PROJECT_OWNER)")
	mustContain(t, p, "Alerts")
	mustContain(t, p, "Global")
	grey := th.Disabled.Render("X")
	mustContain(t, v, grey[:strings.IndexByte(grey, 'X')]+"a      acknowledge")

	v = plain(RenderHelp(km.HelpGroups(keymap.ScopeBackups), th, 40, "snap"))
	mustContain(t, v, "take snapshot")
	mustContain(t, v, "delete snapshot !")
	mustNotContain(t, v, "quit")
	mustContain(t, plain(RenderHelp(km.HelpGroups(keymap.ScopeBackups), th, 40, "zzzz")), "no key matches")
}
