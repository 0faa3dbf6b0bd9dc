package apiclient

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/limits"
)

// The backup schedule: policy items, copies to other regions, auto export.

// Frequency is a policy item's or snapshot's frequencyType (lower case).
type Frequency string

const (
	FrequencyHourly   Frequency = "hourly"
	FrequencyDaily    Frequency = "daily"
	FrequencyWeekly   Frequency = "weekly"
	FrequencyMonthly  Frequency = "monthly"
	FrequencyYearly   Frequency = "yearly"
	FrequencyOnDemand Frequency = "ondemand"
)

// RetentionUnit is a policy item's retentionUnit (lower case).
type RetentionUnit string

const (
	RetentionDays   RetentionUnit = "days"
	RetentionWeeks  RetentionUnit = "weeks"
	RetentionMonths RetentionUnit = "months"
	RetentionYears  RetentionUnit = "years"
)

// BackupSchedule is DiskBackupSnapshotSchedule20240805. It is both the answer
// and the PATCH body: on update only the members set are sent, so every
// optional member is a pointer or an omitted-when-empty list.
type BackupSchedule struct {
	ClusterID                         string             `json:"clusterId,omitempty"`
	ClusterName                       string             `json:"clusterName,omitempty"`
	NextSnapshot                      *time.Time         `json:"nextSnapshot,omitempty"`
	ReferenceHourOfDay                *int               `json:"referenceHourOfDay,omitempty"`
	ReferenceMinuteOfHour             *int               `json:"referenceMinuteOfHour,omitempty"`
	RestoreWindowDays                 *int               `json:"restoreWindowDays,omitempty"`
	AutoExportEnabled                 *bool              `json:"autoExportEnabled,omitempty"`
	Export                            *AutoExport        `json:"export,omitempty"`
	UseOrgAndGroupNamesInExportPrefix *bool              `json:"useOrgAndGroupNamesInExportPrefix,omitempty"`
	Policies                          []BackupPolicy     `json:"policies,omitempty"`
	CopySettings                      []CopySetting      `json:"copySettings,omitempty"`
	ExtraRetentionSettings            []ExtraRetention   `json:"extraRetentionSettings,omitempty"`
	AutoCopySettingsEnabled           *bool              `json:"autoCopySettingsEnabled,omitempty"`
	CopyPolicyItemsEnabled            *bool              `json:"copyPolicyItemsEnabled,omitempty"`
	UpdateSnapshots                   *bool              `json:"updateSnapshots,omitempty"`
	DeleteSnapshots                   *bool              `json:"deleteSnapshots,omitempty"`
	UpdateCopySnapshots               *bool              `json:"updateCopySnapshots,omitempty"`
	DeleteCopySnapshots               *bool              `json:"deleteCopySnapshots,omitempty"`
	DeleteCopiedBackups               []DeleteCopiedCopy `json:"deleteCopiedBackups,omitempty"`
	Links                             []Link             `json:"links,omitempty"`
}

// Validate checks an update body locally.
func (s BackupSchedule) Validate() error {
	if err := limits.SchedulePolicies(len(s.Policies)); err != nil {
		return err
	}
	if s.RestoreWindowDays != nil && *s.RestoreWindowDays < 1 {
		return invalidField("restoreWindowDays", "must be positive, got %d", *s.RestoreWindowDays)
	}
	if h := s.ReferenceHourOfDay; h != nil && (*h < 0 || *h > 23) {
		return invalidField("referenceHourOfDay", "must be 0..23, got %d", *h)
	}
	if m := s.ReferenceMinuteOfHour; m != nil && (*m < 0 || *m > 59) {
		return invalidField("referenceMinuteOfHour", "must be 0..59, got %d", *m)
	}
	for _, p := range s.Policies {
		for i, it := range p.PolicyItems {
			if err := it.validate(fmt.Sprintf("policies[0].policyItems[%d]", i)); err != nil {
				return err
			}
		}
		if err := RetentionOrder("policies[0].policyItems", p.PolicyItems); err != nil {
			return err
		}
	}
	return nil
}

// Days is roughly how long a retention keeps a snapshot, for comparisons.
func (u RetentionUnit) Days(n int) int { return limits.RetentionDays(string(u), n) }

// RetentionOrder checks the spec's rule across policy items: a less frequent
// item keeps its snapshots at least as long as every more frequent one.
// field names the list in the error ("policies[0].policyItems").
func RetentionOrder(field string, items []PolicyItem) error {
	retentions := make([]limits.PolicyRetention, len(items))
	for i, it := range items {
		retentions[i] = limits.PolicyRetention{Frequency: string(it.FrequencyType), Unit: string(it.RetentionUnit), Value: it.RetentionValue}
	}
	return limits.RetentionOrder(field, retentions)
}

// AutoExport is the schedule's automatic export to a bucket.
type AutoExport struct {
	ExportBucketID string    `json:"exportBucketId,omitempty"`
	FrequencyType  Frequency `json:"frequencyType,omitempty"` // monthly, yearly
}

// BackupPolicy is a schedule's policy and its items.
type BackupPolicy struct {
	ID          string       `json:"id,omitempty"`
	PolicyItems []PolicyItem `json:"policyItems"`
}

// PolicyItem is one frequency and how long its snapshots are kept.
type PolicyItem struct {
	ID                string        `json:"id,omitempty"`
	FrequencyType     Frequency     `json:"frequencyType"`
	FrequencyInterval int           `json:"frequencyInterval"`
	RetentionUnit     RetentionUnit `json:"retentionUnit"`
	RetentionValue    int           `json:"retentionValue"`
}

func (p PolicyItem) validate(field string) error {
	switch p.RetentionUnit {
	case RetentionDays, RetentionWeeks, RetentionMonths, RetentionYears:
	default:
		return invalidField(field+".retentionUnit", "must be days, weeks, months or years, got %q", p.RetentionUnit)
	}
	if p.RetentionValue < 1 {
		return invalidField(field+".retentionValue", "must be at least 1, got %d", p.RetentionValue)
	}
	return nil
}

// CopySetting copies snapshots to another region.
type CopySetting struct {
	CloudProvider    string          `json:"cloudProvider,omitempty"`
	RegionName       string          `json:"regionName,omitempty"`
	ZoneID           string          `json:"zoneId"`
	ShouldCopyOplogs *bool           `json:"shouldCopyOplogs,omitempty"`
	Frequencies      []string        `json:"frequencies,omitempty"` // deprecated: HOURLY, DAILY, ...
	CopyPolicyItems  json.RawMessage `json:"copyPolicyItems,omitempty"`
}

// ExtraRetention keeps snapshots of one frequency longer.
type ExtraRetention struct {
	FrequencyType string `json:"frequencyType"` // HOURLY, DAILY, WEEKLY, MONTHLY, YEARLY, ON_DEMAND
	RetentionDays int    `json:"retentionDays"`
}

// DeleteCopiedCopy names a region whose copied snapshots an update deletes.
type DeleteCopiedCopy struct {
	CloudProvider string `json:"cloudProvider,omitempty"`
	RegionName    string `json:"regionName,omitempty"`
	ZoneID        string `json:"zoneId,omitempty"`
}

// Schedule fetches a cluster's backup schedule.
func (s BackupsService) Schedule(ctx context.Context, groupID, clusterName string) (*BackupSchedule, error) {
	return getJSON[BackupSchedule](ctx, s.c, "getBackupSchedule", Request{Params: clusterParams(groupID, clusterName)})
}

// UpdateSchedule changes the members set in update (read-only ones are dropped).
func (s BackupsService) UpdateSchedule(ctx context.Context, groupID, clusterName string, update BackupSchedule) (*BackupSchedule, error) {
	update.ClusterID, update.ClusterName, update.NextSnapshot, update.Links = "", "", nil, nil
	return sendChecked[BackupSchedule](ctx, s.c, "update backup schedule", update.Validate(), "updateBackupSchedule", Request{Params: clusterParams(groupID, clusterName), Body: update})
}

// DeleteSchedules removes every policy item of a cluster's schedule and
// answers the emptied schedule.
func (s BackupsService) DeleteSchedules(ctx context.Context, groupID, clusterName string) (*BackupSchedule, error) {
	return getJSON[BackupSchedule](ctx, s.c, "deleteAllBackupSchedules", Request{Params: clusterParams(groupID, clusterName)})
}
