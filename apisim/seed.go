package apisim

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"time"
)

// seedWorld builds the demo world. Everything but the timestamps (which are
// relative to now) is a function of the seed.
func seedWorld(seed int64, now time.Time) *World {
	now = now.UTC().Truncate(time.Second)
	h := fnv.New32a()
	fmt.Fprintf(h, "seed-%d", seed)
	w := &World{Seed: seed, IDPrefix: h.Sum32()}
	w.normalize()
	rng := rand.New(rand.NewPCG(uint64(seed), 0xdbad))
	g := &seeder{w: w, rng: rng, now: now}
	g.orgAndProjects()
	g.clusters()
	g.alerts()
	g.backups()
	g.search()
	g.settings()
	g.migration()
	g.failedSearchIndexes() // last, so the ids seeded before it stay put
	return w
}

type seeder struct {
	w   *World
	rng *rand.Rand
	now time.Time
}

func (g *seeder) ago(d time.Duration) time.Time { return g.now.Add(-d) }

func (g *seeder) orgAndProjects() {
	w := g.w
	w.Org = Org{ID: DemoOrgID, Name: "Demo-Org", Created: g.ago(900 * 24 * time.Hour)}
	for i, p := range []struct{ id, name, env string }{
		{DemoPaymentsID, "payments", "production"}, {DemoAnalyticsID, "analytics", "production"}, {DemoStagingID, "staging", "staging"},
	} {
		w.Projects = append(w.Projects, &Project{ID: p.id, Name: p.name, OrgID: DemoOrgID,
			Created: g.ago(time.Duration(800-100*i) * 24 * time.Hour), Tags: []Tag{{Key: "env", Value: p.env}}})
	}
}

func (g *seeder) clusters() {
	type spec struct {
		group, name, kind, size, provider, region, version string
		shards                                             int
		disk                                               float64
	}
	specs := []spec{
		{DemoPaymentsID, "payments-prod", KindSharded, "M40", "AWS", "US_EAST_1", "7.0.14", 2, 160},
		{DemoPaymentsID, "payments-rs", KindReplicaSet, "M30", "AWS", "US_EAST_1", "6.0.18", 1, 80},
		{DemoPaymentsID, "payments-legacy", KindReplicaSet, "M10", "AWS", "EU_WEST_1", "4.0.28", 1, 20},
		{DemoPaymentsID, "payments-serverless", KindServerless, "SERVERLESS", "AWS", "US_EAST_1", "7.0.14", 1, 0},
		{DemoPaymentsID, "payments-flex", KindFlex, "FLEX", "AWS", "US_EAST_1", "8.0.4", 1, 5},
		{DemoAnalyticsID, "analytics-main", KindReplicaSet, "M50", "GCP", "CENTRAL_US", "7.0.14", 1, 320},
		{DemoAnalyticsID, "analytics-old", KindReplicaSet, "M10", "AZURE", "US_EAST_2", "3.6.23", 1, 10},
		{DemoAnalyticsID, "sandbox-m0", KindTenant, "M0", "AWS", "US_EAST_1", "8.0.4", 1, 0.5},
		{DemoAnalyticsID, "reports-m2", KindTenant, "M2", "AWS", "US_EAST_1", "7.0.14", 1, 2},
		{DemoStagingID, "staging-m5", KindTenant, "M5", "GCP", "CENTRAL_US", "6.0.18", 1, 5},
		{DemoStagingID, "staging-rs", KindReplicaSet, "M10", "AWS", "US_WEST_2", "8.0.4", 1, 10},
		{DemoStagingID, "staging-flex", KindFlex, "FLEX", "AWS", "US_EAST_1", "8.0.4", 1, 5},
	}
	for i, s := range specs {
		cl := &Cluster{ID: g.w.newID(), GroupID: s.group, Name: s.name, Kind: s.kind, InstanceSize: s.size, Provider: s.provider,
			Region: s.region, MongoDBVersion: s.version, Shards: s.shards, DiskSizeGB: s.disk,
			BackupEnabled: s.kind != KindTenant || s.size != "M0", PitEnabled: s.kind == KindSharded || s.name == "payments-rs",
			Created: g.ago(time.Duration(400-20*i) * 24 * time.Hour)}
		g.w.Clusters = append(g.w.Clusters, cl)
		g.hosts(cl)
	}
}

func (g *seeder) hosts(cl *Cluster) {
	if cl.Kind == KindServerless || cl.Kind == KindFlex {
		return
	}
	domain := strings.ToLower(cl.ID[len(cl.ID)-5:]) + ".mongodb.net"
	add := func(name, typ, rs, shard string, port int) {
		host := name + "." + domain
		g.w.Hosts = append(g.w.Hosts, &Process{ID: fmt.Sprintf("%s:%d", host, port), GroupID: cl.GroupID, ClusterName: cl.Name,
			Hostname: host, Port: port, TypeName: typ, ReplicaSetName: rs, ShardName: shard, Version: cl.MongoDBVersion, Created: cl.Created})
	}
	for s := range max(cl.Shards, 1) {
		rs := fmt.Sprintf("atlas-%s-shard-%d", cl.ID[18:], s)
		for n := range 3 {
			typ := "REPLICA_SECONDARY"
			if n == 0 {
				typ = "REPLICA_PRIMARY"
			}
			add(fmt.Sprintf("%s-shard-%02d-%02d", cl.Name, s, n), typ, rs, shardName(cl, s), 27017)
		}
	}
	if cl.Kind == KindSharded {
		for n := range 3 {
			// The service's process types have no primary or secondary
			// for config servers: all three are SHARD_CONFIG.
			add(fmt.Sprintf("%s-config-00-%02d", cl.Name, n), "SHARD_CONFIG", "atlas-"+cl.ID[18:]+"-config-0", "", 27017)
		}
		for n := range 2 {
			add(fmt.Sprintf("%s-mongos-00-%02d", cl.Name, n), "SHARD_MONGOS", "", "", 27016)
		}
	}
}

type alertTemplate struct {
	event, metric string
	units         string // the configuration's threshold units
	value         float64
	host          bool
}

var alertTemplates = []alertTemplate{
	{"HOST_DOWN", "", "", 0, true},
	{"OUTSIDE_METRIC_THRESHOLD", "CONNECTIONS", "RAW", 812, true},
	{"OUTSIDE_METRIC_THRESHOLD", "DISK_PARTITION_READ_LATENCY_DATA", "MILLISECONDS", 91.5, true},
	{"REPLICATION_OPLOG_WINDOW_RUNNING_OUT", "", "", 0, false},
	{"NO_PRIMARY", "", "", 0, false},
	{"CPS_SNAPSHOT_FAILED", "", "", 0, false},
	{"CLUSTER_MONGOS_IS_MISSING", "", "", 0, false},
	{"DEPLOYMENT_FAILURE", "", "", 0, false},
	{"CLUSTER_BLOCK_WRITE", "", "", 0, false},
	{"HOST_NOT_ENOUGH_DISK_SPACE", "", "", 0, true},
	{"CREDIT_CARD_ABOUT_TO_EXPIRE", "", "", 0, false},
}

func (g *seeder) alertConfigs(groupID string) []*AlertConfig {
	var out []*AlertConfig
	notes := []map[string]any{
		{"typeName": "GROUP", "delayMin": 0.0, "intervalMin": 60.0, "emailEnabled": true, "smsEnabled": false, "roles": []any{"GROUP_OWNER"}},
		{"typeName": "SLACK", "delayMin": 0.0, "intervalMin": 30.0, "channelName": "#db-alerts", "apiToken": "xoxb-sim-000000000000-slacktoken"},
		{"typeName": "DATADOG", "delayMin": 5.0, "intervalMin": 60.0, "datadogApiKey": "dd0000000000000000000000sim1234", "datadogRegion": "US"},
		{"typeName": "PAGER_DUTY", "delayMin": 0.0, "intervalMin": 15.0, "serviceKey": "pd000000000000000000000000simkey"},
		{"typeName": "EMAIL", "delayMin": 0.0, "intervalMin": 120.0, "emailAddress": "dba@example.com"},
	}
	for i, t := range alertTemplates {
		ac := &AlertConfig{ID: g.w.newID(), GroupID: groupID, Created: g.ago(300 * 24 * time.Hour), Updated: g.ago(time.Duration(30+i) * 24 * time.Hour),
			Enabled: i%5 != 4, EventTypeName: t.event, Matchers: []Matcher{},
			Notifications: []map[string]any{notes[i%len(notes)]}}
		if t.metric != "" {
			ac.MetricThreshold = map[string]any{"metricName": t.metric, "mode": "AVERAGE", "operator": "GREATER_THAN", "threshold": 80.0, "units": t.units}
		}
		if t.host {
			ac.Matchers = []Matcher{{FieldName: "TYPE_NAME", Operator: "EQUALS", Value: "PRIMARY"}}
		}
		if i%3 == 0 {
			ac.SeverityOverride = severities[i%4]
		}
		out = append(out, ac)
	}
	return out
}

func (g *seeder) alerts() {
	counts := map[string]int{DemoPaymentsID: 172, DemoAnalyticsID: 27, DemoStagingID: 9}
	for _, p := range g.w.Projects {
		cfgs := g.alertConfigs(p.ID)
		g.w.AlertConfigs = append(g.w.AlertConfigs, cfgs...)
		var cls []*Cluster
		for _, c := range g.w.clustersOf(p.ID) {
			if c.Kind != KindServerless && c.Kind != KindFlex {
				cls = append(cls, c)
			}
		}
		n := counts[p.ID]
		span := 30 * 24 * time.Hour
		for i := range n {
			// Oldest first; each alert a little after the previous one.
			created := g.ago(span - time.Duration(i)*span/time.Duration(n+1) - time.Duration(g.rng.IntN(3600))*time.Second).Truncate(time.Second)
			ti := g.rng.IntN(len(alertTemplates))
			t := alertTemplates[ti]
			cl := cls[g.rng.IntN(len(cls))]
			a := &Alert{ID: g.w.newID(), GroupID: p.ID, OrgID: p.OrgID, AlertConfigID: cfgs[ti].ID, Created: created,
				Updated: created, EventTypeName: t.event, ClusterName: cl.Name, ReplicaSetName: shardName(cl, 0)}
			ln := created.Add(5 * time.Minute)
			a.LastNotified = &ln
			if t.host {
				for _, h := range g.w.Hosts {
					if h.ClusterName == cl.Name && h.GroupID == p.ID {
						a.HostnameAndPort = h.ID
						break
					}
				}
			}
			if t.metric != "" {
				a.MetricName = t.metric
				a.CurrentValue = &CurrentValue{Number: t.value + float64(g.rng.IntN(50)), Units: readingUnits(t.units)}
			}
			// The newest alerts are mostly open; open ones are spread
			// through the history too, so they are not all on page one.
			r := g.rng.IntN(100)
			age := float64(i) / float64(n)
			switch {
			case age > 0.93 || r < 18:
				a.Status = "OPEN"
			case r < 35:
				a.Status = "TRACKING"
			default:
				a.Status = "CLOSED"
				res := created.Add(time.Duration(10+g.rng.IntN(600)) * time.Minute)
				a.Resolved, a.Updated = &res, res
			}
			if a.Status == "OPEN" && g.rng.IntN(4) == 0 {
				until := g.now.Add(time.Duration(1+g.rng.IntN(48)) * time.Hour)
				a.AcknowledgedUntil, a.AcknowledgingUsername = &until, userEmail("project-owner")
				a.AcknowledgementComment = "Looking into it"
			}
			g.w.Alerts = append(g.w.Alerts, a)
		}
	}
}

func (g *seeder) backups() {
	w := g.w
	day := 24 * time.Hour
	roles := map[string]*AccessRole{}
	for _, p := range w.Projects {
		for j, prov := range []string{"AWS", "AWS", "AZURE", "GCP"} {
			if p.ID != DemoPaymentsID && j > 0 {
				break
			}
			r := &AccessRole{ID: w.newID(), GroupID: p.ID, ProviderName: prov, CreatedDate: g.ago(200 * day), FeatureUsages: []FeatureUsage{}}
			switch prov {
			case "AWS":
				r.AtlasAWSAccountArn = "arn:aws:iam::012345678901:root"
				r.AtlasAssumedRoleExternalID = uuidOf("external:" + r.ID)
				if j == 0 {
					t := g.ago(199 * day)
					r.AuthorizedDate, r.IamAssumedRoleArn = &t, "arn:aws:iam::123456789012:role/atlas-"+p.Name
				}
			case "AZURE":
				t := g.ago(150 * day)
				r.AuthorizedDate = &t
				r.AtlasAzureAppID, r.ServicePrincipalID, r.TenantID = uuidOf("azure-app:"+r.ID), uuidOf("azure-principal:"+r.ID), uuidOf("azure-tenant:"+r.ID)
			case "GCP":
				t := g.ago(120 * day)
				r.AuthorizedDate = &t
			}
			w.AccessRoles = append(w.AccessRoles, r)
			if j == 0 {
				roles[p.ID] = r
			}
			if p.ID == DemoPaymentsID && prov == "GCP" {
				roles["gcp"] = r
			}
		}
	}
	for _, p := range w.Projects {
		if p.ID == DemoStagingID {
			continue
		}
		aws := roles[p.ID]
		b := &ExportBucket{ID: w.newID(), GroupID: p.ID, BucketName: p.Name + "-exports", CloudProvider: "AWS", IamRoleID: aws.ID, Region: "US_EAST_1"}
		w.ExportBuckets = append(w.ExportBuckets, b)
		aws.FeatureUsages = append(aws.FeatureUsages, FeatureUsage{FeatureType: "EXPORT_SNAPSHOT", FeatureID: map[string]any{"groupId": p.ID, "bucketName": b.BucketName}})
		if p.ID == DemoPaymentsID {
			w.ExportBuckets = append(w.ExportBuckets, &ExportBucket{ID: w.newID(), GroupID: p.ID, BucketName: "payments-archive-gcs", CloudProvider: "GCP", RoleID: roles["gcp"].ID})
		}
	}
	for _, cl := range w.Clusters {
		n := map[string]int{KindReplicaSet: 14, KindSharded: 7, KindTenant: 5, KindServerless: 7, KindFlex: 7}[cl.Kind]
		if cl.InstanceSize == "M0" {
			n = 0
		}
		for i := n; i >= 1; i-- {
			created := g.ago(time.Duration(i)*day - 3*time.Hour)
			freq := "daily"
			if i%7 == 0 {
				freq = "weekly"
			}
			s := &Snapshot{ID: w.newID(), GroupID: cl.GroupID, ClusterName: cl.Name, Kind: cl.Kind, SnapshotType: "scheduled",
				FrequencyType: freq, CreatedAt: created, ExpiresAt: created.Add(time.Duration(7+i) * day), QueueFor: 60, RunFor: 600,
				StorageSizeBytes: int64(cl.DiskSizeGB*2.5e7) + int64(g.rng.IntN(1<<20)), MongodVersion: cl.MongoDBVersion}
			s.Failed = cl.Kind == KindReplicaSet && i == 4
			w.Snapshots = append(w.Snapshots, s)
		}
		if cl.dedicated() {
			// One snapshot still running when the demo starts.
			w.Snapshots = append(w.Snapshots, &Snapshot{ID: w.newID(), GroupID: cl.GroupID, ClusterName: cl.Name, Kind: cl.Kind,
				SnapshotType: "scheduled", FrequencyType: "hourly", CreatedAt: g.ago(20 * time.Second), ExpiresAt: g.now.Add(2 * day),
				QueueFor: 10, RunFor: 90, StorageSizeBytes: int64(cl.DiskSizeGB * 2.5e7), MongodVersion: cl.MongoDBVersion})
			w.Schedules[cl.ID] = &Schedule{ReferenceHourOfDay: 3, ReferenceMinuteOfHour: 30, RestoreWindowDays: 7,
				Policies: []Policy{{ID: w.newID(), PolicyItems: []PolicyItem{
					{ID: w.newID(), FrequencyType: "hourly", FrequencyInterval: 6, RetentionUnit: "days", RetentionValue: 2},
					{ID: w.newID(), FrequencyType: "daily", FrequencyInterval: 1, RetentionUnit: "days", RetentionValue: 7},
					{ID: w.newID(), FrequencyType: "weekly", FrequencyInterval: 6, RetentionUnit: "weeks", RetentionValue: 4},
					{ID: w.newID(), FrequencyType: "monthly", FrequencyInterval: 40, RetentionUnit: "months", RetentionValue: 12},
				}}}}
		}
	}
	snapOf := func(name string, back int) string {
		var ids []string
		for _, s := range w.Snapshots {
			if s.ClusterName == name && !s.Failed && s.FrequencyType != "hourly" {
				ids = append(ids, s.ID)
			}
		}
		return ids[len(ids)-back]
	}
	rs := w.cluster(DemoPaymentsID, "payments-rs")
	job := func(kind, cluster, snap, delivery, tCluster, tGroup string, created time.Time, run int64) {
		w.RestoreJobs = append(w.RestoreJobs, &RestoreJob{ID: w.newID(), GroupID: DemoPaymentsID, ClusterName: cluster, Kind: kind,
			SnapshotID: snap, DeliveryType: delivery, TargetClusterName: tCluster, TargetGroupID: tGroup, CreatedAt: created, QueueFor: 5, RunFor: run})
	}
	job("cluster", rs.Name, snapOf(rs.Name, 3), "automated", "staging-rs", DemoStagingID, g.ago(3*day), 115)
	job("cluster", rs.Name, snapOf(rs.Name, 2), "download", "", "", g.ago(2*time.Hour), 115)
	job("cluster", rs.Name, snapOf(rs.Name, 1), "automated", "staging-rs", DemoStagingID, g.ago(30*time.Second), 175)
	job("serverless", "payments-serverless", snapOf("payments-serverless", 1), "automated", "payments-serverless", DemoPaymentsID, g.ago(5*day), 115)
	job("flex", "payments-flex", snapOf("payments-flex", 1), "RESTORE", "staging-flex", DemoStagingID, g.ago(day), 55)
	w.ExportJobs = append(w.ExportJobs, &ExportJob{ID: w.newID(), GroupID: DemoPaymentsID, ClusterName: rs.Name,
		SnapshotID: snapOf(rs.Name, 5), ExportBucketID: w.ExportBuckets[0].ID, CreatedAt: g.ago(4 * day),
		CustomData: []KeyValue{{Key: "ticket", Value: "OPS-1042"}}})
	w.Compliance[DemoPaymentsID] = &Compliance{AuthorizedEmail: "compliance@example.com", AuthorizedUserFirstName: "Casey",
		AuthorizedUserLastName: "Ortiz", CopyProtectionEnabled: true, EncryptionAtRestEnabled: false, PitEnabled: true, RestoreWindowDays: 7,
		OnDemandPolicyItem:   &PolicyItem{ID: w.newID(), FrequencyType: "ondemand", FrequencyInterval: 0 + 1, RetentionUnit: "days", RetentionValue: 3},
		ScheduledPolicyItems: []PolicyItem{{ID: w.newID(), FrequencyType: "daily", FrequencyInterval: 1, RetentionUnit: "days", RetentionValue: 7}},
		UpdatedDate:          g.ago(60 * day), UpdatedUser: userEmail("org-owner")}
}

func (g *seeder) search() {
	w := g.w
	text := func(dynamic bool, fields string) json.RawMessage {
		return json.RawMessage(fmt.Sprintf(`{"analyzer":"lucene.standard","searchAnalyzer":"lucene.standard","mappings":{"dynamic":%v,"fields":%s},"numPartitions":1}`, dynamic, fields))
	}
	add := func(group, cluster, name, db, coll, typ string, def json.RawMessage, age time.Duration, version int) {
		w.SearchIndexes = append(w.SearchIndexes, &SearchIndex{ID: w.newID(), GroupID: group, ClusterName: cluster, Name: name,
			Database: db, CollectionName: coll, Type: typ, Definition: def, Version: version, CreatedAt: g.ago(age * 2), UpdatedAt: g.ago(age)})
	}
	add(DemoPaymentsID, "payments-rs", "default", "shop", "orders", "search", text(true, "{}"), 90*24*time.Hour, 1)
	add(DemoPaymentsID, "payments-rs", "products-autocomplete", "shop", "products", "search",
		text(false, `{"title":[{"type":"autocomplete","tokenization":"edgeGram","minGrams":2,"maxGrams":15}]}`), 40*24*time.Hour, 3)
	add(DemoPaymentsID, "payments-rs", "embeddings", "shop", "products", "vectorSearch",
		json.RawMessage(`{"fields":[{"type":"vector","path":"embedding","numDimensions":1536,"similarity":"cosine"}]}`), 10*24*time.Hour, 1)
	add(DemoPaymentsID, "payments-prod", "ledger-search", "ledger", "entries", "search", text(true, "{}"), 10*time.Second, 1)
	add(DemoAnalyticsID, "analytics-main", "events-text", "events", "raw", "search", text(false, `{"message":{"type":"string"}}`), 3*24*time.Hour, 2)
	add(DemoAnalyticsID, "analytics-main", "sessions", "events", "sessions", "search", text(true, "{}"), 2*time.Second, 1)
	w.Analyzers[DemoPaymentsID+"/payments-rs"] = json.RawMessage(`[{"name":"sku-analyzer","tokenizer":{"type":"keyword"},"tokenFilters":[{"type":"lowercase"}],"charFilters":[]}]`)
}

// failedSearchIndexes adds two indexes that do not build, so the demo shows
// what failure looks like: a field type typo fails the index; a synonym
// source collection that does not exist fails the synonym mapping.
func (g *seeder) failedSearchIndexes() {
	w := g.w
	add := func(name string, def string, age time.Duration) {
		w.SearchIndexes = append(w.SearchIndexes, &SearchIndex{ID: w.newID(), GroupID: DemoAnalyticsID, ClusterName: "analytics-main",
			Name: name, Database: "support", CollectionName: "tickets", Type: "search", Definition: json.RawMessage(def),
			Version: 1, CreatedAt: g.ago(age * 2), UpdatedAt: g.ago(age)})
	}
	add("tickets-typo", `{"analyzer":"lucene.standard","mappings":{"dynamic":false,"fields":{"subject":{"type":"strng"}}}}`, 6*time.Hour)
	add("tickets-synonyms", `{"analyzer":"lucene.english","mappings":{"dynamic":true},"synonyms":[{"name":"products","analyzer":"lucene.english","source":{"collection":"missing_synonyms"}}]}`, 5*time.Hour)
}

func (g *seeder) settings() {
	w := g.w
	w.Auditing[DemoPaymentsID] = &AuditLog{Enabled: true, AuditAuthorizationSuccess: false, ConfigurationType: "FILTER_JSON",
		AuditFilter: `{"atype":{"$in":["authenticate","dropDatabase","dropCollection"]}}`}
	w.Auditing[DemoAnalyticsID] = &AuditLog{ConfigurationType: "NONE"}
	w.CustomDNS[DemoPaymentsID] = true
	w.EARPrivateEndpoints = append(w.EARPrivateEndpoints,
		&EARPrivateEndpoint{ID: w.newID(), GroupID: DemoPaymentsID, CloudProvider: "AZURE", RegionName: "US_EAST_2", CreatedAt: g.ago(30 * 24 * time.Hour)},
		&EARPrivateEndpoint{ID: w.newID(), GroupID: DemoPaymentsID, CloudProvider: "AWS", RegionName: "US_EAST_1", CreatedAt: g.ago(20 * 24 * time.Hour)})
	w.ServerlessPrivateEndpoints = append(w.ServerlessPrivateEndpoints,
		&ServerlessPrivateEndpoint{ID: w.newID(), GroupID: DemoPaymentsID, InstanceName: "payments-serverless", Comment: "app VPC", CreatedAt: g.ago(24 * time.Hour)})
}
