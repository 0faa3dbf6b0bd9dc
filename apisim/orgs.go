package apisim

import "github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"

// Who am I, organizations, projects and service accounts.

func init() {
	handle("getSystemStatus", getSystemStatus)
	handle("listOrganizations", listOrganizations)
	handle("getOrganization", func(c *call) (any, error) { return orgView(c.org), nil })
	handle("listProjects", listProjects)
	handle("legacyListProjects", listProjects)
	handle("getProject", func(c *call) (any, error) { return c.w.projectView(c.project), nil })
	handle("listOrganizationProjects", listOrganizationProjects)
	handle("getServiceAccount", getServiceAccount)
	handle("getProjectServiceAccount", getProjectServiceAccount)
}

func getSystemStatus(c *call) (any, error) {
	out := map[string]any{"appName": "MongoDB Atlas", "build": "dbadmin-sim", "throttling": c.s.limiter.enforce}
	if c.id.Kind == KindServiceAccount {
		// Like the real service: a service account has no API key record.
		out["apiKey"] = nil
		return out, nil
	}
	roles := c.id.Roles
	if roles == nil {
		roles = []catalog.Assignment{}
	}
	out["apiKey"] = map[string]any{
		"id": c.id.keyID(), "publicKey": c.id.PublicKey, "accessList": []any{}, "roles": roles,
	}
	return out, nil
}

// canSee reports whether the caller holds any role on the project or its org.
func (c *call) canSee(p *Project) bool {
	for _, a := range c.id.Roles {
		if a.GroupID == p.ID || (a.OrgID != "" && a.OrgID == p.OrgID) {
			return true
		}
	}
	return false
}

func (c *call) visibleProjects() []*Project {
	var out []*Project
	for _, p := range c.w.Projects {
		if c.canSee(p) {
			out = append(out, p)
		}
	}
	return out
}

func listOrganizations(c *call) (any, error) {
	out := list{}
	for _, o := range append([]*Org{&c.w.Org}, c.w.Orgs...) {
		for _, a := range c.id.Roles {
			if p := c.w.project(a.GroupID); a.OrgID == o.ID || (p != nil && p.OrgID == o.ID) {
				out = append(out, orgView(o))
				break
			}
		}
	}
	return out, nil
}

func orgView(o *Org) any {
	return map[string]any{"id": o.ID, "name": o.Name, "isDeleted": o.IsDeleted, "skipDefaultAlertsSettings": o.SkipDefaultAlertsSettings}
}

func (w *World) projectView(p *Project) any {
	n := 0
	for _, c := range w.Clusters {
		if c.GroupID == p.ID {
			n++
		}
	}
	tags := p.Tags
	if tags == nil {
		tags = []Tag{}
	}
	return map[string]any{
		"id": p.ID, "name": p.Name, "orgId": p.OrgID, "clusterCount": n, "created": fmtTime(p.Created),
		"tags": tags, "regionUsageRestrictions": "COMMERCIAL_FEDRAMP_REGIONS_ONLY", "withDefaultAlertsSettings": true,
	}
}

func listProjects(c *call) (any, error) {
	return listOf(c.visibleProjects(), c.w.projectView), nil
}

func listOrganizationProjects(c *call) (any, error) {
	var out list
	for _, p := range c.w.Projects {
		if p.OrgID == c.org.ID {
			out = append(out, c.w.projectView(p))
		}
	}
	return out, nil
}

// serviceAccount finds the service-account identity with that client id.
func (c *call) serviceAccount() (*Identity, error) {
	id := c.w.identities[c.param("clientId")]
	if id == nil || id.Kind != KindServiceAccount {
		return nil, errNotFound("SERVICE_ACCOUNT_NOT_FOUND", "No service account with client ID %s exists.", c.param("clientId"))
	}
	return id, nil
}

func saView(id *Identity, roles []string) any {
	if roles == nil {
		roles = []string{}
	}
	return map[string]any{
		"clientId": id.PublicKey, "name": id.Name, "description": "dbadmin-sim identity", "createdAt": "2024-01-01T00:00:00Z",
		"roles": roles,
		"secrets": []any{map[string]any{
			"id": id.keyID(), "createdAt": "2024-01-01T00:00:00Z", "expiresAt": "2030-01-01T00:00:00Z",
			"maskedSecretValue": "mdb_sa_sk_****" + id.PrivateKey[max(0, len(id.PrivateKey)-4):],
		}},
	}
}

func getServiceAccount(c *call) (any, error) {
	id, err := c.serviceAccount()
	if err != nil {
		return nil, err
	}
	var roles []string
	for _, a := range id.Roles {
		if a.OrgID == c.org.ID {
			roles = append(roles, string(a.RoleName))
		}
	}
	if roles == nil {
		return nil, errNotFound("SERVICE_ACCOUNT_NOT_FOUND", "Service account %s is not in organization %s.", id.PublicKey, c.org.ID)
	}
	return saView(id, roles), nil
}

func getProjectServiceAccount(c *call) (any, error) {
	id, err := c.serviceAccount()
	if err != nil {
		return nil, err
	}
	var roles []string
	related := false
	for _, a := range id.Roles {
		if a.GroupID == c.project.ID {
			roles = append(roles, string(a.RoleName))
			related = true
		}
		if a.OrgID == c.project.OrgID {
			related = true
		}
	}
	if !related {
		return nil, errNotFound("SERVICE_ACCOUNT_NOT_FOUND", "Service account %s is not in group %s.", id.PublicKey, c.project.ID)
	}
	return saView(id, roles), nil
}
