package apiclient

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMigrationShardingEntriesCheckedLocally(t *testing.T) {
	ctx := context.Background()
	c, sent := countingClient(t)
	good := MigrationRequest{
		Source:         MigrationSource{ClusterName: "src", GroupID: wGroup, ManagedAuthentication: true},
		Destination:    MigrationDestination{ClusterName: "dst", GroupID: wGroup, HostnameSchemaType: HostnamePublic},
		MigrationHosts: []string{"mig-1.example.com:27000"},
	}
	entry := ShardEntry{Database: "billing", Collection: "invoices", ShardCollection: ShardKey{Key: []map[string]any{{"customerId": 1}}}}
	require.NoError(t, with(good, func(r *MigrationRequest) {
		r.Sharding = &MigrationSharding{CreateSupportingIndexes: true, ShardingEntries: []ShardEntry{entry}}
	}).Validate())
	noKey := entry
	noKey.ShardCollection.Key = nil
	_, err := c.Migration().Validate(ctx, wGroup, with(good, func(r *MigrationRequest) {
		r.Sharding = &MigrationSharding{ShardingEntries: []ShardEntry{entry, noKey}}
	}))
	refused(t, sent, err, "sharding.shardingEntries[1].shardCollection.key")
	noDB := entry
	noDB.Database = ""
	_, err = c.Migration().Create(ctx, wGroup, with(good, func(r *MigrationRequest) {
		r.Sharding = &MigrationSharding{ShardingEntries: []ShardEntry{noDB}}
	}))
	refused(t, sent, err, "sharding.shardingEntries[0].database")
}

func TestLiveMigrationDecodesSimulatorExtensions(t *testing.T) {
	var m LiveMigration
	require.NoError(t, json.Unmarshal([]byte(`{"_id":"d671e28600000000000001b3","status":"WORKING","lagTimeSeconds":42,
		"migrationHosts":["h:1"],"readyForCutover":false,"phase":"OPLOG_CATCH_UP","skippedTimeSeriesCollections":["metrics.cpu_1m"]}`), &m))
	assert.Equal(t, PhaseCatchUp, m.Phase)
	assert.Equal(t, []string{"metrics.cpu_1m"}, m.SkippedTimeSeriesCollections)
	require.NotNil(t, m.LagTimeSeconds)
	assert.Equal(t, int64(42), *m.LagTimeSeconds)
	assert.False(t, m.Done())

	// The real service sends neither: nothing depends on them.
	var plain LiveMigration
	require.NoError(t, json.Unmarshal([]byte(`{"_id":"x","status":"COMPLETE","readyForCutover":false}`), &plain))
	assert.Empty(t, plain.Phase)
	assert.Nil(t, plain.LagTimeSeconds)
	assert.True(t, plain.Done())
}
