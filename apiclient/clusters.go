package apiclient

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// ClustersService serves a project's databases: dedicated and tenant
// clusters, flex clusters, serverless instances, their processes (hosts),
// and the read-only cluster insights (measurements, performance advisor).
type ClustersService struct{ c *Client }

// Clusters is the service of a project's clusters of every kind.
func (c *Client) Clusters() ClustersService { return ClustersService{c} }

// ClusterState is a cluster's stateName.
type ClusterState string

const (
	ClusterIdle      ClusterState = "IDLE"
	ClusterCreating  ClusterState = "CREATING"
	ClusterUpdating  ClusterState = "UPDATING"
	ClusterDeleting  ClusterState = "DELETING"
	ClusterRepairing ClusterState = "REPAIRING"
)

// ClusterType is a cluster's topology.
type ClusterType string

const (
	ClusterReplicaSet ClusterType = "REPLICASET"
	ClusterSharded    ClusterType = "SHARDED"
	ClusterGeoSharded ClusterType = "GEOSHARDED"
)

// Cluster is ClusterDescription20240805, the members the picker and the
// panes need: identity, state, version, backup flags and enough of the
// replication specs to tell the tier.
type Cluster struct {
	ID                           string             `json:"id"`
	GroupID                      string             `json:"groupId"`
	Name                         string             `json:"name"`
	ClusterType                  ClusterType        `json:"clusterType"`
	StateName                    ClusterState       `json:"stateName"`
	MongoDBVersion               string             `json:"mongoDBVersion"`
	MongoDBMajorVersion          string             `json:"mongoDBMajorVersion,omitempty"`
	Paused                       bool               `json:"paused"`
	BackupEnabled                bool               `json:"backupEnabled"`
	PitEnabled                   bool               `json:"pitEnabled"`
	TerminationProtectionEnabled bool               `json:"terminationProtectionEnabled"`
	VersionReleaseSystem         string             `json:"versionReleaseSystem,omitempty"` // LTS, CONTINUOUS
	CreateDate                   *time.Time         `json:"createDate,omitempty"`
	ConnectionStrings            *ConnectionStrings `json:"connectionStrings,omitempty"`
	ReplicationSpecs             []ReplicationSpec  `json:"replicationSpecs,omitempty"`
	Tags                         []Tag              `json:"tags,omitempty"`
	Links                        []Link             `json:"links,omitempty"`
}

// ConnectionStrings are a cluster's URIs.
type ConnectionStrings struct {
	Standard    string `json:"standard,omitempty"`
	StandardSrv string `json:"standardSrv,omitempty"`
	Private     string `json:"private,omitempty"`
	PrivateSrv  string `json:"privateSrv,omitempty"`
}

// ReplicationSpec is one zone (or shard) of a cluster.
type ReplicationSpec struct {
	ID            string         `json:"id,omitempty"`
	ZoneID        string         `json:"zoneId,omitempty"`
	ZoneName      string         `json:"zoneName,omitempty"`
	RegionConfigs []RegionConfig `json:"regionConfigs"`
}

// RegionConfig is one region's hardware. A tenant (M0/M2/M5) cluster has
// providerName TENANT and the real provider in backingProviderName.
type RegionConfig struct {
	ProviderName        string        `json:"providerName"`
	BackingProviderName string        `json:"backingProviderName,omitempty"`
	RegionName          string        `json:"regionName"`
	Priority            int           `json:"priority"`
	ElectableSpecs      *HardwareSpec `json:"electableSpecs,omitempty"`
	ReadOnlySpecs       *HardwareSpec `json:"readOnlySpecs,omitempty"`
	AnalyticsSpecs      *HardwareSpec `json:"analyticsSpecs,omitempty"`
}

// HardwareSpec is a node group's size.
type HardwareSpec struct {
	InstanceSize  string  `json:"instanceSize"`
	NodeCount     int     `json:"nodeCount,omitempty"`
	DiskSizeGB    float64 `json:"diskSizeGB,omitempty"`
	DiskIOPS      int     `json:"diskIOPS,omitempty"`
	EBSVolumeType string  `json:"ebsVolumeType,omitempty"`
}

// InstanceSize is the electable tier of the first region ("M10", "M0", ...),
// or "" when the answer carried no specs.
func (c Cluster) InstanceSize() string {
	for _, rs := range c.ReplicationSpecs {
		for _, rc := range rs.RegionConfigs {
			if rc.ElectableSpecs != nil && rc.ElectableSpecs.InstanceSize != "" {
				return rc.ElectableSpecs.InstanceSize
			}
		}
	}
	return ""
}

// Tenant reports a shared-tier cluster (M0, M2, M5): no access logs, no
// auditing, no cloud backup snapshots of the dedicated kind.
func (c Cluster) Tenant() bool {
	for _, rs := range c.ReplicationSpecs {
		for _, rc := range rs.RegionConfigs {
			if rc.ProviderName == "TENANT" {
				return true
			}
		}
	}
	return TenantSize(c.InstanceSize())
}

// TenantSize reports whether an instance size is a shared tier.
func TenantSize(size string) bool {
	switch strings.ToUpper(size) {
	case "M0", "M2", "M5":
		return true
	}
	return false
}

// ClusterListOptions page listClusters.
type ClusterListOptions struct {
	IncludeDeletedWithRetainedBackups bool
	ListOptions
}

// OrgGroupClusters is one project of GET /clusters, with its clusters.
type OrgGroupClusters struct {
	GroupID   string           `json:"groupId"`
	GroupName string           `json:"groupName"`
	OrgID     string           `json:"orgId"`
	OrgName   string           `json:"orgName"`
	PlanType  string           `json:"planType,omitempty"`
	Tags      []string         `json:"tags,omitempty"`
	Clusters  []ClusterSummary `json:"clusters"`
}

// ClusterSummary is a cluster as GET /clusters describes it.
type ClusterSummary struct {
	ClusterID     string   `json:"clusterId"`
	Name          string   `json:"name"`
	Type          string   `json:"type"`         // REPLICA_SET, SHARDED_CLUSTER
	Availability  string   `json:"availability"` // available, dead, unavailable, warning
	Versions      []string `json:"versions,omitempty"`
	BackupEnabled bool     `json:"backupEnabled"`
	AuthEnabled   bool     `json:"authEnabled"`
	SSLEnabled    bool     `json:"sslEnabled"`
	AlertCount    int      `json:"alertCount"`
	NodeCount     int      `json:"nodeCount"`
	DataSizeBytes int64    `json:"dataSizeBytes,omitempty"`
}

// FlexCluster is FlexClusterDescription20241113.
type FlexCluster struct {
	ID                           string             `json:"id"`
	GroupID                      string             `json:"groupId"`
	Name                         string             `json:"name"`
	ClusterType                  ClusterType        `json:"clusterType,omitempty"`
	StateName                    ClusterState       `json:"stateName"`
	MongoDBVersion               string             `json:"mongoDBVersion"`
	CreateDate                   *time.Time         `json:"createDate,omitempty"`
	ProviderSettings             FlexProvider       `json:"providerSettings"`
	BackupSettings               *BackupSettings    `json:"backupSettings,omitempty"`
	ConnectionStrings            *ConnectionStrings `json:"connectionStrings,omitempty"`
	TerminationProtectionEnabled bool               `json:"terminationProtectionEnabled"`
	VersionReleaseSystem         string             `json:"versionReleaseSystem,omitempty"`
	Tags                         []Tag              `json:"tags,omitempty"`
}

// FlexProvider is where a flex cluster runs.
type FlexProvider struct {
	ProviderName        string  `json:"providerName"` // FLEX
	BackingProviderName string  `json:"backingProviderName"`
	RegionName          string  `json:"regionName"`
	DiskSizeGB          float64 `json:"diskSizeGB,omitempty"`
}

// BackupSettings says whether a flex cluster is backed up.
type BackupSettings struct {
	Enabled bool `json:"enabled"`
}

// ServerlessInstance is ServerlessInstanceDescription.
type ServerlessInstance struct {
	ID                           string                   `json:"id"`
	GroupID                      string                   `json:"groupId"`
	Name                         string                   `json:"name"`
	StateName                    ClusterState             `json:"stateName"`
	MongoDBVersion               string                   `json:"mongoDBVersion"`
	CreateDate                   *time.Time               `json:"createDate,omitempty"`
	ProviderSettings             ServerlessProvider       `json:"providerSettings"`
	ConnectionStrings            *ServerlessConnStrings   `json:"connectionStrings,omitempty"`
	ServerlessBackupOptions      *ServerlessBackupOptions `json:"serverlessBackupOptions,omitempty"`
	TerminationProtectionEnabled bool                     `json:"terminationProtectionEnabled"`
	Tags                         []Tag                    `json:"tags,omitempty"`
	Links                        []Link                   `json:"links,omitempty"`
}

// ServerlessProvider is where a serverless instance runs.
type ServerlessProvider struct {
	ProviderName        string `json:"providerName"` // SERVERLESS
	BackingProviderName string `json:"backingProviderName"`
	RegionName          string `json:"regionName"`
}

// ServerlessConnStrings are a serverless instance's URIs.
type ServerlessConnStrings struct {
	StandardSrv     string                     `json:"standardSrv,omitempty"`
	PrivateEndpoint []ServerlessPrivateConnStr `json:"privateEndpoint,omitempty"`
}

// ServerlessPrivateConnStr is a private-endpoint URI of a serverless instance.
type ServerlessPrivateConnStr struct {
	SRVConnectionString string `json:"srvConnectionString,omitempty"`
	Type                string `json:"type,omitempty"`
}

// ServerlessBackupOptions say whether continuous backup is on.
type ServerlessBackupOptions struct {
	ServerlessContinuousBackupEnabled bool `json:"serverlessContinuousBackupEnabled"`
}

// ProcessType is a process's typeName.
type ProcessType string

const (
	ProcessPrimary         ProcessType = "REPLICA_PRIMARY"
	ProcessSecondary       ProcessType = "REPLICA_SECONDARY"
	ProcessRecovering      ProcessType = "RECOVERING"
	ProcessMongos          ProcessType = "SHARD_MONGOS"
	ProcessConfig          ProcessType = "SHARD_CONFIG"
	ProcessShardStandalone ProcessType = "SHARD_STANDALONE"
	ProcessShardPrimary    ProcessType = "SHARD_PRIMARY"
	ProcessShardSecondary  ProcessType = "SHARD_SECONDARY"
	ProcessNoData          ProcessType = "NO_DATA"
)

// Process is one mongod or mongos of a project (ApiHostViewAtlas).
type Process struct {
	ID             string      `json:"id"` // hostname:port
	GroupID        string      `json:"groupId,omitempty"`
	Hostname       string      `json:"hostname"`
	Port           int         `json:"port"`
	TypeName       ProcessType `json:"typeName"`
	ReplicaSetName string      `json:"replicaSetName,omitempty"`
	ShardName      string      `json:"shardName,omitempty"`
	UserAlias      string      `json:"userAlias,omitempty"`
	Version        string      `json:"version,omitempty"`
	Created        *time.Time  `json:"created,omitempty"`
	LastPing       *time.Time  `json:"lastPing,omitempty"`
	Links          []Link      `json:"links,omitempty"`
}

// HostPort is the process's address as the access log route wants it.
func (p Process) HostPort() string { return p.Hostname + ":" + strconv.Itoa(p.Port) }

// LegacyCluster is a cluster as the v1.0 routes describe it.
type LegacyCluster struct {
	ID                  string                  `json:"id"`
	GroupID             string                  `json:"groupId"`
	Name                string                  `json:"name"`
	ClusterType         ClusterType             `json:"clusterType"`
	StateName           ClusterState            `json:"stateName"`
	MongoDBVersion      string                  `json:"mongoDBVersion"`
	MongoDBMajorVersion string                  `json:"mongoDBMajorVersion,omitempty"`
	Paused              bool                    `json:"paused"`
	ProviderSettings    *LegacyProviderSettings `json:"providerSettings,omitempty"`
	Links               []Link                  `json:"links,omitempty"`
}

// LegacyProviderSettings carries a v1.0 cluster's tier.
type LegacyProviderSettings struct {
	ProviderName        string `json:"providerName"`
	BackingProviderName string `json:"backingProviderName,omitempty"`
	InstanceSizeName    string `json:"instanceSizeName"`
	RegionName          string `json:"regionName,omitempty"`
}

// List fetches one page of a project's dedicated and tenant clusters.
func (s ClustersService) List(ctx context.Context, groupID string, o ClusterListOptions) (*Page[Cluster], error) {
	return getPage[Cluster](ctx, s.c, "listClusters", clusterListRequest(groupID, o.IncludeDeletedWithRetainedBackups), o.ListOptions)
}

// All fetches every cluster of a project.
func (s ClustersService) All(ctx context.Context, groupID string) ([]Cluster, error) {
	return getAll[Cluster](ctx, s.c, "listClusters", clusterListRequest(groupID, false))
}

func clusterListRequest(groupID string, withDeleted bool) Request {
	r := Request{Params: groupParams(groupID)}
	if withDeleted {
		r.Query = url.Values{"includeDeletedWithRetainedBackups": {"true"}}
	}
	return r
}

// Get fetches one cluster.
func (s ClustersService) Get(ctx context.Context, groupID, clusterName string) (*Cluster, error) {
	return getJSON[Cluster](ctx, s.c, "getCluster", Request{Params: clusterParams(groupID, clusterName)})
}

// ForAllProjects fetches one page of GET /clusters: every project the
// caller can see, each with its clusters.
func (s ClustersService) ForAllProjects(ctx context.Context, o ListOptions) (*Page[OrgGroupClusters], error) {
	return getPage[OrgGroupClusters](ctx, s.c, "listClustersForAllProjects", Request{}, o)
}

// Flex fetches one page of a project's flex clusters.
func (s ClustersService) Flex(ctx context.Context, groupID string, o ListOptions) (*Page[FlexCluster], error) {
	return getPage[FlexCluster](ctx, s.c, "listFlexClusters", Request{Params: groupParams(groupID)}, o)
}

// AllFlex fetches every flex cluster of a project.
func (s ClustersService) AllFlex(ctx context.Context, groupID string) ([]FlexCluster, error) {
	return getAll[FlexCluster](ctx, s.c, "listFlexClusters", Request{Params: groupParams(groupID)})
}

// Serverless fetches one page of a project's serverless instances.
func (s ClustersService) Serverless(ctx context.Context, groupID string, o ListOptions) (*Page[ServerlessInstance], error) {
	return getPage[ServerlessInstance](ctx, s.c, "listServerlessInstances", Request{Params: groupParams(groupID)}, o)
}

// AllServerless fetches every serverless instance of a project.
func (s ClustersService) AllServerless(ctx context.Context, groupID string) ([]ServerlessInstance, error) {
	return getAll[ServerlessInstance](ctx, s.c, "listServerlessInstances", Request{Params: groupParams(groupID)})
}

// Processes fetches one page of a project's processes (hosts).
func (s ClustersService) Processes(ctx context.Context, groupID string, o ListOptions) (*Page[Process], error) {
	return getPage[Process](ctx, s.c, "listAtlasProcesses", Request{Params: groupParams(groupID)}, o)
}

// AllProcesses fetches every process of a project.
func (s ClustersService) AllProcesses(ctx context.Context, groupID string) ([]Process, error) {
	return getAll[Process](ctx, s.c, "listAtlasProcesses", Request{Params: groupParams(groupID)})
}

// LegacyList fetches one page of a project's clusters from the v1.0 routes.
func (s ClustersService) LegacyList(ctx context.Context, groupID string, o ListOptions) (*Page[LegacyCluster], error) {
	return getPage[LegacyCluster](ctx, s.c, "legacyListClusters", Request{Params: groupParams(groupID)}, o)
}

// LegacyGet fetches one cluster from the v1.0 routes.
func (s ClustersService) LegacyGet(ctx context.Context, groupID, clusterName string) (*LegacyCluster, error) {
	return getJSON[LegacyCluster](ctx, s.c, "legacyGetCluster", Request{Params: clusterParams(groupID, clusterName)})
}

// MeasurementOptions select a database's measurements. Granularity (an
// ISO 8601 duration such as PT1M) is required; give Period, or Start and End.
type MeasurementOptions struct {
	Granularity string
	Period      string
	Start, End  *time.Time
	Metrics     []string // m=...; empty: all
}

func (o MeasurementOptions) query() (url.Values, error) {
	if o.Granularity == "" {
		return nil, invalidField("granularity", "required")
	}
	if (o.Start == nil) != (o.End == nil) {
		return nil, invalidField("start", "start and end go together")
	}
	if o.Period != "" && o.Start != nil {
		return nil, invalidField("period", "give period or start and end, not both")
	}
	q := queryOf("granularity", o.Granularity, "period", o.Period)
	if o.Start != nil {
		q.Set("start", o.Start.UTC().Format(time.RFC3339))
		q.Set("end", o.End.UTC().Format(time.RFC3339))
	}
	for _, m := range o.Metrics {
		q.Add("m", m)
	}
	return q, nil
}

// Measurements is a series of measurements of one database on one process.
type Measurements struct {
	DatabaseName string        `json:"databaseName"`
	GroupID      string        `json:"groupId"`
	HostID       string        `json:"hostId"`
	ProcessID    string        `json:"processId"`
	Granularity  string        `json:"granularity"`
	Start        time.Time     `json:"start"`
	End          time.Time     `json:"end"`
	Measurements []Measurement `json:"measurements"`
	Links        []Link        `json:"links,omitempty"`
}

// Measurement is one metric's data points.
type Measurement struct {
	Name       string      `json:"name"`
	Units      string      `json:"units"`
	DataPoints []DataPoint `json:"dataPoints"`
}

// DataPoint is one reading; Value is nil when the process sent none.
type DataPoint struct {
	Timestamp time.Time `json:"timestamp"`
	Value     *float64  `json:"value"`
}

// DatabaseMeasurements fetches one database's measurements on a process
// (processID is hostname:port).
func (s ClustersService) DatabaseMeasurements(ctx context.Context, groupID, processID, databaseName string, o MeasurementOptions) (*Measurements, error) {
	q, err := o.query()
	if err != nil {
		return nil, fmt.Errorf("database measurements: %w", err)
	}
	return getJSON[Measurements](ctx, s.c, "getDatabaseMeasurements", Request{Params: groupParams(groupID, "processId", processID, "databaseName", databaseName), Query: q})
}

// IndexKey is one index key document, e.g. {"customerId": 1}.
type IndexKey map[string]any

// DropIndexSuggestions are the performance advisor's indexes to drop.
type DropIndexSuggestions struct {
	HiddenIndexes    []IndexUsage `json:"hiddenIndexes"`
	RedundantIndexes []IndexUsage `json:"redundantIndexes"`
	UnusedIndexes    []IndexUsage `json:"unusedIndexes"`
}

// IndexUsage describes an existing index and how much it is used.
type IndexUsage struct {
	Name        string     `json:"name"`
	Namespace   string     `json:"namespace"`
	Index       []IndexKey `json:"index"`
	AccessCount int64      `json:"accessCount"`
	SizeBytes   int64      `json:"sizeBytes"`
	Since       *time.Time `json:"since,omitempty"`
	Shards      []string   `json:"shards,omitempty"`
}

// SuggestedIndexes are the performance advisor's indexes to create and the
// query shapes that motivate them.
type SuggestedIndexes struct {
	Shapes           []QueryShape     `json:"shapes"`
	SuggestedIndexes []SuggestedIndex `json:"suggestedIndexes"`
}

// QueryShape is a family of slow queries.
type QueryShape struct {
	ID                string            `json:"id"`
	Namespace         string            `json:"namespace"`
	AvgMs             int64             `json:"avgMs"`
	Count             int64             `json:"count"`
	InefficiencyScore int64             `json:"inefficiencyScore"`
	Operations        []json.RawMessage `json:"operations,omitempty"`
}

// SuggestedIndex is one index the advisor recommends.
type SuggestedIndex struct {
	ID         string     `json:"id"`
	Namespace  string     `json:"namespace"`
	Index      []IndexKey `json:"index"`
	Impact     []string   `json:"impact"` // ids of the shapes it helps
	Weight     float64    `json:"weight"`
	AvgObjSize float64    `json:"avgObjSize"`
}

// advisorEnvelope is how the performance advisor answers (2024-08-05):
// the suggestions in content, with the HTTP status.
type advisorEnvelope[T any] struct {
	Content T   `json:"content"`
	Status  int `json:"status"`
}

// DropIndexSuggestions asks the performance advisor which indexes to drop.
func (s ClustersService) DropIndexSuggestions(ctx context.Context, groupID, clusterName string) (*DropIndexSuggestions, error) {
	e, err := getJSON[advisorEnvelope[DropIndexSuggestions]](ctx, s.c, "listDropIndexes", Request{Params: clusterParams(groupID, clusterName)})
	if err != nil {
		return nil, err
	}
	return &e.Content, nil
}

// SuggestedIndexes asks the performance advisor which indexes to create.
func (s ClustersService) SuggestedIndexes(ctx context.Context, groupID, clusterName string) (*SuggestedIndexes, error) {
	e, err := getJSON[advisorEnvelope[SuggestedIndexes]](ctx, s.c, "listClusterSuggestedIndexes", Request{Params: clusterParams(groupID, clusterName)})
	if err != nil {
		return nil, err
	}
	return &e.Content, nil
}
