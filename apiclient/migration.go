package apiclient

import (
	"context"
	"fmt"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/limits"
)

// MigrationService runs live (push) migrations into the cloud and manages
// the organization link token they need.
type MigrationService struct{ c *Client }

// Migration is the live migration service.
func (c *Client) Migration() MigrationService { return MigrationService{c} }

// MigrationStatus is a live migration's status.
type MigrationStatus string

const (
	MigrationNew      MigrationStatus = "NEW"
	MigrationWorking  MigrationStatus = "WORKING"
	MigrationFailed   MigrationStatus = "FAILED"
	MigrationComplete MigrationStatus = "COMPLETE"
	// MigrationExpired: the 120-hour cut-over window ran out.
	MigrationExpired MigrationStatus = "EXPIRED"
)

// ValidationStatus is a migration check's status.
type ValidationStatus string

const (
	ValidationPending ValidationStatus = "PENDING"
	ValidationSuccess ValidationStatus = "SUCCESS"
	ValidationFailed  ValidationStatus = "FAILED"
)

// HostnameSchema is how the destination is reached.
type HostnameSchema string

const (
	HostnamePublic      HostnameSchema = "PUBLIC"
	HostnamePrivateLink HostnameSchema = "PRIVATE_LINK"
	HostnameVPCPeering  HostnameSchema = "VPC_PEERING"
)

// MigrationRequest is LiveMigrationRequest20240530 (version 2024-05-30),
// the body of both create and validate.
type MigrationRequest struct {
	ID                  string               `json:"_id,omitempty"`
	Source              MigrationSource      `json:"source"`
	Destination         MigrationDestination `json:"destination"`
	MigrationHosts      []string             `json:"migrationHosts"`
	Sharding            *MigrationSharding   `json:"sharding,omitempty"`
	DropDestinationData bool                 `json:"dropDestinationData"`
}

// MigrationSource is the cluster being migrated (managed by the cloud's
// automation). Username and Password are write-only.
type MigrationSource struct {
	ClusterName           string `json:"clusterName"`
	GroupID               string `json:"groupId"`
	ManagedAuthentication bool   `json:"managedAuthentication"`
	SSL                   bool   `json:"ssl"`
	CACertificatePath     string `json:"caCertificatePath,omitempty"`
	Username              string `json:"username,omitempty"`
	Password              string `json:"password,omitempty"`
}

// MigrationDestination is the cloud cluster receiving the data.
type MigrationDestination struct {
	ClusterName        string         `json:"clusterName"`
	GroupID            string         `json:"groupId"`
	HostnameSchemaType HostnameSchema `json:"hostnameSchemaType"`
	PrivateLinkID      string         `json:"privateLinkId,omitempty"`
}

// MigrationSharding shards collections when a replica set moves to a
// sharded destination (version 6.0 or later).
type MigrationSharding struct {
	CreateSupportingIndexes bool         `json:"createSupportingIndexes"`
	ShardingEntries         []ShardEntry `json:"shardingEntries"`
}

// ShardEntry shards one collection.
type ShardEntry struct {
	Database        string   `json:"database"`
	Collection      string   `json:"collection"`
	ShardCollection ShardKey `json:"shardCollection"`
}

// ShardKey is a shard key, e.g. [{"customerId": 1}].
type ShardKey struct {
	Key []map[string]any `json:"key"`
}

// Validate checks the request locally.
func (r MigrationRequest) Validate() error {
	if err := firstError(
		required("source.clusterName", r.Source.ClusterName),
		required("source.groupId", r.Source.GroupID),
		required("destination.clusterName", r.Destination.ClusterName),
		required("destination.groupId", r.Destination.GroupID),
		limits.MigrationHosts(r.MigrationHosts),
	); err != nil {
		return err
	}
	if r.MigrationHosts[0] == "" {
		return invalidField("migrationHosts", "the host must not be empty")
	}
	switch r.Destination.HostnameSchemaType {
	case HostnamePublic, HostnamePrivateLink, HostnameVPCPeering:
	default:
		return invalidField("destination.hostnameSchemaType", "must be PUBLIC, PRIVATE_LINK or VPC_PEERING, got %q", r.Destination.HostnameSchemaType)
	}
	if r.Destination.HostnameSchemaType == HostnamePrivateLink && r.Destination.PrivateLinkID == "" {
		return invalidField("destination.privateLinkId", "required for PRIVATE_LINK")
	}
	if r.Sharding != nil {
		for i, e := range r.Sharding.ShardingEntries {
			field := fmt.Sprintf("sharding.shardingEntries[%d]", i)
			switch {
			case e.Database == "":
				return invalidField(field+".database", "required")
			case e.Collection == "":
				return invalidField(field+".collection", "required")
			case len(e.ShardCollection.Key) == 0:
				return invalidField(field+".shardCollection.key", "required")
			}
		}
	}
	return nil
}

// LiveMigration is LiveMigrationResponse. Phase and
// SkippedTimeSeriesCollections are not in the published schema: the local
// simulator sends them (and a service that does not leaves them empty), so
// nothing may depend on them being there.
type LiveMigration struct {
	ID              string          `json:"_id"`
	Status          MigrationStatus `json:"status"`
	LagTimeSeconds  *int64          `json:"lagTimeSeconds,omitempty"`
	MigrationHosts  []string        `json:"migrationHosts,omitempty"`
	ReadyForCutover bool            `json:"readyForCutover"`

	Phase                        MigrationPhase `json:"phase,omitempty"`
	SkippedTimeSeriesCollections []string       `json:"skippedTimeSeriesCollections,omitempty"`
}

// MigrationPhase is where a migration is, when the server says (an
// extension of the local simulator).
type MigrationPhase string

const (
	PhaseStarting    MigrationPhase = "STARTING"
	PhaseInitialSync MigrationPhase = "INITIAL_SYNC"
	PhaseCatchUp     MigrationPhase = "OPLOG_CATCH_UP"
	PhaseReady       MigrationPhase = "READY_FOR_CUTOVER"
	PhaseCuttingOver MigrationPhase = "CUTTING_OVER"
	PhaseComplete    MigrationPhase = "COMPLETE"
	PhaseFailed      MigrationPhase = "FAILED"
	PhaseExpired     MigrationPhase = "EXPIRED"
)

// Done reports a final status.
func (m LiveMigration) Done() bool {
	return m.Status == MigrationComplete || m.Status == MigrationFailed || m.Status == MigrationExpired
}

// MigrationValidation is LiveImportValidation.
type MigrationValidation struct {
	ID            string           `json:"_id"`
	GroupID       string           `json:"groupId"`
	SourceGroupID string           `json:"sourceGroupId,omitempty"`
	Status        ValidationStatus `json:"status"`
	ErrorMessage  string           `json:"errorMessage,omitempty"`
}

// Done reports a final status.
func (v MigrationValidation) Done() bool { return v.Status != ValidationPending }

// linkTokenRequest is TargetOrgRequest.
type linkTokenRequest struct {
	AccessListIPs []string `json:"accessListIps,omitempty"`
}

// LinkToken is TargetOrg: the token the source organization needs.
type LinkToken struct {
	LinkToken string `json:"linkToken"`
}

// AvailableProject is LiveImportAvailableProject: a source project and
// its deployments.
type AvailableProject struct {
	ProjectID      string                `json:"projectId"`
	Name           string                `json:"name"`
	MigrationHosts []string              `json:"migrationHosts"`
	Deployments    []AvailableDeployment `json:"deployments"`
}

// AvailableDeployment is a deployment that can be migrated.
type AvailableDeployment struct {
	ClusterID                   string `json:"clusterId,omitempty"`
	Name                        string `json:"name"`
	MongoDBVersion              string `json:"mongoDBVersion"`
	FeatureCompatibilityVersion string `json:"featureCompatibilityVersion"`
	Managed                     bool   `json:"managed"`
	Sharded                     bool   `json:"sharded"`
	TLSEnabled                  bool   `json:"tlsEnabled"`
	AgentVersion                string `json:"agentVersion,omitempty"`
	DBSizeBytes                 int64  `json:"dbSizeBytes,omitempty"`
	OplogSizeMB                 int64  `json:"oplogSizeMB,omitempty"`
	ShardsSize                  int    `json:"shardsSize,omitempty"`
}

// Create starts a live migration.
func (s MigrationService) Create(ctx context.Context, groupID string, req MigrationRequest) (*LiveMigration, error) {
	m, err := sendChecked[LiveMigration](ctx, s.c, "create migration", req.Validate(), "createPushMigration", Request{Params: groupParams(groupID), Body: req})
	if err == nil {
		s.c.knownMig.note(groupID, req.Destination.ClusterName, m, s.c.Now())
	}
	return m, err
}

// Validate asks the service to check a migration request.
func (s MigrationService) Validate(ctx context.Context, groupID string, req MigrationRequest) (*MigrationValidation, error) {
	return sendChecked[MigrationValidation](ctx, s.c, "validate migration", req.Validate(), "validateMigration", Request{Params: groupParams(groupID), Body: req})
}

// ValidationStatus fetches a check's result.
func (s MigrationService) ValidationStatus(ctx context.Context, groupID, validationID string) (*MigrationValidation, error) {
	return getJSON[MigrationValidation](ctx, s.c, "getValidationStatus", Request{Params: groupParams(groupID, "validationId", validationID)})
}

// Get fetches a live migration.
func (s MigrationService) Get(ctx context.Context, groupID, migrationID string) (*LiveMigration, error) {
	m, err := getJSON[LiveMigration](ctx, s.c, "getPushMigration", Request{Params: groupParams(groupID, "liveMigrationId", migrationID)})
	if err == nil {
		s.c.knownMig.note(groupID, "", m, s.c.Now())
	}
	return m, err
}

// Cutover completes a migration: synchronization with the source stops.
func (s MigrationService) Cutover(ctx context.Context, groupID, migrationID string) error {
	return callNoBody(ctx, s.c, "cutoverMigration", Request{Params: groupParams(groupID, "liveMigrationId", migrationID)})
}

// SourceProjects lists the projects an organization can migrate from.
func (s MigrationService) SourceProjects(ctx context.Context, orgID string) ([]AvailableProject, error) {
	return getList[AvailableProject](ctx, s.c, "listSourceProjects", Request{Params: pathParams("orgId", orgID)})
}

// CreateLinkToken makes the organization's link token; accessListIPs are
// the addresses allowed to use it.
func (s MigrationService) CreateLinkToken(ctx context.Context, orgID string, accessListIPs []string) (*LinkToken, error) {
	return getJSON[LinkToken](ctx, s.c, "createLinkToken", Request{Params: pathParams("orgId", orgID), Body: linkTokenRequest{AccessListIPs: accessListIPs}})
}

// DeleteLinkToken removes the organization's link token.
func (s MigrationService) DeleteLinkToken(ctx context.Context, orgID string) error {
	return callNoBody(ctx, s.c, "deleteLinkToken", Request{Params: pathParams("orgId", orgID)})
}
