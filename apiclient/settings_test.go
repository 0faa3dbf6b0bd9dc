package apiclient_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// simClient is the shared client as project-owner against a fresh apisim
// with a manual clock; sent counts the API requests that reached it.
func simClient(t *testing.T) (*apiclient.Client, *apisim.ManualClock, *atomic.Int64) {
	t.Helper()
	clock := apisim.NewManualClock(time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC))
	s, err := apisim.New(apisim.Options{Clock: clock})
	require.NoError(t, err)
	sent := new(atomic.Int64)
	h := s.Handler()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			sent.Add(1)
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { ts.Close(); _ = s.Close() })
	c, err := apiclient.New(apiclient.Options{BaseURL: ts.URL, Service: "atlas",
		Auth: apiclient.DigestAuth("project-owner", "project-owner-secret"), MaxRetries: -1})
	require.NoError(t, err)
	return c, clock, sent
}

func apiErr(t *testing.T, err error, status int, code string) *apiclient.Error {
	t.Helper()
	e, ok := apiclient.AsError(err)
	require.True(t, ok, "want an API error, got %v", err)
	assert.Equal(t, status, e.Status)
	assert.Equal(t, code, e.ErrorCode)
	return e
}

func TestAuditLogRoundTrip(t *testing.T) {
	c, _, _ := simClient(t)
	ctx := context.Background()
	s := c.Settings()

	a, err := s.AuditLog(ctx, apisim.DemoPaymentsID)
	require.NoError(t, err)
	assert.True(t, a.Enabled)
	assert.Equal(t, apiclient.AuditFilterJSON, a.ConfigurationType)
	assert.Contains(t, a.AuditFilter, "dropDatabase")

	on, filter := true, `{"atype":"authCheck","param.command":{"$in":["insert","delete"]}}`
	a, err = s.UpdateAuditLog(ctx, apisim.DemoPaymentsID, apiclient.AuditLogUpdate{AuditFilter: &filter, AuditAuthorizationSuccess: &on})
	require.NoError(t, err)
	assert.Equal(t, filter, a.AuditFilter)
	assert.True(t, a.AuditAuthorizationSuccess)
	again, err := s.AuditLog(ctx, apisim.DemoPaymentsID)
	require.NoError(t, err)
	assert.Equal(t, a, again)

	off := false
	a, err = s.UpdateAuditLog(ctx, apisim.DemoPaymentsID, apiclient.AuditLogUpdate{Enabled: &off})
	require.NoError(t, err)
	assert.False(t, a.Enabled)
	assert.Equal(t, filter, a.AuditFilter, "only the members sent change")
}

func TestAuditFilterRefusedLocallyWithLineAndColumn(t *testing.T) {
	c, _, sent := simClient(t)
	bad := "{\n  \"atype\": \"authenticate\",\n  \"param\": {\"user\": }\n}"
	before := sent.Load()
	_, err := c.Settings().UpdateAuditLog(context.Background(), apisim.DemoPaymentsID, apiclient.AuditLogUpdate{AuditFilter: &bad})
	require.Error(t, err)
	assert.True(t, apiclient.IsValidation(err))
	assert.Contains(t, err.Error(), "auditFilter")
	assert.Contains(t, err.Error(), "line 3, column 21")
	assert.Equal(t, before, sent.Load(), "nothing sent")
}

func TestCheckAuditFilter(t *testing.T) {
	for _, tc := range []struct {
		text       string
		line, col  int
		okDocument bool
	}{
		{text: `{"atype": "authenticate"}`, okDocument: true},
		{text: "{}\n", okDocument: true},
		{text: `{"atype": }`, line: 1, col: 11},
		{text: "{\n\t\"a\": 1,\n\t\"b\" 2\n}", line: 3, col: 6},
		{text: "{\"é\": 1,, }", line: 1, col: 9},
		{text: `{"atype": "authenticate"`, line: 1, col: 25},
		{text: "{} {}", line: 1, col: 4},
		{text: `["authenticate"]`},
		{text: `42`},
	} {
		err := apiclient.CheckAuditFilter(tc.text)
		if tc.okDocument {
			assert.NoError(t, err, tc.text)
			continue
		}
		var fe *apiclient.AuditFilterError
		require.ErrorAs(t, err, &fe, tc.text)
		assert.Equal(t, tc.line, fe.Line, "line of %q: %v", tc.text, err)
		assert.Equal(t, tc.col, fe.Column, "column of %q: %v", tc.text, err)
	}
}

func TestAuditFilterMustBeAnObject(t *testing.T) {
	c, _, sent := simClient(t)
	arr := `["authenticate"]`
	_, err := c.Settings().UpdateAuditLog(context.Background(), apisim.DemoPaymentsID, apiclient.AuditLogUpdate{AuditFilter: &arr})
	assert.True(t, apiclient.IsValidation(err))
	assert.Contains(t, err.Error(), "JSON object")
	assert.Zero(t, sent.Load())
}

func TestAuditingOfAnUnknownProjectIsATypedNotFound(t *testing.T) {
	c, _, _ := simClient(t)
	// (The shared-tier refusal needs a project the demo world does not have;
	// apisim's own tests pin it.)
	on := true
	_, err := c.Settings().UpdateAuditLog(context.Background(), "65a0c0ffee0000000000beef", apiclient.AuditLogUpdate{Enabled: &on})
	e, ok := apiclient.AsError(err)
	require.True(t, ok, "%v", err)
	assert.Equal(t, 404, e.Status)
	assert.NotEmpty(t, e.ErrorCode)
	assert.NotEmpty(t, e.Detail)
}

func TestCustomDNSToggle(t *testing.T) {
	c, _, _ := simClient(t)
	ctx := context.Background()
	d, err := c.Settings().CustomDNS(ctx, apisim.DemoPaymentsID)
	require.NoError(t, err)
	assert.True(t, d.Enabled)
	d, err = c.Settings().ToggleCustomDNS(ctx, apisim.DemoPaymentsID, false)
	require.NoError(t, err)
	assert.False(t, d.Enabled)
	d, err = c.Settings().CustomDNS(ctx, apisim.DemoPaymentsID)
	require.NoError(t, err)
	assert.False(t, d.Enabled)
}

func TestAccessRoleCallsAndRefusals(t *testing.T) {
	c, clock, sent := simClient(t)
	ctx := context.Background()
	s := c.Settings()
	g := apisim.DemoStagingID

	r, err := s.CreateAccessRole(ctx, g, apiclient.AccessRoleRequest{ProviderName: apiclient.ProviderAWS})
	require.NoError(t, err)
	assert.Equal(t, apiclient.ProviderAWS, r.ProviderName)
	assert.NotEmpty(t, r.RoleID)
	assert.Equal(t, "arn:aws:iam::012345678901:root", r.AtlasAWSAccountARN)
	assert.NotEmpty(t, r.AtlasAssumedRoleExternalID)
	assert.False(t, r.Authorized())

	// A malformed ARN never leaves the client.
	before := sent.Load()
	_, err = s.AuthorizeAccessRole(ctx, g, r.RoleID, apiclient.AccessRoleRequest{ProviderName: apiclient.ProviderAWS, IAMAssumedRoleARN: "arn:aws:iam::1234:role/x"})
	assert.True(t, apiclient.IsValidation(err))
	assert.Contains(t, err.Error(), "12-digit account")
	assert.Equal(t, before, sent.Load())

	clock.Advance(time.Minute)
	arn := "arn:aws:iam::123456789012:role/staging-exports"
	r, err = s.AuthorizeAccessRole(ctx, g, r.RoleID, apiclient.AccessRoleRequest{ProviderName: apiclient.ProviderAWS, IAMAssumedRoleARN: arn})
	require.NoError(t, err)
	require.NotNil(t, r.AuthorizedDate)
	assert.True(t, r.AuthorizedDate.Equal(clock.Now()))
	assert.Equal(t, arn, r.IAMAssumedRoleARN)
	assert.True(t, r.Authorized())

	// An export bucket on the role shows up as its feature usage.
	_, err = c.Backups().CreateExportBucket(ctx, g, apiclient.ExportBucket{BucketName: "staging-archive", CloudProvider: apiclient.ProviderAWS, IAMRoleID: r.RoleID})
	require.NoError(t, err)
	got, err := s.AccessRole(ctx, g, r.RoleID)
	require.NoError(t, err)
	require.Len(t, got.FeatureUsage, 1)
	assert.Equal(t, "EXPORT_SNAPSHOT", got.FeatureUsage[0].FeatureType)
	var fid map[string]string
	require.NoError(t, json.Unmarshal(got.FeatureUsage[0].FeatureID, &fid))
	assert.Equal(t, "staging-archive", fid["bucketName"])

	all, err := s.AccessRoles(ctx, g)
	require.NoError(t, err)
	var listed bool
	for _, x := range all.AWSIAMRoles {
		listed = listed || x.RoleID == r.RoleID
	}
	assert.True(t, listed)

	err = s.DeauthorizeAccessRole(ctx, g, apiclient.ProviderAWS, r.RoleID)
	e := apiErr(t, err, 400, "CLOUD_PROVIDER_ACCESS_ROLE_IN_USE")
	assert.Contains(t, e.Detail, "staging-archive")

	_, err = s.AccessRole(ctx, g, "000000000000000000000000")
	apiErr(t, err, 404, "CLOUD_PROVIDER_ACCESS_ROLE_NOT_FOUND")
}

func TestAzureRoleNeedsItsIDs(t *testing.T) {
	c, _, _ := simClient(t)
	ctx := context.Background()
	_, err := c.Settings().CreateAccessRole(ctx, apisim.DemoStagingID, apiclient.AccessRoleRequest{ProviderName: apiclient.ProviderAzure})
	assert.True(t, apiclient.IsValidation(err))
	_, err = c.Settings().CreateAccessRole(ctx, apisim.DemoStagingID, apiclient.AccessRoleRequest{ProviderName: apiclient.ProviderAzure,
		AtlasAzureAppID: "app-1", ServicePrincipalID: "sp-1", TenantID: "tenant-1"})
	apiErr(t, err, 400, "VALIDATION_ERROR") // the Azure ids are UUIDs
	r, err := c.Settings().CreateAccessRole(ctx, apisim.DemoStagingID, apiclient.AccessRoleRequest{ProviderName: apiclient.ProviderAzure,
		AtlasAzureAppID: "2b8e4a52-0c1f-4f6e-9d3a-5c7b1e0f9a11", ServicePrincipalID: "6d0c2e8f-3b4a-4c1d-8e5f-7a9b0c1d2e3f", TenantID: "91402512-7c3d-4e2d-9f11-0a1b2c3d4e5f"})
	require.NoError(t, err)
	assert.NotEmpty(t, r.ID)
	assert.Equal(t, r.ID, r.Key())
	require.NoError(t, c.Settings().DeauthorizeAccessRole(ctx, apisim.DemoStagingID, apiclient.ProviderAzure, r.ID))
	_, err = c.Settings().AccessRole(ctx, apisim.DemoStagingID, r.ID)
	assert.True(t, apiclient.IsNotFound(err))
}

func TestValidIAMRoleARN(t *testing.T) {
	for arn, ok := range map[string]bool{
		"arn:aws:iam::123456789012:role/atlas":                true,
		"arn:aws:iam::123456789012:role/service/atlas-backup": true,
		"arn:aws:iam::123456789012:role/a+b=c,d.e@f_g-h":      true,
		"":                                   false,
		"arn:aws:iam::12345678901:role/x":    false,
		"arn:aws:iam::123456789012:user/x":   false,
		"arn:aws:iam::123456789012:role/":    false,
		"arn:aws:s3:::bucket":                false,
		"arn:aws:iam::123456789012:role/a b": false,
	} {
		err := apiclient.ValidIAMRoleARN(arn)
		if ok {
			assert.NoError(t, err, arn)
		} else {
			assert.True(t, apiclient.IsValidation(err), arn)
		}
	}
}
