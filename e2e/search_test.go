package e2e

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// TestSearchCreateUpdateDeleteAndLocalRefusal drives the search pane on the
// demo with $EDITOR set to a script: create an index and watch it become
// READY, update it, delete it (typed confirmation, DELETING, then gone),
// each checked against the demo's own server; then a definition with an
// invalid analyzer is refused on screen, naming it, and never sent.
func TestSearchCreateUpdateDeleteAndLocalRefusal(t *testing.T) {
	RequireTmux(t)
	editor := filepath.Join(repoRoot(), "e2e", "testdata", "search_editor.sh")
	queue := filepath.Join(t.TempDir(), "next.json")
	type_ := func(text string) {
		t.Helper()
		if err := os.WriteFile(queue, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s := StartDemo(t, 140, 40, []string{"EDITOR=" + editor, "VISUAL=", "SEARCH_E2E_NEXT=" + queue},
		"--demo-role", "data-access-admin", "--project", "payments", "--cluster", "payments-rs", "--pane", "search")
	s.WaitFor("embeddings", wait)

	c := s.DemoAPI()
	ctx := context.Background()
	get := func() (*apiclient.SearchIndex, error) {
		return c.Search().GetByName(ctx, apisim.DemoPaymentsID, "payments-rs", "shop", "orders", "e2e-text")
	}
	waitRow := func(pattern string) {
		t.Helper()
		re := regexp.MustCompile(pattern)
		s.waitUntil(re.MatchString, wait, "row "+pattern)
	}

	// Create: the cursor is on the shop database, so the template is there.
	type_(`{"name": "e2e-text", "database": "shop", "collectionName": "orders", "type": "search",
  "definition": {"analyzer": "lucene.english", "mappings": {"dynamic": true}}}`)
	s.SendKeys("n")
	s.WaitFor("index e2e-text created", wait)
	waitRow(`e2e-text\s+search\s+READY\s+yes\s+3 READY`)
	ix, err := get()
	if err != nil {
		t.Fatalf("created index not in apisim: %v", err)
	}
	if ix.Status != apiclient.IndexReady || ix.LatestDefinition.Analyzer != "lucene.english" {
		t.Errorf("apisim index = %s %q, want READY lucene.english", ix.Status, ix.LatestDefinition.Analyzer)
	}

	// Update: rows are shop, orders, default, e2e-text.
	s.SendKeys("j", "j", "j")
	s.WaitFor("namespace: shop.orders on payments-rs", wait)
	type_(`{"analyzer": "lucene.german", "mappings": {"dynamic": true}}`)
	s.SendKeys("e")
	s.WaitFor("updated to version 2", wait)
	waitRow(`e2e-text\s+search\s+READY\s+yes\s+3 READY\s+v2`)
	if ix, err = get(); err != nil || ix.LatestDefinition.Analyzer != "lucene.german" || ix.LatestDefinitionVersion.Version != 2 {
		t.Fatalf("apisim after update: %+v, %v", ix, err)
	}

	// Delete: typed confirmation, DELETING, then gone from the pane and apisim.
	s.SendKeys("d")
	s.WaitFor("Delete search index e2e-text?", wait)
	s.SendKeys("e2e-text", "Enter")
	waitRow(`e2e-text\s+search\s+DELETING`)
	s.WaitGone("e2e-text", wait)
	if _, err := get(); err == nil {
		t.Fatalf("index still in apisim after the pane stopped showing it")
	} else if ae, ok := apiclient.AsError(err); !ok || ae.Status != http.StatusNotFound {
		t.Fatalf("apisim get after delete: %v", err)
	}

	// An invalid analyzer is refused before sending, with a message naming it.
	before := searchWrites(s)
	type_(`{"name": "e2e-bad", "database": "shop", "collectionName": "orders",
  "definition": {"analyzer": "lucene.klingon", "mappings": {"dynamic": true}}}`)
	s.SendKeys("n")
	s.WaitFor(`unknown analyzer "lucene.klingon"`, wait)
	s.WaitFor("nothing sent", wait)
	if after := searchWrites(s); after != before {
		t.Errorf("search writes went from %d to %d: the refused definition was sent", before, after)
	}
	if before != 3 {
		t.Errorf("want 3 search writes (create, update, delete), apisim logged %d", before)
	}
	if _, err := c.Search().GetByName(ctx, apisim.DemoPaymentsID, "payments-rs", "shop", "orders", "e2e-bad"); err == nil {
		t.Errorf("the refused index exists in apisim")
	}

	s.SendKeys("q")
	s.WaitExit(wait)
}

// searchWrites counts the search index changes sent to the demo server.
func searchWrites(s *Session) int {
	s.t.Helper()
	n := 0
	for _, c := range s.SimWrites("/search/indexes") {
		n += c
	}
	return n
}

// TestSearchReadOnlyRoleIsRefused: with Project Read Only the pane's
// changes are refused on screen with the role they need, and nothing
// reaches the server.
func TestSearchReadOnlyRoleIsRefused(t *testing.T) {
	RequireTmux(t)
	editor := filepath.Join(repoRoot(), "e2e", "testdata", "search_editor.sh")
	queue := filepath.Join(t.TempDir(), "next.json")
	if err := os.WriteFile(queue, []byte(`{"name": "ro", "database": "shop", "collectionName": "orders", "definition": {"mappings": {}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := StartDemo(t, 140, 40, []string{"EDITOR=" + editor, "VISUAL=", "SEARCH_E2E_NEXT=" + queue},
		"--demo-role", "read-only", "--project", "payments", "--cluster", "payments-rs", "--pane", "search")
	s.WaitFor("payments-rs", wait)
	s.SendKeys("n")
	s.WaitFor("new index needs", wait)
	s.SendKeys("e")
	s.WaitFor("edit index needs", wait)
	s.SendKeys("d")
	s.WaitFor("delete index needs", wait)
	if n := searchWrites(s); n != 0 {
		t.Errorf("%d search writes reached apisim", n)
	}
	if b, err := os.ReadFile(queue); err != nil || len(b) == 0 {
		t.Errorf("the editor ran (queue emptied): %v", err)
	}
	s.SendKeys("q")
	s.WaitExit(wait)
}
