package triage

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// configReads counts the reads of alert configurations since mark, by
// project.
func configReads(e *env, mark int) map[string]int {
	got := map[string]int{}
	for _, r := range e.Sim.RequestsSince(mark) {
		if strings.HasPrefix(r, "GET ") && strings.HasSuffix(r, "/alertConfigs") {
			got[strings.TrimSuffix(strings.TrimPrefix(r, "GET /api/atlas/v2/groups/"), "/alertConfigs")]++
		}
	}
	return got
}

// Alert configurations are read with a project's first alerts, then only
// when an alert names one the board has not seen (its severityOverride
// shows at once) or configsEvery later; never on every poll.
func TestAlertConfigsReadWhenNeededNotEveryPoll(t *testing.T) {
	e := newEnv(t, "org-owner", 120, 40)
	require.Contains(t, e.P.configs, apisim.DemoPaymentsID, "read with the first alerts")

	mark := e.Sim.Mark()
	for range 3 {
		e.Sim.Clock.Advance(30 * time.Second)
		e.Run(e.P.poll())
	}
	require.Positive(t, e.Sim.Count("/alerts"), "the polls read alerts")
	assert.Empty(t, configReads(e, mark), "no poll reads the configurations again")

	// A configuration the board has not seen, named by a new alert.
	zero := 0
	cfg, err := e.Sim.Client.AlertConfigs().Create(context.Background(), apisim.DemoPaymentsID, apiclient.AlertConfig{Enabled: true,
		EventTypeName: "FTDC_SETTINGS_UPDATED", SeverityOverride: apiclient.SeverityCritical,
		Matchers:      []apiclient.Matcher{{FieldName: "CLUSTER_NAME", Operator: apiclient.MatchEquals, Value: "payments-rs"}},
		Notifications: []apiclient.Notification{{TypeName: apiclient.NotifyEmail, EmailAddress: "a@example.com", DelayMin: &zero, IntervalMin: 60}}})
	require.NoError(t, err)
	e.Sim.Control("POST", "/incidents", fmt.Sprintf(`{"groupId":%q,"eventTypeName":"FTDC_SETTINGS_UPDATED","clusterName":"payments-rs"}`, apisim.DemoPaymentsID))
	mark = e.Sim.Mark()
	e.Sim.Clock.Advance(30 * time.Second)
	e.Run(e.P.poll())
	assert.Equal(t, map[string]int{apisim.DemoPaymentsID: 1}, configReads(e, mark), "read for the project whose alert names it, only")
	found := false
	for _, it := range e.P.Items() {
		if it.GroupID == apisim.DemoPaymentsID && it.Event == "FTDC_SETTINGS_UPDATED" && it.Cluster == "payments-rs" {
			found = true
			assert.Equal(t, apiclient.SeverityCritical, it.Severity, "its severityOverride applies")
		}
	}
	require.True(t, found, "the new alert is on the board")
	require.Contains(t, e.P.configs[apisim.DemoPaymentsID].byID, cfg.ID)

	// configsEvery later, each project with alerts reads them again, once.
	mark = e.Sim.Mark()
	e.Sim.Clock.Advance(configsEvery)
	e.Run(e.P.poll())
	e.Run(e.P.poll())
	reads := configReads(e, mark)
	assert.Equal(t, 1, reads[apisim.DemoPaymentsID])
	for gid, n := range reads {
		assert.Equal(t, 1, n, "%s: once", gid)
	}
}
