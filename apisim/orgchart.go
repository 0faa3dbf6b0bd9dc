package apisim

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"time"
)

// The org chart: the demo world's further organizations and projects, each
// with something that needs a human (the Triage board's kinds), spread
// across them by the seed. It is added after the rest of the world is
// seeded and draws on its own random source, so the first organization's
// three projects, their ids and contents are the same with or without it.

// Default sizes of the demo world.
const (
	DefaultOrgs     = 2
	DefaultProjects = 12
)

// DemoOrg2ID is the demo world's second organization.
var DemoOrg2ID = OrgIDAt(1)

// OrgIDAt is the fixed id of the demo world's organization number i (from 0).
func OrgIDAt(i int) string { return fmt.Sprintf("65a0c0ffee%014x", 1+i) }

// ProjectIDAt is the fixed id of the demo world's project number i (from 0);
// the first three are DemoPaymentsID, DemoAnalyticsID and DemoStagingID.
func ProjectIDAt(i int) string { return fmt.Sprintf("65a0c0ffee%014x", 0xb001+i) }

var orgNames = []string{"Demo Org", "Acme-Retail", "Northwind-Labs", "Globex"}

var projectNames = []string{"payments", "analytics", "staging", "checkout", "inventory", "ledger", "identity",
	"mobile-backend", "notifications", "warehouse", "billing", "catalog"}

// Problem kinds the org chart plants, one per new project in turn (and a
// few more at random in large worlds).
const (
	plantFailedSnapshot = iota
	plantFailedRestore
	plantRunningRestore
	plantFailedExport
	plantFailedIndex
	plantStuckIndex
	plantPausedCluster
	plantBusyCluster
	plantEOLVersion
	plantKinds
)

// orgChart grows w to orgs organizations and projects projects (the demo
// sizes when zero). Project i belongs to organization i mod orgs, except
// the first three, which stay in the first organization.
func orgChart(w *World, seed int64, now time.Time, orgs, projects int) {
	if orgs <= 0 {
		orgs = DefaultOrgs
	}
	if projects <= 0 {
		projects = DefaultProjects
	}
	now = now.UTC().Truncate(time.Second)
	// The chart mints its ids under a prefix of its own, so the world's id
	// counter (and every id minted later, at run time) is the same as in a
	// world without it.
	prefix, next := w.IDPrefix, w.NextID
	w.IDPrefix, w.NextID = prefix^0x00c4a700, 0
	defer func() { w.IDPrefix, w.NextID = prefix, next }()
	g := &seeder{w: w, rng: rand.New(rand.NewPCG(uint64(seed), 0x07c4a7)), now: now}
	for i := 1; i < orgs; i++ {
		name := fmt.Sprintf("Org %d", i+1)
		if i < len(orgNames) {
			name = orgNames[i]
		}
		w.Orgs = append(w.Orgs, &Org{ID: OrgIDAt(i), Name: name, Created: g.ago(time.Duration(700-i) * 24 * time.Hour)})
	}
	for i := len(w.Projects); i < projects; i++ {
		name := fmt.Sprintf("project-%03d", i)
		if i < len(projectNames) {
			name = projectNames[i]
		}
		p := &Project{ID: ProjectIDAt(i), Name: name, OrgID: OrgIDAt(i % orgs), Created: g.ago(time.Duration(600-i%500) * 24 * time.Hour),
			Tags: []Tag{{Key: "env", Value: "production"}}}
		w.Projects = append(w.Projects, p)
		g.chartProject(p, i-3)
	}
}

// chartProject fills one new project: two clusters, a few days of
// snapshots, a handful of alerts, and the problem of its turn.
func (g *seeder) chartProject(p *Project, n int) {
	w, day := g.w, 24*time.Hour
	versions := []string{"7.0.14", "8.0.4", "6.0.18", "7.0.14"}
	mk := func(name, size string, disk float64, version string) *Cluster {
		cl := &Cluster{ID: w.newID(), GroupID: p.ID, Name: name, Kind: KindReplicaSet, InstanceSize: size, Provider: "AWS",
			Region: "US_EAST_1", MongoDBVersion: version, Shards: 1, DiskSizeGB: disk, BackupEnabled: true, Created: g.ago(200 * day)}
		w.Clusters = append(w.Clusters, cl)
		g.hosts(cl)
		return cl
	}
	main := mk(p.Name+"-main", "M30", 80, versions[g.rng.IntN(len(versions))])
	mk(p.Name+"-dev", "M10", 10, "8.0.4")
	cfgs := g.alertConfigs(p.ID)
	w.AlertConfigs = append(w.AlertConfigs, cfgs...)
	var snaps []*Snapshot
	for i := 3; i >= 1; i-- {
		created := g.ago(time.Duration(i)*day - 3*time.Hour)
		s := &Snapshot{ID: w.newID(), GroupID: p.ID, ClusterName: main.Name, Kind: main.Kind, SnapshotType: "scheduled",
			FrequencyType: "daily", CreatedAt: created, ExpiresAt: created.Add(7 * day), QueueFor: 60, RunFor: 600,
			StorageSizeBytes: int64(main.DiskSizeGB * 2.5e7), MongodVersion: main.MongoDBVersion}
		w.Snapshots = append(w.Snapshots, s)
		snaps = append(snaps, s)
	}
	g.chartAlerts(p, main, cfgs)

	kind := n % plantKinds
	if n >= plantKinds && g.rng.IntN(3) != 0 {
		return // large worlds: one project in three has a problem beyond its alerts
	}
	switch kind {
	case plantFailedSnapshot:
		w.Snapshots = append(w.Snapshots, &Snapshot{ID: w.newID(), GroupID: p.ID, ClusterName: main.Name, Kind: main.Kind,
			SnapshotType: "scheduled", FrequencyType: "hourly", CreatedAt: g.ago(5 * time.Hour), ExpiresAt: g.now.Add(2 * day),
			QueueFor: 60, RunFor: 600, Failed: true, MongodVersion: main.MongoDBVersion})
	case plantFailedRestore, plantRunningRestore:
		j := &RestoreJob{ID: w.newID(), GroupID: p.ID, ClusterName: main.Name, Kind: "cluster", SnapshotID: snaps[0].ID,
			DeliveryType: "automated", TargetClusterName: p.Name + "-dev", TargetGroupID: p.ID, CreatedAt: g.ago(40 * time.Minute), QueueFor: 5, RunFor: 4 * 3600}
		if kind == plantFailedRestore {
			j.CreatedAt, j.RunFor, j.Failed = g.ago(3*time.Hour), 600, true
		}
		w.RestoreJobs = append(w.RestoreJobs, j)
	case plantFailedExport:
		b := &ExportBucket{ID: w.newID(), GroupID: p.ID, BucketName: p.Name + "-exports", CloudProvider: "GCP"}
		w.ExportBuckets = append(w.ExportBuckets, b)
		w.ExportJobs = append(w.ExportJobs, &ExportJob{ID: w.newID(), GroupID: p.ID, ClusterName: main.Name, SnapshotID: snaps[1].ID,
			ExportBucketID: b.ID, CreatedAt: g.ago(6 * time.Hour), CustomData: []KeyValue{}, Failed: true})
	case plantFailedIndex, plantStuckIndex:
		def := `{"analyzer":"lucene.standard","mappings":{"dynamic":true}}`
		ix := &SearchIndex{ID: w.newID(), GroupID: p.ID, ClusterName: main.Name, Name: "orders-text", Database: "shop",
			CollectionName: "orders", Type: "search", Version: 1, CreatedAt: g.ago(4 * time.Hour), UpdatedAt: g.ago(2 * time.Hour)}
		if kind == plantFailedIndex {
			def = `{"analyzer":"lucene.standard","mappings":{"dynamic":false,"fields":{"total":{"type":"numbr"}}}}`
		} else {
			ix.Stuck = true
		}
		ix.Definition = json.RawMessage(def)
		w.SearchIndexes = append(w.SearchIndexes, ix)
	case plantPausedCluster:
		main.Paused = true
	case plantBusyCluster:
		main.State = "REPAIRING"
	case plantEOLVersion:
		main.MongoDBVersion = "4.4.29"
		for _, h := range w.Hosts {
			if h.GroupID == p.ID && h.ClusterName == main.Name {
				h.Version = main.MongoDBVersion
			}
		}
	}
}

// chartAlerts gives a project a few alerts: closed ones, open ones (one
// in two projects an acknowledgement ending within the hour, one in three
// an alert opened minutes ago).
func (g *seeder) chartAlerts(p *Project, cl *Cluster, cfgs []*AlertConfig) {
	w := g.w
	n := 3 + g.rng.IntN(5)
	for i := range n {
		ti := g.rng.IntN(len(alertTemplates))
		t := alertTemplates[ti]
		created := g.ago(time.Duration(n-i)*7*time.Hour + time.Duration(g.rng.IntN(3600))*time.Second)
		a := &Alert{ID: w.newID(), GroupID: p.ID, OrgID: p.OrgID, AlertConfigID: cfgs[ti].ID, Created: created, Updated: created,
			EventTypeName: t.event, ClusterName: cl.Name, ReplicaSetName: shardName(cl, 0), Status: "OPEN"}
		ln := created.Add(5 * time.Minute)
		a.LastNotified = &ln
		if t.host {
			for _, h := range w.Hosts {
				if h.GroupID == p.ID && h.ClusterName == cl.Name {
					a.HostnameAndPort = h.ID
					break
				}
			}
		}
		if t.metric != "" {
			a.MetricName = t.metric
			a.CurrentValue = &CurrentValue{Number: t.value, Units: readingUnits(t.units)}
		}
		switch {
		case i == n-1 && g.rng.IntN(3) == 0:
			a.Created = g.ago(time.Duration(2+g.rng.IntN(10)) * time.Minute)
			a.Updated, a.LastNotified = a.Created, nil
		case i == n-2 && g.rng.IntN(2) == 0:
			until := g.now.Add(time.Duration(10+g.rng.IntN(40)) * time.Minute)
			a.AcknowledgedUntil, a.AcknowledgingUsername, a.AcknowledgementComment = &until, userEmail("project-owner"), "on it"
		case g.rng.IntN(3) == 0:
			res := created.Add(time.Duration(10+g.rng.IntN(300)) * time.Minute)
			a.Status, a.Resolved, a.Updated = "CLOSED", &res, res
		}
		w.Alerts = append(w.Alerts, a)
	}
}

// stateName is the cluster's stateName: IDLE unless the world says otherwise.
func (cl *Cluster) stateName() string {
	if cl.State != "" {
		return cl.State
	}
	return "IDLE"
}
