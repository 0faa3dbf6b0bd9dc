package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fixture is a temporary XDG config home holding the cloud CLI's file and ours.
type fixture struct {
	t    *testing.T
	home string
	env  map[string]string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	home := t.TempDir()
	return &fixture{t: t, home: home, env: map[string]string{"XDG_CONFIG_HOME": home, "HOME": home}}
}

func (f *fixture) cliPath() string { return filepath.Join(f.home, "atlascli", "config.toml") }
func (f *fixture) ownPath() string { return filepath.Join(f.home, AppName, "config.toml") }

func (f *fixture) write(path, content string, mode os.FileMode) string {
	f.t.Helper()
	require.NoError(f.t, os.MkdirAll(filepath.Dir(path), 0o700))
	require.NoError(f.t, os.WriteFile(path, []byte(content), 0o600))
	require.NoError(f.t, os.Chmod(path, mode)) // WriteFile's mode is subject to the umask
	return path
}

func (f *fixture) writeCLI(content string) string { return f.write(f.cliPath(), content, 0o600) }
func (f *fixture) writeOwn(content string) string { return f.write(f.ownPath(), content, 0o600) }

// testPanes stand in for the registered panes' poll defaults (the real
// list is ui.Panes; config knows panes only by these keys).
var testPanes = Intervals{"alerts": 15 * time.Second, "backups": 10 * time.Second, "migration": 5 * time.Second}

func (f *fixture) load(opts LoadOptions) (*Resolved, error) {
	opts.Env = func(k string) string { return f.env[k] }
	if opts.Panes == nil {
		opts.Panes = testPanes
	}
	return Load(opts)
}

func (f *fixture) mustLoad(opts LoadOptions) *Resolved {
	f.t.Helper()
	r, err := f.load(opts)
	require.NoError(f.t, err)
	return r
}

const cliTwoProfiles = `
version = 2
skip_update_check = true

[default]
  auth_type = "api_keys"
  org_id = "5e2211c17a3e5a48f5497de3"
  project_id = "5e2211c17a3e5a48f5497de4"
  output = "json"
  service = "cloud"
  public_api_key = "cliPubKey"
  private_api_key = "cli-private-0000-1111"

[gov]
  service = "cloudgov"
  client_id = "mdb_sa_id_gov"
  client_secret = "mdb_sa_sk_gov-secret"
`

func TestLoadReadsCLIProfile(t *testing.T) {
	f := newFixture(t)
	f.writeCLI(cliTwoProfiles)

	r := f.mustLoad(LoadOptions{})
	assert.Equal(t, "default", r.Name)
	assert.Equal(t, AuthAPIKeys, r.AuthType)
	assert.Equal(t, "cliPubKey", r.PublicKey.Reveal())
	assert.Equal(t, "cli-private-0000-1111", r.PrivateKey.Reveal())
	assert.Equal(t, "5e2211c17a3e5a48f5497de3", r.OrgID)
	assert.Equal(t, "5e2211c17a3e5a48f5497de4", r.ProjectID)
	assert.Equal(t, CloudBaseURL, r.BaseURL)
	assert.Equal(t, DefaultServiceSegment, r.Service)
	assert.Equal(t, []string{f.cliPath() + " [default]"}, r.Source)
	assert.Equal(t, testPanes, r.Poll)
	assert.Equal(t, 50_000, r.LogBuffer, "the default agrees with the access-log pane's")

	gov := f.mustLoad(LoadOptions{Profile: "gov"})
	assert.Equal(t, ServiceCloudGov, gov.CloudService)
	assert.Equal(t, CloudGovBaseURL, gov.BaseURL)
	assert.Equal(t, AuthServiceAccount, gov.AuthType, "client id and secret make a service account")
}

func TestLoadBaseURLKeys(t *testing.T) {
	cases := []struct {
		name, profile string
		env           map[string]string
		want          string
	}{
		{"ops_manager_url", "[p]\nops_manager_url = \"http://127.0.0.1:9000/\"\n", nil, "http://127.0.0.1:9000"},
		{"base_url alias", "[p]\nbase_url = \"http://alias:1\"\n", nil, "http://alias:1"},
		{"ops_manager_url beats alias", "[p]\nbase_url = \"http://alias:1\"\nops_manager_url = \"http://real:2\"\n", nil, "http://real:2"},
		{"env BASE_URL", "[p]\nops_manager_url = \"http://file:1\"\n", map[string]string{"MONGODB_ATLAS_BASE_URL": "http://env-base:1"}, "http://env-base:1"},
		{"env OPS_MANAGER_URL beats BASE_URL", "[p]\n", map[string]string{"MONGODB_ATLAS_BASE_URL": "http://env-base:1", "MONGODB_ATLAS_OPS_MANAGER_URL": "http://env-om:2"}, "http://env-om:2"},
		{"global cloudgov service", "service = \"cloudgov\"\n[p]\nservice = \"cloud\"\n", nil, CloudGovBaseURL},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.writeCLI(tc.profile)
			for k, v := range tc.env {
				f.env[k] = v
			}
			assert.Equal(t, tc.want, f.mustLoad(LoadOptions{}).BaseURL)
		})
	}
}

func TestLoadEnvWinsOverFiles(t *testing.T) {
	f := newFixture(t)
	f.writeCLI(cliTwoProfiles)
	f.writeOwn("[default]\nproject_id = \"own-project\"\norg_id = \"own-org\"\n")
	f.env["MONGODB_ATLAS_PUBLIC_API_KEY"] = "envPubKey"
	f.env["MONGODB_ATLAS_PRIVATE_API_KEY"] = "env-private-2222"
	f.env["MONGODB_ATLAS_PROJECT_ID"] = "env-project"
	f.env["MONGODB_ATLAS_SERVICE"] = "cloudgov"

	r := f.mustLoad(LoadOptions{})
	assert.Equal(t, "envPubKey", r.PublicKey.Reveal())
	assert.Equal(t, "env-private-2222", r.PrivateKey.Reveal())
	assert.Equal(t, "env-project", r.ProjectID, "env beats our profile")
	assert.Equal(t, "own-org", r.OrgID, "our profile beats the CLI's")
	assert.Equal(t, CloudGovBaseURL, r.BaseURL)
	assert.Equal(t, []string{
		"env MONGODB_ATLAS_PRIVATE_API_KEY, MONGODB_ATLAS_PROJECT_ID, MONGODB_ATLAS_PUBLIC_API_KEY, MONGODB_ATLAS_SERVICE",
		f.ownPath() + " [default]",
		f.cliPath() + " [default]",
	}, r.Source)
}

func TestLoadFlagsWinOverEnv(t *testing.T) {
	f := newFixture(t)
	f.writeOwn("[default]\nservice_segment = \"own\"\n")
	f.env["MONGODB_ATLAS_OPS_MANAGER_URL"] = "http://env:1"
	r := f.mustLoad(LoadOptions{BaseURL: "http://flag:2/", ServiceSegment: "flagseg"})
	assert.Equal(t, "http://flag:2", r.BaseURL)
	assert.Equal(t, "flagseg", r.Service)
	assert.Equal(t, "command-line flags", r.Source[0])
}

func TestLoadOwnProfileWinsOverCLI(t *testing.T) {
	f := newFixture(t)
	f.writeCLI(cliTwoProfiles)
	f.writeOwn(`
theme = "mono"

[default]
ops_manager_url = "http://127.0.0.1:8080"
service_segment = "sim"
public_api_key = "ownPubKey"
read_only = true
triage_orgs = ["Demo-Org"]
triage_projects = ["payments", "5e2211c17a3e5a48f5497de4"]
triage_auth_bursts = true
triage_auth_burst_threshold = 30

[[default.roles]]
role = "GROUP_OWNER"
group_id = "g1"

[[default.roles]]
role = "ORG_READ_ONLY"
org_id = "o1"
`)
	r := f.mustLoad(LoadOptions{})
	assert.Equal(t, "http://127.0.0.1:8080", r.BaseURL)
	assert.Equal(t, "sim", r.Service)
	assert.Equal(t, "ownPubKey", r.PublicKey.Reveal(), "our profile's key wins")
	assert.Equal(t, "cli-private-0000-1111", r.PrivateKey.Reveal(), "keys our profile does not set come from the CLI's")
	assert.Equal(t, "5e2211c17a3e5a48f5497de4", r.ProjectID)
	assert.True(t, r.ReadOnly)
	assert.Equal(t, []string{"Demo-Org"}, r.TriageOrgs)
	assert.Equal(t, []string{"payments", "5e2211c17a3e5a48f5497de4"}, r.TriageProjects)
	assert.Equal(t, 30, r.TriageAuthBursts)
	assert.Equal(t, "mono", r.Theme)
	assert.Equal(t, []catalog.Assignment{
		{RoleName: catalog.GroupOwner, GroupID: "g1"},
		{RoleName: catalog.OrgReadOnly, OrgID: "o1"},
	}, r.Roles)
}

func TestProfileSelection(t *testing.T) {
	cases := []struct {
		name     string
		cli, own string
		flag     string
		envName  string
		want     string
		wantErr  bool
	}{
		{name: "flag wins over env", cli: "[a]\n[b]\n", flag: "b", envName: "a", want: "b"},
		{name: "env when no flag", cli: "[a]\n[b]\n", envName: "a", want: "a"},
		{name: "flag is case-insensitive", cli: "[Work]\n", flag: "WORK", want: "work"},
		{name: "the only profile", cli: "version = 2\n[solo]\norg_id = \"x\"\n", want: "solo"},
		{name: "the only profile across both files", cli: "[solo]\n", own: "theme = \"dark\"\n[solo]\n", want: "solo"},
		{name: "default among several", cli: "[a]\n[default]\n", want: "default"},
		{name: "default when no files", want: "default"},
		{name: "global tables are not profiles", own: "[keys]\nquit = \"q\"\n[poll]\n[mine]\n", want: "mine"},
		{name: "unknown flag profile", cli: "[a]\n[b]\n", flag: "c", wantErr: true},
		{name: "unknown env profile", cli: "[a]\n", envName: "zzz", wantErr: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			if tc.cli != "" {
				f.writeCLI(tc.cli)
			}
			if tc.own != "" {
				f.writeOwn(tc.own)
			}
			if tc.envName != "" {
				f.env[EnvProfile] = tc.envName
			}
			r, err := f.load(LoadOptions{Profile: tc.flag})
			if tc.wantErr {
				require.Error(t, err)
				assert.True(t, errors.Is(err, ErrProfileNotFound), "got %v", err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, r.Name)
		})
	}
}

func TestAuthTypeResolution(t *testing.T) {
	cases := []struct {
		name    string
		profile string
		env     map[string]string
		want    string
		mode    string
	}{
		{"explicit api keys", "auth_type = \"api_keys\"\npublic_api_key = \"pub\"\nprivate_api_key = \"priv\"", nil, AuthAPIKeys, "digest"},
		{"api keys without type", "public_api_key = \"pub\"\nprivate_api_key = \"priv\"", nil, AuthAPIKeys, "digest"},
		{"env client credentials override file api keys", "auth_type = \"api_keys\"\npublic_api_key = \"pub\"\nprivate_api_key = \"priv\"",
			map[string]string{"MONGODB_ATLAS_CLIENT_ID": "id", "MONGODB_ATLAS_CLIENT_SECRET": "sec"}, AuthServiceAccount, "oauth"},
		{"access token alone", "", map[string]string{"MONGODB_ATLAS_ACCESS_TOKEN": "tok"}, AuthUserAccount, "bearer"},
		{"user account keeps its type", "auth_type = \"user_account\"\naccess_token = \"tok\"", nil, AuthUserAccount, "bearer"},
		{"env auth type", "", map[string]string{"MONGODB_ATLAS_AUTH_TYPE": "no_auth"}, AuthNone, "none"},
		{"nothing", "org_id = \"x\"", nil, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.writeCLI("[default]\n" + tc.profile + "\n")
			for k, v := range tc.env {
				f.env[k] = v
			}
			r := f.mustLoad(LoadOptions{})
			assert.Equal(t, tc.want, r.AuthType)
			auth, err := r.Auth()
			if tc.mode == "" {
				var ce *CredentialsError
				require.ErrorAs(t, err, &ce)
				assert.Contains(t, err.Error(), "no credentials")
				assert.Contains(t, err.Error(), "MONGODB_ATLAS_PUBLIC_API_KEY")
				assert.Contains(t, err.Error(), "--profile")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.mode, auth.Mode())
		})
	}
}

func TestAuthMissingHalfOfPair(t *testing.T) {
	f := newFixture(t)
	f.writeCLI("[default]\nauth_type = \"api_keys\"\npublic_api_key = \"pub\"\n")
	r := f.mustLoad(LoadOptions{})
	_, err := r.Auth()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "private_api_key")
}

func TestSecretsFileMode(t *testing.T) {
	const withSecret = "[default]\nprivate_api_key = \"secret-value-123\"\npublic_api_key = \"pub\"\n"
	const withoutSecret = "[default]\norg_id = \"o\"\nproject_id = \"p\"\n"
	cases := []struct {
		name    string
		own     bool
		content string
		mode    os.FileMode
		refused bool
	}{
		{"CLI file 0644 with secrets", false, withSecret, 0o644, true},
		{"CLI file 0640 with secrets", false, withSecret, 0o640, true},
		{"CLI file 0600 with secrets", false, withSecret, 0o600, false},
		{"CLI file 0644 without secrets", false, withoutSecret, 0o644, false},
		{"own file 0604 with secrets", true, withSecret, 0o604, true},
		{"own file 0644 without secrets", true, "theme = \"dark\"\n" + withoutSecret, 0o644, false},
		{"own file 0400 with secrets", true, withSecret, 0o400, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			path := f.cliPath()
			if tc.own {
				path = f.ownPath()
			}
			f.write(path, tc.content, tc.mode)
			_, err := f.load(LoadOptions{})
			if !tc.refused {
				require.NoError(t, err)
				return
			}
			var pe *PermissionError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, path, pe.Path)
			assert.Contains(t, err.Error(), "readable by others")
			assert.Contains(t, err.Error(), "chmod 600 "+path)
			assert.NotContains(t, err.Error(), "secret-value-123")
		})
	}
}

func TestInvalidTOMLNamesFileLineAndColumn(t *testing.T) {
	f := newFixture(t)
	path := f.writeOwn("theme = \"dark\"\n\n[default]\nprivate_api_key = leaked-secret-value\n")
	_, err := f.load(LoadOptions{})
	var fe *FileError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, 4, fe.Line)
	assert.Positive(t, fe.Col)
	assert.Contains(t, err.Error(), path+":4:")
	assert.Contains(t, err.Error(), "invalid TOML")
	assert.NotContains(t, err.Error(), "leaked", "the parser's excerpt of the value is dropped")
}

func TestSettings(t *testing.T) {
	f := newFixture(t)
	f.writeOwn(`
theme = "light"
log_buffer = 200
export_dir = "~/exports"

[keys]
quit = ["q", "ctrl+c"]
refresh = "r"

[poll]
alerts = "30s"
migration = "2s"
`)
	r := f.mustLoad(LoadOptions{})
	assert.Equal(t, "light", r.Theme)
	assert.Equal(t, 200, r.LogBuffer)
	assert.Equal(t, "~/exports", r.ExportDir)
	assert.Equal(t, map[string][]string{"quit": {"q", "ctrl+c"}, "refresh": {"r"}}, r.Keys)
	assert.Equal(t, "30s", r.Poll["alerts"].String())
	assert.Equal(t, "2s", r.Poll["migration"].String())
	assert.Equal(t, testPanes["backups"], r.Poll["backups"], "unset panes keep their default")
	assert.Equal(t, 15*time.Second, testPanes["alerts"], "the defaults are not written to")
}

func TestSettingsErrorsNameTheKey(t *testing.T) {
	// Unknown keys are named by their line, not quoted: a key can be a
	// pasted secret.
	cases := []struct {
		name, content, key string
		line               int
	}{
		{"unknown theme", "theme = \"solarized\"\n", "theme", 0},
		{"bad duration", "[poll]\nalerts = \"often\"\n", "poll.alerts", 0},
		{"duration as number", "[poll]\nbackups = 15\n", "poll.backups", 0},
		{"unknown pane", "[poll]\nalert = \"5s\"\n", "poll", 2},
		{"negative log buffer", "log_buffer = -1\n", "log_buffer", 0},
		{"relative export dir", "export_dir = \"exports\"\n", "export_dir", 0},
		{"keys not strings", "[keys]\nquit = [1]\n", "keys.quit", 0},
		{"unknown setting", "colour = \"red\"\n", "", 1},
		{"unknown profile key", "[default]\npublic_key = \"x\"\n", "default", 2},
		{"triage_orgs not a list", "[default]\ntriage_orgs = \"Demo-Org\"\n", "default.triage_orgs", 0},
		{"triage_projects empty name", "[default]\ntriage_projects = [\"\"]\n", "default.triage_projects", 0},
		{"triage_projects twice", "[default]\ntriage_projects = [\"a\", \"a\"]\n", "default.triage_projects", 0},
		{"bad read_only", "[default]\nread_only = \"yes\"\n", "default.read_only", 0},
		{"triage_auth_bursts not a bool", "[default]\ntriage_auth_bursts = \"on\"\n", "default.triage_auth_bursts", 0},
		{"triage_auth_burst_threshold too small", "[default]\ntriage_auth_burst_threshold = 1\n", "default.triage_auth_burst_threshold", 0},
		{"triage_auth_burst_threshold not a number", "[default]\ntriage_auth_burst_threshold = \"20\"\n", "default.triage_auth_burst_threshold", 0},
		{"unknown role", "[[default.roles]]\nrole = \"GROUP_KING\"\ngroup_id = \"g\"\n", "default.roles[0].role", 0},
		{"project role without group", "[[default.roles]]\nrole = \"GROUP_OWNER\"\norg_id = \"o\"\n", "default.roles[0].group_id", 0},
		{"org role without org", "[[default.roles]]\nrole = \"ORG_OWNER\"\n", "default.roles[0].org_id", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			path := f.writeOwn(tc.content)
			_, err := f.load(LoadOptions{})
			var fe *FileError
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, tc.key, fe.Key)
			if tc.line > 0 {
				assert.True(t, strings.HasPrefix(err.Error(), fmt.Sprintf("config: %s:%d: ", path, tc.line)), "got %q", err)
				return
			}
			assert.True(t, strings.HasPrefix(err.Error(), "config: "+path+": "+tc.key+": "), "got %q", err)
		})
	}
}

func TestUnsupportedServiceAndAuthType(t *testing.T) {
	f := newFixture(t)
	f.writeCLI("[default]\nservice = \"moon\"\n")
	_, err := f.load(LoadOptions{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "unsupported service")

	f.writeCLI("[default]\n")
	f.env["MONGODB_ATLAS_AUTH_TYPE"] = "kerberos"
	_, err = f.load(LoadOptions{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "MONGODB_ATLAS_AUTH_TYPE")
}

func TestExplicitConfigPathMustExist(t *testing.T) {
	f := newFixture(t)
	missing := filepath.Join(f.home, "nope.toml")
	_, err := f.load(LoadOptions{ConfigPath: missing})
	require.Error(t, err)
	assert.Contains(t, err.Error(), missing)

	other := f.write(filepath.Join(f.home, "elsewhere.toml"), "theme = \"mono\"\n", 0o644)
	r := f.mustLoad(LoadOptions{ConfigPath: other})
	assert.Equal(t, "mono", r.Theme)
	assert.Equal(t, other, r.ConfigPath)
}

func TestOwnPathWithoutXDG(t *testing.T) {
	home := t.TempDir()
	p, err := DefaultPath(func(k string) string { return map[string]string{"HOME": home}[k] })
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(home, ".config", AppName, "config.toml"), p)
}

// The Triage board's failed-authentication bursts are off unless the
// profile turns them on; on without a threshold, the default one.
func TestTriageAuthBurstsDefaultOff(t *testing.T) {
	f := newFixture(t)
	f.writeOwn("[default]\nread_only = true\n")
	assert.Zero(t, f.mustLoad(LoadOptions{}).TriageAuthBursts)
	f.writeOwn("[default]\ntriage_auth_bursts = true\n")
	assert.Equal(t, DefaultAuthBurstThreshold, f.mustLoad(LoadOptions{}).TriageAuthBursts)
	f.writeOwn("[default]\ntriage_auth_bursts = false\ntriage_auth_burst_threshold = 5\n")
	assert.Zero(t, f.mustLoad(LoadOptions{}).TriageAuthBursts)
}
