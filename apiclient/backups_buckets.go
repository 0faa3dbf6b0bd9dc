package apiclient

import (
	"context"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/limits"
)

// Export buckets: where snapshot exports go.

// CloudProvider names a cloud.
type CloudProvider string

const (
	ProviderAWS   CloudProvider = "AWS"
	ProviderAzure CloudProvider = "AZURE"
	ProviderGCP   CloudProvider = "GCP"
)

func validProvider(field string, p CloudProvider) error {
	switch p {
	case ProviderAWS, ProviderAzure, ProviderGCP:
		return nil
	}
	return invalidField(field, "must be AWS, AZURE or GCP, got %q", p)
}

// ExportBucket is DiskBackupSnapshotExportBucketResponse (2024-05-30), one
// shape for the three providers; it is also the create body.
type ExportBucket struct {
	ID                       string        `json:"_id,omitempty"`
	BucketName               string        `json:"bucketName,omitempty"`
	CloudProvider            CloudProvider `json:"cloudProvider"`
	IAMRoleID                string        `json:"iamRoleId,omitempty"` // AWS
	RoleID                   string        `json:"roleId,omitempty"`    // AZURE, GCP
	ServiceURL               string        `json:"serviceUrl,omitempty"`
	TenantID                 string        `json:"tenantId,omitempty"`
	Region                   string        `json:"region,omitempty"`
	RequirePrivateNetworking *bool         `json:"requirePrivateNetworking,omitempty"`
	Links                    []Link        `json:"links,omitempty"`
}

// Validate checks a create body locally.
func (b ExportBucket) Validate() error {
	if err := validProvider("cloudProvider", b.CloudProvider); err != nil {
		return err
	}
	if b.BucketName != "" || b.CloudProvider != ProviderAzure {
		if err := limits.BucketName(b.BucketName); err != nil {
			return err
		}
	}
	switch b.CloudProvider {
	case ProviderAWS:
		if b.IAMRoleID == "" {
			return invalidField("iamRoleId", "required for AWS buckets")
		}
	case ProviderAzure:
		if b.ServiceURL == "" {
			return invalidField("serviceUrl", "required for AZURE buckets")
		}
		fallthrough
	case ProviderGCP:
		if b.RoleID == "" {
			return invalidField("roleId", "required for %s buckets", b.CloudProvider)
		}
	}
	return nil
}

// ExportBuckets fetches one page of a project's export buckets.
func (s BackupsService) ExportBuckets(ctx context.Context, groupID string, o ListOptions) (*Page[ExportBucket], error) {
	return getPage[ExportBucket](ctx, s.c, "listExportBuckets", Request{Params: groupParams(groupID)}, o)
}

// AllExportBuckets fetches every export bucket of a project, up to MaxRows.
func (s BackupsService) AllExportBuckets(ctx context.Context, groupID string) ([]ExportBucket, error) {
	return getAll[ExportBucket](ctx, s.c, "listExportBuckets", Request{Params: groupParams(groupID)})
}

// ExportBucket fetches one export bucket.
func (s BackupsService) ExportBucket(ctx context.Context, groupID, bucketID string) (*ExportBucket, error) {
	return getJSON[ExportBucket](ctx, s.c, "getExportBucket", Request{Params: groupParams(groupID, "exportBucketId", bucketID)})
}

// CreateExportBucket registers a storage bucket for exports.
func (s BackupsService) CreateExportBucket(ctx context.Context, groupID string, b ExportBucket) (*ExportBucket, error) {
	b.ID, b.Region, b.Links = "", "", nil
	return sendChecked[ExportBucket](ctx, s.c, "create export bucket", b.Validate(), "createExportBucket", Request{Params: groupParams(groupID), Body: b})
}

// DeleteExportBucket removes an export bucket (auto export must be off on
// every cluster using it).
func (s BackupsService) DeleteExportBucket(ctx context.Context, groupID, bucketID string) error {
	return callNoBody(ctx, s.c, "deleteExportBucket", Request{Params: groupParams(groupID, "exportBucketId", bucketID)})
}
