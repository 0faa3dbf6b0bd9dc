package apisim

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
)

// Identity kinds.
const (
	KindAPIKey         = "apiKey"
	KindServiceAccount = "serviceAccount"
)

// Identity is a caller the server knows: an API key pair (HTTP Digest) or a
// service account (OAuth client credentials; PublicKey is the client id and
// PrivateKey the secret).
type Identity struct {
	Name       string               `json:"name"`
	PublicKey  string               `json:"publicKey"`
	PrivateKey string               `json:"privateKey"`
	Kind       string               `json:"kind"`
	Roles      []catalog.Assignment `json:"roles"`
}

// The demo world's fixed ids. They do not depend on the seed so that demo
// identities and --keys files can name them.
const (
	DemoOrgID       = "65a0c0ffee00000000000001"
	DemoPaymentsID  = "65a0c0ffee0000000000b001"
	DemoAnalyticsID = "65a0c0ffee0000000000b002"
	DemoStagingID   = "65a0c0ffee0000000000b003"
)

// DemoIdentities are the built-in callers of the demo world (DefaultOrgs
// organizations, DefaultProjects projects), one per interesting role mix.
// Each private key is "<public>-secret".
func DemoIdentities() []Identity { return demoIdentitiesFor(0, 0) }

// demoIdentitiesFor are the built-in callers of a world of that size: each
// sees every project of every organization, but for payments-oncall, who
// is a member of every organization and holds roles on one project in
// three only (so the others answer 403: "not visible").
func demoIdentitiesFor(orgs, projects int) []Identity {
	if orgs <= 0 {
		orgs = DefaultOrgs
	}
	if projects <= 0 {
		projects = DefaultProjects
	}
	onProjects := func(roles ...catalog.Role) []catalog.Assignment {
		var out []catalog.Assignment
		for i := range projects {
			for _, r := range roles {
				out = append(out, catalog.Assignment{RoleName: r, GroupID: ProjectIDAt(i)})
			}
		}
		return out
	}
	orgRole := func(r catalog.Role) []catalog.Assignment {
		var out []catalog.Assignment
		for i := range orgs {
			out = append(out, catalog.Assignment{RoleName: r, OrgID: OrgIDAt(i)})
		}
		return out
	}
	oncall := orgRole(catalog.OrgMember)
	for i := 0; i < projects; i += 3 {
		oncall = append(oncall, catalog.Assignment{RoleName: catalog.GroupOwner, GroupID: ProjectIDAt(i)})
	}
	mk := func(pub, name, kind string, roles []catalog.Assignment) Identity {
		return Identity{Name: name, PublicKey: pub, PrivateKey: pub + "-secret", Kind: kind, Roles: roles}
	}
	return []Identity{
		mk("org-owner", "Organization owner", KindAPIKey, orgRole(catalog.OrgOwner)),
		mk("project-owner", "Project owner", KindAPIKey, append(onProjects(catalog.GroupOwner), orgRole(catalog.OrgMember)...)),
		mk("read-only", "Read only", KindAPIKey, append(onProjects(catalog.GroupReadOnly), orgRole(catalog.OrgMember)...)),
		mk("backup-manager", "Backup manager", KindAPIKey, onProjects(catalog.GroupBackupManager, catalog.GroupReadOnly)),
		mk("monitoring-admin", "Monitoring admin", KindAPIKey, onProjects(catalog.GroupMonitoringAdmin)),
		mk("data-access-admin", "Data access admin", KindAPIKey, onProjects(catalog.GroupDataAccessAdmin)),
		mk("demo-sa", "Demo service account", KindServiceAccount, orgRole(catalog.OrgOwner)),
		mk("payments-oncall", "On-call, some projects", KindAPIKey, oncall),
	}
}

// username is how the service names the caller in the members that hold a
// user (acknowledgingUsername, a compliance policy's updatedUser): an email.
// The demo identities keep memorable key names (org-owner, demo-sa); each
// stands for the user <name>@demo.example.
func (id *Identity) username() string { return userEmail(id.PublicKey) }

// userEmail is the email of the user a key name stands for; a name that is
// an email already is kept.
func userEmail(name string) string {
	if strings.Contains(name, "@") {
		return name
	}
	return name + "@demo.example"
}

// keyID is a stable 24-hex id for an identity, as apiKey.id shows it.
func (id *Identity) keyID() string {
	sum := sha256.Sum256([]byte("apikey:" + id.PublicKey))
	return hex.EncodeToString(sum[:12])
}

// LoadIdentities reads a --keys file: a JSON array of identities, e.g.
//
//	[{"name":"ci","publicKey":"abcdefgh","privateKey":"…","kind":"apiKey",
//	  "roles":[{"roleName":"GROUP_READ_ONLY","groupId":"65a0c0ffee0000000000b001"}]}]
//
// kind is "apiKey" (HTTP Digest) or "serviceAccount" (OAuth client
// credentials, publicKey being the client id). Roles use catalog role names.
func LoadIdentities(path string) ([]Identity, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read keys file: %w", err)
	}
	var ids []Identity
	if err := json.Unmarshal(b, &ids); err != nil {
		return nil, fmt.Errorf("keys file %s: not a JSON array of identities: %w", path, err)
	}
	if err := validateIdentities(ids); err != nil {
		return nil, fmt.Errorf("keys file %s: %w", path, err)
	}
	return ids, nil
}

func validateIdentities(ids []Identity) error {
	if len(ids) == 0 {
		return fmt.Errorf("no identities")
	}
	seen := map[string]bool{}
	for i, id := range ids {
		switch {
		case strings.TrimSpace(id.PublicKey) == "" || id.PrivateKey == "":
			return fmt.Errorf("identity %d: publicKey and privateKey are required", i)
		case strings.ContainsAny(id.PublicKey, ":\"\\"):
			return fmt.Errorf("identity %d: publicKey may not contain ':', '\"' or '\\'", i)
		case id.Kind != KindAPIKey && id.Kind != KindServiceAccount:
			return fmt.Errorf("identity %d (%s): kind must be %q or %q", i, id.PublicKey, KindAPIKey, KindServiceAccount)
		case seen[id.PublicKey]:
			return fmt.Errorf("identity %d: duplicate publicKey %s", i, id.PublicKey)
		}
		seen[id.PublicKey] = true
		for _, a := range id.Roles {
			if !a.RoleName.Known() {
				return fmt.Errorf("identity %s: unknown role %s", id.PublicKey, a.RoleName)
			}
			if (a.OrgID == "") == (a.GroupID == "") {
				return fmt.Errorf("identity %s: role %s needs exactly one of orgId or groupId", id.PublicKey, a.RoleName)
			}
			if a.RoleName.IsOrgRole() != (a.OrgID != "") {
				return fmt.Errorf("identity %s: role %s is held on the wrong kind of target", id.PublicKey, a.RoleName)
			}
		}
	}
	return nil
}
