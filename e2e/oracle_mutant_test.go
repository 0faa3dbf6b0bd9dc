package e2e

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// rewriteJSON changes one member of a write's JSON body.
func rewriteJSON(w *sentWrite, change func(map[string]any)) bool {
	var m map[string]any
	if json.Unmarshal(w.Body, &m) != nil {
		return false
	}
	change(m)
	w.Body, _ = json.Marshal(m)
	return true
}

// TestOracleCatchesAMutantClient proves the oracle can fail: a reverse
// proxy between the binary and apisim changes one value of a write on its
// way (the client the dashboard would be if it sent other than its screen
// said), and the oracle must refuse that write, naming the value. The same
// keys without the proxy's change pass, so it is the change that is caught.
func TestOracleCatchesAMutantClient(t *testing.T) {
	RequireTmux(t)
	ack := []oracleStep{{Keys: []string{"a"}, Want: "Acknowledge until"},
		{Keys: []string{"disk", "BTab", "2026-12-01 10:30"}, Want: "16/25"}, {Keys: []string{"Enter"}}}
	snapshot := []oracleStep{{Keys: []string{"3"}, Want: "payments-serverless"}, {Keys: []string{"j", "j", "j", "Enter"}, Want: "n take snapshot"},
		{Keys: []string{"n"}, Want: "On-demand snapshot of"}, {Keys: []string{"before deploy", "Tab", "C-u", "5"}, Want: "13/200"}, {Keys: []string{"Enter"}}}
	index := []oracleStep{{Keys: []string{"4"}, Want: "Search indexes"}, {Keys: []string{"j", "j", "j"}},
		{Keys: []string{"d"}, Want: "Delete search index ledger-search?"}, {Keys: []string{"ledger-search", "Enter"}}}
	restore := []oracleStep{{Keys: []string{"3"}, Want: "payments-serverless"}, {Keys: []string{"j", "j", "j", "Enter"}, Want: "n take snapshot"},
		{Keys: []string{"j", "R"}, Want: "(1/3)"}, {Keys: []string{"Tab", "Right", "Right"}, Want: "(•) staging"}, {Keys: []string{"Enter"}, Want: "(2/3)"},
		{Keys: []string{"Down"}, Want: "(•) staging-rs"}, {Keys: []string{"Enter"}, Want: "(3/3)"}, {Keys: []string{"staging-rs", "Enter"}}}
	expiration := []oracleStep{{Keys: []string{"3"}, Want: "payments-serverless"}, {Keys: []string{"j", "j", "j", "Enter"}, Want: "n take snapshot"},
		{Keys: []string{"j", "e"}, Want: "Expiration of"}, {Keys: []string{"Tab", "45 days"}, Want: "(•) other"}, {Keys: []string{"Enter"}, Want: "Kept 45 days"}, {Keys: []string{"y"}}}
	migration := []oracleStep{{Keys: []string{"6"}, Want: "1 Link token"}, {Keys: []string{"Enter"}, Want: "Pick the deployment"},
		{Keys: []string{"Enter"}, Want: "Pick the destination"}, {Keys: []string{"j", "Enter"}, Want: "3 Destination ✓"},
		{Keys: []string{"v"}, Want: "Check migration"}, {Keys: []string{"Enter"}, Want: "m start"},
		{Keys: []string{"m"}, Want: "Start the live migration?"}, {Keys: []string{"y"}}}
	dns := []oracleStep{{Keys: []string{"7"}, Want: "CUSTOM DNS"}, {Keys: []string{"d"}, Want: "Turn custom DNS"}, {Keys: []string{"y"}}}
	otherAlert := func(h *oracleHost, w *sentWrite) bool {
		// Another alert of the same project: the first open one that is
		// not the one sent.
		i := strings.LastIndex(w.Path, "/")
		all, err := ownerClient(t, h.URL(), 3).Alerts().ListAll(context.Background(), apisim.DemoPaymentsID, "OPEN")
		if err != nil || i < 0 {
			return false
		}
		for _, a := range all {
			if a.ID != w.Path[i+1:] {
				w.Path = w.Path[:i+1] + a.ID
				return true
			}
		}
		return false
	}
	sameNamed := func(h *oracleHost, w *sentWrite) bool {
		// Another alert of the same event on the same place: the dialog's
		// title fits it too; only the id it shows tells them apart.
		i := strings.LastIndex(w.Path, "/")
		if i < 0 {
			return false
		}
		c := ownerClient(t, h.URL(), 3).Alerts()
		sent, err := c.Get(context.Background(), apisim.DemoPaymentsID, w.Path[i+1:])
		if err != nil {
			return false
		}
		all, err := c.ListAll(context.Background(), apisim.DemoPaymentsID, "OPEN")
		if err != nil {
			return false
		}
		for _, a := range all {
			if a.ID != sent.ID && a.EventTypeName == sent.EventTypeName && placeOf(a) == placeOf(*sent) {
				w.Path = w.Path[:i+1] + a.ID
				return true
			}
		}
		return false
	}
	cases := []struct {
		name   string
		steps  []oracleStep
		mutant func(*oracleHost, *sentWrite) bool
		says   string
	}{
		{"ack until one hour later", ack, func(h *oracleHost, w *sentWrite) bool {
			return strings.Contains(w.Path, "/alerts/") && rewriteJSON(w, func(m map[string]any) {
				t, _ := time.Parse(time.RFC3339, str(m["acknowledgedUntil"]))
				m["acknowledgedUntil"] = t.Add(time.Hour).Format(time.RFC3339)
			})
		}, "acknowledgedUntil 2026-12-01T11:30:00Z sent"},
		{"ack of another alert", ack, func(h *oracleHost, w *sentWrite) bool {
			return strings.Contains(w.Path, "/alerts/") && otherAlert(h, w)
		}, "is not one the dialog"},
		{"ack of a same-named other alert", ack, func(h *oracleHost, w *sentWrite) bool {
			return strings.Contains(w.Path, "/alerts/") && sameNamed(h, w)
		}, "is not one the dialog"},
		{"ack comment changed", ack, func(h *oracleHost, w *sentWrite) bool {
			return strings.Contains(w.Path, "/alerts/") && rewriteJSON(w, func(m map[string]any) { m["acknowledgementComment"] = "dusk" })
		}, `comment "dusk" sent`},
		{"snapshot retention", snapshot, func(h *oracleHost, w *sentWrite) bool {
			return strings.HasSuffix(w.Path, "/backup/snapshots") && rewriteJSON(w, func(m map[string]any) { m["retentionInDays"] = 6 })
		}, "retentionInDays 6 sent"},
		{"snapshot of another cluster", snapshot, func(h *oracleHost, w *sentWrite) bool {
			if !strings.HasSuffix(w.Path, "/backup/snapshots") {
				return false
			}
			w.Path = strings.Replace(w.Path, "/payments-rs/", "/payments-prod/", 1)
			return true
		}, "the dialog named an on-demand snapshot of payments-rs"},
		{"snapshot in another project", snapshot, func(h *oracleHost, w *sentWrite) bool {
			if !strings.HasSuffix(w.Path, "/backup/snapshots") {
				return false
			}
			w.Path = strings.Replace(w.Path, apisim.DemoPaymentsID, apisim.DemoStagingID, 1)
			return true
		}, `sent to project "staging"`},
		{"another search index deleted", index, func(h *oracleHost, w *sentWrite) bool {
			if w.Method != "DELETE" || !strings.Contains(w.Path, "/search/indexes/") {
				return false
			}
			ixs, err := ownerClient(t, h.URL(), 3).Search().ListCluster(context.Background(), apisim.DemoPaymentsID, "payments-prod")
			for _, ix := range ixs {
				if err == nil && !strings.HasSuffix(w.Path, ix.IndexID) {
					w.Path = w.Path[:strings.LastIndex(w.Path, "/")+1] + ix.IndexID
					return true
				}
			}
			// The cluster holds one index: one of another cluster's ids.
			w.Path = w.Path[:strings.LastIndex(w.Path, "/")+1] + "d671e2860000000000000001"
			return true
		}, "named index"},
		{"restore onto another cluster", restore, func(h *oracleHost, w *sentWrite) bool {
			return strings.HasSuffix(w.Path, "/restoreJobs") && rewriteJSON(w, func(m map[string]any) { m["targetClusterName"] = "staging-m5" })
		}, `target "staging-m5" sent`},
		{"restore of another snapshot", restore, func(h *oracleHost, w *sentWrite) bool {
			// Another completed snapshot of the same cluster.
			snaps, err := ownerClient(t, h.URL(), 3).Backups().AllSnapshots(context.Background(), apisim.DemoPaymentsID, "payments-rs")
			return err == nil && strings.HasSuffix(w.Path, "/restoreJobs") && rewriteJSON(w, func(m map[string]any) {
				for _, sn := range snaps {
					if sn.ID != m["snapshotId"] && sn.Status == "completed" {
						m["snapshotId"] = sn.ID
						return
					}
				}
			})
		}, "sent, the dialog showed snapshot "},
		{"expiration kept longer", expiration, func(h *oracleHost, w *sentWrite) bool {
			return strings.Contains(w.Path, "/backup/snapshots/") && rewriteJSON(w, func(m map[string]any) { m["retentionValue"] = 46 })
		}, `retention 46 DAYS sent, the dialog showed "45 days"`},
		{"migration into another cluster", migration, func(h *oracleHost, w *sentWrite) bool {
			return strings.HasSuffix(w.Path, "/liveMigrations") && rewriteJSON(w, func(m map[string]any) {
				if d, ok := m["destination"].(map[string]any); ok {
					d["clusterName"] = "payments-prod"
				}
			})
		}, `destination "payments-prod" sent, the dialog showed "payments-rs"`},
		{"migration without TLS", migration, func(h *oracleHost, w *sentWrite) bool {
			return strings.HasSuffix(w.Path, "/liveMigrations") && rewriteJSON(w, func(m map[string]any) {
				if src, ok := m["source"].(map[string]any); ok {
					src["ssl"] = false
				}
			})
		}, "ssl false sent, the dialog showed TLS on: true"},
		{"custom DNS the other way", dns, func(h *oracleHost, w *sentWrite) bool {
			return strings.HasSuffix(w.Path, "/awsCustomDNS") && rewriteJSON(w, func(m map[string]any) { m["enabled"] = !(m["enabled"] == true) })
		}, "Turn custom DNS for AWS off?"},
	}
	// The keys alone pass: nothing but the mutant fails them.
	for _, steps := range [][]oracleStep{ack, snapshot, index, restore, expiration, migration, dns} {
		o := newOracle(t, 0, nil)
		o.replay(steps)
		// One write each (the migration's check and start: two).
		if len(o.Fails) > 0 || o.judge.Checked == 0 || o.judge.Checked > 2 {
			t.Fatalf("without a mutant: %d writes checked, refused: %s", o.judge.Checked, strings.Join(o.Fails, "\n"))
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mutated := false
			o := newOracle(t, 0, func(h *oracleHost, w *sentWrite) bool {
				if mutated {
					return false
				}
				mutated = c.mutant(h, w)
				return mutated
			})
			o.replay(c.steps)
			if !mutated {
				t.Fatalf("the mutant never met its write; %d writes checked", o.judge.Checked)
			}
			got := strings.Join(o.Fails, "\n")
			if !strings.Contains(got, c.says) {
				t.Fatalf("the oracle did not refuse the mutated write with %q; it said:\n%s", c.says, got)
			}
			t.Logf("refused as expected:\n%s", o.failure())
		})
	}
}
