package alerts

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// kinds sorts requests of the alerts list by what they are for.
type kinds struct{ counts, live, pages, gets, configs, other int }

func kindsOf(reqs []viewstest.Request) kinds {
	var k kinds
	for _, r := range reqs {
		switch {
		case strings.HasSuffix(r.Path, "/alerts") && strings.Contains(r.Query, "itemsPerPage=1&") || strings.HasSuffix(r.Query, "itemsPerPage=1"):
			k.counts++
		case strings.HasSuffix(r.Path, "/alerts") && strings.Contains(r.Query, "status="):
			k.live++
		case strings.HasSuffix(r.Path, "/alerts"):
			k.pages++
		case strings.Contains(r.Path, "/alerts/"):
			k.gets++
		case strings.HasSuffix(r.Path, "/alertConfigs"):
			k.configs++
		default:
			k.other++
		}
	}
	return k
}

// A tick asks two counts; OPEN and TRACKING are read when they changed
// or a minute after the last read; a full pass only when the counts say
// the store misses alerts, never on a timer.
func TestTicksReadWhatTheCountsCallFor(t *testing.T) {
	e := newPaneEnv(t)
	require.True(t, e.P.firstDone)
	tick := func() kinds {
		e.T.Helper()
		mark := len(e.Sim.Requests())
		e.Sim.Clock.Advance(15 * time.Second)
		e.Run(e.P.tick())
		require.NoError(t, e.P.err)
		return kindsOf(e.Sim.Requests()[mark:])
	}
	// Nothing changed: the counts alone, until a minute after the pass.
	assert.Equal(t, kinds{counts: 2}, tick())
	assert.Equal(t, kinds{counts: 2}, tick())
	assert.Equal(t, kinds{counts: 2}, tick())
	assert.Equal(t, kinds{counts: 2, live: 2}, tick(), "a minute after the last live read")

	// A new alert, naming a configuration not held: read at the next tick.
	_, ids := e.raise("payments-rs")
	assert.Equal(t, kinds{counts: 2, live: 2, configs: 1}, tick())
	assert.Equal(t, apiclient.AlertOpen, e.status(ids[0]))
	assert.Equal(t, kinds{counts: 2}, tick())

	// It closes: the OPEN count says so; it is read alone.
	incident, _ := e.raise("payments-rs")
	tick()
	e.Sim.Control("POST", "/incidents/"+incident+"/resolve", "")
	got := tick()
	assert.Equal(t, 2, got.counts)
	assert.Equal(t, 2, got.live)
	assert.Positive(t, got.gets)
	assert.Zero(t, got.pages)

	// An alert that opens and closes between two ticks: the total shows
	// one the store does not hold, so a full pass follows.
	incident, ids = e.raise("payments-rs")
	e.Sim.Control("POST", "/incidents/"+incident+"/resolve", "")
	got = tick()
	assert.Zero(t, got.pages)
	assert.True(t, e.P.needFull, "the store misses an alert")
	got = tick()
	assert.Positive(t, got.pages, "the full pass")
	assert.Equal(t, apiclient.AlertClosed, e.status(ids[0]), "held after it")
	assert.False(t, e.P.needFull)

	// An hour of ticks where nothing changes: no full pass, the live
	// lists once a minute, the configurations every ten.
	var hour kinds
	for range 240 {
		k := tick()
		hour.counts += k.counts
		hour.live += k.live
		hour.pages += k.pages
		hour.gets += k.gets
		hour.configs += k.configs
	}
	assert.Zero(t, hour.pages, "no full pass in an hour: %+v", hour)
	assert.LessOrEqual(t, hour.live, 2*62, "%+v", hour)
	assert.LessOrEqual(t, hour.configs, 7, "%+v", hour)
}

// idleHour is an hour of 15-s ticks of the pane over the payments project
// with 100,000 more alerts (live more of them live again), on apisim's
// manual clock: its world goes on (incidents open and close), the pane
// reads what its ticks call for. It reports requests and response bytes a
// minute and what they were.
func idleHour(b *testing.B, live int) {
	e := newBigPane(b, 100_000)
	if live > 0 {
		require.Equal(b, live, e.sim.Server.ReopenAlerts(apisim.DemoPaymentsID, live))
	}
	e.Run(e.p.Init())
	require.True(b, e.p.firstDone)
	open := 0
	for i := range e.p.alerts {
		if s := e.p.alerts[i].status; s == apiclient.AlertOpen || s == apiclient.AlertTracking {
			open++
		}
	}
	mark := len(e.sim.Requests())
	e.net.reqs.Store(0)
	e.net.bytes.Store(0)
	b.ResetTimer()
	const ticks = 240
	for range ticks {
		e.sim.Clock.Advance(15 * time.Second)
		e.Run(e.p.tick())
		require.NoError(b, e.p.err)
	}
	b.StopTimer()
	k := kindsOf(e.sim.Requests()[mark:])
	reqs, bytes := float64(e.net.reqs.Load()), float64(e.net.bytes.Load())
	b.ReportMetric(reqs/60, "requests/min")
	b.ReportMetric(bytes/60/(1<<20), "MB/min")
	b.ReportMetric(reqs/60/100*100, "%-of-alerts-bucket")
	b.ReportMetric(float64(k.pages), "full-pass-pages/h")
	b.ReportMetric(float64(open), "live-alerts")
	b.Logf("%d live of %d: %+v in an hour", open, len(e.p.alerts), k)
}

// BenchmarkAlertsIdleHour is idleHour in a real-shaped project (0.4%
// OPEN, 0.3% TRACKING) and in one with 35,000 OPEN and TRACKING alerts.
// Each op is one simulated hour (run with -benchtime 1x):
//
//	go test ./views/alerts/ -run '^$' -bench AlertsIdleHour -benchtime 1x
func BenchmarkAlertsIdleHour(b *testing.B) {
	for _, c := range []struct {
		name string
		live int
	}{{"real-shaped", 0}, {"35k-live", 35_000 - 700}} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				idleHour(b, c.live)
			}
		})
	}
}
