package apisim

import "time"

// migration seeds the source side of live migration: two linked source
// projects whose deployments each make one outcome of the migration check
// reachable on purpose (see checkMigration), a link token, a migration in
// payments waiting for its cut-over and a completed one in staging.
//
//	billing-rs    6.0.13, 48 GiB, TLS: passes into payments-prod; the demo
//	              migration (ready about 18 minutes of server time after it
//	              starts: under two minutes at --demo-speed 10); skips two
//	              time-series collections
//	warehouse-rs  7.0.12, 3 TiB: fails the disk space check everywhere
//	ledger-old    5.0.26: fails the database version check
//	hr-x509       7.0.12, X.509 authentication: fails SCRAM-SHA only
//	crm-sharded   4.4.29, sharded: fails the version check (and needs a
//	              sharded destination)
func (g *seeder) migration() {
	w := g.w
	src1, src2 := w.newID(), w.newID()
	w.SourceProjects = []SourceProject{
		{ProjectID: src1, Name: "on-prem-billing", MigrationHosts: []string{"mig-host-1.billing.internal:27000"},
			Deployments: []SourceDeployment{
				{ClusterID: w.newID(), Name: "billing-rs", MongoDBVersion: "6.0.13", FeatureCompatibilityVersion: "6.0",
					Managed: true, Sharded: false, TLSEnabled: true, AgentVersion: "13.10.0.8620-1", DBSizeBytes: 48 << 30, OplogSizeMB: 4096},
				{ClusterID: w.newID(), Name: "warehouse-rs", MongoDBVersion: "7.0.12", FeatureCompatibilityVersion: "7.0",
					Managed: true, TLSEnabled: true, AgentVersion: "13.10.0.8620-1", DBSizeBytes: 3 << 40, OplogSizeMB: 51200},
				{ClusterID: w.newID(), Name: "ledger-old", MongoDBVersion: "5.0.26", FeatureCompatibilityVersion: "5.0",
					Managed: true, TLSEnabled: false, AgentVersion: "12.0.33.7866-1", DBSizeBytes: 12 << 30, OplogSizeMB: 2048},
				{ClusterID: w.newID(), Name: "hr-x509", MongoDBVersion: "7.0.12", FeatureCompatibilityVersion: "7.0",
					Managed: true, TLSEnabled: true, AgentVersion: "13.10.0.8620-1", DBSizeBytes: 20 << 30, OplogSizeMB: 2048},
			}},
		{ProjectID: src2, Name: "cloud-manager-crm", MigrationHosts: []string{"mig-host-1.crm.internal:27000"},
			Deployments: []SourceDeployment{{ClusterID: w.newID(), Name: "crm-sharded", MongoDBVersion: "4.4.29", FeatureCompatibilityVersion: "4.4",
				Managed: true, Sharded: true, TLSEnabled: false, AgentVersion: "12.0.33.7866-1", DBSizeBytes: 210 << 30, OplogSizeMB: 8192, ShardsSize: 2}}},
	}
	w.LinkToken = "c2ltLWxpbmstdG9rZW4tZm9yLWRlbW8tb3Jn"
	billing := &w.SourceProjects[0].Deployments[0]
	syncFor, catchUp := syncDurations(billing.DBSizeBytes)
	w.Migrations = append(w.Migrations,
		&Migration{ID: w.newID(), GroupID: DemoPaymentsID, SourceGroupID: src1, SourceClusterName: billing.Name, ClusterName: "payments-rs",
			MigrationHosts: []string{"mig-host-1.billing.internal:27000"}, CreatedAt: g.ago(2 * time.Hour),
			SyncFor: syncFor, CatchUpFor: catchUp, SkippedTimeSeries: skippedTimeSeries(billing)})
	done := g.ago(10 * 24 * time.Hour)
	w.Migrations = append(w.Migrations,
		&Migration{ID: w.newID(), GroupID: DemoStagingID, SourceGroupID: src2, SourceClusterName: "crm-sharded", ClusterName: "staging-rs",
			MigrationHosts: []string{"mig-host-1.crm.internal:27000"}, CreatedAt: g.ago(12 * 24 * time.Hour), CutoverAt: &done})
	w.Validations = append(w.Validations, &Validation{ID: w.newID(), GroupID: DemoPaymentsID, SourceGroupID: src1, CreatedAt: g.ago(3 * time.Hour)})
}
