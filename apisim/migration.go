package apisim

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/limits"
)

// Live migration (push). A migration is NEW for a few seconds, then WORKING
// through the initial sync and the oplog catch-up with lagTimeSeconds
// falling, then readyForCutover. A cut-over makes it COMPLETE shortly after;
// without one within 120 hours of readiness it is EXPIRED. A migration
// whose request fails the checks of migration_checks.go goes FAILED after
// NEW. Validations are PENDING for a few seconds, then SUCCESS or FAILED
// with the first failed check as errorMessage.

type Migration struct {
	ID                string     `json:"id"`
	GroupID           string     `json:"groupId"`
	SourceGroupID     string     `json:"sourceGroupId"`
	SourceClusterName string     `json:"sourceClusterName,omitempty"`
	ClusterName       string     `json:"clusterName"`
	MigrationHosts    []string   `json:"migrationHosts"`
	DropDestination   bool       `json:"dropDestination,omitempty"`
	CreatedAt         time.Time  `json:"createdAt"`
	SyncFor           int64      `json:"syncFor,omitempty"`    // seconds of initial sync
	CatchUpFor        int64      `json:"catchUpFor,omitempty"` // seconds of oplog catch-up
	Failure           string     `json:"failure,omitempty"`    // the failed check; the job goes FAILED
	SkippedTimeSeries []string   `json:"skippedTimeSeries,omitempty"`
	CutoverAt         *time.Time `json:"cutoverAt,omitempty"`
}

type Validation struct {
	ID            string    `json:"id"`
	GroupID       string    `json:"groupId"`
	SourceGroupID string    `json:"sourceGroupId"`
	CreatedAt     time.Time `json:"createdAt"`
	Error         string    `json:"error,omitempty"`
}

type SourceDeployment struct {
	ClusterID                   string  `json:"clusterId"`
	Name                        string  `json:"name"`
	MongoDBVersion              string  `json:"mongoDBVersion"`
	FeatureCompatibilityVersion string  `json:"featureCompatibilityVersion"`
	Managed                     bool    `json:"managed"`
	Sharded                     bool    `json:"sharded"`
	TLSEnabled                  bool    `json:"tlsEnabled"`
	AgentVersion                string  `json:"agentVersion"`
	DBSizeBytes                 int64   `json:"dbSizeBytes"`
	OplogSizeMB                 int     `json:"oplogSizeMB"`
	ShardsSize                  float64 `json:"shardsSize,omitempty"`
}

type SourceProject struct {
	ProjectID      string             `json:"projectId"`
	Name           string             `json:"name"`
	MigrationHosts []string           `json:"migrationHosts"`
	Deployments    []SourceDeployment `json:"deployments"`
}

const (
	migrationNewFor   = 10 * time.Second
	cutoverFor        = 30 * time.Second
	cutoverExpiry     = 120 * time.Hour
	validationPending = 10 * time.Second

	// Defaults for migrations stored without durations (older state files).
	defaultSyncFor    = 12 * 60
	defaultCatchUpFor = 6 * 60
)

// Migration phases, reported in the job as the simulator's extension field
// "phase" (the real service has no such field; clients must not need it).
const (
	PhaseStarting    = "STARTING"
	PhaseInitialSync = "INITIAL_SYNC"
	PhaseCatchUp     = "OPLOG_CATCH_UP"
	PhaseReady       = "READY_FOR_CUTOVER"
	PhaseCuttingOver = "CUTTING_OVER"
	PhaseComplete    = "COMPLETE"
	PhaseFailed      = "FAILED"
	PhaseExpired     = "EXPIRED"
)

// migrationState is a migration computed at one instant.
type migrationState struct {
	Status string
	Phase  string
	Ready  bool
	Lag    int64
}

func (m *Migration) durations() (syncFor, catchUp time.Duration) {
	s, c := m.SyncFor, m.CatchUpFor
	if s <= 0 {
		s = defaultSyncFor
	}
	if c <= 0 {
		c = defaultCatchUpFor
	}
	return secs(s), secs(c)
}

// ReadyAt is when the migration becomes ready for cut-over.
func (m *Migration) ReadyAt() time.Time {
	syncFor, catchUp := m.durations()
	return m.CreatedAt.Add(migrationNewFor + syncFor + catchUp)
}

// state computes the migration at now. The lag starts at the length of the
// initial sync, falls to a quarter of it by the end of the sync and to a
// couple of seconds by the end of the catch-up, then wobbles between one
// and three seconds while the migration waits for its cut-over.
func (m *Migration) state(now time.Time) migrationState {
	syncFor, catchUp := m.durations()
	age := now.Sub(m.CreatedAt)
	startLag := int64(syncFor / time.Second)
	midLag := max(startLag/4, 3)
	readyAt := m.ReadyAt()
	switch {
	case m.CutoverAt != nil && !now.Before(m.CutoverAt.Add(cutoverFor)):
		return migrationState{Status: "COMPLETE", Phase: PhaseComplete}
	case m.CutoverAt != nil:
		return migrationState{Status: "WORKING", Phase: PhaseCuttingOver}
	case age < migrationNewFor:
		return migrationState{Status: "NEW", Phase: PhaseStarting}
	case m.Failure != "":
		return migrationState{Status: "FAILED", Phase: PhaseFailed}
	case age < migrationNewFor+syncFor:
		f := float64(age-migrationNewFor) / float64(syncFor)
		return migrationState{Status: "WORKING", Phase: PhaseInitialSync, Lag: startLag - int64(f*float64(startLag-midLag))}
	case age < migrationNewFor+syncFor+catchUp:
		f := float64(age-migrationNewFor-syncFor) / float64(catchUp)
		return migrationState{Status: "WORKING", Phase: PhaseCatchUp, Lag: midLag - int64(f*float64(midLag-3))}
	case !now.Before(readyAt.Add(cutoverExpiry)):
		return migrationState{Status: "EXPIRED", Phase: PhaseExpired}
	}
	return migrationState{Status: "WORKING", Phase: PhaseReady, Ready: true, Lag: 1 + int64(age/time.Second)%3}
}

// view is LiveMigrationResponse plus two simulator extensions: "phase" and
// "skippedTimeSeriesCollections" (time-series collections a 6.0+ source
// does not migrate).
func (m *Migration) view(now time.Time) any {
	st := m.state(now)
	hosts := m.MigrationHosts
	if hosts == nil {
		hosts = []string{}
	}
	v := map[string]any{"_id": m.ID, "status": st.Status, "migrationHosts": hosts,
		"readyForCutover": st.Ready, "phase": st.Phase}
	if st.Status != "NEW" && st.Status != "FAILED" && st.Status != "EXPIRED" && st.Status != "COMPLETE" {
		v["lagTimeSeconds"] = st.Lag // absent when there is no lag to tell
	}
	if len(m.SkippedTimeSeries) > 0 {
		v["skippedTimeSeriesCollections"] = m.SkippedTimeSeries
	}
	return v
}

func (v *Validation) view(now time.Time) any {
	out := map[string]any{"_id": v.ID, "groupId": v.GroupID, "sourceGroupId": v.SourceGroupID, "status": "PENDING"}
	if !now.Before(v.CreatedAt.Add(validationPending)) {
		out["status"] = "SUCCESS"
		if v.Error != "" {
			out["status"], out["errorMessage"] = "FAILED", v.Error
		}
	}
	return out
}

func init() {
	handle("createPushMigration", func(c *call) (any, error) {
		b, err := c.migrationRequest()
		if err != nil {
			return nil, err
		}
		if src := c.w.sourceProject(b.Source.GroupID); src == nil || c.w.LinkToken == "" {
			return nil, errField("source.groupId", "must be a project listed as available for migration")
		}
		m := &Migration{ID: c.w.newID(), GroupID: c.project.ID, SourceGroupID: b.Source.GroupID,
			SourceClusterName: b.Source.ClusterName, ClusterName: b.Destination.ClusterName,
			MigrationHosts: b.MigrationHosts, DropDestination: b.drop(), CreatedAt: c.now}
		m.Failure = c.w.checkMigration(c.project.ID, b, c.now)
		if dep := c.w.sourceDeployment(b.Source.GroupID, b.Source.ClusterName); dep != nil {
			m.SyncFor, m.CatchUpFor = syncDurations(dep.DBSizeBytes)
			m.SkippedTimeSeries = skippedTimeSeries(dep)
		}
		c.w.Migrations = append(c.w.Migrations, m)
		c.markChanged()
		return m.view(c.now), nil
	})
	handle("validateMigration", func(c *call) (any, error) {
		b, err := c.migrationRequest()
		if err != nil {
			return nil, err
		}
		v := &Validation{ID: c.w.newID(), GroupID: c.project.ID, SourceGroupID: b.Source.GroupID, CreatedAt: c.now,
			Error: c.w.checkMigration(c.project.ID, b, c.now)}
		c.w.Validations = append(c.w.Validations, v)
		c.markChanged()
		return v.view(c.now), nil
	})
	handle("getValidationStatus", func(c *call) (any, error) {
		id := c.param("validationId")
		v := find(c.w.Validations, func(x *Validation) bool { return x.ID == id && x.GroupID == c.project.ID })
		if v == nil {
			return nil, errNotFound("VALIDATION_NOT_FOUND", "No validation with ID %s exists in group %s.", id, c.project.ID)
		}
		return v.view(c.now), nil
	})
	handle("getPushMigration", func(c *call) (any, error) {
		m, err := c.migration()
		if err != nil {
			return nil, err
		}
		return m.view(c.now), nil
	})
	handle("cutoverMigration", func(c *call) (any, error) {
		m, err := c.migration()
		if err != nil {
			return nil, err
		}
		if st := m.state(c.now); !st.Ready {
			return nil, errBadRequest("MIGRATION_NOT_READY_FOR_CUTOVER", "Live migration %s is %s and not ready for cutover.", m.ID, st.Status)
		}
		now := c.now
		m.CutoverAt = &now
		c.markChanged()
		return nil, nil
	})
	handle("listSourceProjects", func(c *call) (any, error) {
		// Source organizations are linked with the link token; without one
		// nothing is available.
		if c.w.LinkToken == "" {
			return list{}, nil
		}
		return listOf(c.w.SourceProjects, func(p SourceProject) any { return p }), nil
	})
	handle("createLinkToken", createLinkToken)
	handle("deleteLinkToken", func(c *call) (any, error) {
		if c.w.LinkToken == "" {
			return nil, errNotFound("LINK_TOKEN_NOT_FOUND", "Organization %s has no link token.", c.org.ID)
		}
		// The service documents 204 (or 400, 401, 403, 404, 429, 500) and
		// no refusal while a migration runs: the token only links the
		// source organization for new migrations; one already running
		// goes on.
		c.w.LinkToken = ""
		c.markChanged()
		return nil, nil
	})
}

func (w *World) sourceProject(id string) *SourceProject {
	for i := range w.SourceProjects {
		if w.SourceProjects[i].ProjectID == id {
			return &w.SourceProjects[i]
		}
	}
	return nil
}

func (w *World) sourceDeployment(projectID, name string) *SourceDeployment {
	p := w.sourceProject(projectID)
	if p == nil {
		return nil
	}
	for i := range p.Deployments {
		if p.Deployments[i].Name == name {
			return &p.Deployments[i]
		}
	}
	return nil
}

// syncDurations scale with the data: 4 GiB a minute of initial sync
// (at least two minutes, at most six hours) and half that again of oplog
// catch-up (one minute to one hour).
func syncDurations(dbSizeBytes int64) (syncFor, catchUp int64) {
	syncFor = min(max(dbSizeBytes/(4<<30)*60, 2*60), 6*3600)
	catchUp = min(max(syncFor/2, 60), 3600)
	return syncFor, catchUp
}

func (c *call) migration() (*Migration, error) {
	id := c.param("liveMigrationId")
	m := find(c.w.Migrations, func(x *Migration) bool { return x.ID == id && x.GroupID == c.project.ID })
	if m == nil {
		return nil, errNotFound("LIVE_MIGRATION_NOT_FOUND", "No live migration with ID %s exists in group %s.", id, c.project.ID)
	}
	return m, nil
}

type migrationBody struct {
	ID     any `json:"_id"`
	Source *struct {
		ClusterName           string `json:"clusterName"`
		GroupID               string `json:"groupId"`
		ManagedAuthentication *bool  `json:"managedAuthentication"`
		SSL                   *bool  `json:"ssl"`
		CACertificatePath     string `json:"caCertificatePath"`
		Username              string `json:"username"`
		Password              string `json:"password"`
	} `json:"source"`
	Destination *struct {
		ClusterName        string `json:"clusterName"`
		GroupID            string `json:"groupId"`
		HostnameSchemaType string `json:"hostnameSchemaType"`
		PrivateLinkID      string `json:"privateLinkId"`
	} `json:"destination"`
	MigrationHosts      []string        `json:"migrationHosts"`
	Sharding            json.RawMessage `json:"sharding"`
	DropDestinationData *bool           `json:"dropDestinationData"`
	DropEnabled         *bool           `json:"dropEnabled"`

	sharding *shardingBody // decoded Sharding, nil when absent or null
}

type shardingBody struct {
	CreateSupportingIndexes *bool `json:"createSupportingIndexes"`
	ShardingEntries         []struct {
		Database        string `json:"database"`
		Collection      string `json:"collection"`
		ShardCollection *struct {
			Key []map[string]any `json:"key"`
		} `json:"shardCollection"`
	} `json:"shardingEntries"`
}

// drop reports whether the destination's collections are dropped first.
func (b *migrationBody) drop() bool {
	if b.DropDestinationData != nil {
		return *b.DropDestinationData
	}
	return b.DropEnabled != nil && *b.DropEnabled
}

// migrationRequest decodes and validates LiveMigrationRequest in the shape
// of the negotiated version (dropEnabled before 2024-05-30).
func (c *call) migrationRequest() (*migrationBody, *apiError) {
	var b migrationBody
	if e := c.decode(&b); e != nil {
		return nil, e
	}
	old := c.version.Date < "2024-05-30"
	hostsErr := limitError("", limits.MigrationHosts(b.MigrationHosts))
	if b.Destination != nil && b.Destination.HostnameSchemaType == "" {
		// Unset or empty (the official CLI always sends ""): the service
		// takes the default, as apisim does.
		b.Destination.HostnameSchemaType = "PUBLIC"
	}
	switch {
	case b.Source == nil:
		return nil, errMissing("source")
	case b.Source.ClusterName == "":
		return nil, errMissing("source.clusterName")
	case b.Source.GroupID == "":
		return nil, errMissing("source.groupId")
	case !hexID.MatchString(b.Source.GroupID):
		return nil, errField("source.groupId", "must be a 24-character hexadecimal id")
	case b.Source.ManagedAuthentication == nil:
		return nil, errMissing("source.managedAuthentication")
	case b.Source.SSL == nil:
		return nil, errMissing("source.ssl")
	case !*b.Source.ManagedAuthentication && (b.Source.Username == "" || b.Source.Password == ""):
		return nil, errField("source.username", "username and password are required without managed authentication (SCRAM only)")
	case b.Destination == nil:
		return nil, errMissing("destination")
	case b.Destination.ClusterName == "":
		return nil, errMissing("destination.clusterName")
	case b.Destination.GroupID == "":
		return nil, errMissing("destination.groupId")
	case b.Destination.GroupID != c.project.ID:
		return nil, errField("destination.groupId", "must be the project of the request path")
	case b.Destination.HostnameSchemaType != "PUBLIC" && b.Destination.HostnameSchemaType != "PRIVATE_LINK" && b.Destination.HostnameSchemaType != "VPC_PEERING":
		return nil, errField("destination.hostnameSchemaType", "must be one of PUBLIC, PRIVATE_LINK, VPC_PEERING")
	case b.Destination.HostnameSchemaType == "PRIVATE_LINK" && b.Destination.PrivateLinkID == "":
		return nil, errMissing("destination.privateLinkId")
	case hostsErr != nil:
		return nil, hostsErr
	case old && b.DropEnabled == nil:
		return nil, errMissing("dropEnabled")
	case old && b.DropDestinationData != nil:
		return nil, errField("dropDestinationData", "is not an attribute in version %s; use dropEnabled", c.version.Date)
	case !old && b.DropEnabled != nil:
		return nil, errField("dropEnabled", "is not an attribute in version %s; use dropDestinationData", c.version.Date)
	}
	if !validMigrationHost(b.MigrationHosts[0]) {
		return nil, errField("migrationHosts[0]", "must be a host name or address, with or without a port")
	}
	if e := b.decodeSharding(); e != nil {
		return nil, e
	}
	dst := c.w.cluster(c.project.ID, b.Destination.ClusterName)
	if dst == nil || !dst.dedicated() {
		return nil, errNotFound("CLUSTER_NOT_FOUND", "No dedicated cluster named %s exists in group %s.", b.Destination.ClusterName, c.project.ID)
	}
	return &b, nil
}

func (b *migrationBody) decodeSharding() *apiError {
	if len(b.Sharding) == 0 || string(b.Sharding) == "null" {
		return nil
	}
	var s shardingBody
	if e := decodeJSON(b.Sharding, &s); e != nil {
		return e
	}
	if s.CreateSupportingIndexes == nil {
		return errMissing("sharding.createSupportingIndexes")
	}
	if s.ShardingEntries == nil {
		return errMissing("sharding.shardingEntries")
	}
	for i, e := range s.ShardingEntries {
		field := "sharding.shardingEntries[" + itoa(i) + "]"
		switch {
		case e.Database == "":
			return errMissing(field + ".database")
		case e.Collection == "":
			return errMissing(field + ".collection")
		case e.ShardCollection == nil || len(e.ShardCollection.Key) == 0:
			return errMissing(field + ".shardCollection.key")
		}
	}
	b.sharding = &s
	return nil
}

func createLinkToken(c *call) (any, error) {
	var b struct {
		AccessListIPs []string `json:"accessListIps"`
	}
	if len(c.body) > 0 {
		if e := c.decode(&b); e != nil {
			return nil, e
		}
	}
	for i, ip := range b.AccessListIPs {
		if net.ParseIP(ip) == nil {
			if _, _, err := net.ParseCIDR(ip); err != nil {
				return nil, errField("accessListIps["+itoa(i)+"]", "must be an IP address or CIDR block")
			}
		}
	}
	// The previous token is mixed in so a second token in the same instant
	// differs from the first.
	sum := sha256.Sum256([]byte(c.org.ID + c.now.String() + c.w.LinkToken))
	c.w.LinkToken = base64.StdEncoding.EncodeToString(sum[:])
	c.markChanged()
	return map[string]any{"linkToken": c.w.LinkToken}, nil
}

// MigrationIDs lists the ids of the live migrations of a project, oldest
// first. The API has no list call; tests and demos use this to find the
// seeded ones.
func (s *Server) MigrationIDs(groupID string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, m := range s.world.Migrations {
		if m.GroupID == groupID {
			out = append(out, m.ID)
		}
	}
	return out
}

// validMigrationHost: the service takes a migration host as a host name or
// address ("vm001.example.com", the spec's own example) or with a port
// ("vm001.example.com:27000"); an empty one, one with blanks or a bad port
// is refused.
func validMigrationHost(h string) bool {
	host, port := h, ""
	if hp, p, err := net.SplitHostPort(h); err == nil {
		host, port = hp, p
	}
	if host == "" || strings.ContainsAny(host, " \t/@") {
		return false
	}
	if port != "" {
		n, err := strconv.Atoi(port)
		return err == nil && n > 0 && n < 65536
	}
	return !strings.Contains(host, ":") || net.ParseIP(host) != nil
}
