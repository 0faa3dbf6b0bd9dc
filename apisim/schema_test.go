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
// appears in a response body; a rule named "parent.member" applies only
// inside that parent and wins over the member's general rule. Absence is
// always allowed; null never is (the service omits an unknown value).
var schemaRules = map[string]func(v any) string{
	// An alert's reading has the unit enum; RAW, BYTES and SCALAR are
	// threshold and measurement units only.
	"currentValue.units": enum(alertUnits...),
	"units":              enum(append(alertUnits, "BYTES", "SCALAR", "RAW")...),
	// A configuration's threshold: raw, data, time or number units.
	"metricThreshold.units": enum("RAW", "BITS", "KILOBITS", "MEGABITS", "GIGABITS", "BYTES", "KILOBYTES", "MEGABYTES", "GIGABYTES", "TERABYTES", "PETABYTES",
		"NANOSECONDS", "MILLISECONDS", "MILLION_MINUTES", "SECONDS", "MINUTES", "HOURS", "DAYS", "COUNT", "THOUSAND", "MILLION", "BILLION"),
	"acknowledgingUsername": format(emailRe, "email"),
	"updatedUser":           format(emailRe, "email"),
	"authorizedEmail":       format(emailRe, "email"),
	"frequencyType":         enum("hourly", "daily", "weekly", "monthly", "yearly"),
	// The compliance policy's on-demand item is the one place "ondemand" is
	// the only value.
	"onDemandPolicyItem.frequencyType": enum("ondemand"),
	"atlasAssumedRoleExternalId":       format(uuidFormat, "uuid"),
	"atlasAzureAppId":                  format(uuidFormat, "uuid"),
	"servicePrincipalId":               format(uuidFormat, "uuid"),
	"tenantId":                         format(uuidFormat, "uuid"),
	"gcpServiceAccountForAtlas":        format(regexp.MustCompile(`^mongodb-atlas-[0-9a-z]{16}@p-[0-9a-z]{24}\.iam\.gserviceaccount\.com$`), "GCP service account"),
	"appName":                          enum("MongoDB Atlas"),
	"endpointServiceName":              format(regexp.MustCompile(`^(com\.amazonaws\.vpce\.[a-z-0-9]+\.vpce-svc-[0-9a-f]{17}|pls_[0-9a-f]{24}$)`), "endpoint service name"),
	"orgName":                          format(nameRe, "name without spaces"),
	"typeName":                         enum("REPLICA_PRIMARY", "REPLICA_SECONDARY", "RECOVERING", "SHARD_MONGOS", "SHARD_CONFIG", "SHARD_STANDALONE", "SHARD_PRIMARY", "SHARD_SECONDARY", "NO_DATA", "GROUP", "USER", "ORG", "TEAM", "EMAIL", "SMS", "SLACK", "PAGER_DUTY", "OPS_GENIE", "VICTOR_OPS", "WEBHOOK", "DATADOG", "MICROSOFT_TEAMS", "PROMETHEUS", "HIP_CHAT"),
	"eventTypeName":                    notIn("AUTO_HEALING_REQUESTED_NODE_RESYNC", "STEP_SKIPPED", "FTDC_SETTINGS_UPDATED"),
}

var alertUnits = []string{"bits", "Kbits", "Mbits", "Gbits", "bytes", "KB", "MB", "GB", "TB", "PB", "nsec", "msec", "sec", "min", "hours", "million minutes", "days", "requests", "1000 requests", "tokens", "million tokens", "pixels", "billion pixels", "GB seconds", "GB hours", "GB days", "RPU", "thousand RPU", "million RPU", "WPU", "thousand WPU", "million WPU", "count", "thousand", "million", "billion"}

var (
	emailRe    = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)
	uuidFormat = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	nameRe     = regexp.MustCompile(`^[\p{L}\p{N}\-_.(),:&@+']{1,64}$`)
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
	var walk func(path, parent string, v any)
	walk = func(path, parent string, v any) {
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
				rule := schemaRules[parent+"."+k]
				if rule == nil {
					rule = schemaRules[k]
				}
				if rule != nil {
					if _, isObj := val.(map[string]any); !isObj {
						if f := rule(val); f != "" {
							out = append(out, p+": "+f)
						}
					}
				}
				walk(p, k, val)
			}
		case []any:
			for _, e := range x {
				walk(path+"[]", parent, e)
			}
		}
	}
	walk("", "", v)
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

// TestMain validates, after the tests ran, every response body the route
// tests received against the schema rules; any finding fails the run.
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
	var findings []string
	for f := range seen {
		findings = append(findings, f)
	}
	sort.Strings(findings)
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

// TestSchemaRulesFindWhatTheyShould feeds the validator bodies with the
// values apisim used to send, so a rule that stops matching fails here.
func TestSchemaRulesFindWhatTheyShould(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{`{"results":[{"currentValue":{"number":1,"units":"RAW"}}]}`, ".results[].currentValue.units: RAW is not in the enum"},
		{`{"metricThreshold":{"units":"RAW"},"currentValue":{"units":"count"}}`, ""},
		{`{"metricThreshold":{"units":"msec"}}`, ".metricThreshold.units: msec is not in the enum"},
		{`{"acknowledgingUsername":"org-owner"}`, ".acknowledgingUsername: org-owner is not a valid email"},
		{`{"updatedUser":"org-owner@demo.example"}`, ""},
		{`{"frequencyType":"ondemand"}`, ".frequencyType: ondemand is not in the enum"},
		{`{"onDemandPolicyItem":{"frequencyType":"ondemand"}}`, ""},
		{`{"onDemandPolicyItem":{"frequencyType":"daily"}}`, ".onDemandPolicyItem.frequencyType: daily is not in the enum"},
		{`[{"finishedAt":null}]`, "[].finishedAt: null (the service omits it)"},
		{`{"apiKey":null}`, ""},
		{`{"atlasAssumedRoleExternalId":"d671e286-sim-000000fe"}`, ".atlasAssumedRoleExternalId: d671e286-sim-000000fe is not a valid uuid"},
		{`{"gcpServiceAccountForAtlas":"atlas-1@sim-project.iam.gserviceaccount.com"}`, ".gcpServiceAccountForAtlas: atlas-1@sim-project.iam.gserviceaccount.com is not a valid GCP service account"},
		{`{"results":[{"orgName":"Demo Org"}]}`, ".results[].orgName: Demo Org is not a valid name without spaces"},
		{`{"typeName":"SHARD_CONFIG_PRIMARY"}`, ".typeName: SHARD_CONFIG_PRIMARY is not in the enum"},
		{`{"eventTypeName":"AUTO_HEALING_REQUESTED_NODE_RESYNC"}`, ".eventTypeName: AUTO_HEALING_REQUESTED_NODE_RESYNC is no alertable event type"},
		{`{"endpointServiceName":"com.amazonaws.vpce.us-east-1.vpce-svc-0123456789ab"}`, ".endpointServiceName: com.amazonaws.vpce.us-east-1.vpce-svc-0123456789ab is not a valid endpoint service name"},
		{`{"endpointServiceName":"com.amazonaws.vpce.us-east-1.vpce-svc-0123456789abcdef0"}`, ""},
	} {
		got := strings.Join(validateBody([]byte(c.body)), "; ")
		if got != c.want {
			t.Errorf("%s: findings %q, want %q", c.body, got, c.want)
		}
	}
}
