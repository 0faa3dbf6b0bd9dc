package backups

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// Each list view says why it shows no rows: the cluster's tier has no such
// list, listing failed (with the answer), or the list is empty; otherwise
// it shows its table.
func TestListViewsSayWhyTheyShowNoRows(t *testing.T) {
	h := newHarness(t, newWorld(t), "payments-rs", 160, 24)
	loaded := h.P.data
	down := &apiclient.Error{Status: 503, ErrorCode: "SERVICE_UNAVAILABLE", Detail: "try later"}
	for _, c := range []struct {
		v                           view
		noTier, failed, emptyPrefix string
		cluster, empty              func(d *clusterData)
	}{
		{v: viewSnapshots, noTier: "Shared-tier (M0/M2/M5) clusters keep daily snapshots", failed: "Snapshots: 503 SERVICE_UNAVAILABLE: try later (r retries)",
			cluster: func(d *clusterData) { d.SnapErr = down }, empty: func(d *clusterData) { d.Snaps = nil }, emptyPrefix: "No snapshots yet."},
		{v: viewRestores, noTier: "Restores of shared-tier clusters are not available", failed: "Restore jobs: 503 SERVICE_UNAVAILABLE: try later (r retries)",
			cluster: func(d *clusterData) { d.RestErr = down }, empty: func(d *clusterData) { d.Restores = nil }, emptyPrefix: "No restore jobs."},
		{v: viewExports, noTier: "Exports to a bucket are available for dedicated clusters only.", failed: "Export jobs: 503 SERVICE_UNAVAILABLE: try later (r retries)",
			cluster: func(d *clusterData) { d.ExpErr = down }, empty: func(d *clusterData) { d.Exports = nil }, emptyPrefix: "No export jobs."},
		{v: viewBuckets, noTier: "Export buckets are used by dedicated clusters only.", failed: "Export buckets: 503 SERVICE_UNAVAILABLE: try later (r retries)",
			cluster: func(d *clusterData) { d.BuckErr = down }, empty: func(d *clusterData) { d.Buckets = nil }, emptyPrefix: "No export buckets."},
	} {
		h.P.view = c.v
		// The shared tier lists none of them.
		h.P.data = loaded
		h.P.data.Route = routeNone
		assert.Contains(t, viewstest.Screen(h.P.body()), c.noTier, c.v)

		h.P.data = loaded
		c.cluster(&h.P.data)
		assert.Contains(t, viewstest.Screen(h.P.body()), c.failed, c.v)

		h.P.data = loaded
		c.empty(&h.P.data)
		assert.Contains(t, viewstest.Screen(h.P.body()), c.emptyPrefix, c.v)
	}
	h.P.data = loaded
	h.P.view = viewSnapshots
	assert.Equal(t, h.P.snaps.View(), h.P.body(), "a loaded list is its table")
}

// Issue 24 case 5: an empty list offers its key only to a caller who may
// use it; to one who may not it says which role may.
func TestEmptyListOffersTheKeyOnlyToWhoMayUseIt(t *testing.T) {
	owner := newHarness(t, newWorld(t), "payments-rs", 120, 24)
	owner.P.data.Snaps = nil
	assert.Contains(t, owner.P.body(), "No snapshots yet. n takes an on-demand snapshot.")

	ro := &harness{viewstest.Open[*Pane](t, Registration, viewstest.Setup{Identity: "read-only", Gate: viewstest.GateWithRoles,
		Cluster: "payments-rs", Width: 120, Height: 24})}
	ro.P.data.Snaps = nil
	body := strings.Join(strings.Fields(ro.P.body()), " ")
	assert.NotContains(t, body, "n takes")
	assert.Contains(t, body, "No snapshots yet. An on-demand snapshot needs Project Backup Manager")
	assert.Contains(t, body, "your role may not.")
	ro.P.view = viewBuckets
	ro.P.data.Buckets, ro.P.data.BuckErr = nil, nil
	assert.NotContains(t, ro.P.body(), "b registers one")
}
