package apisim

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/limits"
)

// Export buckets, export jobs, the backup schedule and the compliance policy.

type ExportBucket struct {
	ID                       string `json:"_id"`
	GroupID                  string `json:"groupId"`
	BucketName               string `json:"bucketName"`
	CloudProvider            string `json:"cloudProvider"`
	IamRoleID                string `json:"iamRoleId,omitempty"`
	RoleID                   string `json:"roleId,omitempty"`
	ServiceURL               string `json:"serviceUrl,omitempty"`
	TenantID                 string `json:"tenantId,omitempty"`
	Region                   string `json:"region,omitempty"`
	RequirePrivateNetworking bool   `json:"requirePrivateNetworking"`
}

type KeyValue struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

type ExportJob struct {
	ID             string     `json:"id"`
	GroupID        string     `json:"groupId"`
	ClusterName    string     `json:"clusterName"`
	SnapshotID     string     `json:"snapshotId"`
	ExportBucketID string     `json:"exportBucketId"`
	CreatedAt      time.Time  `json:"createdAt"`
	CustomData     []KeyValue `json:"customData"`
	Failed         bool       `json:"failed,omitempty"` // ends Failed instead of Successful
}

type PolicyItem struct {
	ID                string `json:"id"`
	FrequencyType     string `json:"frequencyType"`
	FrequencyInterval int    `json:"frequencyInterval"`
	RetentionUnit     string `json:"retentionUnit"`
	RetentionValue    int    `json:"retentionValue"`
}

type Policy struct {
	ID          string       `json:"id"`
	PolicyItems []PolicyItem `json:"policyItems"`
}

type AutoExport struct {
	ExportBucketID string `json:"exportBucketId"`
	FrequencyType  string `json:"frequencyType"`
}

type Schedule struct {
	ReferenceHourOfDay                int         `json:"referenceHourOfDay"`
	ReferenceMinuteOfHour             int         `json:"referenceMinuteOfHour"`
	RestoreWindowDays                 int         `json:"restoreWindowDays"`
	AutoExportEnabled                 bool        `json:"autoExportEnabled"`
	Export                            *AutoExport `json:"export,omitempty"`
	UseOrgAndGroupNamesInExportPrefix bool        `json:"useOrgAndGroupNamesInExportPrefix"`
	Policies                          []Policy    `json:"policies"`
}

type Compliance struct {
	AuthorizedEmail         string       `json:"authorizedEmail"`
	AuthorizedUserFirstName string       `json:"authorizedUserFirstName"`
	AuthorizedUserLastName  string       `json:"authorizedUserLastName"`
	CopyProtectionEnabled   bool         `json:"copyProtectionEnabled"`
	EncryptionAtRestEnabled bool         `json:"encryptionAtRestEnabled"`
	PitEnabled              bool         `json:"pitEnabled"`
	RestoreWindowDays       int          `json:"restoreWindowDays"`
	OnDemandPolicyItem      *PolicyItem  `json:"onDemandPolicyItem,omitempty"`
	ScheduledPolicyItems    []PolicyItem `json:"scheduledPolicyItems"`
	UpdatedDate             time.Time    `json:"updatedDate"`
	UpdatedUser             string       `json:"updatedUser"`
	// Pending is the state shown until the change is applied: ENABLING for
	// a new policy, UPDATING for a change.
	Pending string `json:"pending,omitempty"`
}

// complianceApplyTime is how long a policy change takes to become ACTIVE.
const complianceApplyTime = time.Minute

func (p *Compliance) state(now time.Time) string {
	if now.Before(p.UpdatedDate.Add(complianceApplyTime)) {
		if p.Pending == "" {
			return "ENABLING"
		}
		return p.Pending
	}
	return "ACTIVE"
}

func init() {
	handle("listExportBuckets", func(c *call) (any, error) {
		var out list
		for _, b := range c.w.ExportBuckets {
			if b.GroupID == c.project.ID && (c.version.Date >= "2024-05-30" || b.CloudProvider == "AWS") {
				out = append(out, b.view())
			}
		}
		return out, nil
	})
	handle("getExportBucket", func(c *call) (any, error) {
		b, err := c.exportBucket(c.param("exportBucketId"))
		if err != nil {
			return nil, err
		}
		return b.view(), nil
	})
	handle("createExportBucket", createExportBucket)
	handle("deleteExportBucket", deleteExportBucket)
	handle("listBackupExportJobs", func(c *call) (any, error) {
		cl, err := c.clusterAPICluster("clusterName", true)
		if err != nil {
			return nil, err
		}
		var out list
		for _, j := range c.w.exportJobsAt(cl.GroupID, cl.Name) {
			out = append(out, c.exportJobView(j))
		}
		return out, nil
	})
	handle("getBackupExportJob", func(c *call) (any, error) {
		cl, err := c.clusterAPICluster("clusterName", true)
		if err != nil {
			return nil, err
		}
		id := c.param("exportId")
		j := find(c.w.ExportJobs, func(x *ExportJob) bool { return x.ID == id && x.GroupID == cl.GroupID && x.ClusterName == cl.Name })
		if j == nil {
			return nil, errNotFound("EXPORT_JOB_NOT_FOUND", "No export job with ID %s exists for cluster %s.", id, cl.Name)
		}
		return c.exportJobView(j), nil
	})
	handle("createBackupExportJob", createBackupExportJob)
	handle("getBackupSchedule", func(c *call) (any, error) {
		cl, sch, err := c.schedule()
		if err != nil {
			return nil, err
		}
		return c.scheduleView(cl, sch), nil
	})
	handle("updateBackupSchedule", updateBackupSchedule)
	handle("deleteAllBackupSchedules", func(c *call) (any, error) {
		cl, sch, err := c.schedule()
		if err != nil {
			return nil, err
		}
		// A compliance policy sets the minimum every cluster keeps; removing
		// the schedules would fall below it, and a policy cannot be weakened
		// through the API (only support disables it).
		if c.w.Compliance[c.project.ID] != nil {
			return nil, errBadRequest("BACKUP_POLICIES_NOT_MEETING_BACKUP_COMPLIANCE_POLICY_REQUIREMENTS",
				"The backup compliance policy of group %s keeps scheduled snapshots; the backup schedules of cluster %s cannot be removed.", c.project.ID, cl.Name)
		}
		for i := range sch.Policies {
			sch.Policies[i].PolicyItems = []PolicyItem{}
		}
		c.markChanged()
		return c.scheduleView(cl, sch), nil
	})
	handle("getDataProtectionSettings", func(c *call) (any, error) {
		if p := c.w.Compliance[c.project.ID]; p != nil {
			return c.complianceView(p), nil
		}
		return map[string]any{}, nil
	})
	handle("updateDataProtectionSettings", updateDataProtectionSettings)
	handle("disableDataProtectionSettings", func(c *call) (any, error) {
		if c.w.Compliance[c.project.ID] == nil {
			return nil, errNotFound("BACKUP_COMPLIANCE_POLICY_NOT_FOUND", "Group %s has no backup compliance policy.", c.project.ID)
		}
		delete(c.w.Compliance, c.project.ID)
		c.markChanged()
		return nil, nil
	})
}

func (b *ExportBucket) view() any {
	v := map[string]any{"_id": b.ID, "bucketName": b.BucketName, "cloudProvider": b.CloudProvider}
	switch b.CloudProvider {
	case "AWS":
		v["iamRoleId"], v["region"], v["requirePrivateNetworking"] = b.IamRoleID, b.Region, b.RequirePrivateNetworking
	case "AZURE":
		v["roleId"], v["serviceUrl"], v["tenantId"] = b.RoleID, b.ServiceURL, b.TenantID
	case "GCP":
		v["roleId"] = b.RoleID
	}
	return v
}

func (c *call) exportBucket(id string) (*ExportBucket, error) {
	b := find(c.w.ExportBuckets, func(x *ExportBucket) bool { return x.ID == id && x.GroupID == c.project.ID })
	if b == nil {
		return nil, errNotFound("EXPORT_BUCKET_NOT_FOUND", "No export bucket with ID %s exists in group %s.", id, c.project.ID)
	}
	return b, nil
}

func createExportBucket(c *call) (any, error) {
	var b struct {
		BucketName               string `json:"bucketName"`
		CloudProvider            string `json:"cloudProvider"`
		IamRoleID                string `json:"iamRoleId"`
		RoleID                   string `json:"roleId"`
		ServiceURL               string `json:"serviceUrl"`
		TenantID                 string `json:"tenantId"`
		RequirePrivateNetworking bool   `json:"requirePrivateNetworking"`
	}
	if e := c.decode(&b); e != nil {
		return nil, e
	}
	if b.CloudProvider == "" {
		return nil, errMissing("cloudProvider")
	}
	providers := []string{"AWS", "AZURE", "GCP"}
	if c.version.Date < "2024-05-30" {
		providers = []string{"AWS"}
	}
	if !slices.Contains(providers, b.CloudProvider) {
		return nil, errField("cloudProvider", "must be one of %s in version %s", strings.Join(providers, ", "), c.version.Date)
	}
	if b.BucketName == "" && b.CloudProvider != "AZURE" {
		return nil, errMissing("bucketName")
	}
	if b.BucketName != "" {
		if e := limitError("", limits.BucketName(b.BucketName)); e != nil {
			return nil, e
		}
	}
	nb := &ExportBucket{ID: c.w.newID(), GroupID: c.project.ID, BucketName: b.BucketName, CloudProvider: b.CloudProvider,
		RequirePrivateNetworking: b.RequirePrivateNetworking}
	roleField, roleID := "roleId", b.RoleID
	if b.CloudProvider == "AWS" {
		roleField, roleID = "iamRoleId", b.IamRoleID
		nb.IamRoleID, nb.Region = b.IamRoleID, "US_EAST_1"
	} else {
		nb.RoleID = b.RoleID
	}
	if roleID == "" {
		return nil, errMissing(roleField)
	}
	if r := c.w.accessRole(c.project.ID, roleID); r == nil || r.ProviderName != b.CloudProvider || r.AuthorizedDate == nil {
		return nil, errField(roleField, "must name an authorized %s cloud provider access role of this project", b.CloudProvider)
	}
	if b.CloudProvider == "AZURE" {
		if b.ServiceURL == "" {
			return nil, errMissing("serviceUrl")
		}
		nb.ServiceURL, nb.TenantID = b.ServiceURL, b.TenantID
		if nb.BucketName == "" {
			nb.BucketName = b.ServiceURL[strings.LastIndexByte(b.ServiceURL, '/')+1:]
		}
	}
	c.w.ExportBuckets = append(c.w.ExportBuckets, nb)
	c.markChanged()
	return nb.view(), nil
}

func deleteExportBucket(c *call) (any, error) {
	b, err := c.exportBucket(c.param("exportBucketId"))
	if err != nil {
		return nil, err
	}
	for id, sch := range c.w.Schedules {
		if sch.AutoExportEnabled && sch.Export != nil && sch.Export.ExportBucketID == b.ID {
			return nil, errConflict("EXPORT_BUCKET_IN_USE",
				"Export bucket %s is used by automatic export on cluster %s; turn auto export off first.", b.ID, c.w.clusterByID(id))
		}
	}
	remove(&c.w.ExportBuckets, func(x *ExportBucket) bool { return x == b })
	c.markChanged()
	return nil, nil
}

func (w *World) clusterByID(id string) string {
	if cl := find(w.Clusters, func(x *Cluster) bool { return x.ID == id }); cl != nil {
		return cl.Name
	}
	return id
}

func (c *call) exportJobView(j *ExportJob) any {
	st := [...]string{"Queued", "InProgress", "Successful"}[phase(c.now, j.CreatedAt, 10, 110)]
	if st == "Successful" && j.Failed {
		st = "Failed"
	}
	total := 12
	done := map[string]int{"Queued": 0, "InProgress": int(min(11, c.now.Sub(j.CreatedAt.Add(10*time.Second))/(10*time.Second))), "Successful": total}[st]
	cd := j.CustomData
	if cd == nil {
		cd = []KeyValue{}
	}
	v := map[string]any{
		"id": j.ID, "snapshotId": j.SnapshotID, "exportBucketId": j.ExportBucketID, "state": st,
		"createdAt": fmtTime(j.CreatedAt), "customData": cd, "components": []any{},
		"prefix":       "exported_snapshots/" + c.org.Name + "/" + c.project.Name + "/" + j.ClusterName + "/" + j.CreatedAt.Format("2006-01-02T1504") + "/",
		"exportStatus": map[string]any{"exportedCollections": done, "totalCollections": total},
	}
	if st == "Successful" {
		v["finishedAt"] = fmtTime(j.CreatedAt.Add(120 * time.Second))
	}
	return v
}

func createBackupExportJob(c *call) (any, error) {
	cl, err := c.clusterAPICluster("clusterName", true)
	if err != nil {
		return nil, err
	}
	var b struct {
		SnapshotID     string     `json:"snapshotId"`
		ExportBucketID string     `json:"exportBucketId"`
		CustomData     []KeyValue `json:"customData"`
	}
	if e := c.decode(&b); e != nil {
		return nil, e
	}
	switch {
	case b.SnapshotID == "":
		return nil, errMissing("snapshotId")
	case !hexID.MatchString(b.SnapshotID):
		return nil, errField("snapshotId", "must be a 24-character hexadecimal id")
	case b.ExportBucketID == "":
		return nil, errMissing("exportBucketId")
	case !hexID.MatchString(b.ExportBucketID):
		return nil, errField("exportBucketId", "must be a 24-character hexadecimal id")
	}
	if _, err := c.exportBucket(b.ExportBucketID); err != nil {
		return nil, err
	}
	if e := c.completedSnapshot(cl, b.SnapshotID, KindReplicaSet, KindSharded); e != nil {
		return nil, e
	}
	j := &ExportJob{ID: c.w.newID(), GroupID: cl.GroupID, ClusterName: cl.Name, SnapshotID: b.SnapshotID,
		ExportBucketID: b.ExportBucketID, CreatedAt: c.now, CustomData: b.CustomData}
	c.w.ExportJobs = append(c.w.ExportJobs, j)
	c.markChanged()
	return c.exportJobView(j), nil
}

func (c *call) schedule() (*Cluster, *Schedule, error) {
	cl, err := c.clusterAPICluster("clusterName", true)
	if err != nil {
		return nil, nil, err
	}
	sch := c.w.Schedules[cl.ID]
	if sch == nil {
		sch = &Schedule{ReferenceHourOfDay: 3, RestoreWindowDays: 7, Policies: []Policy{{ID: c.w.newID(), PolicyItems: []PolicyItem{}}}}
		c.w.Schedules[cl.ID] = sch
	}
	return cl, sch, nil
}

// nextSnapshot is when the schedule takes its next snapshot after now: on
// the grid of its most frequent hourly policy item (every N hours from the
// reference time), else daily at the reference time.
func nextSnapshot(sch *Schedule, now time.Time) time.Time {
	every := 24 * time.Hour
	for _, p := range sch.Policies {
		for _, it := range p.PolicyItems {
			if it.FrequencyType == "hourly" && it.FrequencyInterval > 0 && time.Duration(it.FrequencyInterval)*time.Hour < every {
				every = time.Duration(it.FrequencyInterval) * time.Hour
			}
		}
	}
	ref := time.Date(now.Year(), now.Month(), now.Day(), sch.ReferenceHourOfDay, sch.ReferenceMinuteOfHour, 0, 0, time.UTC)
	for ref.After(now) {
		ref = ref.Add(-every)
	}
	return ref.Add(every * (now.Sub(ref)/every + 1))
}

func (c *call) scheduleView(cl *Cluster, sch *Schedule) any {
	next := nextSnapshot(sch, c.now)
	v := map[string]any{
		"clusterId": cl.ID, "clusterName": cl.Name, "nextSnapshot": fmtTime(next),
		"referenceHourOfDay": sch.ReferenceHourOfDay, "referenceMinuteOfHour": sch.ReferenceMinuteOfHour,
		"restoreWindowDays": sch.RestoreWindowDays, "autoExportEnabled": sch.AutoExportEnabled,
		"useOrgAndGroupNamesInExportPrefix": sch.UseOrgAndGroupNamesInExportPrefix, "policies": sch.Policies,
		"copySettings": []any{}, "extraRetentionSettings": []any{},
	}
	if sch.Export != nil {
		v["export"] = sch.Export
	}
	return v
}

var (
	policyFrequencies = []string{"daily", "hourly", "weekly", "monthly", "yearly", "ondemand"}
	policyUnits       = []string{"days", "weeks", "months", "years"}
)

func validatePolicyItem(field string, it PolicyItem, freqs []string) *apiError {
	switch {
	case !slices.Contains(freqs, it.FrequencyType):
		return errField(field+".frequencyType", "must be one of %s", strings.Join(freqs, ", "))
	case !(it.FrequencyInterval >= 1 && it.FrequencyInterval <= 28) && it.FrequencyInterval != 40:
		return errField(field+".frequencyInterval", "must be 1 to 28, or 40")
	case !slices.Contains(policyUnits, it.RetentionUnit):
		return errField(field+".retentionUnit", "must be one of days, weeks, months, years")
	case it.RetentionValue < 1:
		return errField(field+".retentionValue", "must be at least 1")
	}
	return nil
}

func updateBackupSchedule(c *call) (any, error) {
	cl, sch, err := c.schedule()
	if err != nil {
		return nil, err
	}
	var b struct {
		ReferenceHourOfDay                *int        `json:"referenceHourOfDay"`
		ReferenceMinuteOfHour             *int        `json:"referenceMinuteOfHour"`
		RestoreWindowDays                 *int        `json:"restoreWindowDays"`
		AutoExportEnabled                 *bool       `json:"autoExportEnabled"`
		Export                            *AutoExport `json:"export"`
		UseOrgAndGroupNamesInExportPrefix *bool       `json:"useOrgAndGroupNamesInExportPrefix"`
		Policies                          []Policy    `json:"policies"`
		CopySettings                      []any       `json:"copySettings"`
		ExtraRetentionSettings            []any       `json:"extraRetentionSettings"`
		UpdateSnapshots                   *bool       `json:"updateSnapshots"`
		DeleteSnapshots                   []string    `json:"deleteSnapshots"`
		DeleteCopiedBackups               []any       `json:"deleteCopiedBackups"`
		AutoCopySettingsEnabled           *bool       `json:"autoCopySettingsEnabled"`
		CopyPolicyItemsEnabled            *bool       `json:"copyPolicyItemsEnabled"`
		ClusterID                         any         `json:"clusterId"`
		ClusterName                       any         `json:"clusterName"`
		NextSnapshot                      any         `json:"nextSnapshot"`
		Links                             any         `json:"links"`
	}
	if e := c.decode(&b); e != nil {
		return nil, e
	}
	if v := b.ReferenceHourOfDay; v != nil && (*v < 0 || *v > 23) {
		return nil, errField("referenceHourOfDay", "must be between 0 and 23")
	}
	if v := b.ReferenceMinuteOfHour; v != nil && (*v < 0 || *v > 59) {
		return nil, errField("referenceMinuteOfHour", "must be between 0 and 59")
	}
	if v := b.RestoreWindowDays; v != nil && (*v < 1 || *v > 365) {
		return nil, errField("restoreWindowDays", "must be between 1 and 365")
	}
	if e := limitError("", limits.SchedulePolicies(len(b.Policies))); e != nil {
		return nil, e
	}
	for i, p := range b.Policies {
		for j, it := range p.PolicyItems {
			if e := validatePolicyItem(fieldAt("policies", i, "policyItems")+"["+itoa(j)+"]", it, policyFrequencies); e != nil {
				return nil, e
			}
		}
		if e := retentionOrder(fieldAt("policies", i, "policyItems"), p.PolicyItems); e != nil {
			return nil, e
		}
	}
	if b.Export != nil {
		if b.Export.FrequencyType != "monthly" && b.Export.FrequencyType != "yearly" {
			return nil, errField("export.frequencyType", "must be monthly or yearly")
		}
		if _, err := c.exportBucket(b.Export.ExportBucketID); err != nil {
			return nil, errField("export.exportBucketId", "must name an export bucket of this project")
		}
	}
	if b.AutoExportEnabled != nil && *b.AutoExportEnabled && b.Export == nil && sch.Export == nil {
		return nil, errMissing("export")
	}
	set := func(dst *int, v *int) {
		if v != nil {
			*dst = *v
		}
	}
	set(&sch.ReferenceHourOfDay, b.ReferenceHourOfDay)
	set(&sch.ReferenceMinuteOfHour, b.ReferenceMinuteOfHour)
	set(&sch.RestoreWindowDays, b.RestoreWindowDays)
	if b.AutoExportEnabled != nil {
		sch.AutoExportEnabled = *b.AutoExportEnabled
	}
	if b.UseOrgAndGroupNamesInExportPrefix != nil {
		sch.UseOrgAndGroupNamesInExportPrefix = *b.UseOrgAndGroupNamesInExportPrefix
	}
	if b.Export != nil {
		sch.Export = b.Export
	}
	if b.Policies != nil {
		for i := range b.Policies {
			if b.Policies[i].ID == "" {
				b.Policies[i].ID = c.w.newID()
			}
			for j := range b.Policies[i].PolicyItems {
				if b.Policies[i].PolicyItems[j].ID == "" {
					b.Policies[i].PolicyItems[j].ID = c.w.newID()
				}
			}
			if b.Policies[i].PolicyItems == nil {
				b.Policies[i].PolicyItems = []PolicyItem{}
			}
		}
		sch.Policies = b.Policies
	}
	c.markChanged()
	return c.scheduleView(cl, sch), nil
}

func itoa(i int) string { return strconv.Itoa(i) }

// retentionOrder enforces the spec's rule across policy items: a less
// frequent item keeps its snapshots at least as long as a more frequent one.
func retentionOrder(field string, items []PolicyItem) *apiError {
	retentions := make([]limits.PolicyRetention, len(items))
	for i, it := range items {
		retentions[i] = limits.PolicyRetention{Frequency: it.FrequencyType, Unit: it.RetentionUnit, Value: it.RetentionValue}
	}
	return limitError("", limits.RetentionOrder(field, retentions))
}

// complianceView derives the state: ENABLING or UPDATING for a minute
// after a change, then ACTIVE.
func (c *call) complianceView(p *Compliance) any {
	state := p.state(c.now)
	items := p.ScheduledPolicyItems
	if items == nil {
		items = []PolicyItem{}
	}
	v := map[string]any{
		"projectId": c.project.ID, "authorizedEmail": p.AuthorizedEmail, "authorizedUserFirstName": p.AuthorizedUserFirstName,
		"authorizedUserLastName": p.AuthorizedUserLastName, "copyProtectionEnabled": p.CopyProtectionEnabled,
		"encryptionAtRestEnabled": p.EncryptionAtRestEnabled, "pitEnabled": p.PitEnabled, "restoreWindowDays": p.RestoreWindowDays,
		"scheduledPolicyItems": items, "state": state, "deletable": false,
		"updatedDate": fmtTime(p.UpdatedDate), "updatedUser": p.UpdatedUser,
	}
	if p.OnDemandPolicyItem != nil {
		v["onDemandPolicyItem"] = p.OnDemandPolicyItem
	}
	return v
}

func updateDataProtectionSettings(c *call) (any, error) {
	if _, e := queryBool(c.query, "overwriteBackupPolicies", true); e != nil {
		return nil, e
	}
	var b struct {
		Compliance
		ProjectID   any `json:"projectId"`
		State       any `json:"state"`
		Deletable   any `json:"deletable"`
		UpdatedDate any `json:"updatedDate"`
		UpdatedUser any `json:"updatedUser"`
	}
	if e := c.decode(&b); e != nil {
		return nil, e
	}
	p := b.Compliance
	if p.AuthorizedEmail == "" {
		return nil, errMissing("authorizedEmail")
	}
	if !strings.Contains(p.AuthorizedEmail, "@") {
		return nil, errField("authorizedEmail", "must be an email address")
	}
	if c.version.Date >= "2023-10-01" {
		if p.AuthorizedUserFirstName == "" {
			return nil, errMissing("authorizedUserFirstName")
		}
		if p.AuthorizedUserLastName == "" {
			return nil, errMissing("authorizedUserLastName")
		}
	}
	if p.RestoreWindowDays < 0 {
		return nil, errField("restoreWindowDays", "must not be negative")
	}
	if it := p.OnDemandPolicyItem; it != nil {
		if e := validatePolicyItem("onDemandPolicyItem", *it, []string{"ondemand"}); e != nil {
			return nil, e
		}
		if it.ID == "" {
			it.ID = c.w.newID()
		}
	}
	for i := range p.ScheduledPolicyItems {
		if e := validatePolicyItem("scheduledPolicyItems["+itoa(i)+"]", p.ScheduledPolicyItems[i], policyFrequencies[:5]); e != nil {
			return nil, e
		}
		if p.ScheduledPolicyItems[i].ID == "" {
			p.ScheduledPolicyItems[i].ID = c.w.newID()
		}
	}
	if e := retentionOrder("scheduledPolicyItems", p.ScheduledPolicyItems); e != nil {
		return nil, e
	}
	old := c.w.Compliance[c.project.ID]
	if old != nil && old.state(c.now) != "ACTIVE" {
		return nil, newError(http.StatusBadRequest, "CANNOT_UPDATE_BACKUP_COMPLIANCE_POLICY_SETTINGS_WITH_PENDING_ACTION",
			"The backup compliance policy of group %s is still being applied (%s); retry when its state is ACTIVE.", c.project.ID, old.state(c.now))
	}
	p.Pending = "ENABLING"
	if old != nil {
		p.Pending = "UPDATING"
	}
	p.UpdatedDate, p.UpdatedUser = c.now, c.id.username()
	c.w.Compliance[c.project.ID] = &p
	c.markChanged()
	return c.complianceView(&p), nil
}
