package apisim

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net"
	"time"
)

// Live migration (push). A migration is NEW, then WORKING, and after a while
// readyForCutover; a cutover makes it COMPLETE shortly after. Validations go
// PENDING -> SUCCESS (or FAILED for an unknown source project).

type Migration struct {
	ID             string     `json:"id"`
	GroupID        string     `json:"groupId"`
	SourceGroupID  string     `json:"sourceGroupId"`
	ClusterName    string     `json:"clusterName"`
	MigrationHosts []string   `json:"migrationHosts"`
	CreatedAt      time.Time  `json:"createdAt"`
	CutoverAt      *time.Time `json:"cutoverAt,omitempty"`
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
	migrationSyncFor  = 60 * time.Second
	cutoverFor        = 30 * time.Second
	cutoverExpiry     = 120 * time.Hour
	validationPending = 10 * time.Second
)

func (m *Migration) view(now time.Time) any {
	age := now.Sub(m.CreatedAt)
	status, ready, lag := "WORKING", false, int64(0)
	switch {
	case m.CutoverAt != nil && !now.Before(m.CutoverAt.Add(cutoverFor)):
		status = "COMPLETE"
	case m.CutoverAt != nil:
		lag = 0
	case age < migrationNewFor:
		status = "NEW"
	case age < migrationSyncFor:
		lag = int64((migrationSyncFor - age) / time.Second * 5)
	case age >= migrationSyncFor+cutoverExpiry:
		status = "EXPIRED"
	default:
		ready, lag = true, 1+int64(age/time.Second)%3
	}
	hosts := m.MigrationHosts
	if hosts == nil {
		hosts = []string{}
	}
	return map[string]any{"_id": m.ID, "status": status, "lagTimeSeconds": lag, "migrationHosts": hosts, "readyForCutover": ready}
}

func (v *Validation) view(now time.Time) any {
	status, msg := "PENDING", any(nil)
	if !now.Before(v.CreatedAt.Add(validationPending)) {
		status = "SUCCESS"
		if v.Error != "" {
			status, msg = "FAILED", v.Error
		}
	}
	return map[string]any{"_id": v.ID, "groupId": v.GroupID, "sourceGroupId": v.SourceGroupID, "status": status, "errorMessage": msg}
}

func init() {
	handle("createPushMigration", func(c *call) (any, error) {
		b, err := c.migrationRequest()
		if err != nil {
			return nil, err
		}
		if src := c.w.sourceProject(b.Source.GroupID); src == nil {
			return nil, errField("source.groupId", "must be a project listed as available for migration")
		}
		m := &Migration{ID: c.w.newID(), GroupID: c.project.ID, SourceGroupID: b.Source.GroupID,
			ClusterName: b.Destination.ClusterName, MigrationHosts: b.MigrationHosts, CreatedAt: c.now}
		c.w.Migrations = append(c.w.Migrations, m)
		c.markChanged()
		return m.view(c.now), nil
	})
	handle("validateMigration", func(c *call) (any, error) {
		b, err := c.migrationRequest()
		if err != nil {
			return nil, err
		}
		v := &Validation{ID: c.w.newID(), GroupID: c.project.ID, SourceGroupID: b.Source.GroupID, CreatedAt: c.now}
		if c.w.sourceProject(b.Source.GroupID) == nil {
			v.Error = "Source project " + b.Source.GroupID + " is not linked to this organization."
		}
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
		st := m.view(c.now).(map[string]any)
		if st["readyForCutover"] != true {
			return nil, errBadRequest("MIGRATION_NOT_READY_FOR_CUTOVER", "Live migration %s is %s and not ready for cutover.", m.ID, st["status"])
		}
		now := c.now
		m.CutoverAt = &now
		c.markChanged()
		return nil, nil
	})
	handle("listSourceProjects", func(c *call) (any, error) {
		return listOf(c.w.SourceProjects, func(p SourceProject) any { return p }), nil
	})
	handle("createLinkToken", createLinkToken)
	handle("deleteLinkToken", func(c *call) (any, error) {
		if c.w.LinkToken == "" {
			return nil, errNotFound("LINK_TOKEN_NOT_FOUND", "Organization %s has no link token.", c.org.ID)
		}
		for _, m := range c.w.Migrations {
			if st := m.view(c.now).(map[string]any)["status"]; st == "NEW" || st == "WORKING" {
				return nil, errConflict("CANNOT_DELETE_ORG_ACTIVE_LIVE_MIGRATION_ATLAS_ORG_LINK",
					"Live migration %s is still running; the link token cannot be deleted.", m.ID)
			}
		}
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
}

// migrationRequest decodes and validates LiveMigrationRequest in the shape
// of the negotiated version (dropEnabled before 2024-05-30).
func (c *call) migrationRequest() (*migrationBody, *apiError) {
	var b migrationBody
	if e := c.decode(&b); e != nil {
		return nil, e
	}
	old := c.version.Date < "2024-05-30"
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
	case len(b.MigrationHosts) != 1:
		return nil, errField("migrationHosts", "must hold exactly 1 item")
	case old && b.DropEnabled == nil:
		return nil, errMissing("dropEnabled")
	case old && b.DropDestinationData != nil:
		return nil, errField("dropDestinationData", "is not an attribute in version %s; use dropEnabled", c.version.Date)
	case !old && b.DropEnabled != nil:
		return nil, errField("dropEnabled", "is not an attribute in version %s; use dropDestinationData", c.version.Date)
	}
	if _, _, err := net.SplitHostPort(b.MigrationHosts[0]); err != nil {
		return nil, errField("migrationHosts", "must be host:port")
	}
	dst := c.w.cluster(c.project.ID, b.Destination.ClusterName)
	if dst == nil || !dst.dedicated() {
		return nil, errNotFound("CLUSTER_NOT_FOUND", "No dedicated cluster named %s exists in group %s.", b.Destination.ClusterName, c.project.ID)
	}
	return &b, nil
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
	sum := sha256.Sum256([]byte(c.org.ID + c.now.String()))
	c.w.LinkToken = base64.StdEncoding.EncodeToString(sum[:])
	c.markChanged()
	return map[string]any{"linkToken": c.w.LinkToken}, nil
}
