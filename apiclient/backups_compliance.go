package apiclient

import (
	"context"
	"strconv"
	"time"
)

// Backups: the compliance policy (data protection settings).

// ComplianceState is the backup compliance policy's state.
type ComplianceState string

const (
	ComplianceActive    ComplianceState = "ACTIVE"
	ComplianceEnabling  ComplianceState = "ENABLING"
	ComplianceUpdating  ComplianceState = "UPDATING"
	ComplianceDisabling ComplianceState = "DISABLING"
)

// CompliancePolicy is DataProtectionSettings20231001.
type CompliancePolicy struct {
	ProjectID               string          `json:"projectId,omitempty"`
	AuthorizedEmail         string          `json:"authorizedEmail"`
	AuthorizedUserFirstName string          `json:"authorizedUserFirstName"`
	AuthorizedUserLastName  string          `json:"authorizedUserLastName"`
	CopyProtectionEnabled   bool            `json:"copyProtectionEnabled"`
	EncryptionAtRestEnabled bool            `json:"encryptionAtRestEnabled"`
	PitEnabled              bool            `json:"pitEnabled"`
	RestoreWindowDays       int             `json:"restoreWindowDays,omitempty"`
	OnDemandPolicyItem      *PolicyItem     `json:"onDemandPolicyItem,omitempty"`
	ScheduledPolicyItems    []PolicyItem    `json:"scheduledPolicyItems,omitempty"`
	State                   ComplianceState `json:"state,omitempty"`
	Deletable               bool            `json:"deletable,omitempty"`
	UpdatedDate             *time.Time      `json:"updatedDate,omitempty"`
	UpdatedUser             string          `json:"updatedUser,omitempty"`
}

// Validate checks an update body locally.
func (p CompliancePolicy) Validate() error {
	switch {
	case p.AuthorizedEmail == "":
		return invalidField("authorizedEmail", "required")
	case p.AuthorizedUserFirstName == "":
		return invalidField("authorizedUserFirstName", "required")
	case p.AuthorizedUserLastName == "":
		return invalidField("authorizedUserLastName", "required")
	case p.RestoreWindowDays < 0:
		return invalidField("restoreWindowDays", "must be positive, got %d", p.RestoreWindowDays)
	}
	return RetentionOrder("scheduledPolicyItems", p.ScheduledPolicyItems)
}

// writable drops the read-only members before an update.
func (p CompliancePolicy) writable() CompliancePolicy {
	p.State, p.Deletable, p.UpdatedDate, p.UpdatedUser = "", false, nil, ""
	return p
}

// CompliancePolicy fetches the project's backup compliance policy.
func (s BackupsService) CompliancePolicy(ctx context.Context, groupID string) (*CompliancePolicy, error) {
	return getJSON[CompliancePolicy](ctx, s.c, "getDataProtectionSettings", Request{Params: groupParams(groupID)})
}

// UpdateCompliancePolicy replaces the policy. overwriteBackupPolicies says
// whether non-complying cluster policies are overwritten; it is always sent.
func (s BackupsService) UpdateCompliancePolicy(ctx context.Context, groupID string, p CompliancePolicy, overwriteBackupPolicies bool) (*CompliancePolicy, error) {
	r := Request{
		Params: groupParams(groupID),
		Query:  queryOf("overwriteBackupPolicies", strconv.FormatBool(overwriteBackupPolicies)),
		Body:   p.writable(),
	}
	return sendChecked[CompliancePolicy](ctx, s.c, "update compliance policy", p.Validate(), "updateDataProtectionSettings", r)
}

// DisableCompliancePolicy turns the policy off.
func (s BackupsService) DisableCompliancePolicy(ctx context.Context, groupID string) error {
	return callNoBody(ctx, s.c, "disableDataProtectionSettings", Request{Params: groupParams(groupID)})
}
