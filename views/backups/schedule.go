// The backup schedule: its text and its edit.

package backups

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

func (p *Pane) scheduleText() string {
	d := p.data
	switch {
	case d.Route != routeCluster:
		return "Backup schedules are managed for dedicated clusters; " + p.cluster.Kind.String() + " deployments take daily snapshots on the service's own schedule."
	case d.SchedErr != nil:
		if why, ok := views.NotVisible(d.SchedErr); ok {
			return "The backup schedule: " + why + "."
		}
		return "The schedule could not be read: " + views.ErrText(d.SchedErr)
	case d.Schedule == nil:
		return "loading…"
	}
	s := d.Schedule
	var b strings.Builder
	fmt.Fprintf(&b, "Backup schedule of %s\n\n", components.Sanitize(s.ClusterName))
	fmt.Fprintf(&b, "  Next snapshot        %s UTC\n", fmtTime(s.NextSnapshot))
	fmt.Fprintf(&b, "  Reference time       %02d:%02d UTC\n", deref(s.ReferenceHourOfDay), deref(s.ReferenceMinuteOfHour))
	fmt.Fprintf(&b, "  Restore window       %d days\n", deref(s.RestoreWindowDays))
	auto := "off"
	if s.AutoExportEnabled != nil && *s.AutoExportEnabled {
		auto = "on"
		if s.Export != nil {
			auto += fmt.Sprintf(" (%s to %s)", s.Export.FrequencyType, components.Sanitize(p.bucketName(s.Export.ExportBucketID)))
		}
	}
	fmt.Fprintf(&b, "  Auto export          %s\n\n", auto)
	b.WriteString("Policy items\n")
	n := 0
	for _, pol := range s.Policies {
		for _, it := range pol.PolicyItems {
			n++
			fmt.Fprintf(&b, "  %-8s every %-10s keep %d %s\n", it.FrequencyType, interval(it), it.RetentionValue, it.RetentionUnit)
		}
	}
	if n == 0 {
		b.WriteString("  none: no scheduled snapshots are taken\n")
	}
	b.WriteString("\nCopy settings\n")
	if len(s.CopySettings) == 0 {
		b.WriteString("  none: snapshots stay in the cluster's region\n")
	}
	for _, c := range s.CopySettings {
		oplogs := "no"
		if c.ShouldCopyOplogs != nil && *c.ShouldCopyOplogs {
			oplogs = "yes"
		}
		fmt.Fprintf(&b, "  %s %s  frequencies %s  oplogs %s\n", components.Sanitize(c.CloudProvider), components.Sanitize(c.RegionName),
			components.Sanitize(strings.Join(c.Frequencies, ",")), oplogs)
	}
	for _, e := range s.ExtraRetentionSettings {
		fmt.Fprintf(&b, "  extra retention: %s kept %d days\n", components.Sanitize(e.FrequencyType), e.RetentionDays)
	}
	return b.String()
}

func interval(it apiclient.PolicyItem) string {
	switch it.FrequencyType {
	case apiclient.FrequencyHourly:
		return fmt.Sprintf("%dh", it.FrequencyInterval)
	case apiclient.FrequencyDaily:
		if it.FrequencyInterval == 1 {
			return "day"
		}
		return fmt.Sprintf("%d days", it.FrequencyInterval)
	case apiclient.FrequencyWeekly:
		return fmt.Sprintf("day %d", it.FrequencyInterval)
	case apiclient.FrequencyMonthly:
		if it.FrequencyInterval == 40 {
			return "last day"
		}
		return fmt.Sprintf("day %d", it.FrequencyInterval)
	}
	return fmt.Sprintf("%d", it.FrequencyInterval)
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

func (p *Pane) askSchedule() tea.Cmd {
	s := p.data.Schedule // refusal made sure it is loaded
	fields := []components.Field{
		{Key: "hour", Label: "Reference hour (UTC, 0-23)", Value: strconv.Itoa(deref(s.ReferenceHourOfDay)), Validate: intRange(0, 23)},
		{Key: "minute", Label: "Reference minute (0-59)", Value: strconv.Itoa(deref(s.ReferenceMinuteOfHour)), Validate: intRange(0, 59)},
		{Key: "window", Label: "Restore window (days)", Value: strconv.Itoa(deref(s.RestoreWindowDays)), Validate: intRange(1, 365)},
	}
	for i, it := range policyItems(s) {
		fields = append(fields, components.Field{Key: fmt.Sprintf("item%d", i),
			Label: fmt.Sprintf("%s every %s: keep", it.FrequencyType, interval(it)),
			Value: fmt.Sprintf("%d %s", it.RetentionValue, it.RetentionUnit), Validate: p.retentionField(i)})
	}
	fields = append(fields, components.Field{Key: "updateSnapshots", Label: "Apply retention changes to existing snapshots", Kind: components.FieldToggle})
	p.form(formSchedule, "Backup schedule of "+p.cluster.Name, fields, views.ActionMsg{Name: actEditSchedule})
	return nil
}

func policyItems(s *apiclient.BackupSchedule) []apiclient.PolicyItem {
	if len(s.Policies) == 0 {
		return nil
	}
	return s.Policies[0].PolicyItems
}

func intRange(lo, hi int) func(string, components.FormValues) error {
	return func(v string, _ components.FormValues) error {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < lo || n > hi {
			return fmt.Errorf("a whole number from %d to %d", lo, hi)
		}
		return nil
	}
}

// parseRetention reads "7 days", "4 weeks".
func parseRetention(v string) (int, apiclient.RetentionUnit, error) {
	f := strings.Fields(strings.ToLower(v))
	if len(f) != 2 {
		return 0, "", errors.New(`write it as "<number> days|weeks|months|years"`)
	}
	n, err := strconv.Atoi(f[0])
	if err != nil || n < 1 {
		return 0, "", errors.New("the number must be at least 1")
	}
	u := apiclient.RetentionUnit(strings.TrimSuffix(f[1], "s") + "s")
	switch u {
	case apiclient.RetentionDays, apiclient.RetentionWeeks, apiclient.RetentionMonths, apiclient.RetentionYears:
		return n, u, nil
	}
	return 0, "", errors.New("the unit is days, weeks, months or years")
}

// retentionField checks one item and, across the form, that less frequent
// items keep snapshots at least as long as more frequent ones.
func (p *Pane) retentionField(i int) func(string, components.FormValues) error {
	return func(v string, all components.FormValues) error {
		if _, _, err := parseRetention(v); err != nil {
			return err
		}
		items, err := p.itemsFrom(all)
		if err != nil {
			return nil // the other field shows its own error
		}
		var ve *apiclient.ValidationError
		if err := apiclient.RetentionOrder("policies[0].policyItems", items); errors.As(err, &ve) &&
			strings.HasPrefix(ve.Field, fmt.Sprintf("policies[0].policyItems[%d]", i)) {
			return errors.New(ve.Reason)
		}
		return nil
	}
}

func (p *Pane) itemsFrom(v components.FormValues) ([]apiclient.PolicyItem, error) {
	if p.data.Schedule == nil {
		return nil, errors.New("no schedule")
	}
	var out []apiclient.PolicyItem
	for i, it := range policyItems(p.data.Schedule) {
		n, u, err := parseRetention(v[fmt.Sprintf("item%d", i)])
		if err != nil {
			return nil, err
		}
		it.RetentionValue, it.RetentionUnit = n, u
		out = append(out, it)
	}
	return out, nil
}

// updateSchedule sends only what changed (a partial update).
func (p *Pane) updateSchedule(msg views.ActionMsg) tea.Cmd {
	s := p.data.Schedule
	if s == nil {
		p.FormDone(msg.Form, errors.New("the schedule is not loaded"))
		return nil
	}
	v := msg.Values
	var up apiclient.BackupSchedule
	setInt := func(dst **int, cur *int, text string) {
		n, _ := strconv.Atoi(strings.TrimSpace(text))
		if cur == nil || *cur != n {
			*dst = &n
		}
	}
	setInt(&up.ReferenceHourOfDay, s.ReferenceHourOfDay, v["hour"])
	setInt(&up.ReferenceMinuteOfHour, s.ReferenceMinuteOfHour, v["minute"])
	setInt(&up.RestoreWindowDays, s.RestoreWindowDays, v["window"])
	items, err := p.itemsFrom(v)
	if err != nil {
		p.FormDone(msg.Form, err)
		return nil
	}
	changed := false
	for i, it := range policyItems(s) {
		if items[i].RetentionValue != it.RetentionValue || items[i].RetentionUnit != it.RetentionUnit {
			changed = true
		}
	}
	if changed {
		up.Policies = []apiclient.BackupPolicy{{ID: s.Policies[0].ID, PolicyItems: items}}
		if v.Bool("updateSnapshots") {
			t := true
			up.UpdateSnapshots = &t
		}
	}
	if up.ReferenceHourOfDay == nil && up.ReferenceMinuteOfHour == nil && up.RestoreWindowDays == nil && up.Policies == nil {
		p.FormDone(msg.Form, nil)
		p.Toast("schedule unchanged: nothing sent", false)
		return nil
	}
	client, gid, cl := p.Ctx.Client, p.Ctx.GroupID, *p.cluster
	return p.write(msg.Form, "updating the schedule of "+cl.Name, func(ctx context.Context) (writeResult, error) {
		if _, err := client.Backups().UpdateSchedule(ctx, gid, cl.Name, up); err != nil {
			return writeResult{}, err
		}
		return writeResult{Done: "backup schedule of " + cl.Name + " updated"}, nil
	})
}
