package e2e

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

// jumpCase is one board row opened with enter: the filter that singles
// it out, what its board row shows, and where it must land.
type jumpCase struct {
	name    string
	filter  string // typed after / on the board; matches this row alone
	row     string // on the board row (at 80 columns)
	project string // the header's project after the jump
	cluster string // the header's cluster ("all clusters" for alerts)
	pane    string // on the landing screen: the pane's own heading
	cursor  string // on the landing pane's cursor line
	id      string // the item's id from apisim, shown by the landing pane
	detail  bool   // the id shows in the detail enter opens (alerts)
}

// worldNow is the demo server's clock.
func worldNow(s *Session) time.Time {
	var clock struct{ Now time.Time }
	s.SimGet("/clock", &clock)
	return clock.Now
}

// projectIDs maps the demo's project names to their ids.
func projectIDs(t *testing.T, c *apiclient.Client) map[string]string {
	t.Helper()
	ps, err := c.Projects().All(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, p := range ps {
		out[p.Name] = p.ID
	}
	return out
}

// jumpCases reads, from apisim's state, the item behind one board row of
// each kind the other end-to-end tests do not open (TestTriageEnterLandsOnTheOwningPane
// opens a failed restore, a FAILED index, a new alert and a failed export;
// TestMigrationFlowToComplete a migration ready for cut-over).
func jumpCases(t *testing.T, s *Session) []jumpCase {
	t.Helper()
	c := s.DemoAPI()
	ctx := context.Background()
	now := worldNow(s)
	ids := projectIDs(t, c)
	var cases []jumpCase

	// A running restore first: it finishes a few minutes into the demo.
	jobs, err := c.Backups().AllRestoreJobs(ctx, ids["payments"], "payments-rs")
	if err != nil {
		t.Fatal(err)
	}
	var running []string
	for _, j := range jobs {
		if j.State() == apiclient.RestoreRunning && j.TargetClusterName == "staging-rs" {
			running = append(running, j.ID)
		}
	}
	if len(running) != 1 {
		t.Fatalf("apisim has %d restores of payments-rs running to staging-rs, want 1", len(running))
	}
	cases = append(cases, jumpCase{name: "restore running", filter: "restore running to staging-rs", row: "restore running",
		project: "payments", cluster: "payments-rs", pane: "[Restores]", cursor: "running", id: "restore " + running[0]})

	// An open alert, not acknowledged and not new, with a text of its own.
	type alertAt struct {
		project string
		a       apiclient.Alert
	}
	byText := map[string][]alertAt{}
	var ackEnds []alertAt
	for name, gid := range ids {
		all, err := c.Alerts().ListAll(ctx, gid, apiclient.AlertOpen)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range all {
			text := a.EventTypeName + " on " + a.HostnameAndPort
			byText[text] = append(byText[text], alertAt{name, a})
			if a.AcknowledgedUntil != nil && a.AcknowledgedUntil.After(now) && a.AcknowledgedUntil.Sub(now) <= 50*time.Minute {
				ackEnds = append(ackEnds, alertAt{name, a})
			}
		}
	}
	var plain []alertAt
	for _, l := range byText {
		a := l[0].a
		if len(l) == 1 && a.HostnameAndPort != "" && a.AcknowledgedUntil == nil && now.Sub(a.Created) > 30*time.Minute {
			plain = append(plain, l[0])
		}
	}
	if len(plain) == 0 {
		t.Fatal("apisim has no open alert the board can single out by its text")
	}
	slices.SortFunc(plain, func(x, y alertAt) int { return strings.Compare(x.a.ID, y.a.ID) })
	p := plain[0]
	event := p.a.EventTypeName[:min(12, len(p.a.EventTypeName))]
	cases = append(cases, jumpCase{name: "alert", filter: p.a.EventTypeName + " on " + p.a.HostnameAndPort, row: event,
		project: p.project, cluster: "all clusters", pane: "EVENT TYPE", cursor: event, id: p.a.ID, detail: true})

	// The one acknowledgement ending within the hour.
	if len(ackEnds) != 1 {
		t.Fatalf("apisim has %d acknowledgements ending within 50 minutes, want 1", len(ackEnds))
	}
	e := ackEnds[0]
	event = e.a.EventTypeName[:min(12, len(e.a.EventTypeName))]
	cases = append(cases, jumpCase{name: "ack ends", filter: "ack ends in", row: "ack ends",
		project: e.project, cluster: "all clusters", pane: "EVENT TYPE", cursor: event, id: e.a.ID, detail: true})

	// The snapshot failed in the last 24 h.
	snaps, err := c.Backups().AllSnapshots(ctx, ids["checkout"], "checkout-main")
	if err != nil {
		t.Fatal(err)
	}
	var failed []string
	for _, sn := range snaps {
		if sn.Status == apiclient.SnapshotFailed && now.Sub(sn.CreatedAt) <= 24*time.Hour {
			failed = append(failed, sn.ID)
		}
	}
	if len(failed) != 1 {
		t.Fatalf("apisim has %d snapshots of checkout-main failed in the last 24 h, want 1", len(failed))
	}
	cases = append(cases, jumpCase{name: "snapshot failed", filter: "snapshot failed", row: "snapshot failed",
		project: "checkout", cluster: "checkout-main", pane: "[Snapshots]", cursor: "failed", id: "snapshot " + failed[0]})

	// A FAILED synonym mapping and a build stuck for over an hour.
	index := func(project, cluster, name string, ok func(apiclient.SearchIndex) bool) string {
		ixs, err := c.Search().ListCluster(ctx, ids[project], cluster)
		if err != nil {
			t.Fatal(err)
		}
		for _, ix := range ixs {
			if ix.Name == name && ok(ix) {
				return ix.IndexID
			}
		}
		t.Fatalf("apisim has no index %s on %s in the expected state", name, cluster)
		return ""
	}
	syn := index("analytics", "analytics-main", "tickets-synonyms", func(ix apiclient.SearchIndex) bool {
		return ix.SynonymMappingStatus == apiclient.SynonymFailed
	})
	cases = append(cases, jumpCase{name: "synonym mapping FAILED", filter: "tickets-synonyms: synonym", row: "index tickets-synonyms",
		project: "analytics", cluster: "analytics-main", pane: "Search indexes · analytics-main", cursor: "tickets-synonyms", id: "id: " + syn})
	stuck := index("notifications", "notifications-main", "orders-text", func(ix apiclient.SearchIndex) bool {
		v := ix.LatestDefinitionVersion
		return ix.Status == apiclient.IndexBuilding && v != nil && v.CreatedAt != nil && now.Sub(*v.CreatedAt) > time.Hour
	})
	cases = append(cases, jumpCase{name: "build stuck", filter: "orders-text building", row: "index orders-text building",
		project: "notifications", cluster: "notifications-main", pane: "Search indexes · notifications-main", cursor: "orders-text", id: "id: " + stuck})

	// Clusters paused, not IDLE, and past end of life: the cluster is the item.
	clusters := map[string]apiclient.Cluster{}
	for _, name := range []string{"warehouse", "billing", "analytics"} {
		cs, err := c.Clusters().All(ctx, ids[name])
		if err != nil {
			t.Fatal(err)
		}
		for _, cl := range cs {
			clusters[cl.Name] = cl
		}
	}
	if cl := clusters["warehouse-main"]; !cl.Paused {
		t.Fatalf("warehouse-main is not paused in apisim: %+v", cl)
	}
	if cl := clusters["billing-main"]; cl.StateName != "REPAIRING" {
		t.Fatalf("billing-main is %s in apisim, want REPAIRING", cl.StateName)
	}
	if cl := clusters["analytics-old"]; cl.MongoDBVersion != "3.6.23" {
		t.Fatalf("analytics-old runs MongoDB %s in apisim, want 3.6.23", cl.MongoDBVersion)
	}
	cases = append(cases,
		jumpCase{name: "cluster paused", filter: "cluster paused", row: "cluster paused",
			project: "warehouse", cluster: "warehouse-main", pane: "Backups · warehouse-main (", cursor: "scheduled"},
		jumpCase{name: "cluster not IDLE", filter: "cluster REPAIRING", row: "cluster REPAIRING",
			project: "billing", cluster: "billing-main", pane: "Backups · billing-main (", cursor: "scheduled"},
		jumpCase{name: "past end of life", filter: "MongoDB 3.6.23", row: "MongoDB 3.6.23",
			project: "analytics", cluster: "analytics-old", pane: "Backups · analytics-old (replica set, M10, 3.6.23)", cursor: "scheduled"},
	)
	return cases
}

// TestTriageEnterOnEveryKind: in one running binary at 80x24, each kind's
// row is found on the whole board, opened with enter (its pane, the row's
// project and cluster in the header, the item under the cursor and its id
// on screen), and esc comes back to the whole board on the same row. Keys
// go with no pauses; every step waits for the screen.
func TestTriageEnterOnEveryKind(t *testing.T) {
	s := StartDemo(t, 80, 24, nil, "--pane", "triage", "--demo-speed", "1")
	s.WaitFor("12 of 12 projects", wait)
	s.WaitFor("clusters/backups/search 12/12", wait)
	for _, c := range jumpCases(t, s) {
		onRow := func(sc string) bool {
			return strings.Contains(sc, "Triage ·") && strings.Contains(cursorLine(sc), c.row)
		}
		// The whole board: no filter, a screenful of rows (each names a
		// project "org › project"). The list narrows while the filter is
		// typed, so a frame caught mid-typing can show many rows with the
		// cursor on the row: only a screen with no filter bar and no
		// filter is the whole board.
		whole := func(sc string) bool {
			return onRow(sc) && strings.Count(sc, " › ") >= 10 && !strings.Contains(sc, "filter:") &&
				!strings.HasPrefix(lastLine(sc), "/")
		}
		// Find the row, then clear the filter: the cursor stays on it.
		// The filter is kept (enter read) before esc goes.
		s.SendFast("/", c.filter, "Enter")
		// At 80 columns a long filter's text is cut in the footer.
		kept := "filter: " + c.filter[:min(len(c.filter), 20)]
		s.waitUntil(func(sc string) bool {
			return onRow(sc) && strings.Contains(sc, kept) && strings.Contains(sc, "(esc clears)")
		}, wait,
			c.name+": its row under the cursor, the filter kept")
		s.SendFast("Escape")
		s.waitUntil(whole, wait, c.name+": its row under the cursor on the whole board")

		s.SendFast("Enter")
		header := "› " + c.project + " › " + c.cluster
		s.waitUntil(func(sc string) bool {
			first, _, _ := strings.Cut(sc, "\n")
			return !strings.Contains(sc, "Triage ·") && strings.Contains(first, header) &&
				strings.Contains(sc, c.pane) && strings.Contains(cursorLine(sc), c.cursor) &&
				(c.detail || strings.Contains(sc, c.id))
		}, wait, c.name+": "+c.pane+" in "+header+" with "+c.cursor+" "+c.id+" selected")
		if c.detail {
			// The alert under the cursor is that very alert: its detail says so.
			s.SendFast("Enter")
			s.WaitFor(c.id, wait)
			s.SendFast("Escape")
			s.WaitFor(c.pane, wait)
		}

		s.SendFast("Escape")
		s.waitUntil(whole, wait, c.name+": back on the whole board, on the same row")
		t.Logf("%s: %s in %s, %s %s, and back", c.name, c.pane, header, c.cursor, c.id)
	}
	s.SendFast("q")
	s.WaitExit(wait)
}

// lastLine is the screen's last line with text, trimmed: the footer, where
// the filter bar ("/…") draws while it is open.
func lastLine(screen string) string {
	lines := strings.Split(strings.TrimRight(screen, " \n"), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
