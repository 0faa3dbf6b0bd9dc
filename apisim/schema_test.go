package apisim

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
)

// The repo's own schema rules for apisim's answers, written from the
// service's published facts (not copied from its description): member
// name -> the rule every value of that member must meet, wherever it
// appears in a response body. Absence is always allowed; null never is
// (the service omits an unknown value).
var schemaRules = map[string]func(v any) string{
	"units":                      enum("bits", "Kbits", "Mbits", "Gbits", "bytes", "KB", "MB", "GB", "TB", "PB", "nsec", "msec", "sec", "min", "hours", "million minutes", "days", "requests", "1000 requests", "tokens", "million tokens", "pixels", "billion pixels", "GB seconds", "GB hours", "GB days", "RPU", "thousand RPU", "million RPU", "WPU", "thousand WPU", "million WPU", "count", "thousand", "million", "billion", "BYTES", "SCALAR", "RAW"),
	"acknowledgingUsername":      format(emailRe, "email"),
	"updatedUser":                format(emailRe, "email"),
	"authorizedEmail":            format(emailRe, "email"),
	"frequencyType":              enum("hourly", "daily", "weekly", "monthly", "yearly"),
	"atlasAssumedRoleExternalId": format(uuidRe, "uuid"),
	"atlasAzureAppId":            format(uuidRe, "uuid"),
	"servicePrincipalId":         format(uuidRe, "uuid"),
	"tenantId":                   format(uuidRe, "uuid"),
	"gcpServiceAccountForAtlas":  format(regexp.MustCompile(`^mongodb-atlas-[0-9a-z]{16}@p-[0-9a-z]{24}\.iam\.gserviceaccount\.com$`), "GCP service account"),
	"appName":                    enum("MongoDB Atlas"),
	"orgName":                    format(nameRe, "name without spaces"),
	"typeName":                   enum("REPLICA_PRIMARY", "REPLICA_SECONDARY", "RECOVERING", "SHARD_MONGOS", "SHARD_CONFIG", "SHARD_STANDALONE", "SHARD_PRIMARY", "SHARD_SECONDARY", "NO_DATA", "GROUP", "USER", "ORG", "TEAM", "EMAIL", "SMS", "SLACK", "PAGER_DUTY", "OPS_GENIE", "VICTOR_OPS", "WEBHOOK", "DATADOG", "MICROSOFT_TEAMS", "PROMETHEUS", "HIP_CHAT"),
	"eventTypeName":              notIn("AUTO_HEALING_REQUESTED_NODE_RESYNC", "STEP_SKIPPED", "FTDC_SETTINGS_UPDATED"),
}

var (
	emailRe = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)
	uuidRe  = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	nameRe  = regexp.MustCompile(`^[\p{L}\p{N}\-_.(),:&@+']{1,64}$`)
)

func enum(vals ...string) func(any) string {
	return func(v any) string {
		s, _ := v.(string)
		for _, x := range vals {
			if s == x {
				return ""
			}
		}
		return fmt.Sprintf("%v is not in the enum", v)
	}
}

func format(re *regexp.Regexp, name string) func(any) string {
	return func(v any) string {
		if s, ok := v.(string); ok && re.MatchString(s) {
			return ""
		}
		return fmt.Sprintf("%v is not a valid %s", v, name)
	}
}

func notIn(vals ...string) func(any) string {
	return func(v any) string {
		for _, x := range vals {
			if v == x {
				return fmt.Sprintf("%v is no alertable event type", v)
			}
		}
		return ""
	}
}

// nullAllowed names the members the service itself sends as null.
var nullAllowed = map[string]bool{"apiKey": true}

// validateBody returns the findings for one response body.
func validateBody(body []byte) []string {
	var v any
	if json.Unmarshal(body, &v) != nil {
		return nil // not JSON (a download): nothing to check
	}
	var out []string
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, val := range x {
				p := path + "." + k
				if val == nil {
					if !nullAllowed[k] {
						out = append(out, p+": null (the service omits it)")
					}
					continue
				}
				if rule := schemaRules[k]; rule != nil {
					if _, isObj := val.(map[string]any); !isObj {
						if f := rule(val); f != "" {
							out = append(out, p+": "+f)
						}
					}
				}
				walk(p, val)
			}
		case []any:
			for _, e := range x {
				walk(path+"[]", e)
			}
		}
	}
	walk("", v)
	return out
}

// recorded keeps every successful response body the route tests saw.
var recorded struct {
	sync.Mutex
	bodies map[string][]byte // "METHOD path" -> last body
}

func record(method, path string, status int, body []byte) {
	if status < 200 || status > 299 || len(body) == 0 || strings.Contains(path, "/sim/") {
		return
	}
	recorded.Lock()
	defer recorded.Unlock()
	if recorded.bodies == nil {
		recorded.bodies = map[string][]byte{}
	}
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	recorded.bodies[method+" "+path] = body
}

var hex24 = regexp.MustCompile(`[0-9a-f]{24}`)

// knownFindingsFile lists the findings not fixed yet, one a line with ids
// written ID. A finding not listed fails the run; fixing one means deleting
// its line (go test ./apisim -update-findings rewrites the file).
const knownFindingsFile = "testdata/schema_known_findings.txt"

var updateFindings = flag.Bool("update-findings", false, "rewrite "+knownFindingsFile+" with the current findings")

// TestMain validates, after the tests ran, every response body the route
// tests received against the schema rules; any finding not yet listed in
// knownFindingsFile fails.
func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	recorded.Lock()
	seen := map[string]bool{}
	for req, b := range recorded.bodies {
		for _, f := range validateBody(b) {
			seen[hex24.ReplaceAllString(req+": "+f, "ID")] = true
		}
	}
	n := len(recorded.bodies)
	recorded.Unlock()
	known := map[string]bool{}
	if b, err := os.ReadFile(knownFindingsFile); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if l != "" && !strings.HasPrefix(l, "#") {
				known[l] = true
			}
		}
	}
	var all, findings []string
	for f := range seen {
		all = append(all, f)
		if !known[f] {
			findings = append(findings, f)
		}
	}
	sort.Strings(all)
	sort.Strings(findings)
	if *updateFindings {
		out := "# Schema findings in apisim's answers not fixed yet (see schema_test.go).\n" + strings.Join(all, "\n") + "\n"
		if err := os.WriteFile(knownFindingsFile, []byte(out), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
		findings = nil
	}
	if len(findings) > 0 {
		fmt.Fprintf(os.Stderr, "schema validation of %d response bodies: %d findings\n", n, len(findings))
		for _, f := range findings {
			fmt.Fprintln(os.Stderr, "  "+f)
		}
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}
