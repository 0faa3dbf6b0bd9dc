// Package config resolves which service to talk to, as whom, and how the
// dashboard looks: the cloud CLI's profiles (read, never written), our own
// TOML file, MONGODB_ATLAS_* environment variables and command-line flags.
package config

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
)

// Auth types, as the cloud CLI spells them in auth_type.
const (
	AuthAPIKeys        = "api_keys"
	AuthServiceAccount = "service_account"
	AuthUserAccount    = "user_account"
	AuthNone           = "no_auth"
)

// Cloud services and their default addresses.
const (
	ServiceCloud    = "cloud"
	ServiceCloudGov = "cloudgov"

	CloudBaseURL    = "https://cloud.mongodb.com"
	CloudGovBaseURL = "https://cloud.mongodbgov.com"

	// DefaultServiceSegment is the path segment of /api/{segment}/v2.
	DefaultServiceSegment = "atlas"

	// DefaultProfile is used when nothing selects another.
	DefaultProfile = "default"
)

// EnvProfile selects the profile when no flag does.
const EnvProfile = "MONGODB_ATLAS_PROFILE"

// envVars maps profile keys to the environment variables that override them,
// in order of precedence.
var envVars = map[string][]string{
	keyPublicAPIKey:  {"MONGODB_ATLAS_PUBLIC_API_KEY"},
	keyPrivateAPIKey: {"MONGODB_ATLAS_PRIVATE_API_KEY"},
	keyClientID:      {"MONGODB_ATLAS_CLIENT_ID"},
	keyClientSecret:  {"MONGODB_ATLAS_CLIENT_SECRET"},
	keyAccessToken:   {"MONGODB_ATLAS_ACCESS_TOKEN"},
	keyOrgID:         {"MONGODB_ATLAS_ORG_ID"},
	keyProjectID:     {"MONGODB_ATLAS_PROJECT_ID"},
	keyOpsManagerURL: {"MONGODB_ATLAS_OPS_MANAGER_URL", "MONGODB_ATLAS_BASE_URL"},
	keyService:       {"MONGODB_ATLAS_SERVICE"},
	keyAuthType:      {"MONGODB_ATLAS_AUTH_TYPE"},
}

// LoadOptions say where to look and what the command line overrides.
type LoadOptions struct {
	// Profile is the --profile flag. Without it: $MONGODB_ATLAS_PROFILE, else
	// the only profile defined, else "default".
	Profile string
	// ConfigPath is the --config flag: our own file, which must then exist.
	// Without it, $XDG_CONFIG_HOME/dbadmin-tui/config.toml or
	// ~/.config/dbadmin-tui/config.toml is read if present.
	ConfigPath string
	// BaseURL (--base-url) and ServiceSegment (--service) win over every
	// file and the environment.
	BaseURL        string
	ServiceSegment string
	// Env reads the environment; nil means os.Getenv. Tests inject a map.
	Env func(string) string
	// Panes are the registered panes' default poll intervals by pane id:
	// the keys the [poll] table accepts (ui.Panes().PollDefaults()).
	Panes Intervals
}

// Resolved is the profile in effect after merging flags > environment > our
// profile > the cloud CLI's profile. Secret fields print masked.
type Resolved struct {
	Name   string   // profile name
	Source []string // what contributed, highest precedence first: flags, env vars, files

	BaseURL      string // scheme://host[:port][/prefix], no trailing slash
	Service      string // API path segment: /api/{Service}/v2
	CloudService string // cloud or cloudgov
	AuthType     string // one of the Auth* constants, or "" when no credentials were found

	PublicKey    Secret
	PrivateKey   Secret
	ClientID     Secret
	ClientSecret Secret
	AccessToken  Secret

	OrgID     string
	ProjectID string
	// Roles are the caller's role assignments from our profile, for service
	// accounts whose roles the server does not report; nil when not listed.
	Roles    []catalog.Assignment
	ReadOnly bool
	// TriageOrgs and TriageProjects narrow the Triage board to these
	// organizations and projects (names or ids); empty: everything visible.
	TriageOrgs, TriageProjects []string
	// TriageAuthBursts, when above zero, has the Triage board read the
	// access logs of the clusters the caller may read them of and list each
	// address with at least this many failed authentications within one
	// minute (triage_auth_bursts, triage_auth_burst_threshold); 0: off.
	TriageAuthBursts int

	Theme     string              // dark, light, mono, or "" to follow the terminal
	Keys      map[string][]string // action name -> keys, validated by the keymap
	Poll      Intervals
	LogBuffer int
	ExportDir string // where saved files go (export_dir); "" for the default

	CLIConfigPath string // the cloud CLI's file (whether or not it exists)
	ConfigPath    string // our file (whether or not it exists)
}

// ErrProfileNotFound is returned (wrapped) when an explicitly selected
// profile is in neither file.
var ErrProfileNotFound = errors.New("profile not found")

// Load resolves the profile to use.
func Load(opts LoadOptions) (*Resolved, error) {
	env := opts.Env
	if env == nil {
		env = os.Getenv
	}
	cliPath, err := cliConfigPath(env)
	if err != nil {
		return nil, err
	}
	ownPath := opts.ConfigPath
	if ownPath == "" {
		if ownPath, err = ownConfigPath(env); err != nil {
			return nil, err
		}
	}

	cliFile, err := readTOML(cliPath, false)
	if err != nil {
		return nil, err
	}
	ownFile, err := readTOML(ownPath, opts.ConfigPath != "")
	if err != nil {
		return nil, err
	}

	var cliProfiles, ownProfiles map[string]map[string]any
	if cliFile != nil {
		cliProfiles = profileTables(cliFile.root, cliGlobalKeys)
		if err := cliFile.checkSecretsMode(holdsSecrets(cliProfiles)); err != nil {
			return nil, err
		}
	}
	if ownFile != nil {
		ownProfiles = profileTables(ownFile.root, ownGlobalKeys)
		if err := ownFile.checkSecretsMode(holdsSecrets(ownProfiles)); err != nil {
			return nil, err
		}
	}

	name, explicit := selectProfile(opts.Profile, env, cliProfiles, ownProfiles)
	cliTable, inCLI := cliProfiles[name]
	ownTable, inOwn := ownProfiles[name]
	if explicit && !inCLI && !inOwn {
		return nil, profileNotFound(name, cliPath, ownPath, cliProfiles, ownProfiles)
	}

	var cliLayer, ownLayer *layer
	if inCLI {
		if cliLayer, err = readProfileLayer(cliFile, name, cliTable, false); err != nil {
			return nil, err
		}
	}
	if inOwn {
		if ownLayer, err = readProfileLayer(ownFile, name, ownTable, true); err != nil {
			return nil, err
		}
	}
	st, err := readSettings(ownFile, opts.Panes)
	if err != nil {
		return nil, err
	}

	// The CLI checks a top-level service before the profile's.
	var cliGlobal *layer
	if cliFile != nil {
		svc, ok, err := getString(cliFile, cliFile.root, keyService, "")
		if err != nil {
			return nil, err
		}
		if ok && svc != "" {
			cliGlobal = &layer{source: cliFile.path, values: map[string]string{keyService: svc}}
		}
	}

	envLayer := &layer{source: "environment", values: map[string]string{}}
	var envUsed []string
	for key, names := range envVars {
		for _, n := range names {
			if v := env(n); v != "" {
				envLayer.values[key] = v
				envUsed = append(envUsed, n)
				break
			}
		}
	}

	flagLayer := &layer{source: "flags", values: map[string]string{}}
	if opts.BaseURL != "" {
		flagLayer.values[keyOpsManagerURL] = opts.BaseURL
	}
	if opts.ServiceSegment != "" {
		flagLayer.values[keyServiceSegment] = opts.ServiceSegment
	}

	m := merger{layers: []*layer{flagLayer, envLayer, ownLayer, cliGlobal, cliLayer}}
	r := &Resolved{
		Name:          name,
		OrgID:         m.get(keyOrgID),
		ProjectID:     m.get(keyProjectID),
		PublicKey:     Secret(m.get(keyPublicAPIKey)),
		PrivateKey:    Secret(m.get(keyPrivateAPIKey)),
		ClientID:      Secret(m.get(keyClientID)),
		ClientSecret:  Secret(m.get(keyClientSecret)),
		AccessToken:   Secret(m.get(keyAccessToken)),
		Theme:         st.theme,
		Keys:          st.keys,
		Poll:          st.poll,
		LogBuffer:     st.logBuffer,
		ExportDir:     st.exportDir,
		CLIConfigPath: cliPath,
		ConfigPath:    ownPath,
	}

	r.CloudService = strings.ToLower(m.get(keyService))
	switch r.CloudService {
	case "":
		r.CloudService = ServiceCloud
	case ServiceCloud, ServiceCloudGov:
	default:
		return nil, fmt.Errorf("config: %s: unsupported service (want %s or %s)", m.origin(keyService), ServiceCloud, ServiceCloudGov)
	}

	r.BaseURL = strings.TrimRight(m.get(keyOpsManagerURL), "/")
	if r.BaseURL == "" {
		r.BaseURL = CloudBaseURL
		if r.CloudService == ServiceCloudGov {
			r.BaseURL = CloudGovBaseURL
		}
	}
	r.Service = m.get(keyServiceSegment)
	if r.Service == "" {
		r.Service = DefaultServiceSegment
	}

	authType := strings.ToLower(m.get(keyAuthType))
	switch authType {
	case "", AuthAPIKeys, AuthServiceAccount, AuthUserAccount, AuthNone:
	default:
		return nil, fmt.Errorf("config: %s: unknown auth_type (want %s, %s, %s or %s)",
			m.origin(keyAuthType), AuthAPIKeys, AuthServiceAccount, AuthUserAccount, AuthNone)
	}
	r.AuthType = resolveAuthType(authType, r)

	if ownLayer != nil {
		if ownLayer.hasRoles {
			r.Roles = ownLayer.roles
		}
		if ownLayer.readOnly != nil {
			r.ReadOnly = *ownLayer.readOnly
		}
		r.TriageOrgs, r.TriageProjects = ownLayer.triageOrgs, ownLayer.triageProjects
		if ownLayer.authBursts != nil && *ownLayer.authBursts {
			r.TriageAuthBursts = DefaultAuthBurstThreshold
			if ownLayer.authBurstMin != nil {
				r.TriageAuthBursts = *ownLayer.authBurstMin
			}
		}
	}

	if len(flagLayer.values) > 0 {
		r.Source = append(r.Source, "command-line flags")
	}
	if len(envUsed) > 0 {
		slices.Sort(envUsed)
		r.Source = append(r.Source, "env "+strings.Join(envUsed, ", "))
	}
	if ownLayer != nil {
		r.Source = append(r.Source, ownLayer.source)
	} else if ownFile != nil {
		r.Source = append(r.Source, ownFile.path+" (settings only)")
	}
	if cliLayer != nil {
		r.Source = append(r.Source, cliLayer.source)
	} else if cliGlobal != nil {
		r.Source = append(r.Source, cliGlobal.source+" (service only)")
	}
	return r, nil
}

// selectProfile picks the profile as the cloud CLI does: the flag, else
// $MONGODB_ATLAS_PROFILE, else the only profile defined (across both files),
// else "default". explicit is true when the user named it.
func selectProfile(flag string, env func(string) string, files ...map[string]map[string]any) (string, bool) {
	if flag != "" {
		return strings.ToLower(flag), true
	}
	if v := env(EnvProfile); v != "" {
		return strings.ToLower(v), true
	}
	names := map[string]bool{}
	for _, f := range files {
		for n := range f {
			names[n] = true
		}
	}
	if len(names) == 1 {
		for n := range names {
			return n, false
		}
	}
	return DefaultProfile, false
}

func profileNotFound(name, cliPath, ownPath string, files ...map[string]map[string]any) error {
	known := map[string]bool{}
	for _, f := range files {
		for n := range f {
			known[n] = true
		}
	}
	if len(known) == 0 {
		return fmt.Errorf("config: %w: %q (no profiles in %s or %s)", ErrProfileNotFound, name, cliPath, ownPath)
	}
	return fmt.Errorf("config: %w: %q (known profiles: %s)", ErrProfileNotFound, name, strings.Join(sortedNames(known), ", "))
}

// resolveAuthType applies the CLI's rule: client id and secret make a
// service account; else both API keys make api_keys; an empty type is filled
// from whichever credential is present.
func resolveAuthType(t string, r *Resolved) string {
	switch {
	case r.ClientID.IsSet() && r.ClientSecret.IsSet():
		return AuthServiceAccount
	case r.PublicKey.IsSet() && r.PrivateKey.IsSet():
		return AuthAPIKeys
	case t == "" && r.AccessToken.IsSet():
		return AuthUserAccount
	}
	return t
}

// merger reads each key from the first layer that sets it.
type merger struct{ layers []*layer }

func (m merger) get(key string) string {
	for _, l := range m.layers {
		if v, ok := l.get(key); ok {
			return v
		}
	}
	return ""
}

// origin names where a key's value came from, for error messages.
func (m merger) origin(key string) string {
	for _, l := range m.layers {
		if _, ok := l.get(key); ok {
			if l.source == "environment" {
				return envVars[key][0]
			}
			return l.source + " " + key
		}
	}
	return key
}
