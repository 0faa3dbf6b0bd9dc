package ui

import (
	"context"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	btable "charm.land/bubbles/v2/table"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/keymap/keytest"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// BenchmarkFrame100k is one whole frame of the dashboard: what the root
// model's View returns (header, tabs, the alerts pane with 100,172 alerts
// loaded through apisim, footer), at 200x60, in these cases:
//   - cached: the same screen drawn again, nothing changed (warm);
//   - clock: the header's once-a-second tick, then the frame (only the
//     header's text may change);
//   - cursor: the cursor moves one row first; the table draws its window
//     anew (warm);
//   - cold: the width alternates between 200 and 180 (both the wide
//     layout), so every frame is the first at its width: the resize (the
//     panes' SetSize) and a frame whose table lays out its columns and
//     draws every row of its window, with nothing cached for that width;
//   - bubbles: the peer, bubbles/table over the same alerts' cells in the
//     pane's 200x56 (a cursor move and its View): the widget alone, no
//     header, tabs or footer, so it is the cheaper side of the ratio;
//   - retained: no frame; B-retained is the live heap the dashboard holds
//     (the alerts, the caches, the last frames): the heap after a GC with
//     the dashboard loaded, less the heap before it was made (the
//     in-process apisim with its 100,000 alerts, the peer's rows and the
//     test's own are on both sides; what apisim grew by meanwhile, its
//     request log, is counted as the dashboard's).
//
// None covers Bubble Tea's renderer (parsing the frame into cells, diffing
// it against the last and writing the changes) nor the terminal's redraw;
// nor loading the list (BenchmarkAlertsRefresh100k, TestAlertsSpeed).
func BenchmarkFrame100k(b *testing.B) {
	// A budget the 201 pages fit in: the list loads in seconds, not the
	// default bucket's two minutes.
	srv, err := apisim.New(apisim.Options{RateLimitPerMin: 10_000})
	require.NoError(b, err)
	require.NoError(b, srv.AddAlerts(apisim.DemoPaymentsID, 100_000))
	ts := httptest.NewServer(srv.Handler())
	b.Cleanup(ts.Close)
	client, err := apiclient.New(apiclient.Options{BaseURL: ts.URL, Service: "atlas",
		Auth: apiclient.DigestAuth("org-owner", "org-owner-secret"), Gate: apiclient.NewGate(nil), MaxRetries: -1})
	require.NoError(b, err)
	peerRows := bubblesRows(b, client)
	base := liveHeap() // apisim, the peer's rows, the test's own
	m, err := New(Options{Client: client, Profile: "bench", Theme: "dark", Project: apisim.DemoPaymentsID,
		Clock: func() time.Time { return viewstest.Start }, State: &ContextStore{Path: filepath.Join(b.TempDir(), "context.json")}})
	require.NoError(b, err)
	d := newDriver(b, m, 200, 60)
	d.Deadline = 2 * time.Minute
	d.Settle()
	// The rows the client keeps (apiclient.MaxRows of the 100,172).
	shown := fmt.Sprintf("%d alerts", min(100_172, apiclient.MaxRows))
	screen := ansi.Strip(m.View().Content)
	require.Contains(b, screen, shown, "the whole list is loaded:\n%s", screen)
	require.NotRegexp(b, `loading \d+ of`, screen, "the full pass is over")

	b.Run("cached", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			_ = m.View()
		}
	})
	b.Run("clock", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			d.Send(clockTickMsg{gen: m.ticks.gen})
			_ = m.View()
		}
	})
	b.Run("cursor", func(b *testing.B) {
		b.ReportAllocs()
		keys := []string{"j", "k"}
		for i := range b.N {
			d.Send(keytest.Press(keys[i%2]))
			_ = m.View()
		}
		require.Contains(b, ansi.Strip(m.View().Content), shown) // the list, the cursor moved in it
	})
	b.Run("cold", func(b *testing.B) {
		b.ReportAllocs()
		widths := []int{180, 200}
		for i := range b.N {
			d.Send(tea.WindowSizeMsg{Width: widths[i%2], Height: 60})
			_ = m.View()
		}
		b.StopTimer()
		d.Send(tea.WindowSizeMsg{Width: 200, Height: 60})
		require.Contains(b, ansi.Strip(m.View().Content), shown)
	})
	b.Run("bubbles", func(b *testing.B) {
		w := (200 - 2 - 10 - 9 - 17 - 6 - 7) / 3
		cols := []btable.Column{{Title: "STATUS", Width: 10}, {Title: "SEVERITY", Width: 9}, {Title: "EVENT TYPE", Width: w},
			{Title: "TARGET", Width: w}, {Title: "CREATED", Width: 17}, {Title: "AGE", Width: 6}, {Title: "ACK UNTIL / BY", Width: w}}
		bt := btable.New(btable.WithColumns(cols), btable.WithRows(peerRows), btable.WithWidth(200), btable.WithHeight(56), btable.WithFocused(true))
		bt.SetCursor(len(peerRows) / 2)
		_ = bt.View()
		b.ReportAllocs()
		b.ResetTimer()
		for i := range b.N {
			if i%2 == 0 {
				bt.MoveDown(1)
			} else {
				bt.MoveUp(1)
			}
			if bt.View() == "" {
				b.Fatal("empty view")
			}
		}
	})
	b.Run("retained", func(b *testing.B) {
		b.ReportMetric(liveHeap()-base, "B-retained")
		runtime.KeepAlive(m)
	})
	runtime.KeepAlive(peerRows)
}

// bubblesRows are the alerts of the benchmark's project as bubbles/table
// rows, with the cells the alerts pane shows (the severity left out: it
// comes from the configurations).
func bubblesRows(b *testing.B, client *apiclient.Client) []btable.Row {
	as, err := client.Alerts().ListAll(context.Background(), apisim.DemoPaymentsID, "")
	require.NoError(b, err)
	rows := make([]btable.Row, len(as))
	for i, a := range as {
		ack := ""
		if a.AcknowledgedUntil != nil {
			ack = a.AcknowledgedUntil.Format("2006-01-02 15:04") + " by " + a.AcknowledgingUsername
		}
		rows[i] = btable.Row{string(a.Status), "", a.EventTypeName, a.ClusterName + "/" + a.HostnameAndPort,
			a.Created.Format("2006-01-02 15:04"), "3d", ack}
	}
	return rows
}

// liveHeap is the heap in use after a GC, in bytes.
func liveHeap() float64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return float64(ms.HeapAlloc)
}
