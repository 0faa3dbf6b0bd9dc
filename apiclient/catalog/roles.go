package catalog

// Role is a role name as the Administration API spells it in apiKey.roles[].roleName.
type Role string

// Organization roles.
const (
	OrgOwner                 Role = "ORG_OWNER"
	OrgMember                Role = "ORG_MEMBER"
	OrgReadOnly              Role = "ORG_READ_ONLY"
	OrgGroupCreator          Role = "ORG_GROUP_CREATOR"
	OrgBillingAdmin          Role = "ORG_BILLING_ADMIN"
	OrgBillingReadOnly       Role = "ORG_BILLING_READ_ONLY"
	OrgStreamProcessingAdmin Role = "ORG_STREAM_PROCESSING_ADMIN"
)

// Project (group) roles. The fine-grained ones (alerts manager, backup
// creator, export and recovery operators, search index editor, cluster log
// viewer) are the newer roles the real service lists next to the spec's.
const (
	GroupOwner                  Role = "GROUP_OWNER"
	GroupReadOnly               Role = "GROUP_READ_ONLY"
	GroupClusterManager         Role = "GROUP_CLUSTER_MANAGER"
	GroupServiceAdmin           Role = "GROUP_ATLAS_ADMIN"
	GroupMonitoringAdmin        Role = "GROUP_MONITORING_ADMIN"
	GroupDatabaseAccessAdmin    Role = "GROUP_DATABASE_ACCESS_ADMIN"
	GroupDataAccessAdmin        Role = "GROUP_DATA_ACCESS_ADMIN"
	GroupDataAccessReadWrite    Role = "GROUP_DATA_ACCESS_READ_WRITE"
	GroupDataAccessReadOnly     Role = "GROUP_DATA_ACCESS_READ_ONLY"
	GroupBackupManager          Role = "GROUP_BACKUP_MANAGER"
	GroupBackupCreator          Role = "GROUP_BACKUP_CREATOR"
	GroupBackupExportOperator   Role = "GROUP_BACKUP_EXPORT_OPERATOR"
	GroupBackupRecoveryOperator Role = "GROUP_BACKUP_RECOVERY_OPERATOR"
	GroupAlertsManager          Role = "GROUP_ALERTS_MANAGER"
	GroupSearchIndexEditor      Role = "GROUP_SEARCH_INDEX_EDITOR"
	GroupClusterLogViewer       Role = "GROUP_CLUSTER_LOG_VIEWER"
	GroupStreamProcessingOwner  Role = "GROUP_STREAM_PROCESSING_OWNER"
)

var roleLabels = map[Role]string{
	OrgOwner:                    "Organization Owner",
	OrgMember:                   "Organization Member",
	OrgReadOnly:                 "Organization Read Only",
	OrgGroupCreator:             "Organization Project Creator",
	OrgBillingAdmin:             "Organization Billing Admin",
	OrgBillingReadOnly:          "Organization Billing Viewer",
	OrgStreamProcessingAdmin:    "Organization Stream Processing Admin",
	GroupOwner:                  "Project Owner",
	GroupReadOnly:               "Project Read Only",
	GroupClusterManager:         "Project Cluster Manager",
	GroupServiceAdmin:           "Project Service Admin",
	GroupMonitoringAdmin:        "Project Monitoring Admin",
	GroupDatabaseAccessAdmin:    "Project Database Access Admin",
	GroupDataAccessAdmin:        "Project Data Access Admin",
	GroupDataAccessReadWrite:    "Project Data Access Read Write",
	GroupDataAccessReadOnly:     "Project Data Access Read Only",
	GroupBackupManager:          "Project Backup Manager",
	GroupBackupCreator:          "Project Backup Creator",
	GroupBackupExportOperator:   "Project Backup Export Operator",
	GroupBackupRecoveryOperator: "Project Backup Recovery Operator",
	GroupAlertsManager:          "Project Alerts Manager",
	GroupSearchIndexEditor:      "Project Search Index Editor",
	GroupClusterLogViewer:       "Project Cluster Log Viewer",
	GroupStreamProcessingOwner:  "Project Stream Processing Owner",
}

// Label is the role's human name, as the web console shows it.
func (r Role) Label() string {
	if l, ok := roleLabels[r]; ok {
		return l
	}
	return string(r)
}

// IsOrgRole reports whether the role is held on an organization.
func (r Role) IsOrgRole() bool { return len(r) > 4 && r[:4] == "ORG_" }

// Known reports whether the role is one the catalog knows.
func (r Role) Known() bool { _, ok := roleLabels[r]; return ok }

// Covers reports whether holding r grants what `need` grants, on the same
// scope (an org role against an org need, a project role against a project
// need). The cross-scope rule (an Org Owner is Project Owner on the org's
// projects) is applied by the gate, which knows which org a project is in.
//
// The hierarchy: Org Owner covers every org role; Project Owner covers every
// project role; Data Access Admin covers Read Write covers Read Only; any
// project role covers Project Read Only; any org role covers Org Member.
func (r Role) Covers(need Role) bool {
	if r == need {
		return true
	}
	switch {
	case r == OrgOwner && need.IsOrgRole():
		return true
	case r == GroupOwner && !need.IsOrgRole():
		return true
	case need == GroupReadOnly && !r.IsOrgRole():
		return true
	case need == OrgMember && r.IsOrgRole():
		return true
	case r == GroupDataAccessAdmin && (need == GroupDataAccessReadWrite || need == GroupDataAccessReadOnly):
		return true
	case r == GroupDataAccessReadWrite && need == GroupDataAccessReadOnly:
		return true
	}
	return false
}

// AllRoles lists every role the catalog knows, org roles first.
func AllRoles() []Role {
	return []Role{
		OrgOwner, OrgMember, OrgReadOnly, OrgGroupCreator, OrgBillingAdmin, OrgBillingReadOnly, OrgStreamProcessingAdmin,
		GroupOwner, GroupReadOnly, GroupClusterManager, GroupServiceAdmin, GroupMonitoringAdmin, GroupDatabaseAccessAdmin,
		GroupDataAccessAdmin, GroupDataAccessReadWrite, GroupDataAccessReadOnly, GroupBackupManager, GroupBackupCreator,
		GroupBackupExportOperator, GroupBackupRecoveryOperator, GroupAlertsManager, GroupSearchIndexEditor,
		GroupClusterLogViewer, GroupStreamProcessingOwner,
	}
}
