package config

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
)

// Profile keys shared by the cloud CLI's file and ours.
const (
	keyOrgID         = "org_id"
	keyProjectID     = "project_id"
	keyService       = "service"
	keyAuthType      = "auth_type"
	keyPublicAPIKey  = "public_api_key"
	keyPrivateAPIKey = "private_api_key"
	keyClientID      = "client_id"
	keyClientSecret  = "client_secret"
	keyAccessToken   = "access_token"
	keyRefreshToken  = "refresh_token"
	keyOpsManagerURL = "ops_manager_url"
	keyBaseURL       = "base_url" // file-only alias of ops_manager_url
)

// Keys only our file knows.
const (
	keyServiceSegment = "service_segment"
	keyRoles          = "roles"
	keyReadOnly       = "read_only"
	// The Triage board's narrowing: organizations and projects by name or id.
	keyTriageOrgs     = "triage_orgs"
	keyTriageProjects = "triage_projects"
	// The Triage board's optional (costly) failed-authentication bursts:
	// on or off, and how many failures a minute from one address make one.
	keyTriageAuthBursts   = "triage_auth_bursts"
	keyTriageAuthBurstMin = "triage_auth_burst_threshold"
)

// DefaultAuthBurstThreshold is how many failed authentications within one
// minute from one address make a Triage row when the profile turns the
// bursts on without a threshold.
const DefaultAuthBurstThreshold = 20

// stringKeys are the string-valued profile keys a layer carries.
var stringKeys = []string{
	keyOrgID, keyProjectID, keyService, keyAuthType,
	keyPublicAPIKey, keyPrivateAPIKey, keyClientID, keyClientSecret, keyAccessToken,
	keyOpsManagerURL, keyServiceSegment,
}

// secretKeys are the values that must never be shown and that make a file
// subject to the 0600 rule (the CLI's secure properties).
var secretKeys = []string{
	keyPublicAPIKey, keyPrivateAPIKey, keyClientID, keyClientSecret, keyAccessToken, keyRefreshToken,
}

// cliGlobalKeys are the CLI file's top-level settings; every other top-level
// table is a profile.
var cliGlobalKeys = map[string]bool{
	"version": true, "mongosh_path": true, "skip_update_check": true, "silence_storage_warning": true,
	"telemetry_enabled": true, "local_deployment_image": true, keyService: true,
}

// cliIgnoredProfileKeys are CLI profile keys this tool does not use; our file
// accepts them too so a profile can be copied over unchanged.
var cliIgnoredProfileKeys = map[string]bool{
	"output": true, "account_url": true, "api_version": true, keyRefreshToken: true,
}

// layer is one profile's values from one source; merging takes each key
// from the highest layer that sets it.
type layer struct {
	source   string
	values   map[string]string
	roles    []catalog.Assignment
	hasRoles bool
	readOnly *bool
	// triage: triage_orgs, triage_projects (nil when not set)
	triageOrgs, triageProjects []string
	// triage_auth_bursts, triage_auth_burst_threshold (nil when not set)
	authBursts   *bool
	authBurstMin *int
}

func (l *layer) get(key string) (string, bool) {
	if l == nil {
		return "", false
	}
	v, ok := l.values[key]
	return v, ok && v != ""
}

// profileTables returns the top-level tables that are profiles, by
// lower-cased name (the CLI lower-cases profile names).
func profileTables(root map[string]any, reserved map[string]bool) map[string]map[string]any {
	out := map[string]map[string]any{}
	for name, v := range root {
		if reserved[name] {
			continue
		}
		if t, ok := v.(map[string]any); ok {
			out[strings.ToLower(name)] = t
		}
	}
	return out
}

// holdsSecrets reports whether any profile table sets a secret.
func holdsSecrets(profiles map[string]map[string]any) bool {
	for _, t := range profiles {
		for _, k := range secretKeys {
			if s, ok := t[k].(string); ok && s != "" {
				return true
			}
		}
	}
	return false
}

// readProfileLayer reads the profile keys of one table. strict reports keys
// it does not know (our file); the CLI's file may hold keys we ignore.
func readProfileLayer(f *tomlFile, name string, t map[string]any, strict bool) (*layer, error) {
	where := name + "."
	l := &layer{source: fmt.Sprintf("%s [%s]", f.path, name), values: map[string]string{}}
	for _, k := range stringKeys {
		v, ok, err := getString(f, t, k, where)
		if err != nil {
			return nil, err
		}
		if ok {
			l.values[k] = v
		}
	}
	// base_url is a file alias; ops_manager_url wins when both are set.
	if alias, ok, err := getString(f, t, keyBaseURL, where); err != nil {
		return nil, err
	} else if ok && l.values[keyOpsManagerURL] == "" {
		l.values[keyOpsManagerURL] = alias
	}
	if !strict {
		return l, nil
	}
	var err error
	if l.readOnly, err = getOptBool(f, t, keyReadOnly, where); err != nil {
		return nil, err
	}
	if l.triageOrgs, err = getNames(f, t, keyTriageOrgs, where); err != nil {
		return nil, err
	}
	if l.triageProjects, err = getNames(f, t, keyTriageProjects, where); err != nil {
		return nil, err
	}
	if l.authBursts, err = getOptBool(f, t, keyTriageAuthBursts, where); err != nil {
		return nil, err
	}
	n, set, err := getInt(f, t, keyTriageAuthBurstMin, where)
	if err != nil {
		return nil, err
	}
	if set {
		if n < 2 || n > 10000 {
			return nil, &FileError{Path: f.path, Key: where + keyTriageAuthBurstMin, Msg: "must be 2 to 10000 failed authentications a minute"}
		}
		v := int(n)
		l.authBurstMin = &v
	}
	if _, ok := t[keyRoles]; ok {
		roles, err := readRoles(f, t[keyRoles], where+keyRoles)
		if err != nil {
			return nil, err
		}
		l.roles, l.hasRoles = roles, true
	}
	known := map[string]bool{keyBaseURL: true, keyReadOnly: true, keyRoles: true, keyTriageOrgs: true, keyTriageProjects: true,
		keyTriageAuthBursts: true, keyTriageAuthBurstMin: true}
	for _, k := range stringKeys {
		known[k] = true
	}
	for k := range t {
		if !known[k] && !cliIgnoredProfileKeys[k] {
			return nil, f.unknownKey(where, k, "unknown key")
		}
	}
	return l, nil
}

// readRoles reads [[profile.roles]] entries: role plus group_id or org_id.
func readRoles(f *tomlFile, v any, key string) ([]catalog.Assignment, error) {
	var tables []map[string]any
	switch list := v.(type) {
	case []map[string]any:
		tables = list
	case []any:
		for _, item := range list {
			t, ok := item.(map[string]any)
			if !ok {
				return nil, &FileError{Path: f.path, Key: key, Msg: `each entry must be a table like {role = "GROUP_OWNER", group_id = "..."}`}
			}
			tables = append(tables, t)
		}
	default:
		return nil, &FileError{Path: f.path, Key: key, Msg: "must be a list of [[" + key + "]] tables"}
	}
	out := make([]catalog.Assignment, 0, len(tables))
	for i, t := range tables {
		where := fmt.Sprintf("%s[%d].", key, i)
		role, _, err := getString(f, t, "role", where)
		if err != nil {
			return nil, err
		}
		group, _, err := getString(f, t, "group_id", where)
		if err != nil {
			return nil, err
		}
		org, _, err := getString(f, t, "org_id", where)
		if err != nil {
			return nil, err
		}
		for k := range t {
			if k != "role" && k != "group_id" && k != "org_id" {
				return nil, f.unknownKey(where, k, "unknown key (want role, group_id or org_id)")
			}
		}
		r := catalog.Role(strings.ToUpper(strings.TrimSpace(role)))
		switch {
		case r == "":
			return nil, &FileError{Path: f.path, Key: where + "role", Msg: "missing"}
		case !r.Known():
			return nil, &FileError{Path: f.path, Key: where + "role", Msg: fmt.Sprintf("unknown role (want one of %s)", roleNames())}
		case r.IsOrgRole() && (org == "" || group != ""):
			return nil, &FileError{Path: f.path, Key: where + "org_id", Msg: "an organization role needs org_id (and no group_id)"}
		case !r.IsOrgRole() && (group == "" || org != ""):
			return nil, &FileError{Path: f.path, Key: where + "group_id", Msg: "a project role needs group_id (and no org_id)"}
		}
		out = append(out, catalog.Assignment{RoleName: r, OrgID: org, GroupID: group})
	}
	return out, nil
}

func roleNames() string {
	var names []string
	for _, r := range catalog.AllRoles() {
		names = append(names, string(r))
	}
	return strings.Join(names, ", ")
}

func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// getNames reads a list of names or ids (triage_orgs = ["Acme", "5f..."]):
// each a non-empty string, none twice.
func getNames(f *tomlFile, t map[string]any, key, where string) ([]string, error) {
	v, ok := t[key]
	if !ok {
		return nil, nil
	}
	bad := &FileError{Path: f.path, Key: where + key, Msg: `must list names or ids as strings, e.g. ["Demo-Org", "payments"]`}
	list, ok := v.([]any)
	if !ok {
		return nil, bad
	}
	out := make([]string, 0, len(list))
	for _, item := range list {
		s, ok := item.(string)
		if !ok || strings.TrimSpace(s) == "" {
			return nil, bad
		}
		s = strings.TrimSpace(s)
		if slices.Contains(out, s) {
			return nil, &FileError{Path: f.path, Key: where + key, Msg: fmt.Sprintf("%q is listed twice", s)}
		}
		out = append(out, s)
	}
	return out, nil
}
