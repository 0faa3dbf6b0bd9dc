package e2e

import (
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/icholy/digest"

	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// spendBucket makes apisim play another client on the same buckets (the
// control API's PUT /sim/ratelimits/spend).
func spendBucket(t *testing.T, h *SimHost, body string) {
	t.Helper()
	hc := &http.Client{Timeout: 10 * time.Second, Transport: &digest.Transport{Username: ownerKey, Password: ownerSecret}}
	req, err := http.NewRequest(http.MethodPut, h.URL()+"/api/atlas/sim/ratelimits/spend", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if b, _ := io.ReadAll(res.Body); res.StatusCode != http.StatusOK {
		t.Fatalf("spend: %s: %s", res.Status, b)
	}
}

// TestSharedBudgetSaysSoAndMeetsNo429: a project's alerts bucket of 10
// tokens refilled 60 a minute, and another client spending half of it
// (apisim's control API). The user keeps asking for the alerts (`r` four
// times a second for 25 s, more than the bucket gives): the dashboard
// finds out from what the server says remains that it is not alone, says
// so in the header with the pace of the alerts polls ("sharing the
// budget: alerts every 15 s (others take 30 of 60/min)") and paces at what the other client leaves: apisim answers
// none of its requests 429.
var sharingSaid = regexp.MustCompile(`sharing the budget: alerts every \d+ (s|min) \(others take`)

func TestSharedBudgetSaysSoAndMeetsNo429(t *testing.T) {
	RequireTmux(t)
	h := StartSimHost(t, apisim.Options{RateLimits: map[string]apisim.RateLimit{
		"alertsRead_group": {Capacity: 10, RefillRate: 60, RefillSeconds: 60}}})
	s := StartAgainst(t, h, 200, 40, "--pane", "alerts", "--project", apisim.DemoPaymentsID)
	s.WaitFor("▸  OPEN", wait)
	spendBucket(t, h, `{"endpointSetId":"alertsRead_group","groupId":"`+apisim.DemoPaymentsID+`","perMinute":30}`)
	seen := false
	for end := time.Now().Add(25 * time.Second); time.Now().Before(end); time.Sleep(250 * time.Millisecond) {
		s.SendKeys("r")
		if sharingSaid.MatchString(s.Capture()) {
			seen = true
		}
	}
	screen := s.Capture()
	if !seen {
		t.Errorf("the header never said the budget is shared:\n%s", screen)
	}
	var limited int
	for _, x := range h.Log() {
		if x.Status == http.StatusTooManyRequests {
			limited++
			t.Errorf("429 for %s %s at %v", x.Method, x.Path, x.At)
		}
	}
	alerts := len(h.Hits(http.MethodGet, "/groups/"+apisim.DemoPaymentsID+"/alerts"))
	t.Logf("%d alert reads in 25 s with the other client spending half the bucket; %d answered 429", alerts, limited)
	if strings.Contains(screen, "✗") {
		t.Errorf("a planned wait shows as a failure:\n%s", screen)
	}
	s.SendKeys("q")
	s.WaitExit(wait)
}
