package apisim

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
)

// TestReplayRealClientBodies replays bodies that real clients send and the
// service accepts: the official CLI's live-migration create and validate
// (destination.hostnameSchemaType always "", no flag to set it) and a flex
// restore carrying the read-only instanceName. Unknown members are still
// refused.
func TestReplayRealClientBodies(t *testing.T) {
	cases := []struct {
		op     string
		body   string
		status int
	}{
		{"validateMigration", `{"source":{"clusterName":"billing-rs","groupId":"%SRC%","managedAuthentication":true,"ssl":true,"caCertificatePath":"","username":"","password":""},"destination":{"clusterName":"payments-rs","groupId":"%P%","hostnameSchemaType":""},"migrationHosts":["mig-host-1.billing.internal:27000"],"dropDestinationData":false}`, 200},
		{"createPushMigration", `{"source":{"clusterName":"billing-rs","groupId":"%SRC%","managedAuthentication":true,"ssl":true},"destination":{"clusterName":"payments-rs","groupId":"%P%","hostnameSchemaType":""},"migrationHosts":["mig-host-1.billing.internal:27000"],"dropDestinationData":false}`, 201},
		{"createFlexBackupRestoreJob", `{"snapshotId":"%SNAP%","targetDeploymentItemName":"payments-flex","targetProjectId":"%P%","instanceName":"payments-flex"}`, 200},
		{"createFlexBackupRestoreJob", `{"snapshotId":"%SNAP%","targetDeploymentItemName":"payments-flex","noSuchMember":1}`, 400},
		{"validateMigration", `{"source":{"clusterName":"billing-rs","groupId":"%SRC%","managedAuthentication":true,"ssl":true},"destination":{"clusterName":"payments-rs","groupId":"%P%","hostnameSchemaType":"NOPE"},"migrationHosts":["mig-host-1.billing.internal:27000"],"dropDestinationData":false}`, 400},
	}
	for _, tc := range cases {
		t.Run(tc.op, func(t *testing.T) {
			e := newEnv(t, Options{})
			op := catalog.MustGet(tc.op)
			fx := fixtures(e.srv)[tc.op]
			snap, _ := fx.body.(map[string]any)["snapshotId"].(string)
			body := tc.body
			for k, v := range map[string]string{"%SRC%": e.srv.world.SourceProjects[0].ProjectID, "%P%": DemoPaymentsID, "%SNAP%": snap} {
				body = strings.ReplaceAll(body, k, v)
			}
			if !json.Valid([]byte(body)) {
				t.Fatalf("bad replay body %s", body)
			}
			path, _ := op.Expand(fx.params)
			v, _ := op.Current()
			mt := catalog.MediaType("atlas", v.Date)
			st, h, b := e.digest("org-owner", "MD5").do(t, rawReq{method: op.Method, path: "/api/atlas/v2" + path, accept: mt, ctype: mt, body: []byte(body)})
			if tc.status != 400 {
				if st != tc.status {
					t.Fatalf("status %d, want %d: %s", st, tc.status, b)
				}
				return
			}
			wantError(t, st, h, b, 400, "")
		})
	}
}
