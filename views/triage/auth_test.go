package triage

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

const testBurst = 20 // failed authentications a minute from one address

// newAuthEnv is the board with the profile's failed-authentication bursts
// on, as identity.
func newAuthEnv(t *testing.T, identity string) *env {
	t.Helper()
	return &env{viewstest.Open[*Pane](t, Registration, viewstest.Setup{Identity: identity, Gate: viewstest.GateWithRoles, Width: 200, Height: 40,
		Context: func(c *views.Context) { c.TriageAuthBursts = testBurst }})}
}

// burstTruth reads, as org-owner and apart from the board's decoding and
// rules, every cluster's failed authentications of the last 15 minutes and
// counts per cluster and address the most within one minute; it keeps
// those of at least testBurst.
func burstTruth(t *testing.T, sim *viewstest.Sim) map[string]int {
	t.Helper()
	c := sim.ClientAs("org-owner", viewstest.NoGate)
	now := sim.Clock.Now()
	out := map[string]int{}
	for _, gid := range sim.Server.World().Projects {
		for _, cl := range raw(t, c, "listClusters", map[string]string{"groupId": gid}) {
			name := cl["name"].(string)
			var page struct {
				AccessLogs []struct {
					AuthResult bool   `json:"authResult"`
					IPAddress  string `json:"ipAddress"`
					Timestamp  string `json:"timestamp"`
				} `json:"accessLogs"`
			}
			q := url.Values{"authResult": {"false"}, "nLogs": {"20000"},
				"start": {fmt.Sprint(now.Add(-15 * time.Minute).UnixMilli())}, "end": {fmt.Sprint(now.UnixMilli())}}
			_, err := c.Do(context.Background(), "listAccessLogsByClusterName", apiclient.Request{
				Params: map[string]string{"groupId": gid, "clusterName": name}, Query: q}, &page)
			if e, ok := apiclient.AsError(err); ok && e.Status == 400 {
				continue // a shared tier keeps no access log
			}
			require.NoError(t, err)
			byIP := map[string][]time.Time{}
			for _, l := range page.AccessLogs {
				require.False(t, l.AuthResult)
				ts, _, _ := strings.Cut(l.Timestamp, " (")
				at, err := time.Parse("Mon Jan 2 2006 15:04:05 GMT-0700", ts)
				require.NoError(t, err, l.Timestamp)
				byIP[l.IPAddress] = append(byIP[l.IPAddress], at)
			}
			for ip, times := range byIP {
				most := 0
				for _, a := range times {
					n := 0
					for _, b := range times {
						if !b.Before(a) && b.Sub(a) < time.Minute {
							n++
						}
					}
					most = max(most, n)
				}
				if most >= testBurst {
					out[gid+"/"+name+"/"+ip] = most
				}
			}
		}
	}
	return out
}

func boardBursts(p *Pane) map[string]int {
	out := map[string]int{}
	for _, it := range p.Items() {
		if it.Kind == KindAuthBurst {
			var n int
			fmt.Sscanf(it.What, "%d", &n)
			out[it.GroupID+"/"+it.Cluster+"/"+it.ItemID] = n
		}
	}
	return out
}

func TestAuthBurstsEqualApisimState(t *testing.T) {
	e := newAuthEnv(t, "org-owner")
	want := burstTruth(t, e.Sim)
	require.NotEmpty(t, want, "the demo world has a failed-authentication burst")
	assert.Equal(t, want, boardBursts(e.P))
	cov := e.P.coverage()
	assert.Contains(t, cov, "auth bursts 12/12")
	assert.NotContains(t, cov, "logs of")
	for _, h := range e.P.Health().Parts {
		if h.Name == "auth bursts" {
			assert.False(t, h.OK.IsZero())
			assert.False(t, h.Stale())
		}
	}

	// The world moves on: the bursts of the next minutes, the next rest round.
	e.Sim.Clock.Advance(10 * time.Minute)
	for range restEvery {
		e.Send(e.P.Tick())
	}
	assert.Equal(t, burstTruth(t, e.Sim), boardBursts(e.P))

	// enter lands on the cluster's access log, failures only, from that address.
	var row Item
	for _, it := range e.P.Items() {
		if it.Kind == KindAuthBurst {
			row = it
			break
		}
	}
	require.True(t, e.P.table.SetCursorID(row.Key()))
	j := openJump(t, e.P)
	assert.Equal(t, views.JumpMsg{From: ID, Pane: "accesslogs", GroupID: row.GroupID, Cluster: row.Cluster, View: "failures", ItemID: row.ItemID, Name: row.What}, j)
}

// Off by default: no access log is read.
func TestAuthBurstsOffByDefault(t *testing.T) {
	sim := viewstest.NewSim(t, viewstest.SimOptions{Gate: viewstest.GateWithRoles})
	mark := sim.Mark()
	e := &env{viewstest.Open[*Pane](t, Registration, viewstest.Setup{Sim: sim, Gate: viewstest.GateWithRoles, Width: 120, Height: 30})}
	require.NotEmpty(t, e.P.Items())
	for _, r := range sim.RequestsSince(mark) {
		assert.NotContains(t, r, "dbAccessHistory")
	}
	assert.NotContains(t, e.P.coverage(), "auth bursts")
}

// An identity whose roles do not cover reading access logs: every cluster
// is skipped and counted "not visible (role)", nothing is asked.
func TestAuthBurstsRoleGated(t *testing.T) {
	sim := viewstest.NewSim(t, viewstest.SimOptions{Identity: "read-only", Gate: viewstest.GateWithRoles})
	mark := sim.Mark()
	e := &env{viewstest.Open[*Pane](t, Registration, viewstest.Setup{Sim: sim, Identity: "read-only", Gate: viewstest.GateWithRoles,
		Width: 200, Height: 40, Context: func(c *views.Context) { c.TriageAuthBursts = testBurst }})}
	require.NotEmpty(t, e.P.Items(), "the rest of the board is readable")
	assert.Empty(t, boardBursts(e.P))
	for _, r := range sim.RequestsSince(mark) {
		assert.NotContains(t, r, "dbAccessHistory", "the gate refuses before sending")
	}
	logClusters := 0
	for _, r := range e.P.rest {
		logClusters += len(r.LogClusters)
	}
	require.Positive(t, logClusters)
	assert.Contains(t, e.P.coverage(), fmt.Sprintf("logs of %d clusters not visible (role)", logClusters))
}

func TestAuthBurstItemsCountTheDensestMinute(t *testing.T) {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) string { return now.Add(-d).Format("Mon Jan 02 2006 15:04:05 GMT-0700 (MST)") }
	var logs []apiclient.AccessLog
	for i := range 5 { // 5 in 50 s, then 3 more two minutes later
		logs = append(logs, apiclient.AccessLog{IPAddress: "203.0.113.9", Timestamp: at(10*time.Minute - time.Duration(i)*10*time.Second)})
	}
	for i := range 3 {
		logs = append(logs, apiclient.AccessLog{IPAddress: "203.0.113.9", Timestamp: at(7*time.Minute - time.Duration(i)*time.Second)})
	}
	logs = append(logs,
		apiclient.AccessLog{IPAddress: "203.0.113.9", AuthResult: true, Timestamp: at(10 * time.Minute)}, // a success
		apiclient.AccessLog{IPAddress: "203.0.113.9", Timestamp: at(20 * time.Minute)},                   // too old
		apiclient.AccessLog{IPAddress: "10.0.0.1", Timestamp: at(time.Minute)})
	p := Project{ID: "g", Name: "payments", OrgName: "Demo-Org"}
	items := AuthBurstItems(p, "payments-rs", logs, 5, now)
	require.Len(t, items, 1)
	assert.Equal(t, "203.0.113.9", items[0].ItemID)
	assert.Equal(t, "5 failed authentications in 1 min from 203.0.113.9 (8 in 15m)", items[0].What)
	assert.True(t, now.Add(-10*time.Minute).Equal(items[0].Since), "%v", items[0].Since)
	assert.Empty(t, AuthBurstItems(p, "payments-rs", logs, 6, now))
}
