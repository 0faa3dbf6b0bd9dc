package ui

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/alerts"
)

// An outage: the pane's loads fail, and the header and the pane say what is
// stale, since when and the last error, instead of "updated … ● live";
// recovery is automatic (the next load) and shown.
func TestOutageShowsStalenessAndRecovery(t *testing.T) {
	api := newFakeAPI(t, orgOwner())
	m := newModel(t, api, nil)
	d := newDriver(t, m, 120, 30)
	d.Settle()
	require.Equal(t, phaseReady, m.phase)
	header := func() string { return strings.SplitN(d.Screen(), "\n", 2)[0] }
	require.Contains(t, header(), "● live")
	require.Contains(t, d.Screen(), "OUTSIDE_METRIC_THRESHOLD")

	api.down.Store(true)
	d.Press("r")
	d.Settle()
	assert.Contains(t, header(), "✗ stale since 09:30:00 · 503 SERVICE_UNAVAILABLE")
	assert.NotContains(t, header(), "● live")
	assert.NotContains(t, header(), "updated")
	lines := strings.Split(d.Screen(), "\n")
	paneLast := lines[len(lines)-3]
	assert.Contains(t, paneLast, "Alerts data stale since 09:30:00 (shown as of 09:30:00)")
	assert.Contains(t, paneLast, "503")
	assert.Contains(t, d.Screen(), "OUTSIDE_METRIC_THRESHOLD", "the last good list stays")

	api.down.Store(false)
	d.Press("r")
	d.Settle()
	assert.Contains(t, header(), "● live")
	assert.NotContains(t, header(), "stale")
	assert.NotContains(t, d.Screen(), "data stale since")
	assert.Contains(t, d.Screen(), "alerts live again")
}

// After a 429 the scheduler holds requests until Retry-After; the header
// says so.
func TestHeaderSaysWhenRateLimited(t *testing.T) {
	api := newFakeAPI(t, orgOwner())
	m := newModel(t, api, nil)
	d := newDriver(t, m, 160, 30)
	d.Settle()
	require.NotContains(t, d.Screen(), "rate limited")
	api.limited.Store(true)
	d.Press("r")
	d.Settle()
	header := strings.SplitN(d.Screen(), "\n", 2)[0]
	assert.Regexp(t, `rate limited: next refresh in (1[0-9]|20) s`, header)
	assert.Contains(t, header, "429 RATE_LIMITED_TOKEN_BUCKET")
}

// "● live" means the pane is kept refreshing. The access log with no
// cluster picked polls nothing, so an outage would go unseen there: the
// header says it is idle, and "● live" comes back on a pane that polls.
func TestHeaderSaysLiveOnlyWhileThePanePolls(t *testing.T) {
	api := newFakeAPI(t, orgOwner())
	m := newModel(t, api, nil)
	d := newDriver(t, m, 160, 30)
	d.Settle()
	header := func() string { return strings.SplitN(d.Screen(), "\n", 2)[0] }
	require.Contains(t, header(), "● live")
	d.Press("5")
	d.Settle()
	require.Contains(t, d.Screen(), "no cluster selected")
	assert.Contains(t, header(), "○ idle")
	assert.NotContains(t, header(), "● live")
	d.Press("2")
	d.Settle()
	assert.Contains(t, header(), "● live")
}

// At 80 columns the header still names the kind of failure: the stale
// part gives up its time before the failure, not both at once.
func TestStaleHeaderNamesTheFailureAt80Columns(t *testing.T) {
	d, panes, _ := readyModel(t, nil)
	refused := fmt.Errorf("list alerts: %w", &url.Error{Op: "Get", URL: "http://127.0.0.1:1/x",
		Err: &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}})
	panes[alerts.ID].health = views.Health{StaleSince: time.Date(2026, 11, 24, 4, 37, 0, 0, time.Local), Err: refused}
	header := func() string { return strings.SplitN(d.Screen(), "\n", 2)[0] }
	d.Send(tea.WindowSizeMsg{Width: 200, Height: 30})
	assert.Contains(t, header(), "✗ stale since 04:37:00 · connection refused")
	d.Send(tea.WindowSizeMsg{Width: 80, Height: 24})
	assert.Contains(t, header(), "✗ stale · connection refused")
}

// A load the budget held (never sent) is a wait, not a failure: the header
// says when the next refresh goes and why, never "✗ stale", and stays
// live; at 80 columns too.
func TestHeaderShowsAPlannedWaitNotStale(t *testing.T) {
	d, panes, _ := readyModel(t, nil)
	panes[alerts.ID].health = views.Health{OK: fixedNow.Add(-90 * time.Second), HeldSince: fixedNow.Add(-60 * time.Second),
		Next: fixedNow.Add(12 * time.Second)}
	header := func() string { return strings.SplitN(d.Screen(), "\n", 2)[0] }
	d.Send(tea.WindowSizeMsg{Width: 160, Height: 30})
	assert.Contains(t, header(), "keeping to the budget: next refresh in 12 s")
	assert.Contains(t, header(), "● live")
	assert.NotContains(t, header(), "stale")
	assert.NotContains(t, d.Screen(), "data stale since")
	d.Send(tea.WindowSizeMsg{Width: 80, Height: 24})
	assert.Contains(t, header(), "keeping to the budget 12 s")
	assert.NotContains(t, header(), "stale")
}

// When another client spends the bucket the pane's polls draw from, the
// header names the pace of those polls ("sharing the budget: … every 15 s")
// and keeps the pane's freshness beside it.
func TestHeaderNamesThePaceOfASharedBudget(t *testing.T) {
	api := newFakeAPI(t, orgOwner())
	api.shared.Store(true)
	m := newModel(t, api, nil)
	d := newDriver(t, m, 200, 30)
	d.Settle()
	header := func() string { return strings.SplitN(d.Screen(), "\n", 2)[0] }
	pane := m.activePane().(interface {
		Tick() views.PollTickMsg
		PollRhythm() time.Duration
	})
	// The pane's polls, slower than the bucket's refill of 10 a second,
	// until the client has seen the bucket lose more than it spent over a
	// window (a second at this refill).
	deadline := time.Now().Add(10 * time.Second)
	for len(m.client.Scheduler().Sharing()) == 0 && time.Now().Before(deadline) {
		d.Send(pane.Tick())
		d.Settle()
		time.Sleep(400 * time.Millisecond)
	}
	require.NotEmpty(t, m.client.Scheduler().Sharing(), "the shared bucket is found")
	every := pane.PollRhythm()
	require.Positive(t, every)
	want := fmt.Sprintf("sharing the budget: listAlerts every %d s (others take", int(every/time.Second))
	assert.Contains(t, header(), want)
	assert.Contains(t, header(), "updated")
	for _, w := range []int{100, 80} {
		d.Send(tea.WindowSizeMsg{Width: w, Height: 24})
		assert.Regexp(t, fmt.Sprintf(`(sharing the budget: listAlerts every|shared) %d s`, int(every/time.Second)), header(), "at %d columns", w)
		assert.Contains(t, header(), "ago", "the freshness stays at %d columns", w)
	}
}
