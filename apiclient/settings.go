package apiclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"
)

// SettingsService covers project settings: auditing, custom DNS for AWS,
// cloud provider access roles, and the private endpoints of encryption at
// rest and serverless instances.
type SettingsService struct{ c *Client }

// Settings is the project settings service.
func (c *Client) Settings() SettingsService { return SettingsService{c} }

// AuditConfigType says how the audit filter was written.
type AuditConfigType string

const (
	AuditNone          AuditConfigType = "NONE"
	AuditFilterBuilder AuditConfigType = "FILTER_BUILDER"
	AuditFilterJSON    AuditConfigType = "FILTER_JSON"
)

// AuditLog is the project's auditing configuration (unavailable on M0, M2,
// M5 and serverless).
type AuditLog struct {
	Enabled                   bool            `json:"enabled"`
	AuditFilter               string          `json:"auditFilter,omitempty"` // a JSON document, as text
	AuditAuthorizationSuccess bool            `json:"auditAuthorizationSuccess"`
	ConfigurationType         AuditConfigType `json:"configurationType,omitempty"`
}

// AuditLogUpdate changes only the members set.
type AuditLogUpdate struct {
	Enabled *bool `json:"enabled,omitempty"`
	// AuditFilter is a JSON document as text; it must parse.
	AuditFilter *string `json:"auditFilter,omitempty"`
	// AuditAuthorizationSuccess records successful authorizations too; it
	// slows the cluster down.
	AuditAuthorizationSuccess *bool `json:"auditAuthorizationSuccess,omitempty"`
}

// Validate checks the update locally.
func (u AuditLogUpdate) Validate() error {
	if u.AuditFilter != nil && *u.AuditFilter != "" {
		if err := CheckAuditFilter(*u.AuditFilter); err != nil {
			return invalidField("auditFilter", "%s", err.Error())
		}
	}
	return nil
}

// AuditFilterError says where an audit filter stops being a JSON document.
// Line and Column count from 1, in runes, as an editor shows them.
type AuditFilterError struct {
	Line, Column int
	Msg          string
}

func (e *AuditFilterError) Error() string {
	if e.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// CheckAuditFilter reports whether text is a JSON document (an object), as
// auditFilter must be; a syntax error comes back as *AuditFilterError with
// its line and column.
func CheckAuditFilter(text string) error {
	dec := json.NewDecoder(strings.NewReader(text))
	var doc any
	err := dec.Decode(&doc)
	if err == nil {
		if _, ok := doc.(map[string]any); !ok {
			return &AuditFilterError{Msg: "must be a JSON object such as {\"atype\": \"authenticate\"}"}
		}
		if off := dec.InputOffset(); strings.TrimSpace(text[off:]) != "" {
			line, col := position(text, int(off)+len(text[off:])-len(strings.TrimLeft(text[off:], " \t\r\n")))
			return &AuditFilterError{Line: line, Column: col, Msg: "unexpected text after the JSON document"}
		}
		return nil
	}
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		// Offset counts the bytes read, including the offending one.
		line, col := position(text, max(0, int(se.Offset)-1))
		return &AuditFilterError{Line: line, Column: col, Msg: se.Error()}
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		line, col := position(text, len(text))
		return &AuditFilterError{Line: line, Column: col, Msg: "unexpected end of the document"}
	}
	return &AuditFilterError{Msg: err.Error()}
}

// position converts a byte offset to a 1-based line and rune column.
func position(text string, off int) (line, col int) {
	off = min(off, len(text))
	before := text[:off]
	line = strings.Count(before, "\n") + 1
	lineStart := strings.LastIndexByte(before, '\n') + 1
	return line, len([]rune(before[lineStart:])) + 1
}

// iamRoleARN is the shape of an AWS IAM role ARN: 12-digit account, a role
// name (with an optional path) of the characters IAM allows.
var iamRoleARN = regexp.MustCompile(`^arn:aws:iam::\d{12}:role/[A-Za-z0-9+=,.@_/-]{1,512}$`)

// ValidIAMRoleARN checks that s is an IAM role ARN such as
// arn:aws:iam::123456789012:role/atlas-exports, the value authorize takes.
func ValidIAMRoleARN(s string) error {
	switch {
	case s == "":
		return invalidField("iamAssumedRoleArn", "required to authorize an AWS role")
	case !strings.HasPrefix(s, "arn:aws:iam::"):
		return invalidField("iamAssumedRoleArn", "must start with arn:aws:iam:: (an IAM role ARN such as arn:aws:iam::123456789012:role/atlas)")
	case !iamRoleARN.MatchString(s):
		return invalidField("iamAssumedRoleArn", "must be arn:aws:iam::<12-digit account>:role/<name>, such as arn:aws:iam::123456789012:role/atlas")
	}
	return nil
}

// AWSCustomDNS is AWSCustomDNSEnabledView.
type AWSCustomDNS struct {
	Enabled bool `json:"enabled"`
}

// FeatureUsage is one feature that uses an access role.
type FeatureUsage struct {
	FeatureType string          `json:"featureType"` // ATLAS_DATA_LAKE, ENCRYPTION_AT_REST, EXPORT_SNAPSHOT, ...
	FeatureID   json.RawMessage `json:"featureId,omitempty"`
}

// GCPRoleStatus is a GCP service account's setup status.
type GCPRoleStatus string

const (
	GCPInProgress   GCPRoleStatus = "IN_PROGRESS"
	GCPComplete     GCPRoleStatus = "COMPLETE"
	GCPFailed       GCPRoleStatus = "FAILED"
	GCPNotInitiated GCPRoleStatus = "NOT_INITIATED"
)

// AccessRole is a cloud provider access role; ProviderName says which
// members apply. AWS: RoleID, AtlasAWSAccountARN, AtlasAssumedRoleExternalID,
// IAMAssumedRoleARN, AuthorizedDate. AZURE: ID, AtlasAzureAppID,
// ServicePrincipalID, TenantID, LastUpdatedDate. GCP: RoleID,
// GCPServiceAccountForAtlas, Status.
type AccessRole struct {
	ProviderName CloudProvider  `json:"providerName"`
	CreatedDate  *time.Time     `json:"createdDate,omitempty"`
	FeatureUsage []FeatureUsage `json:"featureUsages,omitempty"`

	RoleID                     string     `json:"roleId,omitempty"`
	AtlasAWSAccountARN         string     `json:"atlasAWSAccountArn,omitempty"`
	AtlasAssumedRoleExternalID string     `json:"atlasAssumedRoleExternalId,omitempty"`
	IAMAssumedRoleARN          string     `json:"iamAssumedRoleArn,omitempty"`
	AuthorizedDate             *time.Time `json:"authorizedDate,omitempty"`

	ID                 string     `json:"_id,omitempty"`
	AtlasAzureAppID    string     `json:"atlasAzureAppId,omitempty"`
	ServicePrincipalID string     `json:"servicePrincipalId,omitempty"`
	TenantID           string     `json:"tenantId,omitempty"`
	LastUpdatedDate    *time.Time `json:"lastUpdatedDate,omitempty"`

	GCPServiceAccountForAtlas string        `json:"gcpServiceAccountForAtlas,omitempty"`
	Status                    GCPRoleStatus `json:"status,omitempty"`
}

// Key is the id the role routes take: roleId, or _id for Azure.
func (r AccessRole) Key() string {
	if r.RoleID != "" {
		return r.RoleID
	}
	return r.ID
}

// Authorized reports whether the role is ready to use.
func (r AccessRole) Authorized() bool {
	switch r.ProviderName {
	case ProviderAWS:
		return r.AuthorizedDate != nil
	case ProviderGCP:
		return r.Status == GCPComplete
	}
	return true
}

// AccessRoles is CloudProviderAccessRoles: a project's roles by provider.
type AccessRoles struct {
	AWSIAMRoles            []AccessRole `json:"awsIamRoles"`
	AzureServicePrincipals []AccessRole `json:"azureServicePrincipals"`
	GCPServiceAccounts     []AccessRole `json:"gcpServiceAccounts"`
}

// UnmarshalJSON holds at most MaxRows roles of each provider, reading past
// the rest: Capped tells when a list reached that.
func (r *AccessRoles) UnmarshalJSON(b []byte) error {
	raw := struct {
		AWS   listBody[AccessRole] `json:"awsIamRoles"`
		Azure listBody[AccessRole] `json:"azureServicePrincipals"`
		GCP   listBody[AccessRole] `json:"gcpServiceAccounts"`
	}{listBody[AccessRole]{max: MaxRows}, listBody[AccessRole]{max: MaxRows}, listBody[AccessRole]{max: MaxRows}}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	r.AWSIAMRoles, r.AzureServicePrincipals, r.GCPServiceAccounts = raw.AWS.Items, raw.Azure.Items, raw.GCP.Items
	return nil
}

// ShowingFirst is "showing the first N" when a provider's list reached the
// client's row cap (there may be more on the server), else "".
func (r AccessRoles) ShowingFirst() string {
	for _, l := range [][]AccessRole{r.AWSIAMRoles, r.AzureServicePrincipals, r.GCPServiceAccounts} {
		if more := ShowingFirst(len(l)); more != "" {
			return more
		}
	}
	return ""
}

// All lists every role, AWS first.
func (r AccessRoles) All() []AccessRole {
	out := append([]AccessRole(nil), r.AWSIAMRoles...)
	out = append(out, r.AzureServicePrincipals...)
	return append(out, r.GCPServiceAccounts...)
}

// AccessRoleRequest is the create (CloudProviderAccessRoleRequest) and the
// authorize (CloudProviderAccessRoleRequestUpdate) body.
type AccessRoleRequest struct {
	ProviderName       CloudProvider `json:"providerName"`
	IAMAssumedRoleARN  string        `json:"iamAssumedRoleArn,omitempty"`
	AtlasAzureAppID    string        `json:"atlasAzureAppId,omitempty"`
	ServicePrincipalID string        `json:"servicePrincipalId,omitempty"`
	TenantID           string        `json:"tenantId,omitempty"`
}

func (r AccessRoleRequest) validate(authorize bool) error {
	if err := validProvider("providerName", r.ProviderName); err != nil {
		return err
	}
	switch r.ProviderName {
	case ProviderAzure:
		switch {
		case r.AtlasAzureAppID == "":
			return invalidField("atlasAzureAppId", "required for AZURE")
		case r.ServicePrincipalID == "":
			return invalidField("servicePrincipalId", "required for AZURE")
		case r.TenantID == "":
			return invalidField("tenantId", "required for AZURE")
		}
	case ProviderAWS:
		if authorize {
			return ValidIAMRoleARN(r.IAMAssumedRoleARN)
		}
	}
	return nil
}

// AuditLog fetches the auditing configuration.
func (s SettingsService) AuditLog(ctx context.Context, groupID string) (*AuditLog, error) {
	return getJSON[AuditLog](ctx, s.c, "getAuditingConfiguration", Request{Params: groupParams(groupID)})
}

// UpdateAuditLog changes the auditing configuration.
func (s SettingsService) UpdateAuditLog(ctx context.Context, groupID string, u AuditLogUpdate) (*AuditLog, error) {
	return sendChecked[AuditLog](ctx, s.c, "update auditing", u.Validate(), "updateAuditingConfiguration", Request{Params: groupParams(groupID), Body: u})
}

// CustomDNS fetches whether custom DNS is on for AWS clusters.
func (s SettingsService) CustomDNS(ctx context.Context, groupID string) (*AWSCustomDNS, error) {
	return getJSON[AWSCustomDNS](ctx, s.c, "getAwsCustomDns", Request{Params: groupParams(groupID)})
}

// ToggleCustomDNS turns custom DNS for AWS clusters on or off.
func (s SettingsService) ToggleCustomDNS(ctx context.Context, groupID string, enabled bool) (*AWSCustomDNS, error) {
	return getJSON[AWSCustomDNS](ctx, s.c, "toggleAwsCustomDns", Request{Params: groupParams(groupID), Body: AWSCustomDNS{Enabled: enabled}})
}

// AccessRoles lists the project's cloud provider access roles.
func (s SettingsService) AccessRoles(ctx context.Context, groupID string) (*AccessRoles, error) {
	return getJSON[AccessRoles](ctx, s.c, "listCloudProviderAccessRoles", Request{Params: groupParams(groupID)})
}

// AccessRole fetches one access role.
func (s SettingsService) AccessRole(ctx context.Context, groupID, roleID string) (*AccessRole, error) {
	return getJSON[AccessRole](ctx, s.c, "getCloudProviderAccessRole", Request{Params: groupParams(groupID, "roleId", roleID)})
}

// CreateAccessRole creates an access role.
func (s SettingsService) CreateAccessRole(ctx context.Context, groupID string, req AccessRoleRequest) (*AccessRole, error) {
	return sendChecked[AccessRole](ctx, s.c, "create access role", req.validate(false), "createCloudProviderAccessRole", Request{Params: groupParams(groupID), Body: req})
}

// AuthorizeAccessRole authorizes an access role (AWS: the IAM role ARN;
// the step is not needed for GCP).
func (s SettingsService) AuthorizeAccessRole(ctx context.Context, groupID, roleID string, req AccessRoleRequest) (*AccessRole, error) {
	return sendChecked[AccessRole](ctx, s.c, "authorize access role", req.validate(true), "authorizeCloudProviderAccessRole", Request{Params: groupParams(groupID, "roleId", roleID), Body: req})
}

// DeauthorizeAccessRole removes an access role.
func (s SettingsService) DeauthorizeAccessRole(ctx context.Context, groupID string, provider CloudProvider, roleID string) error {
	if err := validProvider("cloudProvider", provider); err != nil {
		return fmt.Errorf("deauthorize access role: %w", err)
	}
	return callNoBody(ctx, s.c, "deauthorizeCloudProviderAccessRole", Request{Params: groupParams(groupID, "cloudProvider", string(provider), "roleId", roleID)})
}

// EncryptionPrivateEndpoint is a private endpoint of encryption at rest.
type EncryptionPrivateEndpoint struct {
	ID                            string        `json:"id"`
	CloudProvider                 CloudProvider `json:"cloudProvider"`
	RegionName                    string        `json:"regionName"`
	Status                        string        `json:"status"` // INITIATING, PENDING_ACCEPTANCE, ACTIVE, FAILED, PENDING_RECREATION, DELETING
	ErrorMessage                  string        `json:"errorMessage,omitempty"`
	PrivateEndpointConnectionName string        `json:"privateEndpointConnectionName,omitempty"`
}

// EncryptionPrivateEndpoint fetches a private endpoint of encryption at rest.
func (s SettingsService) EncryptionPrivateEndpoint(ctx context.Context, groupID string, provider CloudProvider, endpointID string) (*EncryptionPrivateEndpoint, error) {
	return getJSON[EncryptionPrivateEndpoint](ctx, s.c, "getEncryptionAtRestPrivateEndpoint", Request{Params: groupParams(groupID, "cloudProvider", string(provider), "endpointId", endpointID)})
}

// DeleteEncryptionPrivateEndpoint asks for the endpoint's removal.
func (s SettingsService) DeleteEncryptionPrivateEndpoint(ctx context.Context, groupID string, provider CloudProvider, endpointID string) error {
	return callNoBody(ctx, s.c, "requestEncryptionAtRestPrivateEndpointDeletion", Request{Params: groupParams(groupID, "cloudProvider", string(provider), "endpointId", endpointID)})
}

// ServerlessEndpoint is a serverless instance's private endpoint.
type ServerlessEndpoint struct {
	ID                      string `json:"_id"`
	ProviderName            string `json:"providerName,omitempty"` // AWS, AZURE
	CloudProviderEndpointID string `json:"cloudProviderEndpointId,omitempty"`
	EndpointServiceName     string `json:"endpointServiceName,omitempty"`
	Comment                 string `json:"comment,omitempty"`
	Status                  string `json:"status"` // RESERVATION_REQUESTED, RESERVED, INITIATING, AVAILABLE, FAILED, DELETING
	ErrorMessage            string `json:"errorMessage,omitempty"`
}

type serverlessEndpointRequest struct {
	Comment string `json:"comment,omitempty"`
}

// ServerlessEndpoints lists a serverless instance's private endpoints.
func (s SettingsService) ServerlessEndpoints(ctx context.Context, groupID, instanceName string) ([]ServerlessEndpoint, error) {
	return getList[ServerlessEndpoint](ctx, s.c, "listServerlessPrivateEndpoints", Request{Params: groupParams(groupID, "instanceName", instanceName)})
}

// CreateServerlessEndpoint reserves a private endpoint for a serverless instance.
func (s SettingsService) CreateServerlessEndpoint(ctx context.Context, groupID, instanceName, comment string) (*ServerlessEndpoint, error) {
	return getJSON[ServerlessEndpoint](ctx, s.c, "createServerlessPrivateEndpoint", Request{Params: groupParams(groupID, "instanceName", instanceName), Body: serverlessEndpointRequest{Comment: comment}})
}
