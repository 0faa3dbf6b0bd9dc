package apisim

import (
	"encoding/json"
	"fmt"
	"time"
)

// World is the whole simulated cloud: the store every handler reads and
// writes under Server.mu. It is plain data so it can be saved as JSON.
// States that move with time (snapshots, restores, index builds,
// migrations) are stored as timestamps and computed when read.
type World struct {
	Seed     int64      `json:"seed"`
	IDPrefix uint32     `json:"idPrefix"`
	NextID   uint64     `json:"nextId"`
	Org      Org        `json:"org"`
	Orgs     []*Org     `json:"orgs,omitempty"` // the org chart's further organizations (orgchart.go)
	Projects []*Project `json:"projects"`
	Clusters []*Cluster `json:"clusters"`
	Hosts    []*Process `json:"hosts"`

	AlertConfigs []*AlertConfig `json:"alertConfigs"`
	Alerts       []*Alert       `json:"alerts"`
	Incidents    *incidentState `json:"incidents,omitempty"` // the incident engine (incidents.go)

	Snapshots     []*Snapshot                `json:"snapshots"`
	RestoreJobs   []*RestoreJob              `json:"restoreJobs"`
	ExportBuckets []*ExportBucket            `json:"exportBuckets"`
	ExportJobs    []*ExportJob               `json:"exportJobs"`
	Schedules     map[string]*Schedule       `json:"schedules"`  // by cluster id
	Compliance    map[string]*Compliance     `json:"compliance"` // by group id
	SearchIndexes []*SearchIndex             `json:"searchIndexes"`
	Analyzers     map[string]json.RawMessage `json:"analyzers"` // by "groupId/cluster"

	Auditing    map[string]*AuditLog `json:"auditing"`  // by group id
	CustomDNS   map[string]bool      `json:"customDns"` // by group id
	AccessRoles []*AccessRole        `json:"accessRoles"`

	Migrations     []*Migration    `json:"migrations"`
	Validations    []*Validation   `json:"validations"`
	LinkToken      string          `json:"linkToken,omitempty"`
	SourceProjects []SourceProject `json:"sourceProjects"`

	EARPrivateEndpoints        []*EARPrivateEndpoint        `json:"earPrivateEndpoints"`
	ServerlessPrivateEndpoints []*ServerlessPrivateEndpoint `json:"serverlessPrivateEndpoints"`

	identities map[string]*Identity // not saved: comes from Options
	idx        *worldIndex          // not saved: the lookups' indexes (world_index.go)
}

// normalize makes maps non-nil after loading an older or sparse state.
func (w *World) normalize() {
	if w.Schedules == nil {
		w.Schedules = map[string]*Schedule{}
	}
	if w.Compliance == nil {
		w.Compliance = map[string]*Compliance{}
	}
	if w.Analyzers == nil {
		w.Analyzers = map[string]json.RawMessage{}
	}
	if w.Auditing == nil {
		w.Auditing = map[string]*AuditLog{}
	}
	if w.CustomDNS == nil {
		w.CustomDNS = map[string]bool{}
	}
}

// newID returns the next 24-hex id; deterministic for a seed.
func (w *World) newID() string {
	w.NextID++
	return fmt.Sprintf("%08x%016x", w.IDPrefix, w.NextID)
}

type Org struct {
	ID                        string    `json:"id"`
	Name                      string    `json:"name"`
	IsDeleted                 bool      `json:"isDeleted"`
	SkipDefaultAlertsSettings bool      `json:"skipDefaultAlertsSettings"`
	Created                   time.Time `json:"created"`
}

type Tag struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

type Project struct {
	ID      string    `json:"id"`
	Name    string    `json:"name"`
	OrgID   string    `json:"orgId"`
	Created time.Time `json:"created"`
	Tags    []Tag     `json:"tags"`
}

// Cluster kinds.
const (
	KindTenant     = "tenant"
	KindReplicaSet = "replicaSet"
	KindSharded    = "sharded"
	KindServerless = "serverless"
	KindFlex       = "flex"
)

type Cluster struct {
	ID             string    `json:"id"`
	GroupID        string    `json:"groupId"`
	Name           string    `json:"name"`
	Kind           string    `json:"kind"`
	InstanceSize   string    `json:"instanceSize"`
	Provider       string    `json:"provider"`
	Region         string    `json:"region"`
	MongoDBVersion string    `json:"mongoDBVersion"`
	Shards         int       `json:"shards"`
	DiskSizeGB     float64   `json:"diskSizeGB"`
	BackupEnabled  bool      `json:"backupEnabled"`
	PitEnabled     bool      `json:"pitEnabled"`
	Paused         bool      `json:"paused"`
	State          string    `json:"state,omitempty"` // stateName when not IDLE (UPDATING, REPAIRING)
	Created        time.Time `json:"created"`
}

// dedicated reports whether the cluster has its own hosts (M10 and up).
func (c *Cluster) dedicated() bool { return c.Kind == KindReplicaSet || c.Kind == KindSharded }

// inClusterAPI reports whether /clusters routes address it.
func (c *Cluster) inClusterAPI() bool { return c.Kind != KindServerless && c.Kind != KindFlex }

type Process struct {
	ID             string    `json:"id"` // hostname:port
	GroupID        string    `json:"groupId"`
	ClusterName    string    `json:"clusterName"`
	Hostname       string    `json:"hostname"`
	Port           int       `json:"port"`
	TypeName       string    `json:"typeName"`
	ReplicaSetName string    `json:"replicaSetName,omitempty"`
	ShardName      string    `json:"shardName,omitempty"`
	Version        string    `json:"version"`
	Created        time.Time `json:"created"`
}

func (w *World) project(id string) *Project {
	if ps := w.indexes().projects.of(w.Projects, id); len(ps) > 0 {
		return ps[0]
	}
	return nil
}

func (w *World) org(id string) *Org {
	if w.Org.ID == id {
		return &w.Org
	}
	return find(w.Orgs, func(o *Org) bool { return o.ID == id })
}

func (w *World) cluster(groupID, name string) *Cluster {
	for _, c := range w.clustersOf(groupID) {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// clustersOf is a project's clusters, in the world's order; the caller
// must not change the slice's elements.
func (w *World) clustersOf(groupID string) []*Cluster {
	return w.indexes().clusters.of(w.Clusters, groupID)
}

// find returns the first element with the given id, via the accessor.
func find[T any](xs []*T, match func(*T) bool) *T {
	for _, x := range xs {
		if match(x) {
			return x
		}
	}
	return nil
}

// remove deletes the first element that matches; reports whether it did.
func remove[T any](xs *[]*T, match func(*T) bool) bool {
	for i, x := range *xs {
		if match(x) {
			*xs = append((*xs)[:i], (*xs)[i+1:]...)
			return true
		}
	}
	return false
}
