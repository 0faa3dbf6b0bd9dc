package e2e

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// TestSettingsToggleDNSAndEditAuditFilter drives the settings pane on the
// demo: custom DNS off (asked, then confirmed), the audit filter replaced
// in $EDITOR (a script) and saved after its confirmation. The demo's own
// embedded server is then asked directly whether both changed.
func TestSettingsToggleDNSAndEditAuditFilter(t *testing.T) {
	RequireTmux(t)
	editor := filepath.Join(repoRoot(), "e2e", "testdata", "settings_editor.sh")
	s := StartDemo(t, 130, 36, []string{"EDITOR=" + editor, "VISUAL="},
		"--demo-role", "project-owner", "--project", "payments", "--pane", "settings")
	s.WaitFor("CLOUD PROVIDER ACCESS ROLES (4)", wait)

	s.SendKeys("d")
	s.WaitFor("Turn custom DNS for AWS off?", wait)
	s.WaitFor("private-IP", wait) // the note is on the pane too
	s.SendKeys("y")
	s.WaitFor("custom DNS for AWS turned off", wait)

	s.SendKeys("e")
	s.WaitFor("Save the audit filter?", wait)
	s.WaitFor(`{"atype":"authCheck","param.command"`, wait)
	s.SendKeys("y")
	s.WaitFor("audit filter saved", wait)
	s.SendKeys("r")
	s.WaitFor(`FILTER_JSON {"atype":"authCheck"`, wait)

	// Ask the demo's server itself, with another identity.
	c := s.DemoAPI()
	ctx := context.Background()
	dns, err := c.Settings().CustomDNS(ctx, apisim.DemoPaymentsID)
	if err != nil {
		t.Fatal(err)
	}
	if dns.Enabled {
		t.Errorf("custom DNS still on in apisim")
	}
	audit, err := c.Settings().AuditLog(ctx, apisim.DemoPaymentsID)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"atype":"authCheck","param.command":{"$in":["dropDatabase","dropCollection"]}}`
	if audit.AuditFilter != want || audit.ConfigurationType != apiclient.AuditFilterJSON || !audit.Enabled {
		t.Errorf("apisim auditing = %+v, want filter %s, FILTER_JSON, still enabled", audit, want)
	}

	s.SendKeys("q")
	s.WaitExit(wait)
}
