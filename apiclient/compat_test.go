package apiclient

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func cluster(name, group string, t ClusterType, version, size string) Cluster {
	provider := "AWS"
	if TenantSize(size) {
		provider = "TENANT"
	}
	return Cluster{Name: name, GroupID: group, ClusterType: t, MongoDBVersion: version,
		ReplicationSpecs: []ReplicationSpec{{RegionConfigs: []RegionConfig{{ProviderName: provider,
			ElectableSpecs: &HardwareSpec{InstanceSize: size}}}}}}
}

func TestRestoreTargetEligibility(t *testing.T) {
	src := RestoreSource{GroupID: "g1", Cluster: cluster("payments-rs", "g1", ClusterReplicaSet, "6.0.18", "M30"), Version: "6.0.18"}
	paused := cluster("cold", "g1", ClusterReplicaSet, "7.0.14", "M30")
	paused.Paused = true
	cases := []struct {
		target Cluster
		reason string // "" when eligible
	}{
		{cluster("payments-rs", "g1", ClusterReplicaSet, "6.0.18", "M30"), ""}, // in place: the service allows it
		{cluster("payments-legacy", "g1", ClusterReplicaSet, "4.0.28", "M10"), "MongoDB 4.0.28 is older than the snapshot's 6.0.18"},
		{cluster("payments-prod", "g1", ClusterSharded, "7.0.14", "M40"), "sharded cluster, the snapshot is of a replica set"},
		{cluster("geo", "g1", ClusterGeoSharded, "7.0.14", "M40"), "sharded cluster, the snapshot is of a replica set"},
		{paused, "paused"},
		{cluster("staging-m5", "g1", ClusterReplicaSet, "6.0.18", "M5"), "tier M5 cannot receive a restore"},
		{cluster("sandbox", "g1", ClusterReplicaSet, "8.0.4", "M0"), "tier M0 cannot receive a restore"},
		{cluster("analytics-main", "g2", ClusterReplicaSet, "7.0.14", "M50"), ""},
		{cluster("same-minor", "g1", ClusterReplicaSet, "6.0.3", "M10"), ""},
		{cluster("payments-rs", "g2", ClusterReplicaSet, "6.0.18", "M30"), ""}, // same name, another project
		{cluster("unknown-version", "g1", ClusterReplicaSet, "", "M10"), ""},
	}
	for _, tc := range cases {
		got := RestoreTarget(src, tc.target)
		assert.Equal(t, tc.reason == "", got.OK, tc.target.Name)
		assert.Equal(t, tc.reason, got.Reason, tc.target.Name)
	}
	assert.True(t, InPlace(src, cluster("payments-rs", "g1", ClusterReplicaSet, "6.0.18", "M30")))
	assert.True(t, InPlace(src, cluster("payments-rs", "", ClusterReplicaSet, "6.0.18", "M30")))
	assert.False(t, InPlace(src, cluster("payments-rs", "g2", ClusterReplicaSet, "6.0.18", "M30")), "same name, another project")
	assert.False(t, InPlace(src, cluster("payments-legacy", "g1", ClusterReplicaSet, "6.0.18", "M30")))
	// A sharded snapshot may go only to a sharded cluster; without the
	// snapshot's version the source cluster's counts.
	shardSrc := RestoreSource{Cluster: cluster("payments-prod", "g1", ClusterSharded, "7.0.14", "M40")}
	assert.Equal(t, "replica set, the snapshot is of a sharded cluster",
		RestoreTarget(shardSrc, cluster("analytics-main", "g2", ClusterReplicaSet, "7.0.14", "M50")).Reason)
	assert.Equal(t, "MongoDB 6.0.18 is older than the snapshot's 7.0.14",
		RestoreTarget(shardSrc, cluster("other", "g1", ClusterSharded, "6.0.18", "M40")).Reason)
	assert.True(t, RestoreTarget(shardSrc, cluster("other", "g1", ClusterGeoSharded, "8.0.4", "M40")).OK)
}

func TestMigrationDestinationVersion(t *testing.T) {
	cases := map[string]string{
		"3.6.23": "MongoDB 3.6.23 is older than the source's 6.0.18",
		"5.0.1":  "MongoDB 5.0.1 is older than the source's 6.0.18",
		"6.0.2":  "",
		"6.0.18": "",
		"7.0.14": "",
		"8.0":    "",
		"":       "",
	}
	for v, reason := range cases {
		got := MigrationDestinationEligible("6.0.18", cluster("dest", "g1", ClusterReplicaSet, v, "M30"))
		assert.Equal(t, reason == "", got.OK, v)
		assert.Equal(t, reason, got.Reason, v)
	}
	paused := cluster("dest", "g1", ClusterReplicaSet, "7.0", "M30")
	paused.Paused = true
	assert.Equal(t, Eligibility{Reason: "paused"}, MigrationDestinationEligible("6.0", paused))
}

func TestCompareMongoDBVersions(t *testing.T) {
	cases := []struct {
		a, b string
		cmp  int
		ok   bool
	}{
		{"6.0.18", "6.0", 0, true}, {"7.0", "6.3.1", 1, true}, {"4.0.28", "6.0.18", -1, true},
		{"10.0", "9.9", 1, true}, {"8.0.4-rc1", "8.0.4", 0, true},
		{"latest", "6.0", 0, false}, {"6", "6.0", 0, false}, {"", "6.0", 0, false}, {"6.x", "6.0", 0, false},
	}
	for _, tc := range cases {
		cmp, ok := CompareMongoDBVersions(tc.a, tc.b)
		assert.Equal(t, tc.ok, ok, "%s vs %s", tc.a, tc.b)
		assert.Equal(t, tc.cmp, cmp, "%s vs %s", tc.a, tc.b)
	}
}

func TestSnapshotRetentionDefaultIsTheComplianceMinimum(t *testing.T) {
	item := func(v int, u RetentionUnit) *CompliancePolicy {
		return &CompliancePolicy{OnDemandPolicyItem: &PolicyItem{FrequencyType: FrequencyOnDemand, RetentionValue: v, RetentionUnit: u}}
	}
	assert.Equal(t, 1, SnapshotRetentionDefault(nil, 1))
	assert.Equal(t, 1, SnapshotRetentionDefault(&CompliancePolicy{}, 1))
	assert.Equal(t, 3, SnapshotRetentionDefault(item(3, RetentionDays), 1))
	assert.Equal(t, 14, SnapshotRetentionDefault(item(2, RetentionWeeks), 1))
	assert.Equal(t, 60, SnapshotRetentionDefault(item(2, RetentionMonths), 1))
	assert.Equal(t, 1, SnapshotRetentionDefault(item(0, RetentionDays), 1))
}
