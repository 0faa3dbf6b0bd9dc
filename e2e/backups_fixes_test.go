package e2e

import (
	"strings"
	"testing"
)

// TestBackupsComplianceAndReadOnlyOnTheDemo walks the Backups defects a
// tester met, on the real binary: the demo's compliance policy keeps
// on-demand snapshots 3 days, so `d` on one a few minutes old is refused
// with until when (the hint line never offered it) and nothing is sent;
// `e` shows the date each length gives, the ones below the policy greyed;
// `s` outside the Schedule view says where it works; after :ro the hint
// line offers no write.
func TestBackupsComplianceAndReadOnlyOnTheDemo(t *testing.T) {
	RequireTmux(t)
	s := StartDemo(t, 160, 44, nil, "--demo-speed", "30", "--project", "payments", "--pane", "backups")
	s.pickPaymentsRSBackups()

	s.SendKeys("n")
	s.WaitFor("On-demand snapshot of payments-rs", wait)
	s.SendKeys("e2e-kept", "Enter") // the retention starts at the policy's 3 days
	s.WaitGone("On-demand snapshot of payments-rs", wait)
	s.waitUntil(func(screen string) bool {
		return rowWith(screen, "onDemand", "completed", "e2e-kept") && !strings.Contains(screen, "watching")
	}, wait, "the on-demand snapshot completed")

	s.SendKeys("g") // the newest: the top row
	screen := s.waitUntil(func(screen string) bool {
		return rowWith(screen, "▸", "e2e-kept") && strings.Contains(screen, "e expiration")
	}, wait, "the cursor on the new snapshot")
	if hint := lineWith(screen, "e expiration"); strings.Contains(hint, "d delete") {
		t.Fatalf("the hint line offers d on a snapshot the policy keeps:\n%s", hint)
	}
	s.SendKeys("d")
	s.WaitFor("by the backup compliance policy (on-demand snapshots at least 3 days)", wait)
	if strings.Contains(s.Capture(), "Delete snapshot") {
		t.Fatal("the delete question opened")
	}

	s.SendKeys("e")
	s.WaitFor("Expiration of snapshot", wait)
	screen = s.WaitFor("The compliance policy keeps it until", wait)
	for _, want := range []string{"1 day", "before the compliance policy's minimum", "1 week   expires"} {
		if !strings.Contains(screen, want) {
			t.Fatalf("the expiration form lacks %q:\n%s", want, screen)
		}
	}
	s.SendKeys("Escape")
	s.WaitGone("Expiration of snapshot", wait)

	s.SendKeys("s")
	s.WaitFor("edit schedule: only in the Schedule view (H)", wait)

	s.SendKeys(":", "ro", "Enter")
	s.WaitFor("READ-ONLY", wait)
	s.waitUntil(func(screen string) bool {
		hint := lineWith(screen, "mongod")
		return hint != "" && !strings.Contains(hint, "n snapshot") && !strings.Contains(hint, "e expiration")
	}, wait, "the hint line without writes in read-only mode")

	if w := s.SimWrites("/snapshots/"); len(w) != 0 {
		t.Fatalf("a write to a snapshot reached the server: %v", w)
	}
	s.SendKeys("q")
	s.WaitExit(wait)
}

// lineWith is the first screen line holding part, or "".
func lineWith(screen, part string) string {
	for _, line := range strings.Split(screen, "\n") {
		if strings.Contains(line, part) {
			return line
		}
	}
	return ""
}
