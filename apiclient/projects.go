package apiclient

import (
	"context"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
)

// ProjectsService serves the context picker's upper levels: organizations,
// projects and service-account roles. A project's clusters are
// ClustersService's.
type ProjectsService struct{ c *Client }

// Projects is the service of organizations and projects.
func (c *Client) Projects() ProjectsService { return ProjectsService{c} }

// Organization is AtlasOrganization.
type Organization struct {
	ID                        string `json:"id"`
	Name                      string `json:"name"`
	IsDeleted                 bool   `json:"isDeleted"`
	SkipDefaultAlertsSettings bool   `json:"skipDefaultAlertsSettings,omitempty"`
	Links                     []Link `json:"links,omitempty"`
}

// Tag is a resource tag.
type Tag struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Project is a Group: a project.
type Project struct {
	ID                        string    `json:"id"`
	Name                      string    `json:"name"`
	OrgID                     string    `json:"orgId"`
	ClusterCount              int64     `json:"clusterCount"`
	Created                   time.Time `json:"created"`
	RegionUsageRestrictions   string    `json:"regionUsageRestrictions,omitempty"`
	Tags                      []Tag     `json:"tags,omitempty"`
	WithDefaultAlertsSettings *bool     `json:"withDefaultAlertsSettings,omitempty"`
	Links                     []Link    `json:"links,omitempty"`
}

// NameListOptions page a list that can be filtered by name.
type NameListOptions struct {
	Name string
	ListOptions
}

// ServiceAccount is a service account with its roles on one organization or
// project (OrgServiceAccount, GroupServiceAccount).
type ServiceAccount struct {
	ClientID    string                 `json:"clientId"`
	Name        string                 `json:"name"`
	Description string                 `json:"description,omitempty"`
	CreatedAt   *time.Time             `json:"createdAt,omitempty"`
	Roles       []string               `json:"roles"`
	Secrets     []ServiceAccountSecret `json:"secrets,omitempty"`
}

// ServiceAccountSecret describes one secret; the value itself is masked.
type ServiceAccountSecret struct {
	ID                string     `json:"id"`
	CreatedAt         *time.Time `json:"createdAt,omitempty"`
	ExpiresAt         *time.Time `json:"expiresAt,omitempty"`
	LastUsedAt        *time.Time `json:"lastUsedAt,omitempty"`
	MaskedSecretValue string     `json:"maskedSecretValue,omitempty"`
}

// OrgAssignments turns org roles into the gate's assignments.
func (s ServiceAccount) OrgAssignments(orgID string) []catalog.Assignment {
	out := make([]catalog.Assignment, len(s.Roles))
	for i, r := range s.Roles {
		out[i] = catalog.Assignment{RoleName: catalog.Role(r), OrgID: orgID}
	}
	return out
}

// GroupAssignments turns project roles into the gate's assignments.
func (s ServiceAccount) GroupAssignments(groupID string) []catalog.Assignment {
	out := make([]catalog.Assignment, len(s.Roles))
	for i, r := range s.Roles {
		out[i] = catalog.Assignment{RoleName: catalog.Role(r), GroupID: groupID}
	}
	return out
}

// Orgs fetches one page of the organizations the caller can see.
func (s ProjectsService) Orgs(ctx context.Context, o NameListOptions) (*Page[Organization], error) {
	return getPage[Organization](ctx, s.c, "listOrganizations", Request{Query: queryOf("name", o.Name)}, o.ListOptions)
}

// Org describes one organization.
func (s ProjectsService) Org(ctx context.Context, orgID string) (*Organization, error) {
	return getJSON[Organization](ctx, s.c, "getOrganization", Request{Params: map[string]string{"orgId": orgID}})
}

// AllOrgs fetches every organization the caller can see.
func (s ProjectsService) AllOrgs(ctx context.Context) ([]Organization, error) {
	return getAll[Organization](ctx, s.c, "listOrganizations", Request{})
}

// List fetches one page of the projects the caller can see.
func (s ProjectsService) List(ctx context.Context, o ListOptions) (*Page[Project], error) {
	return getPage[Project](ctx, s.c, "listProjects", Request{}, o)
}

// All fetches every project the caller can see.
func (s ProjectsService) All(ctx context.Context) ([]Project, error) {
	return getAll[Project](ctx, s.c, "listProjects", Request{})
}

// Get fetches one project.
func (s ProjectsService) Get(ctx context.Context, groupID string) (*Project, error) {
	return getJSON[Project](ctx, s.c, "getProject", Request{Params: groupParams(groupID)})
}

// OrgProjects fetches one page of an organization's projects.
func (s ProjectsService) OrgProjects(ctx context.Context, orgID string, o NameListOptions) (*Page[Project], error) {
	return getPage[Project](ctx, s.c, "listOrganizationProjects", Request{Params: pathParams("orgId", orgID), Query: queryOf("name", o.Name)}, o.ListOptions)
}

// AllOrgProjects fetches every project of an organization.
func (s ProjectsService) AllOrgProjects(ctx context.Context, orgID string) ([]Project, error) {
	return getAll[Project](ctx, s.c, "listOrganizationProjects", Request{Params: pathParams("orgId", orgID)})
}

// ServiceAccount fetches a service account with its roles on an organization.
func (s ProjectsService) ServiceAccount(ctx context.Context, orgID, clientID string) (*ServiceAccount, error) {
	return getJSON[ServiceAccount](ctx, s.c, "getServiceAccount", Request{Params: pathParams("orgId", orgID, "clientId", clientID)})
}

// ProjectServiceAccount fetches a service account with its roles on a project.
func (s ProjectsService) ProjectServiceAccount(ctx context.Context, groupID, clientID string) (*ServiceAccount, error) {
	return getJSON[ServiceAccount](ctx, s.c, "getProjectServiceAccount", Request{Params: groupParams(groupID, "clientId", clientID)})
}

// LegacyList fetches one page of projects from the v1.0 routes.
func (s ProjectsService) LegacyList(ctx context.Context, o ListOptions) (*Page[Project], error) {
	return getPage[Project](ctx, s.c, "legacyListProjects", Request{}, o)
}
