// The project's backup compliance policy: its text and what it keeps.

package backups

import (
	"fmt"
	"strings"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

func (p *Pane) complianceText() string {
	d := p.data
	switch {
	case d.PolErr != nil:
		if why, ok := views.NotVisible(d.PolErr); ok {
			return "The backup compliance policy: " + why + "."
		}
		return "The compliance policy could not be read: " + views.ErrText(d.PolErr)
	case d.Policy == nil:
		return "loading…"
	case d.Policy.State == "" && d.Policy.AuthorizedEmail == "":
		return "No backup compliance policy is set for this project."
	}
	pol := d.Policy
	onOff := func(b bool) string {
		if b {
			return "on"
		}
		return "off"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Backup compliance policy of %s\n\n", components.Sanitize(p.Ctx.ProjectName))
	state := string(pol.State)
	if pol.State != apiclient.ComplianceActive {
		state += " (being applied)"
	}
	fmt.Fprintf(&b, "  State                %s\n", state)
	fmt.Fprintf(&b, "  Authorized by        %s %s <%s>\n", components.Sanitize(pol.AuthorizedUserFirstName),
		components.Sanitize(pol.AuthorizedUserLastName), components.Sanitize(pol.AuthorizedEmail))
	fmt.Fprintf(&b, "  Copy protection      %s\n", onOff(pol.CopyProtectionEnabled))
	fmt.Fprintf(&b, "  Encryption at rest   %s\n", onOff(pol.EncryptionAtRestEnabled))
	fmt.Fprintf(&b, "  Point in time        %s (restore window %d days)\n", onOff(pol.PitEnabled), pol.RestoreWindowDays)
	if it := pol.OnDemandPolicyItem; it != nil {
		fmt.Fprintf(&b, "  On-demand snapshots  kept at least %d %s\n", it.RetentionValue, it.RetentionUnit)
	}
	b.WriteString("\nScheduled policy items (minimums every cluster must keep)\n")
	for _, it := range pol.ScheduledPolicyItems {
		fmt.Fprintf(&b, "  %-8s every %-10s keep %d %s\n", it.FrequencyType, interval(it), it.RetentionValue, it.RetentionUnit)
	}
	fmt.Fprintf(&b, "\n  Updated %s by %s\n", fmtTime(pol.UpdatedDate), components.Sanitize(pol.UpdatedUser))
	return b.String()
}

// keptHere is why the snapshot under the cursor cannot be deleted yet:
// the compliance policy still keeps it; "" otherwise.
func (p *Pane) keptHere() string {
	if p.cluster == nil || p.view != viewSnapshots {
		return ""
	}
	s, ok := p.selectedSnap()
	if !ok || !s.Done {
		return ""
	}
	return p.keptBy(s)
}

// keptBy says until when and why the compliance policy keeps snapshot s
// from being deleted; "" when it does not (any more).
func (p *Pane) keptBy(s snapRow) string {
	until, rule, ok := policyKeeps(p.data.Policy, s)
	if !ok || !p.Ctx.Now().Before(until) {
		return ""
	}
	return fmt.Sprintf("snapshot %s is kept until %s UTC by the backup compliance policy (%s)", short(s.ID), fmtTime(&until), rule)
}

// policyKeeps is until when the project's backup compliance policy keeps
// snapshot s (its creation plus the minimum of the item for its kind: the
// on-demand item, or the scheduled item of its frequency) and that minimum
// in words ("daily snapshots at least 7 days"); ok is false when no policy
// or item covers it. The service refuses to delete it, or to set it to
// expire, before then.
func policyKeeps(pol *apiclient.CompliancePolicy, s snapRow) (until time.Time, rule string, ok bool) {
	if pol == nil || s.Created == nil {
		return time.Time{}, "", false
	}
	var it *apiclient.PolicyItem
	what := "on-demand"
	if s.Type == string(apiclient.SnapshotOnDemand) || s.Frequency == string(apiclient.FrequencyOnDemand) {
		it = pol.OnDemandPolicyItem
	} else {
		for i := range pol.ScheduledPolicyItems {
			if string(pol.ScheduledPolicyItems[i].FrequencyType) == s.Frequency {
				it, what = &pol.ScheduledPolicyItems[i], s.Frequency
			}
		}
	}
	if it == nil || it.RetentionValue < 1 {
		return time.Time{}, "", false
	}
	return s.Created.AddDate(0, 0, it.RetentionUnit.Days(it.RetentionValue)),
		fmt.Sprintf("%s snapshots at least %d %s", what, it.RetentionValue, it.RetentionUnit), true
}
