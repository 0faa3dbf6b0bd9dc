package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/ui"
)

// fakeAPI is a small Administration API: who-am-I, organizations, projects
// and clusters, behind a bearer token or service-account credentials.
type fakeAPI struct {
	token        string               // accepted bearer token
	clientID     string               // accepted service account
	clientSecret string               //
	roles        []catalog.Assignment // reported in apiKey.roles; nil: no apiKey at all
	forbidden    bool                 // answer 403 to who-am-I
}

func (f *fakeAPI) handler() http.Handler {
	mux := http.NewServeMux()
	writeJSON := func(w http.ResponseWriter, status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(v)
	}
	authed := func(next http.HandlerFunc) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") != "Bearer "+f.token {
				w.Header().Set("WWW-Authenticate", `Digest realm="fake", nonce="0123456789abcdef", qop="auth", algorithm=MD5`)
				writeJSON(w, http.StatusUnauthorized, map[string]any{"error": 401, "errorCode": "UNAUTHORIZED", "reason": "Unauthorized", "detail": "You are not authorized for this resource."})
				return
			}
			next(w, r)
		}
	}
	mux.HandleFunc("POST /api/oauth/token", func(w http.ResponseWriter, r *http.Request) {
		id, secret, ok := r.BasicAuth()
		if !ok || f.clientID == "" || id != f.clientID || secret != f.clientSecret {
			writeJSON(w, http.StatusUnauthorized, map[string]any{"error": "invalid_client"})
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"access_token": f.token, "token_type": "Bearer", "expires_in": 3600})
	})
	mux.HandleFunc("GET /api/atlas/v2", authed(func(w http.ResponseWriter, r *http.Request) {
		if f.forbidden {
			writeJSON(w, http.StatusForbidden, map[string]any{"error": 403, "errorCode": "IP_ADDRESS_NOT_ON_ACCESS_LIST", "reason": "Forbidden", "detail": "IP address 10.0.0.1 is not allowed to access this resource."})
			return
		}
		status := map[string]any{"appName": "MongoDB Atlas", "build": "fake-1", "throttling": false}
		if f.roles != nil {
			status["apiKey"] = map[string]any{"id": "65a000000000000000000001", "publicKey": "readonly1", "roles": f.roles}
		}
		writeJSON(w, http.StatusOK, status)
	}))
	mux.HandleFunc("GET /api/atlas/v2/orgs", authed(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"results": []any{map[string]any{"id": "org1", "name": "Acme"}}, "totalCount": 1})
	}))
	mux.HandleFunc("GET /api/atlas/v2/groups", authed(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"results": []any{
			map[string]any{"id": "grp1", "name": "Payments", "orgId": "org1"},
			map[string]any{"id": "grp2", "name": "Analytics", "orgId": "org1"},
		}, "totalCount": 2})
	}))
	mux.HandleFunc("GET /api/atlas/v2/groups/{groupId}/clusters", authed(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Deprecation", "@1735689600")
		w.Header().Set("Sunset", "Thu, 01 Jul 2027 00:00:00 GMT")
		var results []any
		if r.PathValue("groupId") == "grp1" {
			results = append(results, map[string]any{"id": "cl1", "name": "payments-main", "clusterType": "REPLICASET", "mongoDBVersion": "7.0.12", "stateName": "IDLE",
				"replicationSpecs": []any{map[string]any{"regionConfigs": []any{map[string]any{"providerName": "AWS", "regionName": "US_EAST_1", "electableSpecs": map[string]any{"instanceSize": "M30"}}}}}})
		}
		writeJSON(w, http.StatusOK, map[string]any{"results": results, "totalCount": len(results)})
	}))
	mux.HandleFunc("GET /api/atlas/v2/groups/{groupId}/flexClusters", authed(func(w http.ResponseWriter, r *http.Request) {
		var results []any
		if r.PathValue("groupId") == "grp1" {
			results = append(results, map[string]any{"id": "fl1", "name": "payments-flex", "mongoDBVersion": "8.0.4", "stateName": "IDLE",
				"providerSettings": map[string]any{"providerName": "FLEX", "backingProviderName": "AWS", "regionName": "US_EAST_1"}})
		}
		writeJSON(w, http.StatusOK, map[string]any{"results": results, "totalCount": len(results)})
	}))
	return mux
}

// checkRun runs `check` with an isolated config home and the given env.
type checkRun struct {
	code           int
	stdout, stderr string
}

func runCheckWith(t *testing.T, env map[string]string, args ...string) checkRun {
	t.Helper()
	home := t.TempDir()
	full := map[string]string{"XDG_CONFIG_HOME": home, "HOME": home}
	for k, v := range env {
		full[k] = v
	}
	var stdout, stderr bytes.Buffer
	code := checkCommand{env: func(k string) string { return full[k] }}.run(context.Background(), args, &stdout, &stderr)
	return checkRun{code: code, stdout: stdout.String(), stderr: stderr.String()}
}

// assertOneLineFailure checks the contract for every failure: non-zero exit,
// exactly one line on stderr, no Go internals, nothing on stdout.
func assertOneLineFailure(t *testing.T, r checkRun, wantParts ...string) {
	t.Helper()
	assert.NotZero(t, r.code)
	assert.Empty(t, r.stdout)
	assert.Equal(t, 1, strings.Count(r.stderr, "\n"), "stderr: %q", r.stderr)
	assert.True(t, strings.HasSuffix(r.stderr, "\n"))
	for _, bad := range []string{"goroutine", "panic", "runtime.", "&{", "%!"} {
		assert.NotContains(t, r.stderr, bad)
	}
	for _, p := range wantParts {
		assert.Contains(t, r.stderr, p)
	}
}

func startFake(t *testing.T, f *fakeAPI) string {
	t.Helper()
	srv := httptest.NewServer(f.handler())
	t.Cleanup(srv.Close)
	return srv.URL
}

func readOnlyRoles() []catalog.Assignment {
	return []catalog.Assignment{
		{RoleName: catalog.GroupReadOnly, GroupID: "grp1"},
		{RoleName: catalog.OrgMember, OrgID: "org1"},
	}
}

// actionLine finds the action table row for pane and action.
func actionLine(t *testing.T, stdout, pane, action string) string {
	t.Helper()
	re := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(pane) + ` +` + regexp.QuoteMeta(action) + `  .*$`)
	line := re.FindString(stdout)
	require.NotEmpty(t, line, "no row for %s/%s in:\n%s", pane, action, stdout)
	return line
}

func TestCheckReadOnlyCallerSeesDeniedActions(t *testing.T) {
	const token = "bearer-token-value-123456"
	base := startFake(t, &fakeAPI{token: token, roles: readOnlyRoles()})
	r := runCheckWith(t, map[string]string{
		"MONGODB_ATLAS_ACCESS_TOKEN":    token,
		"MONGODB_ATLAS_OPS_MANAGER_URL": base,
		"MONGODB_ATLAS_PROJECT_ID":      "grp1",
	})
	require.Equal(t, 0, r.code, "stderr: %s", r.stderr)
	assert.Empty(t, r.stderr)
	out := r.stdout
	t.Log("\n" + out)

	assert.Contains(t, out, "endpoint  "+base+"/api/atlas/v2")
	assert.Contains(t, out, "bearer (user_account)")
	assert.Contains(t, out, "API key readonly1")
	assert.Contains(t, out, "Roles (reported by the server):")
	assert.Regexp(t, `GROUP_READ_ONLY +Project Read Only +on project grp1`, out)
	assert.Regexp(t, `ORG_MEMBER +Organization Member +on organization org1`, out)
	assert.Regexp(t, `Acme +org1`, out)
	assert.Regexp(t, `Payments +grp1 +org org1`, out)
	assert.Regexp(t, `payments-main +cl1 +REPLICASET M30 +7\.0\.12 +IDLE`, out)
	assert.Regexp(t, `payments-flex +fl1 +FLEX on AWS +8\.0\.4 +IDLE`, out)
	assert.Contains(t, out, "Analytics: none")
	assert.Regexp(t, `listClusters +version 2024-08-05 +deprecated @1735689600 +sunset Thu, 01 Jul 2027`, out)
	assert.Contains(t, out, "Actions in project Payments (grp1; the profile's project)")

	assert.Contains(t, actionLine(t, out, "alerts", "acknowledge"), "denied: needs Organization Owner or Project Owner or Project Alerts Manager")
	assert.Contains(t, actionLine(t, out, "alerts", "list"), "allowed")
	assert.Contains(t, actionLine(t, out, "backups", "take snapshot"), "denied: needs Project Backup Manager")
	assert.Contains(t, actionLine(t, out, "migration", "cut over"), "denied: needs Organization Owner")
	assert.Contains(t, actionLine(t, out, "settings", "custom DNS on/off"), "denied")
	assert.NotContains(t, out, token)
}

func TestCheckOwnerMayAcknowledge(t *testing.T) {
	const token = "owner-token-value-987654"
	base := startFake(t, &fakeAPI{token: token, roles: []catalog.Assignment{{RoleName: catalog.OrgOwner, OrgID: "org1"}}})
	r := runCheckWith(t, map[string]string{"MONGODB_ATLAS_ACCESS_TOKEN": token}, "--base-url", base)
	require.Equal(t, 0, r.code, "stderr: %s", r.stderr)
	assert.Contains(t, r.stdout, "the first visible project")
	assert.Regexp(t, `acknowledgeAlert +allowed$`, actionLine(t, r.stdout, "alerts", "acknowledge"))
	assert.Regexp(t, `cutoverMigration +allowed$`, actionLine(t, r.stdout, "migration", "cut over"))
	assert.Regexp(t, `createLinkToken +allowed$`, actionLine(t, r.stdout, "migration", "link token"))
}

func TestCheckServiceAccountRolesFromProfile(t *testing.T) {
	const secret = "sa-client-secret-abcdef"
	f := &fakeAPI{token: "issued-token-000111222", clientID: "mdb_sa_id_1", clientSecret: secret}
	base := startFake(t, f)
	home := t.TempDir()
	own := filepath.Join(home, "dbadmin-tui", "config.toml")
	require.NoError(t, os.MkdirAll(filepath.Dir(own), 0o700))
	require.NoError(t, os.WriteFile(own, []byte(`
[ci]
ops_manager_url = "`+base+`"
client_id = "mdb_sa_id_1"
client_secret = "`+secret+`"
project_id = "grp2"
read_only = true

[[ci.roles]]
role = "GROUP_OWNER"
group_id = "grp2"
`), 0o600))
	r := runCheckWith(t, map[string]string{"XDG_CONFIG_HOME": home}, "--profile", "ci")
	require.Equal(t, 0, r.code, "stderr: %s", r.stderr)
	out := r.stdout
	assert.Contains(t, out, "oauth (service_account)")
	assert.Contains(t, out, "service account mdb_sa_id_1")
	assert.Contains(t, out, "Roles (from profile ci (the server did not report them)):")
	assert.Contains(t, out, "read-only  yes")
	assert.Contains(t, actionLine(t, out, "alerts", "acknowledge"), "denied: read-only mode")
	assert.Regexp(t, `listAlerts +allowed$`, actionLine(t, out, "alerts", "list"))
	assert.NotContains(t, out, secret)
	assert.NotContains(t, out, f.token)
}

func TestCheckFailuresAreOneLine(t *testing.T) {
	const token = "good-token-aaaabbbbcccc"
	base := startFake(t, &fakeAPI{token: token, roles: readOnlyRoles()})
	forbidden := startFake(t, &fakeAPI{token: token, roles: readOnlyRoles(), forbidden: true})
	notAPI := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(notAPI.Close)
	tlsSrv := httptest.NewUnstartedServer(http.NotFoundHandler())
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake is the point
	tlsSrv.StartTLS()
	t.Cleanup(tlsSrv.Close)
	closed := closedPort(t)

	cases := []struct {
		name string
		env  map[string]string
		args []string
		want []string
	}{
		{
			name: "unreachable host",
			env:  map[string]string{"MONGODB_ATLAS_ACCESS_TOKEN": token},
			args: []string{"--base-url", "http://" + closed},
			want: []string{"cannot reach http://" + closed + ": connection refused"},
		},
		{
			name: "plain http off loopback",
			env:  map[string]string{"MONGODB_ATLAS_ACCESS_TOKEN": token},
			args: []string{"--base-url", "http://cloud.example.com"},
			want: []string{"refusing plain http:// to cloud.example.com", "--allow-http"},
		},
		{
			name: "wrong API key",
			env: map[string]string{
				"MONGODB_ATLAS_PUBLIC_API_KEY": "wrongpub", "MONGODB_ATLAS_PRIVATE_API_KEY": "wrong-private-key-000",
				"MONGODB_ATLAS_OPS_MANAGER_URL": base,
			},
			want: []string{"authentication failed (401 UNAUTHORIZED): check the public/private key for profile default"},
		},
		{
			name: "wrong service account secret",
			env: map[string]string{
				"MONGODB_ATLAS_CLIENT_ID": "mdb_sa_id_x", "MONGODB_ATLAS_CLIENT_SECRET": "wrong-client-secret-1",
				"MONGODB_ATLAS_OPS_MANAGER_URL": base,
			},
			want: []string{"authentication failed (401 from the token endpoint", "check the client id/secret for profile default"},
		},
		{
			name: "forbidden",
			env:  map[string]string{"MONGODB_ATLAS_ACCESS_TOKEN": token, "MONGODB_ATLAS_OPS_MANAGER_URL": forbidden},
			want: []string{"access denied (403 IP_ADDRESS_NOT_ON_ACCESS_LIST)", "IP access list"},
		},
		{
			name: "https to a plain HTTP server",
			env:  map[string]string{"MONGODB_ATLAS_ACCESS_TOKEN": token},
			args: []string{"--base-url", "https://" + strings.TrimPrefix(base, "http://")},
			want: []string{"TLS handshake with https://", "the server answered plain HTTP"},
		},
		{
			name: "expired access token",
			env:  map[string]string{"MONGODB_ATLAS_ACCESS_TOKEN": "stale-token-000000", "MONGODB_ATLAS_OPS_MANAGER_URL": base},
			want: []string{"authentication failed (401 UNAUTHORIZED): check the access token for profile default (it may have expired"},
		},
		{
			name: "malformed base URL",
			env:  map[string]string{"MONGODB_ATLAS_ACCESS_TOKEN": token},
			args: []string{"--base-url", "ht!tp://x"},
			want: []string{`malformed base URL "ht!tp://x"`},
		},
		{
			name: "not the API",
			env:  map[string]string{"MONGODB_ATLAS_ACCESS_TOKEN": token, "MONGODB_ATLAS_OPS_MANAGER_URL": notAPI.URL},
			want: []string{"has no Administration API at /api/atlas/v2 (404", "--base-url"},
		},
		{
			name: "untrusted TLS certificate",
			env:  map[string]string{"MONGODB_ATLAS_ACCESS_TOKEN": token, "MONGODB_ATLAS_OPS_MANAGER_URL": tlsSrv.URL},
			want: []string{"TLS handshake with " + tlsSrv.URL + " failed: certificate signed by an unknown authority"},
		},
		{
			name: "missing credentials",
			env:  map[string]string{"MONGODB_ATLAS_OPS_MANAGER_URL": base},
			want: []string{"no credentials", "MONGODB_ATLAS_PUBLIC_API_KEY", "--profile"},
		},
		{
			name: "unknown profile",
			env:  map[string]string{"MONGODB_ATLAS_ACCESS_TOKEN": token},
			args: []string{"--profile", "nope"},
			want: []string{`profile not found: "nope"`},
		},
		{
			name: "bad flag",
			args: []string{"--bogus"},
			want: []string{"flag provided but not defined: -bogus"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := runCheckWith(t, tc.env, tc.args...)
			t.Log(r.stderr)
			assertOneLineFailure(t, r, tc.want...)
			for _, v := range tc.env {
				if strings.Contains(v, "secret") || strings.Contains(v, "private") || strings.Contains(v, "token") {
					assert.NotContains(t, r.stderr, v)
				}
			}
		})
	}
}

func TestCheckRefusesWorldReadableSecrets(t *testing.T) {
	home := t.TempDir()
	cli := filepath.Join(home, "atlascli", "config.toml")
	require.NoError(t, os.MkdirAll(filepath.Dir(cli), 0o700))
	require.NoError(t, os.WriteFile(cli, []byte("[default]\npublic_api_key = \"pub12345\"\nprivate_api_key = \"file-private-key-999\"\n"), 0o600))
	require.NoError(t, os.Chmod(cli, 0o644))

	r := runCheckWith(t, map[string]string{"XDG_CONFIG_HOME": home})
	assertOneLineFailure(t, r, cli+" is readable by others (mode 0644)", "run: chmod 600 "+cli)
	assert.NotContains(t, r.stderr, "file-private-key-999")
}

// TestCheckEntryPoint runs the real entry point, which reads the process
// environment.
func TestCheckEntryPoint(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", home)
	t.Setenv("HOME", home)
	for _, k := range []string{"MONGODB_ATLAS_PROFILE", "MONGODB_ATLAS_PUBLIC_API_KEY", "MONGODB_ATLAS_PRIVATE_API_KEY",
		"MONGODB_ATLAS_CLIENT_ID", "MONGODB_ATLAS_CLIENT_SECRET", "MONGODB_ATLAS_ACCESS_TOKEN", "MONGODB_ATLAS_AUTH_TYPE",
		"MONGODB_ATLAS_OPS_MANAGER_URL", "MONGODB_ATLAS_BASE_URL", "MONGODB_ATLAS_SERVICE"} {
		t.Setenv(k, "")
	}
	t.Setenv("MONGODB_ATLAS_ACCESS_TOKEN", "entry-token-123456789")
	t.Setenv("MONGODB_ATLAS_OPS_MANAGER_URL", "http://"+closedPort(t))

	var stdout, stderr bytes.Buffer
	code := runCheck(nil, &stdout, &stderr)
	assertOneLineFailure(t, checkRun{code: code, stdout: stdout.String(), stderr: stderr.String()}, "connection refused")

	stdout.Reset()
	stderr.Reset()
	assert.Equal(t, 0, runCheck([]string{"-h"}, &stdout, &stderr))
	assert.Contains(t, stdout.String(), "usage: dbadmin-tui check")
}

func TestPaneActionsNameCatalogOperations(t *testing.T) {
	seen := map[string]bool{}
	for _, a := range paneActions() {
		_, ok := catalog.Get(a.opID)
		assert.True(t, ok, "%s/%s: unknown operation %s", a.pane, a.action, a.opID)
		key := a.pane + "/" + a.action
		assert.False(t, seen[key], "duplicate action %s", key)
		seen[key] = true
	}
	assert.GreaterOrEqual(t, len(paneActions()), 20)
}

// check's list cannot fall behind the keys: every registered action that
// calls an operation is in it, under its pane, as help names it.
func TestEveryRegisteredActionWithAnOpIsChecked(t *testing.T) {
	listed := map[paneAction]bool{}
	for _, a := range paneActions() {
		listed[a] = true
	}
	n := 0
	for _, r := range ui.Panes() {
		for _, a := range r.Actions {
			if a.Op == "" {
				continue
			}
			n++
			want := paneAction{strings.ToLower(r.Title), a.Help().Desc, a.Op}
			assert.True(t, listed[want], "%s (%s) is not in check's list", a.Name, a.Op)
		}
		for _, rd := range r.Reads {
			assert.True(t, listed[paneAction{strings.ToLower(r.Title), rd.Desc, rd.Op}], "%s: %s", r.ID, rd.Desc)
		}
	}
	// The ones check's hand-kept list used to miss.
	for _, op := range []string{"deauthorizeCloudProviderAccessRole", "createExportBucket", "updateSnapshotRetention",
		"createCloudProviderAccessRole", "toggleAlertConfiguration", "listAtlasProcesses"} {
		assert.True(t, slices.ContainsFunc(paneActions(), func(a paneAction) bool { return a.opID == op }), op)
	}
	assert.Greater(t, n, 30)
}

// closedPort returns a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return addr
}

// startSim runs the local Administration API with its demo identities.
func startSim(t *testing.T) string {
	t.Helper()
	sim, err := apisim.New(apisim.Options{})
	require.NoError(t, err)
	base, err := sim.Start("127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { _ = sim.Close() })
	return base
}

func TestCheckAgainstSimulator(t *testing.T) {
	base := startSim(t)
	digest := func(pub, priv string) map[string]string {
		return map[string]string{
			"MONGODB_ATLAS_PUBLIC_API_KEY": pub, "MONGODB_ATLAS_PRIVATE_API_KEY": priv,
			"MONGODB_ATLAS_OPS_MANAGER_URL": base, "MONGODB_ATLAS_PROJECT_ID": apisim.DemoPaymentsID,
		}
	}

	t.Run("org owner", func(t *testing.T) {
		r := runCheckWith(t, digest("org-owner", "org-owner-secret"))
		require.Equal(t, 0, r.code, "stderr: %s", r.stderr)
		t.Log("\n" + r.stdout)
		assert.Contains(t, r.stdout, "digest (api_keys)")
		assert.Contains(t, r.stdout, "API key org-owner")
		assert.Regexp(t, `ORG_OWNER +Organization Owner +on organization `+apisim.DemoOrgID, r.stdout)
		assert.Contains(t, r.stdout, apisim.DemoPaymentsID)
		assert.Regexp(t, `acknowledgeAlert +allowed$`, actionLine(t, r.stdout, "alerts", "acknowledge"))
		assert.NotContains(t, r.stdout, "org-owner-secret")
	})
	t.Run("read only", func(t *testing.T) {
		r := runCheckWith(t, digest("read-only", "read-only-secret"))
		require.Equal(t, 0, r.code, "stderr: %s", r.stderr)
		assert.Regexp(t, `GROUP_READ_ONLY +Project Read Only +on project `+apisim.DemoPaymentsID, r.stdout)
		assert.Contains(t, actionLine(t, r.stdout, "alerts", "acknowledge"), "denied: needs Organization Owner or Project Owner or Project Alerts Manager")
		assert.Regexp(t, `listAlerts +allowed$`, actionLine(t, r.stdout, "alerts", "list"))
	})
	t.Run("service account roles looked up", func(t *testing.T) {
		r := runCheckWith(t, map[string]string{
			"MONGODB_ATLAS_CLIENT_ID": "demo-sa", "MONGODB_ATLAS_CLIENT_SECRET": "demo-sa-secret",
			"MONGODB_ATLAS_OPS_MANAGER_URL": base,
		})
		require.Equal(t, 0, r.code, "stderr: %s", r.stderr)
		assert.Contains(t, r.stdout, "service account demo-sa")
		assert.Contains(t, r.stdout, "Roles (looked up on the service account's organization and project records):")
		assert.Regexp(t, `ORG_OWNER +Organization Owner +on organization `+apisim.DemoOrgID, r.stdout)
		assert.Regexp(t, `cutoverMigration +allowed$`, actionLine(t, r.stdout, "migration", "cut over"))
		assert.NotContains(t, r.stdout, "demo-sa-secret")
	})
	t.Run("wrong private key", func(t *testing.T) {
		r := runCheckWith(t, digest("org-owner", "not-the-secret-0000"))
		assertOneLineFailure(t, r, "authentication failed (401", "check the public/private key for profile default")
		assert.NotContains(t, r.stderr, "not-the-secret-0000")
	})
}

// A proxy that folds every WWW-Authenticate value into one header, as some
// do (RFC 7235 allows it), in front of a simulator that challenges with
// SHA-256; the proxy also offers an MD5 copy first. check must parse the
// merged header and answer the strongest challenge.
func TestCheckThroughHeaderMergingProxy(t *testing.T) {
	sim, err := apisim.New(apisim.Options{DigestSHA256: true})
	require.NoError(t, err)
	t.Cleanup(func() { _ = sim.Close() })
	simSrv := httptest.NewServer(sim.Handler())
	t.Cleanup(simSrv.Close)
	target, err := url.Parse(simSrv.URL)
	require.NoError(t, err)
	var merged atomic.Int64 // the client's digest lanes challenge concurrently
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(res *http.Response) error {
		vals := res.Header.Values("WWW-Authenticate")
		if len(vals) == 0 {
			return nil
		}
		all := append([]string{strings.Replace(vals[0], "algorithm=SHA-256", "algorithm=MD5", 1)}, vals...)
		res.Header.Set("WWW-Authenticate", strings.Join(all, ", "))
		merged.Add(1)
		return nil
	}
	front := httptest.NewServer(proxy)
	t.Cleanup(front.Close)

	r := runCheckWith(t, map[string]string{
		"MONGODB_ATLAS_PUBLIC_API_KEY": "org-owner", "MONGODB_ATLAS_PRIVATE_API_KEY": "org-owner-secret",
		"MONGODB_ATLAS_OPS_MANAGER_URL": front.URL, "MONGODB_ATLAS_PROJECT_ID": apisim.DemoPaymentsID,
	})
	require.Equal(t, 0, r.code, "stderr: %s", r.stderr)
	assert.Contains(t, r.stdout, "API key org-owner")
	assert.Positive(t, merged.Load(), "the proxy never merged a challenge")
}

// throttleOnce answers the first who-am-I with 429 and Retry-After, then
// passes everything to next; hits counts the who-am-I requests.
func throttleOnce(next http.Handler, retryAfter string, times int, hits *int) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/atlas/v2" {
			*hits++
			if *hits <= times {
				w.Header().Set("Retry-After", retryAfter)
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusTooManyRequests)
				_, _ = io.WriteString(w, `{"error":429,"errorCode":"RATE_LIMITED_TOKEN_BUCKET","reason":"Too Many Requests","detail":"Rate limit exceeded for api/atlas/v2. Please retry after `+retryAfter+` seconds.","parameters":["api/atlas/v2",`+retryAfter+`,10,5,60]}`)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

func TestCheckWaitsOutARateLimit(t *testing.T) {
	const token = "bearer-token-value-123456"
	hits := 0
	srv := httptest.NewServer(throttleOnce((&fakeAPI{token: token, roles: readOnlyRoles()}).handler(), "1", 1, &hits))
	t.Cleanup(srv.Close)
	start := time.Now()
	r := runCheckWith(t, map[string]string{"MONGODB_ATLAS_ACCESS_TOKEN": token, "MONGODB_ATLAS_OPS_MANAGER_URL": srv.URL})
	require.Equal(t, 0, r.code, "stderr: %s", r.stderr)
	assert.GreaterOrEqual(t, time.Since(start), time.Second, "Retry-After honoured")
	assert.Equal(t, 2, hits)
	assert.Equal(t, "dbadmin-tui check: 429 RATE_LIMITED_TOKEN_BUCKET (Retry-After 1s); retrying getSystemStatus in 1s\n", r.stderr)
	assert.Contains(t, r.stdout, "Roles (reported by the server):")
}

func TestCheckGivesUpPastItsRetryBudget(t *testing.T) {
	const token = "bearer-token-value-123456"
	hits := 0
	srv := httptest.NewServer(throttleOnce((&fakeAPI{token: token, roles: readOnlyRoles()}).handler(), "61", 1, &hits))
	t.Cleanup(srv.Close)
	r := runCheckWith(t, map[string]string{"MONGODB_ATLAS_ACCESS_TOKEN": token, "MONGODB_ATLAS_OPS_MANAGER_URL": srv.URL})
	assertOneLineFailure(t, r, "rate limited by "+srv.URL+" (429 RATE_LIMITED_TOKEN_BUCKET)")
	assert.Equal(t, 1, hits, "a wait past the 60 s budget is not made")
}

// A listing says how many it holds and prints a row each, or why it could
// not be read, and then no rows.
func TestCheckListingPrintsRowsOrWhy(t *testing.T) {
	var b bytes.Buffer
	tw := tabwriter.NewWriter(&b, 0, 2, 2, ' ', 0)
	orgs := []apiclient.Organization{{ID: "o1", Name: "Payments"}, {ID: "o2", Name: "Search"}}
	row := func(o apiclient.Organization) { fmt.Fprintf(tw, "  %s\t%s\n", clean(o.Name), clean(o.ID)) }
	printListing(&b, tw, "Organizations", orgs, nil, row)
	assert.Equal(t, "Organizations (2):\n  Payments  o1\n  Search    o2\n", b.String())

	b.Reset()
	printListing(&b, tw, "Projects", orgs, &apiclient.Error{Status: 403, ErrorCode: "USER_UNAUTHORIZED", Detail: "no access"}, row)
	assert.Equal(t, "Projects: could not list: 403 USER_UNAUTHORIZED: no access\n", b.String())
}
