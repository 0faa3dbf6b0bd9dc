package settings

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// The fixed rows; role rows use "role:<provider>:<id>".
const (
	rowAuditing    = "auditing"
	rowAuthSuccess = "authSuccess"
	rowFilter      = "filter"
	rowDNS         = "dns"
)

// section groups rows under a heading.
type section int

const (
	secAuditing section = iota
	secDNS
	secRoles
)

// row is one line the cursor can rest on.
type row struct {
	id   string
	sec  section
	role *apiclient.AccessRole
}

// rows are the selectable lines in order: the auditing settings, custom DNS,
// then the access roles by provider (AWS, Azure, GCP), filtered by `/`.
func (p *Pane) rows() []row {
	var out []row
	if p.snap.Audit != nil {
		out = append(out, row{id: rowAuditing, sec: secAuditing}, row{id: rowAuthSuccess, sec: secAuditing}, row{id: rowFilter, sec: secAuditing})
	}
	if p.snap.DNS != nil {
		out = append(out, row{id: rowDNS, sec: secDNS})
	}
	for _, r := range p.roles() {
		out = append(out, row{id: roleRowID(r), sec: secRoles, role: r})
	}
	return out
}

// roles are the project's roles that match the filter, AWS first, oldest
// first within a provider.
func (p *Pane) roles() []*apiclient.AccessRole {
	if p.snap.Roles == nil {
		return nil
	}
	var out []*apiclient.AccessRole
	for _, list := range [][]apiclient.AccessRole{p.snap.Roles.AWSIAMRoles, p.snap.Roles.AzureServicePrincipals, p.snap.Roles.GCPServiceAccounts} {
		group := make([]*apiclient.AccessRole, 0, len(list))
		for i := range list {
			r := &list[i]
			if r.ProviderName == "" {
				continue
			}
			if views.MatchFilter(p.filter, string(r.ProviderName), r.Key(), r.IAMAssumedRoleARN, roleStatus(*r), usageSummary(*r)) {
				group = append(group, r)
			}
		}
		sort.SliceStable(group, func(i, j int) bool {
			a, b := group[i].CreatedDate, group[j].CreatedDate
			return a != nil && b != nil && a.Before(*b)
		})
		out = append(out, group...)
	}
	return out
}

func roleRowID(r *apiclient.AccessRole) string {
	return "role:" + string(r.ProviderName) + ":" + r.Key()
}

// row is the row under the cursor.
func (p *Pane) row() (row, bool) {
	rows := p.rows()
	if p.cursor < 0 || p.cursor >= len(rows) {
		return row{}, false
	}
	return rows[p.cursor], true
}

// place puts the cursor back on the row it was on, by id, after a reload or
// a filter change. While that row is hidden the cursor rests nearby, and
// keep still names it, so clearing the filter finds it again.
func (p *Pane) place() {
	rows := p.rows()
	for i, r := range rows {
		if r.id == p.keep {
			p.cursor = i
			return
		}
	}
	p.cursor = max(0, min(p.cursor, len(rows)-1))
}

// roleStatus is what the list says of a role's readiness.
func roleStatus(r apiclient.AccessRole) string {
	switch r.ProviderName {
	case apiclient.ProviderAWS:
		if r.AuthorizedDate != nil {
			return "authorized"
		}
		return "not authorized"
	case apiclient.ProviderGCP:
		if r.Status == "" {
			return "unknown"
		}
		return strings.ToLower(strings.ReplaceAll(string(r.Status), "_", " "))
	}
	return "ready"
}

// usageSummary names what uses the role: "EXPORT_SNAPSHOT payments-exports".
func usageSummary(r apiclient.AccessRole) string {
	parts := make([]string, 0, len(r.FeatureUsage))
	for _, u := range r.FeatureUsage {
		parts = append(parts, strings.TrimSpace(u.FeatureType+" "+usageName(u)))
	}
	return strings.Join(parts, ", ")
}

// usageName is the most telling part of a feature id: a bucket's name, an
// id, or the raw value.
func usageName(u apiclient.FeatureUsage) string {
	if len(u.FeatureID) == 0 {
		return ""
	}
	var m map[string]any
	if json.Unmarshal(u.FeatureID, &m) == nil {
		for _, k := range []string{"bucketName", "name", "exportBucketId", "id"} {
			if v, ok := m[k].(string); ok && v != "" {
				return v
			}
		}
		return ""
	}
	var s string
	if json.Unmarshal(u.FeatureID, &s) == nil {
		return s
	}
	return string(u.FeatureID)
}

// exportUse returns the name of an export bucket that uses the role, if any.
func exportUse(r apiclient.AccessRole) (string, bool) {
	for _, u := range r.FeatureUsage {
		if u.FeatureType == "EXPORT_SNAPSHOT" {
			name := usageName(u)
			if name == "" {
				name = "(unnamed)"
			}
			return name, true
		}
	}
	return "", false
}

// findRole returns the loaded role with key id.
func (p *Pane) findRole(id string) *apiclient.AccessRole {
	if p.snap.Roles == nil {
		return nil
	}
	for _, list := range [][]apiclient.AccessRole{p.snap.Roles.AWSIAMRoles, p.snap.Roles.AzureServicePrincipals, p.snap.Roles.GCPServiceAccounts} {
		for i := range list {
			if list[i].Key() == id {
				return &list[i]
			}
		}
	}
	return nil
}
