package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// TestSnapshotRetentionDefaultsToTheComplianceMinimum: the demo's compliance
// policy keeps on-demand snapshots at least 3 days; the form starts there,
// and a snapshot taken with the defaults is sent once and kept 3 days.
func TestSnapshotRetentionDefaultsToTheComplianceMinimum(t *testing.T) {
	RequireTmux(t)
	s := StartDemo(t, 140, 40, nil, "--project", "payments", "--pane", "backups")
	s.pickPaymentsRSBackups()

	s.SendKeys("n")
	s.WaitFor("On-demand snapshot of payments-rs", wait)
	s.SendKeys("e2e-retention-default")
	s.waitUntil(func(screen string) bool {
		for _, line := range strings.Split(screen, "\n") {
			if strings.Contains(line, "Retention (days)") {
				return true
			}
		}
		return false
	}, wait, "the retention field")
	s.SendKeys("Enter")
	s.WaitGone("On-demand snapshot of payments-rs", wait)

	var posts int
	for k, n := range s.SimWrites("/snapshots") {
		if strings.HasPrefix(k, "POST ") {
			posts += n
		}
	}
	if posts != 1 {
		t.Fatalf("want one POST of a snapshot, got %v", s.SimWrites("/snapshots"))
	}
	snaps, err := s.DemoAPI().Backups().AllSnapshots(context.Background(), apisim.DemoPaymentsID, "payments-rs")
	if err != nil {
		t.Fatal(err)
	}
	for _, sn := range snaps {
		if sn.Description != "e2e-retention-default" {
			continue
		}
		if sn.ExpiresAt == nil {
			t.Fatalf("snapshot has no expiry: %+v", sn)
		}
		if kept := sn.ExpiresAt.Sub(sn.CreatedAt); kept < 3*24*time.Hour-time.Hour || kept > 3*24*time.Hour+time.Hour {
			t.Fatalf("snapshot kept %v, want the compliance minimum of 3 days", kept)
		}
		return
	}
	t.Fatal("apisim has no snapshot from the form")
}
