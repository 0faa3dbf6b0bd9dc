package apisim

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const settingsVersion = "application/vnd.atlas.2023-01-01+json"

// settingsCall sends one settings request as project-owner and decodes the
// answer (an object, or the error body).
func settingsCall(t *testing.T, e *testEnv, method, path string, body any) (int, map[string]any) {
	t.Helper()
	r := rawReq{method: method, path: "/api/atlas/v2" + path, accept: settingsVersion}
	if body != nil {
		r.body, r.ctype = mustJSON(body), settingsVersion
	}
	st, _, b := e.digest("project-owner", "MD5").do(t, r)
	var out map[string]any
	if len(strings.TrimSpace(string(b))) > 0 {
		require.NoError(t, json.Unmarshal(b, &out), "body %s", b)
	}
	return st, out
}

// onlySharedTier moves every dedicated cluster of the project out of it, so
// the project keeps only shared-tier, flex and serverless clusters.
func onlySharedTier(e *testEnv, groupID string) {
	e.srv.mu.Lock()
	defer e.srv.mu.Unlock()
	for _, cl := range e.srv.world.Clusters {
		if cl.GroupID == groupID && cl.dedicated() {
			cl.GroupID = DemoStagingID
		}
	}
}

func TestAuditingRefusedWhereOnlySharedTierClustersRun(t *testing.T) {
	e := newEnv(t, Options{})
	// analytics has M0 and M2 clusters besides two dedicated ones.
	onlySharedTier(e, DemoAnalyticsID)
	path := "/groups/" + DemoAnalyticsID + "/auditLog"

	st, body := settingsCall(t, e, "PATCH", path, map[string]any{"enabled": true})
	require.Equal(t, http.StatusBadRequest, st, "%v", body)
	assert.Equal(t, "AUDITING_UNAVAILABLE_FOR_TIER", body["errorCode"])
	assert.Contains(t, body["detail"], "sandbox-m0 (M0)")
	assert.Contains(t, body["detail"], "reports-m2 (M2)")

	// Nothing changed, and turning it off (or editing while off) is fine.
	st, body = settingsCall(t, e, "GET", path, nil)
	require.Equal(t, 200, st)
	assert.Equal(t, false, body["enabled"])
	st, body = settingsCall(t, e, "PATCH", path, map[string]any{"enabled": false, "auditFilter": `{"atype":"authenticate"}`})
	require.Equal(t, 200, st, "%v", body)
	assert.Equal(t, "FILTER_JSON", body["configurationType"])
}

func TestAuditingRefusedForServerlessOnlyProject(t *testing.T) {
	e := newEnv(t, Options{})
	// payments keeps its serverless and flex clusters only; it starts with
	// auditing on, so even a filter edit that leaves it on is refused.
	onlySharedTier(e, DemoPaymentsID)
	st, body := settingsCall(t, e, "PATCH", "/groups/"+DemoPaymentsID+"/auditLog", map[string]any{"auditFilter": "{}"})
	require.Equal(t, http.StatusBadRequest, st)
	assert.Equal(t, "AUDITING_UNAVAILABLE_FOR_TIER", body["errorCode"])
	assert.Contains(t, body["detail"], "payments-serverless (SERVERLESS)")
	st, _ = settingsCall(t, e, "PATCH", "/groups/"+DemoPaymentsID+"/auditLog", map[string]any{"enabled": false})
	assert.Equal(t, 200, st)
}

func TestAuditingAllowedWithADedicatedCluster(t *testing.T) {
	e := newEnv(t, Options{})
	st, body := settingsCall(t, e, "PATCH", "/groups/"+DemoAnalyticsID+"/auditLog",
		map[string]any{"enabled": true, "auditAuthorizationSuccess": true})
	require.Equal(t, 200, st, "%v", body)
	assert.Equal(t, true, body["enabled"])
	assert.Equal(t, true, body["auditAuthorizationSuccess"])
	assert.Equal(t, "NONE", body["configurationType"])
}

func TestInvalidAuditFilterNamedWithWhereItBreaks(t *testing.T) {
	e := newEnv(t, Options{})
	path := "/groups/" + DemoPaymentsID + "/auditLog"
	for _, bad := range []string{`{"atype": }`, `not json`, `["authenticate"]`} {
		st, body := settingsCall(t, e, "PATCH", path, map[string]any{"auditFilter": bad})
		require.Equal(t, http.StatusBadRequest, st, bad)
		assert.Equal(t, "VALIDATION_ERROR", body["errorCode"], bad)
		assert.Equal(t, []any{"auditFilter"}, body["parameters"], bad)
		assert.Contains(t, body["detail"], "auditFilter", bad)
	}
	_, body := settingsCall(t, e, "PATCH", path, map[string]any{"auditFilter": `{"atype": }`})
	assert.Contains(t, body["detail"], "offset 11")
	// The stored filter is untouched.
	_, body = settingsCall(t, e, "GET", path, nil)
	assert.Contains(t, body["auditFilter"], "dropDatabase")
}

func TestAccessRoleLifecycleWithExportBucketUsage(t *testing.T) {
	e := newEnv(t, Options{})
	g := "/groups/" + DemoStagingID
	st, role := settingsCall(t, e, "POST", g+"/cloudProviderAccess", map[string]any{"providerName": "AWS"})
	require.Equal(t, 200, st, "%v", role)
	id := role["roleId"].(string)
	assert.Equal(t, "arn:aws:iam::012345678901:root", role["atlasAWSAccountArn"])
	assert.NotEmpty(t, role["atlasAssumedRoleExternalId"])
	assert.Nil(t, role["authorizedDate"])
	assert.Equal(t, []any{}, role["featureUsages"])

	// Authorize: the ARN is checked, then the date is stamped.
	st, body := settingsCall(t, e, "PATCH", g+"/cloudProviderAccess/"+id, map[string]any{"providerName": "AWS", "iamAssumedRoleArn": "arn:aws:iam::12:role/x"})
	require.Equal(t, 400, st)
	assert.Equal(t, []any{"iamAssumedRoleArn"}, body["parameters"])
	e.clock.Advance(90 * time.Second)
	st, role = settingsCall(t, e, "PATCH", g+"/cloudProviderAccess/"+id, map[string]any{"providerName": "AWS", "iamAssumedRoleArn": "arn:aws:iam::123456789012:role/exports"})
	require.Equal(t, 200, st, "%v", role)
	assert.Equal(t, "arn:aws:iam::123456789012:role/exports", role["iamAssumedRoleArn"])
	assert.Equal(t, fmtTime(e.clock.Now()), role["authorizedDate"])

	// An export bucket that uses it shows as a feature usage, in the list too.
	bst, _, bb := e.digest("project-owner", "MD5").do(t, rawReq{method: "POST", path: "/api/atlas/v2" + g + "/backup/exportBuckets",
		body: mustJSON(map[string]any{"bucketName": "staging-exports-2", "cloudProvider": "AWS", "iamRoleId": id})})
	require.Equal(t, 200, bst, "%s", bb)
	var bucket map[string]any
	require.NoError(t, json.Unmarshal(bb, &bucket))
	_, role = settingsCall(t, e, "GET", g+"/cloudProviderAccess/"+id, nil)
	require.Len(t, role["featureUsages"], 1)
	fu := role["featureUsages"].([]any)[0].(map[string]any)
	assert.Equal(t, "EXPORT_SNAPSHOT", fu["featureType"])
	assert.Equal(t, map[string]any{"groupId": DemoStagingID, "exportBucketId": bucket["_id"], "bucketName": "staging-exports-2"}, fu["featureId"])
	_, list := settingsCall(t, e, "GET", g+"/cloudProviderAccess", nil)
	var found bool
	for _, r := range list["awsIamRoles"].([]any) {
		if r.(map[string]any)["roleId"] == id {
			found = true
			assert.Len(t, r.(map[string]any)["featureUsages"], 1)
		}
	}
	assert.True(t, found)

	// Deauthorize is refused while the bucket uses it...
	st, body = settingsCall(t, e, "DELETE", g+"/cloudProviderAccess/AWS/"+id, nil)
	require.Equal(t, 400, st)
	assert.Equal(t, "CLOUD_PROVIDER_ACCESS_ROLE_IN_USE", body["errorCode"])
	assert.Contains(t, body["detail"], "staging-exports-2")
	// ...and allowed once the bucket is gone, and the usage went with it.
	dst, _, db := e.digest("project-owner", "MD5").do(t, rawReq{method: "DELETE", path: "/api/atlas/v2" + g + "/backup/exportBuckets/" + bucket["_id"].(string), accept: settingsVersion})
	require.Equal(t, 204, dst, "%s", db)
	_, role = settingsCall(t, e, "GET", g+"/cloudProviderAccess/"+id, nil)
	assert.Equal(t, []any{}, role["featureUsages"])
	st, _ = settingsCall(t, e, "DELETE", g+"/cloudProviderAccess/AWS/"+id, nil)
	assert.Equal(t, 204, st)
	st, body = settingsCall(t, e, "GET", g+"/cloudProviderAccess/"+id, nil)
	assert.Equal(t, 404, st)
	assert.Equal(t, "CLOUD_PROVIDER_ACCESS_ROLE_NOT_FOUND", body["errorCode"])
}

func TestSeededExportBucketRolesAreInUse(t *testing.T) {
	e := newEnv(t, Options{})
	_, list := settingsCall(t, e, "GET", "/groups/"+DemoPaymentsID+"/cloudProviderAccess", nil)
	inUse := 0
	for _, arr := range []string{"awsIamRoles", "gcpServiceAccounts"} {
		for _, r := range list[arr].([]any) {
			role := r.(map[string]any)
			usages := role["featureUsages"].([]any)
			if len(usages) == 0 {
				continue
			}
			inUse++
			// One usage per bucket, never the stored copy as well.
			assert.Len(t, usages, 1, "%v", role)
			prov, id := role["providerName"].(string), role["roleId"].(string)
			st, body := settingsCall(t, e, "DELETE", "/groups/"+DemoPaymentsID+"/cloudProviderAccess/"+prov+"/"+id, nil)
			assert.Equal(t, 400, st)
			assert.Equal(t, "CLOUD_PROVIDER_ACCESS_ROLE_IN_USE", body["errorCode"])
		}
	}
	assert.Equal(t, 2, inUse, "the AWS and GCP buckets of payments")
}

func TestAccessRoleCreateRefusals(t *testing.T) {
	e := newEnv(t, Options{})
	g := "/groups/" + DemoStagingID + "/cloudProviderAccess"
	st, body := settingsCall(t, e, "POST", g, map[string]any{})
	assert.Equal(t, 400, st)
	assert.Equal(t, "MISSING_ATTRIBUTE", body["errorCode"])
	st, body = settingsCall(t, e, "POST", g, map[string]any{"providerName": "AZURE", "atlasAzureAppId": "a"})
	assert.Equal(t, 400, st)
	assert.Equal(t, []any{"servicePrincipalId"}, body["parameters"])
	st, body = settingsCall(t, e, "POST", g, map[string]any{"providerName": "IBM"})
	assert.Equal(t, 400, st)
	assert.Equal(t, []any{"providerName"}, body["parameters"])
	// The Azure ids are UUIDs; anything else is refused by name.
	st, body = settingsCall(t, e, "POST", g, map[string]any{"providerName": "AZURE", "atlasAzureAppId": "a", "servicePrincipalId": "s", "tenantId": "t"})
	assert.Equal(t, 400, st)
	assert.Equal(t, []any{"atlasAzureAppId"}, body["parameters"])
	const app, principal = "2b8e4a52-0c1f-4f6e-9d3a-5c7b1e0f9a11", "6d0c2e8f-3b4a-4c1d-8e5f-7a9b0c1d2e3f"
	st, body = settingsCall(t, e, "POST", g, map[string]any{"providerName": "AZURE", "atlasAzureAppId": app, "servicePrincipalId": principal, "tenantId": "t"})
	assert.Equal(t, 400, st)
	assert.Equal(t, []any{"tenantId"}, body["parameters"])
	st, body = settingsCall(t, e, "POST", g, map[string]any{"providerName": "AZURE", "atlasAzureAppId": app, "servicePrincipalId": principal, "tenantId": "91402512-7c3d-4e2d-9f11-0a1b2c3d4e5f"})
	require.Equal(t, 200, st, "%v", body)
	assert.Equal(t, app, body["atlasAzureAppId"])
	assert.NotEmpty(t, body["_id"])
	assert.NotContains(t, body, "lastUpdatedDate", "not authorized yet: absent, not null")
}
