package ui

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// The context picker names a flex cluster FLEX, though the service's own
// answer for it says clusterType REPLICASET: a DBA picking one must not
// take it for a dedicated replica set.
func TestPickerNamesFlexClustersFlex(t *testing.T) {
	w := viewstest.NewSim(t, viewstest.SimOptions{})
	cs, err := listClusters(context.Background(), w.ClientAs("org-owner", viewstest.GateUnknownRoles), apisim.DemoPaymentsID)
	require.NoError(t, err)
	kinds := map[string]string{}
	for _, c := range cs {
		kinds[c.Name] = c.ClusterType
	}
	require.Contains(t, kinds, "payments-flex")
	assert.Equal(t, "FLEX", kinds["payments-flex"])
	assert.Equal(t, "REPLICASET", kinds["payments-rs"])
}
