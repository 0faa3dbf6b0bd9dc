package e2e

import (
	"net"
	"strings"
	"testing"
)

// When the picked port is taken by the time the program binds it, the
// program says so and StartDemo starts it again on another port; the test
// then reaches the demo server there.
func TestStartDemoRetriesATakenPort(t *testing.T) {
	RequireTmux(t)
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	var picked []string
	pickDemoAddr = func(t testing.TB) string {
		addr := FreeLoopbackAddr(t)
		if len(picked) == 0 {
			addr = taken.Addr().String()
		}
		picked = append(picked, addr)
		return addr
	}
	defer func() { pickDemoAddr = FreeLoopbackAddr }()

	s := StartDemo(t, 100, 30, nil)
	if len(picked) != 2 || s.DemoURL() != "http://"+picked[1] {
		t.Fatalf("picked %v, demo at %s: want a second port after the taken one", picked, s.DemoURL())
	}
	s.WaitFor("2 Alerts", wait) // connected: it has asked its server
	fromDashboard := 0
	for _, r := range s.SimRequests() {
		if strings.HasPrefix(r.Path, "/api/atlas/v2/") {
			fromDashboard++
		}
	}
	if fromDashboard == 0 {
		t.Fatal("the server at the second port logged none of the dashboard's requests")
	}
	s.SendKeys("q")
	s.WaitExit(wait)
}
