package e2e

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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
	s := Start(t, 130, 36, []string{"EDITOR=" + editor, "VISUAL="},
		"--demo", "--demo-role", "project-owner", "--project", "payments", "--pane", "settings")
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
	base := demoServer(t, s)
	c, err := apiclient.New(apiclient.Options{BaseURL: base, Service: "atlas", MaxRetries: -1,
		Auth: apiclient.DigestAuth("org-owner", "org-owner-secret")})
	if err != nil {
		t.Fatal(err)
	}
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

// demoServer finds the address the demo's embedded server listens on: the
// one listening TCP socket the program holds (Linux /proc).
func demoServer(t *testing.T, s *Session) string {
	t.Helper()
	out, err := s.tmux("display-message", "-p", "-t", s.name, "#{pane_pid}")
	if err != nil {
		t.Fatalf("pane pid: %v: %s", err, out)
	}
	pid := strings.TrimSpace(out)
	fds, err := os.ReadDir("/proc/" + pid + "/fd")
	if err != nil {
		t.Skipf("no /proc to find the demo server: %v", err)
	}
	inodes := map[string]bool{}
	for _, fd := range fds {
		link, err := os.Readlink(filepath.Join("/proc", pid, "fd", fd.Name()))
		if err == nil && strings.HasPrefix(link, "socket:[") {
			inodes[strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]")] = true
		}
	}
	f, err := os.Open("/proc/" + pid + "/net/tcp")
	if err != nil {
		t.Skipf("no /proc net table: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// sl local_address rem_address st ... inode
		fields := strings.Fields(sc.Text())
		if len(fields) < 10 || fields[3] != "0A" || !inodes[fields[9]] {
			continue
		}
		_, portHex, _ := strings.Cut(fields[1], ":")
		port, err := strconv.ParseUint(portHex, 16, 16)
		if err != nil {
			continue
		}
		return fmt.Sprintf("http://127.0.0.1:%d", port)
	}
	t.Fatalf("the demo (pid %s) holds no listening socket", pid)
	return ""
}
