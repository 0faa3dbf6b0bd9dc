package apisim

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

// migrationEnv is a server on a manual clock, the shared client as the org
// owner and the id of the seeded source project on-prem-billing.
func migrationEnv(t *testing.T) (*testEnv, *apiclient.Client, string) {
	t.Helper()
	e, c := searchEnv(t)
	e.srv.mu.Lock()
	src := e.srv.world.SourceProjects[0].ProjectID
	e.srv.mu.Unlock()
	return e, c, src
}

// billingTo is the request that migrates billing-rs into dst of payments.
func billingTo(src, dst string) apiclient.MigrationRequest {
	return apiclient.MigrationRequest{
		Source:         apiclient.MigrationSource{ClusterName: "billing-rs", GroupID: src, ManagedAuthentication: true, SSL: true},
		Destination:    apiclient.MigrationDestination{ClusterName: dst, GroupID: DemoPaymentsID, HostnameSchemaType: apiclient.HostnamePublic},
		MigrationHosts: []string{"mig-host-1.billing.internal:27000"},
	}
}

func TestMigrationValidationOutcomes(t *testing.T) {
	e, c, src := migrationEnv(t)
	ctx := context.Background()
	sharding := &apiclient.MigrationSharding{CreateSupportingIndexes: true, ShardingEntries: []apiclient.ShardEntry{
		{Database: "billing", Collection: "invoices", ShardCollection: apiclient.ShardKey{Key: []map[string]any{{"customerId": 1}}}}}}
	cases := []struct {
		name   string
		change func(r *apiclient.MigrationRequest)
		want   string // substring of errorMessage; "" for SUCCESS
	}{
		{"passes", func(r *apiclient.MigrationRequest) {}, ""},
		{"own SCRAM credentials", func(r *apiclient.MigrationRequest) {
			r.Source.ManagedAuthentication, r.Source.Username, r.Source.Password = false, MigrationUser, MigrationUser+"-secret"
		}, ""},
		{"wrong credentials", func(r *apiclient.MigrationRequest) {
			r.Source.ManagedAuthentication, r.Source.Username, r.Source.Password = false, MigrationUser, "guess"
		}, "Credentials check failed: user mig-user could not authenticate to billing-rs"},
		{"x509 source", func(r *apiclient.MigrationRequest) { r.Source.ClusterName = "hr-x509" },
			"authenticates with MONGODB-X509; live migration supports SCRAM-SHA authentication only"},
		{"too old source", func(r *apiclient.MigrationRequest) { r.Source.ClusterName, r.Source.SSL = "ledger-old", false },
			"source ledger-old runs MongoDB 5.0.26; push live migration needs 6.0.13 or later"},
		{"destination older than source", func(r *apiclient.MigrationRequest) { r.Destination.ClusterName = "payments-legacy" },
			"destination payments-legacy runs MongoDB 4.0.28, older than the source's 6.0.13"},
		{"too big source", func(r *apiclient.MigrationRequest) { r.Source.ClusterName = "warehouse-rs" },
			"Disk space check failed: the source holds 3.0 TiB but payments-prod has"},
		{"unregistered migration host", func(r *apiclient.MigrationRequest) { r.MigrationHosts = []string{"other-host:27000"} },
			"Migration host other-host:27000 is not registered with source project on-prem-billing"},
		{"tls mismatch", func(r *apiclient.MigrationRequest) { r.Source.SSL = false }, "TLS check failed"},
		{"unknown deployment", func(r *apiclient.MigrationRequest) { r.Source.ClusterName = "nope" },
			"Deployment nope does not exist in source project on-prem-billing"},
		{"sharding into a replica set", func(r *apiclient.MigrationRequest) {
			r.Destination.ClusterName, r.Sharding = "payments-rs", sharding
		}, "Sharding entries need a sharded destination; payments-rs is a replica set"},
		{"destination busy", func(r *apiclient.MigrationRequest) { r.Destination.ClusterName = "payments-rs" },
			"Destination payments-rs is already the target of live migration"},
		{"sharding into a sharded cluster", func(r *apiclient.MigrationRequest) { r.Sharding = sharding }, ""},
		{"unlinked project", func(r *apiclient.MigrationRequest) { r.Source.GroupID = "0123456789abcdef01234567" },
			"Source project 0123456789abcdef01234567 is not linked to this organization"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := billingTo(src, "payments-prod")
			tc.change(&req)
			v, err := c.Migration().Validate(ctx, DemoPaymentsID, req)
			require.NoError(t, err)
			assert.Equal(t, apiclient.ValidationPending, v.Status)
			assert.Equal(t, src == req.Source.GroupID, v.SourceGroupID == src)
			assert.Empty(t, v.ErrorMessage, "the outcome is not known while PENDING")

			e.clock.Advance(validationPending - time.Second)
			got, err := c.Migration().ValidationStatus(ctx, DemoPaymentsID, v.ID)
			require.NoError(t, err)
			assert.Equal(t, apiclient.ValidationPending, got.Status)

			e.clock.Advance(time.Second)
			got, err = c.Migration().ValidationStatus(ctx, DemoPaymentsID, v.ID)
			require.NoError(t, err)
			if tc.want == "" {
				assert.Equal(t, apiclient.ValidationSuccess, got.Status, got.ErrorMessage)
				assert.Empty(t, got.ErrorMessage)
				return
			}
			assert.Equal(t, apiclient.ValidationFailed, got.Status)
			assert.Contains(t, got.ErrorMessage, tc.want)
		})
	}
}

func TestMigrationValidationWithoutLinkToken(t *testing.T) {
	e, c, src := migrationEnv(t)
	ctx := context.Background()
	e.srv.mu.Lock()
	e.srv.world.LinkToken = ""
	e.srv.mu.Unlock()
	v, err := c.Migration().Validate(ctx, DemoPaymentsID, billingTo(src, "payments-prod"))
	require.NoError(t, err)
	e.clock.Advance(validationPending)
	got, err := c.Migration().ValidationStatus(ctx, DemoPaymentsID, v.ID)
	require.NoError(t, err)
	assert.Equal(t, apiclient.ValidationFailed, got.Status)
	assert.Contains(t, got.ErrorMessage, "no link token")

	_, err = c.Migration().Create(ctx, DemoPaymentsID, billingTo(src, "payments-prod"))
	apiErr(t, err, 400, "VALIDATION_ERROR")
}

func TestMigrationRequestRefusedBeforeTheCheck(t *testing.T) {
	e, _, src := migrationEnv(t)
	d := e.digest("org-owner", "MD5")
	path := "/api/atlas/v2/groups/" + DemoPaymentsID + "/liveMigrations/validate"
	body := func(mod func(m map[string]any)) []byte {
		m := map[string]any{
			"source":         map[string]any{"clusterName": "billing-rs", "groupId": src, "managedAuthentication": true, "ssl": true},
			"destination":    map[string]any{"clusterName": "payments-prod", "groupId": DemoPaymentsID, "hostnameSchemaType": "PUBLIC"},
			"migrationHosts": []string{"mig-host-1.billing.internal:27000"},
		}
		mod(m)
		return mustJSON(m)
	}
	send := func(version string, b []byte) (int, []byte) {
		st, _, out := d.do(t, rawReq{method: "POST", path: path, ctype: "application/json", accept: "application/vnd.atlas." + version + "+json", body: b})
		return st, out
	}
	// Exactly one migration host.
	st, out := send("2024-05-30", body(func(m map[string]any) { m["migrationHosts"] = []string{"a:1", "b:2"} }))
	assert.Equal(t, 400, st)
	assert.Contains(t, string(out), "migrationHosts")
	st, out = send("2024-05-30", body(func(m map[string]any) { m["migrationHosts"] = []string{} }))
	assert.Equal(t, 400, st, string(out))
	// The 2023-01-01 shape needs dropEnabled and refuses dropDestinationData.
	st, out = send("2023-01-01", body(func(m map[string]any) {}))
	assert.Equal(t, 400, st)
	assert.Contains(t, string(out), "dropEnabled")
	st, out = send("2023-01-01", body(func(m map[string]any) { m["dropEnabled"] = true }))
	assert.Equal(t, 200, st, string(out))
	st, out = send("2024-05-30", body(func(m map[string]any) { m["dropEnabled"] = true }))
	assert.Equal(t, 400, st)
	assert.Contains(t, string(out), "use dropDestinationData")
	// A sharding entry without a key names the field.
	st, out = send("2024-05-30", body(func(m map[string]any) {
		m["sharding"] = map[string]any{"createSupportingIndexes": true, "shardingEntries": []any{map[string]any{"database": "d", "collection": "c"}}}
	}))
	assert.Equal(t, 400, st)
	assert.Contains(t, string(out), "sharding.shardingEntries[0].shardCollection.key")
}

// lagOf reads lagTimeSeconds, -1 when absent.
func lagOf(m *apiclient.LiveMigration) int64 {
	if m.LagTimeSeconds == nil {
		return -1
	}
	return *m.LagTimeSeconds
}

func TestMigrationStateMachine(t *testing.T) {
	e, c, src := migrationEnv(t)
	ctx := context.Background()
	req := billingTo(src, "payments-prod")
	req.DropDestinationData = true
	m, err := c.Migration().Create(ctx, DemoPaymentsID, req)
	require.NoError(t, err)
	assert.Equal(t, apiclient.MigrationNew, m.Status)
	assert.Equal(t, apiclient.PhaseStarting, m.Phase)
	assert.Nil(t, m.LagTimeSeconds)
	assert.Equal(t, []string{"mig-host-1.billing.internal:27000"}, m.MigrationHosts)
	assert.Equal(t, []string{"metrics.cpu_1m", "metrics.disk_1m"}, m.SkippedTimeSeriesCollections, "6.0+ skips time-series collections")

	get := func() *apiclient.LiveMigration {
		t.Helper()
		got, err := c.Migration().Get(ctx, DemoPaymentsID, m.ID)
		require.NoError(t, err)
		return got
	}
	err = c.Migration().Cutover(ctx, DemoPaymentsID, m.ID)
	apiErr(t, err, 400, "MIGRATION_NOT_READY_FOR_CUTOVER")

	// 48 GiB: 12 minutes of initial sync, 6 of catch-up.
	e.clock.Advance(migrationNewFor)
	got := get()
	assert.Equal(t, apiclient.MigrationWorking, got.Status)
	assert.Equal(t, apiclient.PhaseInitialSync, got.Phase)
	assert.Equal(t, int64(720), lagOf(got))
	assert.False(t, got.ReadyForCutover)

	last := lagOf(got)
	phases := map[apiclient.MigrationPhase]bool{}
	for range 17 {
		e.clock.Advance(time.Minute)
		got = get()
		require.Equal(t, apiclient.MigrationWorking, got.Status)
		require.False(t, got.ReadyForCutover, "not ready before 18 minutes")
		assert.Less(t, lagOf(got), last, "the lag falls while syncing")
		last = lagOf(got)
		phases[got.Phase] = true
	}
	assert.True(t, phases[apiclient.PhaseInitialSync] && phases[apiclient.PhaseCatchUp], "%v", phases)
	err = c.Migration().Cutover(ctx, DemoPaymentsID, m.ID)
	apiErr(t, err, 400, "MIGRATION_NOT_READY_FOR_CUTOVER")

	e.clock.Advance(time.Minute)
	got = get()
	assert.True(t, got.ReadyForCutover)
	assert.Equal(t, apiclient.MigrationWorking, got.Status)
	assert.Equal(t, apiclient.PhaseReady, got.Phase)
	assert.LessOrEqual(t, lagOf(got), int64(3))

	// The link token goes while a migration runs, as the service documents
	// (204, no refusal): the running migration is not stopped by it.
	require.NoError(t, c.Migration().DeleteLinkToken(ctx, DemoOrgID))
	got = get()
	assert.True(t, got.ReadyForCutover, "the migration runs on without the token")

	require.NoError(t, c.Migration().Cutover(ctx, DemoPaymentsID, m.ID))
	got = get()
	assert.Equal(t, apiclient.MigrationWorking, got.Status)
	assert.Equal(t, apiclient.PhaseCuttingOver, got.Phase)
	assert.False(t, got.ReadyForCutover)
	err = c.Migration().Cutover(ctx, DemoPaymentsID, m.ID)
	apiErr(t, err, 400, "MIGRATION_NOT_READY_FOR_CUTOVER")

	e.clock.Advance(cutoverFor)
	got = get()
	assert.Equal(t, apiclient.MigrationComplete, got.Status)
	assert.True(t, got.Done())
	assert.Nil(t, got.LagTimeSeconds)

	e.srv.mu.Lock()
	stored := find(e.srv.world.Migrations, func(x *Migration) bool { return x.ID == m.ID })
	e.srv.mu.Unlock()
	require.NotNil(t, stored)
	assert.True(t, stored.DropDestination)
	assert.Equal(t, "billing-rs", stored.SourceClusterName)

	_, err = c.Migration().Get(ctx, DemoAnalyticsID, m.ID)
	apiErr(t, err, 404, "LIVE_MIGRATION_NOT_FOUND")
}

func TestMigrationExpiresWithoutCutover(t *testing.T) {
	e, c, src := migrationEnv(t)
	ctx := context.Background()
	m, err := c.Migration().Create(ctx, DemoPaymentsID, billingTo(src, "payments-prod"))
	require.NoError(t, err)
	ready := migrationNewFor + 18*time.Minute
	e.clock.Advance(ready + cutoverExpiry - time.Second)
	got, err := c.Migration().Get(ctx, DemoPaymentsID, m.ID)
	require.NoError(t, err)
	assert.Equal(t, apiclient.MigrationWorking, got.Status)
	assert.True(t, got.ReadyForCutover, "still ready one second before the 120 hours run out")

	e.clock.Advance(time.Second)
	got, err = c.Migration().Get(ctx, DemoPaymentsID, m.ID)
	require.NoError(t, err)
	assert.Equal(t, apiclient.MigrationExpired, got.Status)
	assert.False(t, got.ReadyForCutover)
	assert.True(t, got.Done())
	err = c.Migration().Cutover(ctx, DemoPaymentsID, m.ID)
	apiErr(t, err, 400, "MIGRATION_NOT_READY_FOR_CUTOVER")
}

func TestMigrationFailingTheCheckFails(t *testing.T) {
	e, c, src := migrationEnv(t)
	ctx := context.Background()
	req := billingTo(src, "payments-prod")
	req.Source.ClusterName = "warehouse-rs"
	m, err := c.Migration().Create(ctx, DemoPaymentsID, req)
	require.NoError(t, err)
	assert.Equal(t, apiclient.MigrationNew, m.Status)
	e.clock.Advance(migrationNewFor)
	got, err := c.Migration().Get(ctx, DemoPaymentsID, m.ID)
	require.NoError(t, err)
	assert.Equal(t, apiclient.MigrationFailed, got.Status)
	assert.True(t, got.Done())
}

func TestMigrationLinkTokenAndSourceProjects(t *testing.T) {
	e, c, _ := migrationEnv(t)
	ctx := context.Background()
	d := e.digest("org-owner", "MD5")
	st, raw := d.get(t, "/api/atlas/v2/orgs/"+DemoOrgID+"/liveMigrations/availableProjects")
	require.Equal(t, 200, st)
	var bare []map[string]any
	require.NoError(t, json.Unmarshal(raw, &bare), "a bare array: %s", raw)
	require.Len(t, bare, 2)
	assert.Equal(t, "on-prem-billing", bare[0]["name"])

	projects, err := c.Migration().SourceProjects(ctx, DemoOrgID)
	require.NoError(t, err)
	require.Len(t, projects, 2)
	assert.Equal(t, "billing-rs", projects[0].Deployments[0].Name)

	require.NoError(t, c.Migration().DeleteLinkToken(ctx, DemoOrgID))
	err = c.Migration().DeleteLinkToken(ctx, DemoOrgID)
	apiErr(t, err, 404, "LINK_TOKEN_NOT_FOUND")
	projects, err = c.Migration().SourceProjects(ctx, DemoOrgID)
	require.NoError(t, err)
	assert.Empty(t, projects, "nothing is linked without a token")

	tok1, err := c.Migration().CreateLinkToken(ctx, DemoOrgID, []string{"10.0.0.1", "192.168.0.0/16"})
	require.NoError(t, err)
	assert.NotEmpty(t, tok1.LinkToken)
	tok2, err := c.Migration().CreateLinkToken(ctx, DemoOrgID, nil)
	require.NoError(t, err)
	assert.NotEqual(t, tok1.LinkToken, tok2.LinkToken, "a new token replaces the old one")
	projects, err = c.Migration().SourceProjects(ctx, DemoOrgID)
	require.NoError(t, err)
	assert.Len(t, projects, 2)

	_, err = c.Migration().CreateLinkToken(ctx, DemoOrgID, []string{"not-an-ip"})
	ae := apiErr(t, err, 400, "VALIDATION_ERROR")
	assert.Contains(t, ae.Detail, "accessListIps[0]")

	// Organization Owner only.
	ro, err := apiclient.New(apiclient.Options{BaseURL: e.ts.URL, Service: "atlas",
		Auth: apiclient.DigestAuth("project-owner", "project-owner-secret"), MaxRetries: -1})
	require.NoError(t, err)
	_, err = ro.Migration().CreateLinkToken(ctx, DemoOrgID, nil)
	apiErr(t, err, 403, "USER_UNAUTHORIZED")
}

// The public spec's own example of a migration host has no port
// (vm001.example.com): the service takes it, and a bare host name of a
// registered host passes the check; a blank or a bad port is refused.
func TestMigrationHostWithoutPort(t *testing.T) {
	e, c, src := migrationEnv(t)
	ctx := context.Background()
	req := billingTo(src, "payments-prod")
	req.MigrationHosts = []string{"vm001.example.com"}
	v, err := c.Migration().Validate(ctx, DemoPaymentsID, req)
	require.NoError(t, err, "the spec's example host is accepted")
	e.clock.Advance(time.Minute)
	got, err := c.Migration().ValidationStatus(ctx, DemoPaymentsID, v.ID)
	require.NoError(t, err)
	assert.Equal(t, apiclient.ValidationFailed, got.Status, "an unregistered host fails the check, not the request")
	assert.Contains(t, got.ErrorMessage, "vm001.example.com is not registered")

	req.MigrationHosts = []string{"mig-host-1.billing.internal"}
	v, err = c.Migration().Validate(ctx, DemoPaymentsID, req)
	require.NoError(t, err)
	e.clock.Advance(time.Minute)
	got, err = c.Migration().ValidationStatus(ctx, DemoPaymentsID, v.ID)
	require.NoError(t, err)
	assert.Equal(t, apiclient.ValidationSuccess, got.Status, "the registered host named without its port: %s", got.ErrorMessage)

	d := e.digest("org-owner", "MD5")
	for _, bad := range []string{"", "vm001 example.com", "vm001.example.com:0", "vm001.example.com:99999", "vm001.example.com:port"} {
		st, _, out := d.do(t, rawReq{method: "POST", path: "/api/atlas/v2/groups/" + DemoPaymentsID + "/liveMigrations/validate",
			ctype: "application/json", accept: "application/vnd.atlas.2024-05-30+json", body: mustJSON(map[string]any{
				"source":         map[string]any{"clusterName": "billing-rs", "groupId": src, "managedAuthentication": true, "ssl": true},
				"destination":    map[string]any{"clusterName": "payments-prod", "groupId": DemoPaymentsID, "hostnameSchemaType": "PUBLIC"},
				"migrationHosts": []string{bad}})})
		assert.Equal(t, 400, st, "host %q: %s", bad, out)
		assert.Contains(t, string(out), "migrationHosts", "host %q", bad)
	}
	for _, good := range []string{"10.0.0.7", "10.0.0.7:27000", "[::1]:27000", "::1"} {
		req.MigrationHosts = []string{good}
		_, err := c.Migration().Validate(ctx, DemoPaymentsID, req)
		assert.NoError(t, err, "host %q", good)
	}
}

// Deleting the link token while a migration runs answers 204 as the
// service documents (its documented answers hold no 409).
func TestLinkTokenDeleteWhileAMigrationRuns(t *testing.T) {
	e, c, src := migrationEnv(t)
	ctx := context.Background()
	m, err := c.Migration().Create(ctx, DemoPaymentsID, billingTo(src, "payments-prod"))
	require.NoError(t, err)
	e.clock.Advance(migrationNewFor)
	got, err := c.Migration().Get(ctx, DemoPaymentsID, m.ID)
	require.NoError(t, err)
	require.Equal(t, apiclient.MigrationWorking, got.Status)

	d := e.digest("org-owner", "MD5")
	st, _, body := d.do(t, rawReq{method: "DELETE", path: "/api/atlas/v2/orgs/" + DemoOrgID + "/liveMigrations/linkTokens",
		accept: "application/vnd.atlas.2023-01-01+json"})
	assert.Equal(t, 204, st, string(body))
	got, err = c.Migration().Get(ctx, DemoPaymentsID, m.ID)
	require.NoError(t, err)
	assert.Equal(t, apiclient.MigrationWorking, got.Status, "the running migration goes on")
	projects, err := c.Migration().SourceProjects(ctx, DemoOrgID)
	require.NoError(t, err)
	assert.Empty(t, projects, "the link is gone")
}
