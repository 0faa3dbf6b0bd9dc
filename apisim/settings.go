package apisim

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"time"
)

// Project settings: auditing, custom DNS for AWS, cloud provider access roles.
//
// Auditing runs on dedicated clusters only (spec 2.7: unavailable for M0, M2,
// M5 and serverless; flex took their place). The configuration is per
// project, so an update that would leave auditing enabled in a project whose
// clusters are all shared-tier, flex or serverless is refused with 400
// AUDITING_UNAVAILABLE_FOR_TIER naming them. A project with no cluster yet
// may enable it: the setting applies to the dedicated clusters it gets later.
//
// An access role's featureUsages are derived from the project's export
// buckets on every read (stored usages of other features are kept), so a
// bucket created or deleted in the backups area shows up at once; a role an
// export bucket still uses cannot be deauthorized (400
// CLOUD_PROVIDER_ACCESS_ROLE_IN_USE, naming the bucket).

type AuditLog struct {
	Enabled                   bool   `json:"enabled"`
	AuditFilter               string `json:"auditFilter"`
	AuditAuthorizationSuccess bool   `json:"auditAuthorizationSuccess"`
	ConfigurationType         string `json:"configurationType"`
}

type FeatureUsage struct {
	FeatureType string         `json:"featureType"`
	FeatureID   map[string]any `json:"featureId,omitempty"`
}

type AccessRole struct {
	ID                         string         `json:"id"`
	GroupID                    string         `json:"groupId"`
	ProviderName               string         `json:"providerName"`
	AtlasAWSAccountArn         string         `json:"atlasAWSAccountArn,omitempty"`
	AtlasAssumedRoleExternalID string         `json:"atlasAssumedRoleExternalId,omitempty"`
	IamAssumedRoleArn          string         `json:"iamAssumedRoleArn,omitempty"`
	AtlasAzureAppID            string         `json:"atlasAzureAppId,omitempty"`
	ServicePrincipalID         string         `json:"servicePrincipalId,omitempty"`
	TenantID                   string         `json:"tenantId,omitempty"`
	CreatedDate                time.Time      `json:"createdDate"`
	AuthorizedDate             *time.Time     `json:"authorizedDate,omitempty"`
	FeatureUsages              []FeatureUsage `json:"featureUsages"`
}

func init() {
	handle("getAuditingConfiguration", func(c *call) (any, error) { return c.auditing(), nil })
	handle("updateAuditingConfiguration", updateAuditing)
	handle("getAwsCustomDns", func(c *call) (any, error) {
		return map[string]any{"enabled": c.w.CustomDNS[c.project.ID]}, nil
	})
	handle("toggleAwsCustomDns", func(c *call) (any, error) {
		enabled, e := c.decodeToggle()
		if e != nil {
			return nil, e
		}
		c.w.CustomDNS[c.project.ID] = enabled
		c.markChanged()
		return map[string]any{"enabled": enabled}, nil
	})
	handle("listCloudProviderAccessRoles", listAccessRoles)
	handle("getCloudProviderAccessRole", func(c *call) (any, error) {
		r := c.w.accessRole(c.project.ID, c.param("roleId"))
		if r == nil {
			return nil, errNotFound("CLOUD_PROVIDER_ACCESS_ROLE_NOT_FOUND", "No cloud provider access role with ID %s exists in group %s.", c.param("roleId"), c.project.ID)
		}
		return r.view(c.w), nil
	})
	handle("createCloudProviderAccessRole", createAccessRole)
	handle("authorizeCloudProviderAccessRole", authorizeAccessRole)
	handle("deauthorizeCloudProviderAccessRole", func(c *call) (any, error) {
		r := c.w.accessRole(c.project.ID, c.param("roleId"))
		if r == nil || r.ProviderName != c.param("cloudProvider") {
			return nil, errNotFound("CLOUD_PROVIDER_ACCESS_ROLE_NOT_FOUND", "No %s access role with ID %s exists in group %s.", c.param("cloudProvider"), c.param("roleId"), c.project.ID)
		}
		if b := c.w.bucketUsing(r); b != nil {
			return nil, errBadRequest("CLOUD_PROVIDER_ACCESS_ROLE_IN_USE",
				"Cloud provider access role %s is used by export bucket %s (%s); delete the export bucket first.", r.ID, b.BucketName, b.ID)
		}
		remove(&c.w.AccessRoles, func(x *AccessRole) bool { return x == r })
		c.markChanged()
		return nil, nil
	})
}

func (c *call) auditing() *AuditLog {
	a := c.w.Auditing[c.project.ID]
	if a == nil {
		a = &AuditLog{ConfigurationType: "NONE"}
		c.w.Auditing[c.project.ID] = a
	}
	return a
}

func updateAuditing(c *call) (any, error) {
	var b struct {
		Enabled                   *bool   `json:"enabled"`
		AuditFilter               *string `json:"auditFilter"`
		AuditAuthorizationSuccess *bool   `json:"auditAuthorizationSuccess"`
		ConfigurationType         any     `json:"configurationType"`
	}
	if e := c.decode(&b); e != nil {
		return nil, e
	}
	if b.AuditFilter != nil && *b.AuditFilter != "" {
		if e := checkAuditFilter(*b.AuditFilter); e != nil {
			return nil, e
		}
	}
	a := c.auditing()
	stillOn := a.Enabled
	if b.Enabled != nil {
		stillOn = *b.Enabled
	}
	if stillOn {
		if names := c.w.auditlessClusters(c.project.ID); names != nil {
			return nil, errBadRequest("AUDITING_UNAVAILABLE_FOR_TIER",
				"Database auditing is unavailable for M0, M2, M5, flex and serverless clusters, and project %s has no dedicated cluster: %s.",
				c.project.ID, strings.Join(names, ", "))
		}
	}
	if b.Enabled != nil {
		a.Enabled = *b.Enabled
	}
	if b.AuditAuthorizationSuccess != nil {
		a.AuditAuthorizationSuccess = *b.AuditAuthorizationSuccess
	}
	if b.AuditFilter != nil {
		a.AuditFilter = *b.AuditFilter
		a.ConfigurationType = "FILTER_JSON"
		if *b.AuditFilter == "" {
			a.ConfigurationType = "NONE"
		}
	}
	c.markChanged()
	return a, nil
}

// checkAuditFilter refuses a filter that is not a JSON document (an object),
// saying where the text stops parsing.
func checkAuditFilter(text string) *apiError {
	var f map[string]any
	err := json.Unmarshal([]byte(text), &f)
	if err == nil {
		return nil
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return errField("auditFilter", "must be a JSON document (as a string): %s at offset %d", se.Error(), se.Offset)
	}
	return errField("auditFilter", "must be a JSON document (an object, as a string)")
}

// auditlessClusters returns the names of the project's clusters when every
// one of them is shared-tier, flex or serverless; nil when auditing may run
// (a dedicated cluster, or no cluster yet).
func (w *World) auditlessClusters(groupID string) []string {
	var names []string
	for _, cl := range w.Clusters {
		if cl.GroupID != groupID {
			continue
		}
		if cl.dedicated() {
			return nil
		}
		names = append(names, cl.Name+" ("+cl.InstanceSize+")")
	}
	return names
}

// bucketUsing returns an export bucket of the role's project that reaches
// its storage through the role, if any.
func (w *World) bucketUsing(r *AccessRole) *ExportBucket {
	return find(w.ExportBuckets, func(b *ExportBucket) bool { return b.GroupID == r.GroupID && bucketRole(b) == r.ID })
}

// bucketRole is the access role id an export bucket uses: iamRoleId on AWS,
// roleId elsewhere.
func bucketRole(b *ExportBucket) string {
	if b.CloudProvider == "AWS" {
		return b.IamRoleID
	}
	return b.RoleID
}

// featureUsages are the role's stored usages of other features plus one
// EXPORT_SNAPSHOT usage per export bucket that uses it now.
func (r *AccessRole) featureUsages(w *World) []FeatureUsage {
	out := []FeatureUsage{}
	for _, u := range r.FeatureUsages {
		if u.FeatureType != "EXPORT_SNAPSHOT" {
			out = append(out, u)
		}
	}
	for _, b := range w.ExportBuckets {
		if b.GroupID == r.GroupID && bucketRole(b) == r.ID {
			out = append(out, FeatureUsage{FeatureType: "EXPORT_SNAPSHOT",
				FeatureID: map[string]any{"groupId": b.GroupID, "exportBucketId": b.ID, "bucketName": b.BucketName}})
		}
	}
	return out
}

func (w *World) accessRole(groupID, id string) *AccessRole {
	return find(w.AccessRoles, func(x *AccessRole) bool { return x.ID == id && x.GroupID == groupID })
}

func (r *AccessRole) view(w *World) any {
	v := map[string]any{"providerName": r.ProviderName, "createdDate": fmtTime(r.CreatedDate), "featureUsages": r.featureUsages(w)}
	switch r.ProviderName {
	case "AWS":
		v["roleId"], v["atlasAWSAccountArn"], v["atlasAssumedRoleExternalId"] = r.ID, r.AtlasAWSAccountArn, r.AtlasAssumedRoleExternalID
		if r.IamAssumedRoleArn != "" {
			v["iamAssumedRoleArn"] = r.IamAssumedRoleArn
		}
		setTime(v, "authorizedDate", r.AuthorizedDate)
	case "AZURE":
		v["_id"], v["atlasAzureAppId"], v["servicePrincipalId"], v["tenantId"] = r.ID, r.AtlasAzureAppID, r.ServicePrincipalID, r.TenantID
		setTime(v, "lastUpdatedDate", r.AuthorizedDate)
	case "GCP":
		v["roleId"], v["gcpServiceAccountForAtlas"], v["status"] = r.ID, gcpServiceAccount(r), "COMPLETE"
	}
	return v
}

func listAccessRoles(c *call) (any, error) {
	out := map[string][]any{"awsIamRoles": {}, "azureServicePrincipals": {}, "gcpServiceAccounts": {}}
	key := map[string]string{"AWS": "awsIamRoles", "AZURE": "azureServicePrincipals", "GCP": "gcpServiceAccounts"}
	for _, r := range c.w.AccessRoles {
		if r.GroupID == c.project.ID {
			out[key[r.ProviderName]] = append(out[key[r.ProviderName]], r.view(c.w))
		}
	}
	return out, nil
}

type accessRoleBody struct {
	ProviderName       string `json:"providerName"`
	IamAssumedRoleArn  string `json:"iamAssumedRoleArn"`
	AtlasAzureAppID    string `json:"atlasAzureAppId"`
	ServicePrincipalID string `json:"servicePrincipalId"`
	TenantID           string `json:"tenantId"`
}

func (b *accessRoleBody) validateAzure() *apiError {
	switch {
	case b.AtlasAzureAppID == "":
		return errMissing("atlasAzureAppId")
	case b.ServicePrincipalID == "":
		return errMissing("servicePrincipalId")
	case b.TenantID == "":
		return errMissing("tenantId")
	case !uuidRe.MatchString(b.AtlasAzureAppID):
		return errField("atlasAzureAppId", "must be a UUID")
	case !uuidRe.MatchString(b.ServicePrincipalID):
		return errField("servicePrincipalId", "must be a UUID")
	case !uuidRe.MatchString(b.TenantID):
		return errField("tenantId", "must be a UUID")
	}
	return nil
}

// uuidRe is the uuid format the service checks Azure ids against.
var uuidRe = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// uuidOf is a stable version-4-shaped UUID drawn from s, for the ids the
// service issues as UUIDs (external ids, the demo's Azure ids).
func uuidOf(s string) string {
	b := sha256.Sum256([]byte(s))
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:16])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// gcpServiceAccount is the role's Atlas-side service account, in the
// service's shape mongodb-atlas-<16>@p-<24>.iam.gserviceaccount.com.
func gcpServiceAccount(r *AccessRole) string {
	return "mongodb-atlas-" + r.ID[8:] + "@p-" + r.GroupID + ".iam.gserviceaccount.com"
}

func createAccessRole(c *call) (any, error) {
	var b accessRoleBody
	if e := c.decode(&b); e != nil {
		return nil, e
	}
	r := &AccessRole{ID: c.w.newID(), GroupID: c.project.ID, ProviderName: b.ProviderName, CreatedDate: c.now}
	switch b.ProviderName {
	case "":
		return nil, errMissing("providerName")
	case "AWS":
		r.AtlasAWSAccountArn = "arn:aws:iam::012345678901:root"
		r.AtlasAssumedRoleExternalID = uuidOf("external:" + r.ID)
	case "AZURE":
		if e := b.validateAzure(); e != nil {
			return nil, e
		}
		r.AtlasAzureAppID, r.ServicePrincipalID, r.TenantID = b.AtlasAzureAppID, b.ServicePrincipalID, b.TenantID
	case "GCP":
	default:
		return nil, errField("providerName", "must be one of AWS, AZURE, GCP")
	}
	c.w.AccessRoles = append(c.w.AccessRoles, r)
	c.markChanged()
	return r.view(c.w), nil
}

var iamRoleArn = regexp.MustCompile(`^arn:aws:iam::\d{12}:role/[A-Za-z0-9+=,.@_/-]{1,512}$`)

func authorizeAccessRole(c *call) (any, error) {
	r := c.w.accessRole(c.project.ID, c.param("roleId"))
	if r == nil {
		return nil, errNotFound("CLOUD_PROVIDER_ACCESS_ROLE_NOT_FOUND", "No cloud provider access role with ID %s exists in group %s.", c.param("roleId"), c.project.ID)
	}
	var b accessRoleBody
	if e := c.decode(&b); e != nil {
		return nil, e
	}
	if b.ProviderName == "" {
		return nil, errMissing("providerName")
	}
	if b.ProviderName != r.ProviderName {
		return nil, errField("providerName", "must be %s, the role's provider", r.ProviderName)
	}
	switch r.ProviderName {
	case "AWS":
		if b.IamAssumedRoleArn == "" {
			return nil, errMissing("iamAssumedRoleArn")
		}
		if !iamRoleArn.MatchString(b.IamAssumedRoleArn) {
			return nil, errField("iamAssumedRoleArn", "must be an IAM role ARN such as arn:aws:iam::123456789012:role/atlas")
		}
		r.IamAssumedRoleArn = b.IamAssumedRoleArn
	case "AZURE":
		if e := b.validateAzure(); e != nil {
			return nil, e
		}
		r.AtlasAzureAppID, r.ServicePrincipalID, r.TenantID = b.AtlasAzureAppID, b.ServicePrincipalID, b.TenantID
	case "GCP":
		return nil, errBadRequest("AUTHORIZATION_NOT_REQUIRED", "GCP access roles need no authorization step.")
	}
	now := c.now
	r.AuthorizedDate = &now
	c.markChanged()
	return r.view(c.w), nil
}
