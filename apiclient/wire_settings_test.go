package apiclient

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func settingsCases() map[string]wireCase {
	g := "/groups/" + wGroup
	checkAWS := func(t *testing.T, r AccessRole) {
		assert.Equal(t, ProviderAWS, r.ProviderName)
		assert.Equal(t, wRole, r.Key())
		assert.Equal(t, "arn:aws:iam::123456789012:role/atlas-export", r.IAMAssumedRoleARN)
		assert.Equal(t, "24be2c0c-3e5f-4d4a-9c39-d4b1f7e6c3a1", r.AtlasAssumedRoleExternalID)
		assert.True(t, r.Authorized())
		require.Len(t, r.FeatureUsage, 1)
		assert.Equal(t, "EXPORT_SNAPSHOT", r.FeatureUsage[0].FeatureType)
	}
	return map[string]wireCase{
		"getAuditingConfiguration": {
			path: g + "/auditLog",
			call: func(ctx context.Context, c *Client) (any, error) { return c.Settings().AuditLog(ctx, wGroup) },
			check: func(t *testing.T, v any) {
				a := as[*AuditLog](t, v)
				assert.True(t, a.Enabled)
				assert.Equal(t, AuditFilterJSON, a.ConfigurationType)
				assert.JSONEq(t, `{"atype":"authenticate"}`, a.AuditFilter)
			},
		},
		"updateAuditingConfiguration": {
			path: g + "/auditLog",
			body: `{"enabled":true,"auditFilter":"{\"atype\":{\"$in\":[\"authenticate\",\"dropDatabase\"]}}","auditAuthorizationSuccess":true}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Settings().UpdateAuditLog(ctx, wGroup, AuditLogUpdate{
					Enabled: ptr(true), AuditFilter: ptr(`{"atype":{"$in":["authenticate","dropDatabase"]}}`), AuditAuthorizationSuccess: ptr(true),
				})
			},
			check: func(t *testing.T, v any) { assert.True(t, as[*AuditLog](t, v).AuditAuthorizationSuccess) },
		},
		"getAwsCustomDns": {
			path:  g + "/awsCustomDNS",
			call:  func(ctx context.Context, c *Client) (any, error) { return c.Settings().CustomDNS(ctx, wGroup) },
			check: func(t *testing.T, v any) { assert.False(t, as[*AWSCustomDNS](t, v).Enabled) },
		},
		"toggleAwsCustomDns": {
			path: g + "/awsCustomDNS", body: `{"enabled":true}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Settings().ToggleCustomDNS(ctx, wGroup, true)
			},
			check: func(t *testing.T, v any) { assert.True(t, as[*AWSCustomDNS](t, v).Enabled) },
		},
		"listCloudProviderAccessRoles": {
			path: g + "/cloudProviderAccess",
			call: func(ctx context.Context, c *Client) (any, error) { return c.Settings().AccessRoles(ctx, wGroup) },
			check: func(t *testing.T, v any) {
				r := as[*AccessRoles](t, v)
				require.Len(t, r.AWSIAMRoles, 1)
				checkAWS(t, r.AWSIAMRoles[0])
				require.Len(t, r.AzureServicePrincipals, 1)
				az := r.AzureServicePrincipals[0]
				assert.Equal(t, "63ad0e1f2a3b4c5d6e7f8092", az.Key())
				assert.Equal(t, "4ea1b7b6-1234-4c6f-9b2d-0123456789ab", az.TenantID)
				require.Len(t, r.GCPServiceAccounts, 1)
				gcp := r.GCPServiceAccounts[0]
				assert.Equal(t, GCPInProgress, gcp.Status)
				assert.False(t, gcp.Authorized())
				assert.Len(t, r.All(), 3)
			},
		},
		"createCloudProviderAccessRole": {
			path: g + "/cloudProviderAccess", body: `{"providerName":"AWS"}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Settings().CreateAccessRole(ctx, wGroup, AccessRoleRequest{ProviderName: ProviderAWS})
			},
			check: func(t *testing.T, v any) {
				r := as[*AccessRole](t, v)
				assert.Equal(t, "arn:aws:iam::012345678901:root", r.AtlasAWSAccountARN)
				assert.False(t, r.Authorized())
			},
		},
		"getCloudProviderAccessRole": {
			path:  g + "/cloudProviderAccess/" + wRole,
			call:  func(ctx context.Context, c *Client) (any, error) { return c.Settings().AccessRole(ctx, wGroup, wRole) },
			check: func(t *testing.T, v any) { checkAWS(t, *as[*AccessRole](t, v)) },
		},
		"authorizeCloudProviderAccessRole": {
			path: g + "/cloudProviderAccess/" + wRole,
			body: `{"providerName":"AWS","iamAssumedRoleArn":"arn:aws:iam::123456789012:role/atlas-export"}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Settings().AuthorizeAccessRole(ctx, wGroup, wRole, AccessRoleRequest{ProviderName: ProviderAWS, IAMAssumedRoleARN: "arn:aws:iam::123456789012:role/atlas-export"})
			},
			check: func(t *testing.T, v any) { checkAWS(t, *as[*AccessRole](t, v)) },
		},
		"deauthorizeCloudProviderAccessRole": {
			path: g + "/cloudProviderAccess/AWS/" + wRole,
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.Settings().DeauthorizeAccessRole(ctx, wGroup, ProviderAWS, wRole)
			},
		},
	}
}

// privateEndpointCases are the Settings area's private endpoints (encryption at rest, serverless).
func privateEndpointCases() map[string]wireCase {
	g := "/groups/" + wGroup
	const ep = "6a7b8c9d0e1f2a3b4c5d6e7f"
	return map[string]wireCase{
		"getEncryptionAtRestPrivateEndpoint": {
			path: g + "/encryptionAtRest/AZURE/privateEndpoints/" + ep,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Settings().EncryptionPrivateEndpoint(ctx, wGroup, ProviderAzure, ep)
			},
			check: func(t *testing.T, v any) {
				e := as[*EncryptionPrivateEndpoint](t, v)
				assert.Equal(t, "PENDING_ACCEPTANCE", e.Status)
				assert.Equal(t, "US_EAST_2", e.RegionName)
			},
		},
		"requestEncryptionAtRestPrivateEndpointDeletion": {
			path: g + "/encryptionAtRest/AZURE/privateEndpoints/" + ep,
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.Settings().DeleteEncryptionPrivateEndpoint(ctx, wGroup, ProviderAzure, ep)
			},
		},
		"listServerlessPrivateEndpoints": {
			path: g + "/privateEndpoint/serverless/instance/serverless-1/endpoint",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Settings().ServerlessEndpoints(ctx, wGroup, "serverless-1")
			},
			check: func(t *testing.T, v any) {
				l := as[[]ServerlessEndpoint](t, v)
				require.Len(t, l, 1)
				assert.Equal(t, "vpce-0123456789abcdef0", l[0].CloudProviderEndpointID)
				assert.Equal(t, "AVAILABLE", l[0].Status)
			},
		},
		"createServerlessPrivateEndpoint": {
			path: g + "/privateEndpoint/serverless/instance/serverless-1/endpoint", body: `{"comment":"batch vpc"}`,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Settings().CreateServerlessEndpoint(ctx, wGroup, "serverless-1", "batch vpc")
			},
			check: func(t *testing.T, v any) {
				assert.Equal(t, "RESERVATION_REQUESTED", as[*ServerlessEndpoint](t, v).Status)
			},
		},
	}
}
