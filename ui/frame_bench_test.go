package ui

import (
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/keymap/keytest"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// BenchmarkFrame100k is one whole frame of the root model (header, tabs,
// the alerts pane with 100,172 alerts loaded through apisim, footer) at
// 200x60, in three cases:
//   - cached: the same screen drawn again, nothing changed (warm);
//   - cursor: the cursor moves one row first; the table draws its window
//     anew, the header's counts stay cached (warm);
//   - cold: the width alternates between 200 and 180 (both the wide
//     layout), so every frame is the first at its width: the resize (the
//     panes' SetSize) and a frame whose table lays out its columns and
//     formats its window again, with nothing cached for that width.
//
// Each also reports B-live, the live heap after a GC once its loop is
// over: what the loaded dashboard holds (the 100k alerts and the caches),
// not what a frame allocates (that is B/op). None covers Bubble Tea's
// renderer (diffing the frame against the last and writing it to the
// terminal, the terminal's redraw) nor loading the list.
func BenchmarkFrame100k(b *testing.B) {
	srv, err := apisim.New(apisim.Options{})
	require.NoError(b, err)
	require.NoError(b, srv.AddAlerts(apisim.DemoPaymentsID, 100_000))
	ts := httptest.NewServer(srv.Handler())
	b.Cleanup(ts.Close)
	client, err := apiclient.New(apiclient.Options{BaseURL: ts.URL, Service: "atlas",
		Auth: apiclient.DigestAuth("org-owner", "org-owner-secret"), Gate: apiclient.NewGate(nil), MaxRetries: -1})
	require.NoError(b, err)
	m, err := New(Options{Client: client, Profile: "bench", Theme: "dark", Project: apisim.DemoPaymentsID,
		Clock: func() time.Time { return viewstest.Start }, State: &ContextStore{Path: filepath.Join(b.TempDir(), "context.json")}})
	require.NoError(b, err)
	d := newDriver(b, m, 200, 60)
	d.Deadline = 2 * time.Minute
	d.Settle()
	screen := ansi.Strip(m.View().Content)
	require.Contains(b, screen, "100172 alerts", "the whole list is loaded:\n%s", screen)
	require.NotContains(b, screen, " of 100172", "the full pass is over")

	b.Run("cached", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			_ = m.View()
		}
		reportLive(b, m)
	})
	b.Run("cursor", func(b *testing.B) {
		b.ReportAllocs()
		keys := []string{"j", "k"}
		for i := range b.N {
			d.Send(keytest.Press(keys[i%2]))
			_ = m.View()
		}
		require.True(b, strings.Contains(ansi.Strip(m.View().Content), "alerts · "))
		reportLive(b, m)
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
		require.Contains(b, ansi.Strip(m.View().Content), "100172 alerts")
		reportLive(b, m)
	})
}

// reportLive states the live heap after a GC, m (the dashboard) kept.
func reportLive(b *testing.B, m *Model) {
	b.StopTimer()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	runtime.KeepAlive(m)
	b.ReportMetric(float64(ms.HeapAlloc), "B-live")
}
