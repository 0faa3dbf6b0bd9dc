package apisim

import (
	"encoding/json"
	"regexp"
	"time"
)

// Project settings: auditing, custom DNS for AWS, cloud provider access roles.

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
		var b struct {
			Enabled *bool `json:"enabled"`
		}
		if e := c.decode(&b); e != nil {
			return nil, e
		}
		if b.Enabled == nil {
			return nil, errMissing("enabled")
		}
		c.w.CustomDNS[c.project.ID] = *b.Enabled
		c.markChanged()
		return map[string]any{"enabled": *b.Enabled}, nil
	})
	handle("listCloudProviderAccessRoles", listAccessRoles)
	handle("getCloudProviderAccessRole", func(c *call) (any, error) {
		r := c.w.accessRole(c.project.ID, c.param("roleId"))
		if r == nil {
			return nil, errNotFound("CLOUD_PROVIDER_ACCESS_ROLE_NOT_FOUND", "No cloud provider access role with ID %s exists in group %s.", c.param("roleId"), c.project.ID)
		}
		return r.view(), nil
	})
	handle("createCloudProviderAccessRole", createAccessRole)
	handle("authorizeCloudProviderAccessRole", authorizeAccessRole)
	handle("deauthorizeCloudProviderAccessRole", func(c *call) (any, error) {
		r := c.w.accessRole(c.project.ID, c.param("roleId"))
		if r == nil || r.ProviderName != c.param("cloudProvider") {
			return nil, errNotFound("CLOUD_PROVIDER_ACCESS_ROLE_NOT_FOUND", "No %s access role with ID %s exists in group %s.", c.param("cloudProvider"), c.param("roleId"), c.project.ID)
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
		var f map[string]any
		if json.Unmarshal([]byte(*b.AuditFilter), &f) != nil {
			return nil, errField("auditFilter", "must be a JSON document (as a string)")
		}
	}
	a := c.auditing()
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

func (w *World) accessRole(groupID, id string) *AccessRole {
	return find(w.AccessRoles, func(x *AccessRole) bool { return x.ID == id && x.GroupID == groupID })
}

func (r *AccessRole) view() any {
	fu := r.FeatureUsages
	if fu == nil {
		fu = []FeatureUsage{}
	}
	v := map[string]any{"providerName": r.ProviderName, "createdDate": fmtTime(r.CreatedDate), "featureUsages": fu}
	switch r.ProviderName {
	case "AWS":
		v["roleId"], v["atlasAWSAccountArn"], v["atlasAssumedRoleExternalId"] = r.ID, r.AtlasAWSAccountArn, r.AtlasAssumedRoleExternalID
		if r.IamAssumedRoleArn != "" {
			v["iamAssumedRoleArn"] = r.IamAssumedRoleArn
		}
		v["authorizedDate"] = fmtTimePtr(r.AuthorizedDate)
	case "AZURE":
		v["_id"], v["atlasAzureAppId"], v["servicePrincipalId"], v["tenantId"] = r.ID, r.AtlasAzureAppID, r.ServicePrincipalID, r.TenantID
		v["lastUpdatedDate"] = fmtTimePtr(r.AuthorizedDate)
	case "GCP":
		v["roleId"], v["gcpServiceAccountForAtlas"], v["status"] = r.ID, "atlas-"+r.ID[16:]+"@sim-project.iam.gserviceaccount.com", "COMPLETE"
	}
	return v
}

func listAccessRoles(c *call) (any, error) {
	out := map[string][]any{"awsIamRoles": {}, "azureServicePrincipals": {}, "gcpServiceAccounts": {}}
	key := map[string]string{"AWS": "awsIamRoles", "AZURE": "azureServicePrincipals", "GCP": "gcpServiceAccounts"}
	for _, r := range c.w.AccessRoles {
		if r.GroupID == c.project.ID {
			out[key[r.ProviderName]] = append(out[key[r.ProviderName]], r.view())
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
	}
	return nil
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
		r.AtlasAssumedRoleExternalID = r.ID[:8] + "-sim-" + r.ID[16:]
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
	return r.view(), nil
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
	return r.view(), nil
}
