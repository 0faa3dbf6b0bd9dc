package e2e

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

// cursorLine is the screen line with the table cursor.
func cursorLine(screen string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, "▸") {
			return l
		}
	}
	return ""
}

// TestTriageEnterLandsOnTheOwningPane: from the board, enter on a row of
// each kind opens its pane on the row's project (and cluster) with the
// item selected; esc comes back to the board.
func TestTriageEnterLandsOnTheOwningPane(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 40}} {
		s := StartDemo(t, size[0], size[1], nil, "--pane", "triage", "--demo-speed", "1")
		s.WaitFor("12 of 12 projects", wait)
		cases := []struct {
			filter, project, pane, selected string
		}{
			{"restore failed", "inventory", "Restores", "failed"},
			{"orders-text FAILED", "mobile-backend", "Search", "orders-text"},
			{"new: HOST_DOWN on catalog", "catalog", "EVENT TYPE", "HOST_DOWN"},
			{"export failed", "identity", "Exports", "Failed"},
		}
		for _, c := range cases {
			s.SendFast("/")
			s.SendFast(strings.Split(c.filter, "")...)
			s.SendFast("Enter", "Enter")
			s.waitUntil(func(sc string) bool {
				return !strings.Contains(sc, "Triage ·") && strings.Contains(sc, "› "+c.project[:min(len(c.project), 8)]) && // the header may be cut at 80 columns
					strings.Contains(sc, c.pane) && strings.Contains(cursorLine(sc), c.selected)
			}, wait, c.filter+": its pane, project and item")
			s.SendFast("Escape")
			s.WaitFor("Triage ·", wait)
			s.SendFast("Escape") // the board's filter
			s.WaitGone("filter:", wait)
		}
		s.SendFast("q")
	}
}

// boardAlert is an open, unacknowledged alert the board shows, with a
// filter text that matches its row alone.
type boardAlert struct {
	group, id, filter string
}

// twoBoardAlerts picks two such alerts of two different projects.
func twoBoardAlerts(t *testing.T, s *Session) []boardAlert {
	t.Helper()
	c := s.DemoAPI()
	ctx := context.Background()
	orgs, err := c.Projects().AllOrgs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byText := map[string][]boardAlert{}
	for _, o := range orgs {
		ps, err := c.Projects().AllOrgProjects(ctx, o.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			all, err := c.Alerts().ListAll(ctx, p.ID, apiclient.AlertOpen)
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range all {
				text := a.EventTypeName + " on " + a.HostnameAndPort
				byText[text] = append(byText[text], boardAlert{group: p.ID, id: a.ID, filter: text})
				if a.HostnameAndPort == "" || a.AcknowledgedUntil != nil {
					byText[text] = append(byText[text], boardAlert{}) // never unique
				}
			}
		}
	}
	var picked []boardAlert
	for _, l := range byText {
		if len(l) == 1 && (len(picked) == 0 || picked[0].group != l[0].group) {
			picked = append(picked, l[0])
			if len(picked) == 2 {
				return picked
			}
		}
	}
	t.Fatalf("the demo world has no two alerts of two projects the board can single out")
	return nil
}

// TestTriageAcksTwoAlertsOfTwoProjects: two alert rows of two projects,
// marked on the board and acknowledged with `a`, are exactly two PATCHes,
// each to its alert's own project, and the server holds both acks.
func TestTriageAcksTwoAlertsOfTwoProjects(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 40}} {
		s := StartDemo(t, size[0], size[1], nil, "--pane", "triage", "--demo-speed", "1")
		s.WaitFor("12 of 12 projects", wait)
		picked := twoBoardAlerts(t, s)
		for _, a := range picked {
			// Find the row, clear the filter (the cursor stays on it), mark it.
			s.SendFast("/", a.filter, "Enter")
			// The WHAT column may be cut at 80 columns ("new: OUTSIDE_METRIC_THRESH…"):
			// the event type's first 12 characters always show.
			event := strings.SplitN(a.filter, " ", 2)[0]
			event = event[:min(12, len(event))]
			s.waitUntil(func(sc string) bool {
				return strings.Contains(cursorLine(sc), event) && strings.Contains(sc, "(esc clears)")
			}, wait, "the row of "+a.filter+", the filter kept")
			s.SendFast("Escape")
			s.WaitGone("filter:", wait)
			s.SendFast("Space")
		}
		comment := fmt.Sprintf("board-e2e-%d", size[0])
		// Typed ahead (README: keys typed straight after a write's key go
		// into the dialog it opens): no wait for the dialog.
		s.SendFast("a", comment, "Enter")
		s.WaitFor("acknowledged 2 of 2 alerts", wait)

		var patches []string
		for k, n := range s.SimWrites("/alerts/") {
			for range n {
				patches = append(patches, k)
			}
		}
		if len(patches) != 2 {
			t.Fatalf("%dx%d: %d writes reached the server, want 2 PATCHes: %v", size[0], size[1], len(patches), patches)
		}
		c := s.DemoAPI()
		for _, a := range picked {
			want := "PATCH /api/atlas/v2/groups/" + a.group + "/alerts/" + a.id
			if !slices.Contains(patches, want) {
				t.Errorf("no %s among %v", want, patches)
			}
			got, err := c.Alerts().Get(context.Background(), a.group, a.id)
			if err != nil {
				t.Fatal(err)
			}
			if got.AcknowledgementComment != comment || got.AcknowledgedUntil == nil {
				t.Errorf("%s in %s: comment %q until %v, want %q and an until", a.id, a.group, got.AcknowledgementComment, got.AcknowledgedUntil, comment)
			}
		}
		s.SendFast("Escape") // the outcomes
		s.WaitGone("acknowledged 2 of 2 alerts ·", wait)
		s.SendFast("q")
	}
}
