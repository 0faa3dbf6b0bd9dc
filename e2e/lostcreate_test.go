package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// queuedEditor is $EDITOR set to the test's editor script: type queues what
// the "user" saves at the next run.
func queuedEditor(t *testing.T) (env []string, typeNext func(string)) {
	t.Helper()
	editor := filepath.Join(repoRoot(), "e2e", "testdata", "search_editor.sh")
	queue := filepath.Join(t.TempDir(), "next.json")
	return []string{"EDITOR=" + editor, "VISUAL=", "SEARCH_E2E_NEXT=" + queue}, func(text string) {
		t.Helper()
		if err := os.WriteFile(queue, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// A new search index whose answer the server truncates (the faults
// control): the pane says it is checking, reads the index back, and shows
// it created (verified); one POST reached the server and the index exists.
func TestLostSearchIndexCreateIsVerifiedNotResent(t *testing.T) {
	RequireTmux(t)
	env, typeNext := queuedEditor(t)
	s := StartDemo(t, 140, 40, env, "--project", "payments", "--cluster", "payments-rs", "--pane", "search")
	s.WaitFor("embeddings", wait)
	s.SimPut("/faults", `{"malformedWrites": 1}`)
	typeNext(`{"name": "lost-e2e", "database": "shop", "collectionName": "orders", "type": "search",
  "definition": {"mappings": {"dynamic": true}}}`)
	s.SendKeys("n")
	s.WaitFor("index lost-e2e on payments-rs created (verified)", wait)
	if n := simCount(s, "POST", "/clusters/payments-rs/search/indexes"); n != 1 {
		t.Fatalf("%d POSTs of the index, want 1", n)
	}
	if _, err := s.DemoAPI().Search().GetByName(context.Background(), apisim.DemoPaymentsID, "payments-rs", "shop", "orders", "lost-e2e"); err != nil {
		t.Fatalf("the verified index is not on the server: %v", err)
	}
	s.SendKeys("q")
	s.WaitExit(wait)
}

// A new alert configuration (JSON, confirmed) whose answer is truncated:
// checking, then created (verified); one POST, one configuration.
func TestLostAlertConfigCreateIsVerifiedNotResent(t *testing.T) {
	RequireTmux(t)
	env, typeNext := queuedEditor(t)
	s := StartDemo(t, 160, 40, env)
	s.WaitFor("▸  OPEN", wait)
	s.SendKeys("c")
	s.WaitFor("Alert configurations", wait)
	typeNext(`{"eventTypeName": "HOST_HAS_INDEX_SUGGESTIONS", "enabled": true,
  "matchers": [{"fieldName": "CLUSTER_NAME", "operator": "EQUALS", "value": "payments-rs"}],
  "notifications": [{"typeName": "EMAIL", "emailAddress": "lost-e2e@example.com", "delayMin": 0, "intervalMin": 60}]}`)
	s.SendKeys("N")
	s.WaitFor("Create alert configuration", wait)
	s.SimPut("/faults", `{"malformedWrites": 1}`)
	s.SendKeys("y")
	s.WaitFor("HOST_HAS_INDEX_SUGGESTIONS created (verified)", wait)
	if n := simCount(s, "POST", "/alertConfigs"); n != 1 {
		t.Fatalf("%d POSTs of the configuration, want 1", n)
	}
	all, err := s.DemoAPI().AlertConfigs().ListAll(context.Background(), apisim.DemoPaymentsID)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range all {
		if c.EventTypeName == "HOST_HAS_INDEX_SUGGESTIONS" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d such configurations on the server, want 1", n)
	}
	s.SendKeys("q")
	s.WaitExit(wait)
}

// The board's ack asks before shortening an acknowledgement: No sends no
// PATCH and the alert keeps its window; yes sends one. At 80x24 and wide.
func TestBoardAckAsksBeforeShortening(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 40}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			s := StartDemo(t, size[0], size[1], []string{"TZ=UTC"}, "--pane", "triage", "--demo-speed", "1")
			s.WaitFor("12 of 12 projects", wait)
			a := twoBoardAlerts(t, s)[0]
			event := strings.SplitN(a.filter, " ", 2)[0]
			var clock struct{ Now time.Time }
			s.SimGet("/clock", &clock)
			was := clock.Now.Add(45 * time.Minute).Truncate(time.Second)
			c := s.DemoAPI()
			ctx := context.Background()
			if _, err := c.Alerts().Acknowledge(ctx, a.group, a.id, apiclient.AcknowledgeRequest{AcknowledgedUntil: &was, AcknowledgementComment: "earlier"}); err != nil {
				t.Fatal(err)
			}
			s.SendFast("r")
			s.SendFast("/", event+": ack ends", "Enter")
			// At 80 columns the row's text is cut: the filter is applied and
			// the cursor is on an ack-ends row of the event.
			s.waitUntil(func(sc string) bool {
				l := cursorLine(sc)
				return strings.Contains(sc, "filter: "+event+": ack ends (esc clears)") &&
					strings.Contains(l, "ack ends") && strings.Contains(l, event[:min(len(event), 20)])
			}, wait, "the ack-ends row of "+event)
			before := alertPatches(s)

			until := clock.Now.UTC().Add(10 * time.Minute).Truncate(time.Minute)
			s.SendFast("a")
			s.WaitFor("Acknowledge until", wait)
			s.submitAckUntil("shorten-e2e", until)
			s.WaitFor("Shorten an acknowledgement?", wait)
			s.WaitFor("shortens it by", wait) // the body wraps where it likes
			s.SendKeys("n")
			s.WaitGone("Shorten an acknowledgement?", wait)
			time.Sleep(300 * time.Millisecond) // anything sent would be logged by now
			if n := alertPatches(s) - before; n != 0 {
				t.Fatalf("%d PATCHes after No, want none", n)
			}
			got, err := c.Alerts().Get(ctx, a.group, a.id)
			if err != nil {
				t.Fatal(err)
			}
			if got.AcknowledgedUntil == nil || !got.AcknowledgedUntil.Equal(was) {
				t.Fatalf("after No the alert is acknowledged until %v, want %v as before", got.AcknowledgedUntil, was)
			}

			// The choices are kept: a, Enter asks again; yes sends one PATCH.
			s.SendFast("a")
			s.WaitFor("shorten-e2e", wait)
			s.SendFast("Enter")
			s.WaitFor("Shorten an acknowledgement?", wait)
			s.SendKeys("y")
			s.WaitFor("acknowledged 1 of 1 alert", wait)
			if n := alertPatches(s) - before; n != 1 {
				t.Fatalf("%d PATCHes after yes, want 1", n)
			}
			if got, err = c.Alerts().Get(ctx, a.group, a.id); err != nil || got.AcknowledgedUntil == nil || !got.AcknowledgedUntil.Equal(until) {
				t.Fatalf("after yes: %+v, %v; want acknowledged until %v", got, err, until)
			}
			s.SendFast("Escape", "q")
		})
	}
}
